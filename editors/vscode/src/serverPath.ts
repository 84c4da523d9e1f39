// Locating the relatex executable; kept free of the vscode API so that it can be unit-tested.
import * as fs from "fs";
import * as path from "path";

/** Candidate executables inside a workspace folder's virtual environment. */
function venvCandidates(folder: string): string[] {
  return [path.join(folder, ".venv", "bin", "relatex"), path.join(folder, ".venv", "Scripts", "relatex.exe")];
}

function isFile(candidate: string): boolean {
  try {
    return fs.statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/** The relatex executable: the setting, then a workspace folder's .venv, then PATH; undefined if none exists. */
export function findServer(
  configured: string,
  folders: readonly string[],
  envPath: string,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (configured) {
    return isFile(configured) ? configured : undefined;
  }
  for (const folder of folders) {
    const found = venvCandidates(folder).find(isFile);
    if (found) {
      return found;
    }
  }
  const names = platform === "win32" ? ["relatex.exe", "relatex.cmd", "relatex"] : ["relatex"];
  for (const dir of envPath.split(platform === "win32" ? ";" : ":")) {
    if (!dir) {
      continue;
    }
    const found = names.map((name) => path.join(dir, name)).find(isFile);
    if (found) {
      return found;
    }
  }
  return undefined;
}

/** What the user is told when no executable was found (shown once, also written to the log). */
export function missingServerMessage(configured: string): string {
  if (configured) {
    return `relatex: the server '${configured}' (setting relatex.server.path) does not exist. ` +
      "Fix the setting or clear it to use the workspace's .venv/bin/relatex or relatex on PATH.";
  }
  return "relatex: the 'relatex' command was not found (setting relatex.server.path is empty, no .venv/bin/relatex " +
    "in the workspace, nothing on PATH). Install relatex into a virtual environment " +
    "(`python -m venv .venv && .venv/bin/pip install -e /path/to/relatex`) or set relatex.server.path " +
    "to the relatex executable, then run 'Developer: Reload Window'.";
}
