// relatex for VS Code: starts `relatex serve` and wires its commands into the palette.
import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;

/** The relatex executable: the setting, then the workspace's .venv, then PATH. */
export function findServer(configured: string, folders: readonly string[], envPath: string): string | undefined {
  if (configured) {
    return fs.existsSync(configured) ? configured : undefined;
  }
  for (const folder of folders) {
    for (const candidate of [path.join(folder, ".venv", "bin", "relatex"), path.join(folder, ".venv", "Scripts", "relatex.exe")]) {
      if (fs.existsSync(candidate)) {
        return candidate;
      }
    }
  }
  for (const dir of envPath.split(path.delimiter)) {
    const candidate = path.join(dir, process.platform === "win32" ? "relatex.exe" : "relatex");
    if (dir && fs.existsSync(candidate)) {
      return candidate;
    }
  }
  return undefined;
}

/** The settings section as a plain object, as the server reads it. */
function settingsObject(): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration("relatex");
  return JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
}

/** Server commands run from the palette get the active document as their argument. */
export function withActiveDocument(args: unknown[], activeUri: string | undefined): unknown[] {
  return args.length === 0 && activeUri ? [activeUri] : args;
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("relatex");
  context.subscriptions.push(output);
  context.subscriptions.push(vscode.commands.registerCommand("relatex.showLog", () => output?.show()));

  const configured = vscode.workspace.getConfiguration("relatex").get<string>("server.path", "");
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const executable = findServer(configured, folders, process.env.PATH ?? "");
  if (!executable) {
    const message = configured
      ? `relatex: the server '${configured}' (setting relatex.server.path) does not exist.`
      : "relatex: the 'relatex' command was not found. Install it with `pip install relatex` " +
        "(or `make install` in a relatex checkout, which creates .venv/bin/relatex) or set relatex.server.path.";
    output.appendLine(message);
    void vscode.window.showErrorMessage(message);
    return;
  }
  output.appendLine(`relatex: starting ${executable} serve`);

  const serverOptions: ServerOptions = {
    run: { command: executable, args: ["serve"], transport: TransportKind.stdio },
    debug: { command: executable, args: ["serve", "-v"], transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "latex" },
      { scheme: "file", language: "tex" },
      { scheme: "file", language: "bibtex" },
    ],
    initializationOptions: settingsObject(),
    synchronize: {
      configurationSection: "relatex",
      fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{tex,bib}"),
    },
    outputChannel: output,
    middleware: {
      executeCommand: (command, args, next) =>
        next(command, withActiveDocument(args, vscode.window.activeTextEditor?.document.uri.toString())),
    },
  };
  client = new LanguageClient("relatex", "relatex", serverOptions, clientOptions);
  await client.start();
  context.subscriptions.push({ dispose: () => void client?.stop() });
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
