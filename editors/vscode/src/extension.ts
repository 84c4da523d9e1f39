// relatex for VS Code: starts `relatex serve` and wires its commands into the palette.
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";
import { findServer, missingServerMessage } from "./serverPath";
import { forServer } from "./settings";
import { KnowledgeBaseStatus, statusBarView } from "./kbStatus";

export { findServer, missingServerMessage };

/** Commands the server provides (registered by the language client once the server runs). */
const SERVER_COMMANDS = [
  "relatex.generateRelatedWork",
  "relatex.verifyBibliography",
  "relatex.checkClaims",
  "relatex.reindex",
  "relatex.buildKnowledgeBase",
];

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;

/** The settings section as a plain object, as the server reads it (without the extension's own keys). */
function settingsObject(): Record<string, unknown> {
  return forServer(vscode.workspace.getConfiguration("relatex")) as Record<string, unknown>;
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
    const message = missingServerMessage(configured);
    output.appendLine(message);
    const tell = async (): Promise<void> => {
      const choice = await vscode.window.showErrorMessage(message, "Open Settings");
      if (choice === "Open Settings") {
        await vscode.commands.executeCommand("workbench.action.openSettings", "relatex.server.path");
      }
    };
    // The server's commands stay in the palette: running one repeats why nothing can happen.
    for (const command of SERVER_COMMANDS) {
      context.subscriptions.push(vscode.commands.registerCommand(command, tell));
    }
    void tell();
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
      workspace: {
        // workspace/configuration: the server asks for the `relatex` section; drop the extension's keys.
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) {
            return result;
          }
          return result.map((value, index) =>
            params.items[index]?.section === "relatex" ? forServer(value) : value);
        },
      },
    },
  };
  client = new LanguageClient("relatex", "relatex", serverOptions, clientOptions);
  const statusItem = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
  context.subscriptions.push(statusItem);
  const showStatus = (status: KnowledgeBaseStatus | undefined): void => {
    const view = statusBarView(status);
    statusItem.text = view.text;
    statusItem.tooltip = view.tooltip;
    statusItem.command = view.command;
    statusItem.show();
  };
  showStatus(undefined);
  context.subscriptions.push(vscode.commands.registerCommand("relatex.showKnowledgeBaseStatus", async () => {
    const status = (await client?.sendRequest("workspace/executeCommand", {
      command: "relatex.knowledgeBaseStatus", arguments: [],
    })) as KnowledgeBaseStatus | undefined;
    showStatus(status);
    if (status) {
      void vscode.window.showInformationMessage(`relatex: ${status.text}`);
    }
  }));
  context.subscriptions.push(client.onNotification("relatex/knowledgeBaseStatus", showStatus));
  await client.start();
  context.subscriptions.push({ dispose: () => void client?.stop() });
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
