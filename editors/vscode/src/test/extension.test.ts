// Unit tests of the server lookup and the settings sent to the server (run with `npm test`: bundled by esbuild, run by node's test runner).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { findServer, missingServerMessage } from "../serverPath";
import { forServer } from "../settings";
import { KnowledgeBaseStatus, statusBarView } from "../kbStatus";

function scratch(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "relatex-vscode-"));
}

function executable(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, "#!/bin/sh\n");
  fs.chmodSync(file, 0o755);
  return file;
}

test("the configured path wins when it exists", () => {
  const dir = scratch();
  const configured = executable(path.join(dir, "custom", "relatex"));
  executable(path.join(dir, ".venv", "bin", "relatex"));
  assert.equal(findServer(configured, [dir], dir, "linux"), configured);
});

test("a configured path that does not exist is not replaced by another executable", () => {
  const dir = scratch();
  executable(path.join(dir, ".venv", "bin", "relatex"));
  assert.equal(findServer(path.join(dir, "missing"), [dir], "", "linux"), undefined);
});

test("the workspace virtual environment comes before PATH", () => {
  const dir = scratch();
  const venv = executable(path.join(dir, "project", ".venv", "bin", "relatex"));
  executable(path.join(dir, "bin", "relatex"));
  assert.equal(findServer("", [path.join(dir, "project")], path.join(dir, "bin"), "linux"), venv);
});

test("PATH is searched in order, skipping empty entries and directories named relatex", () => {
  const dir = scratch();
  fs.mkdirSync(path.join(dir, "a", "relatex"), { recursive: true });
  const second = executable(path.join(dir, "b", "relatex"));
  const envPath = ["", path.join(dir, "a"), path.join(dir, "b")].join(":");
  assert.equal(findServer("", [], envPath, "linux"), second);
});

test("nothing found gives undefined and a message that says how to fix it", () => {
  const dir = scratch();
  assert.equal(findServer("", [dir], path.join(dir, "bin"), "linux"), undefined);
  const message = missingServerMessage("");
  assert.match(message, /not found/);
  assert.match(message, /relatex\.server\.path/);
  assert.match(message, /pip install/);
  assert.match(missingServerMessage("/opt/relatex"), /'\/opt\/relatex'.*does not exist/);
});

test("the settings sent to the server leave out the extension's own keys", () => {
  const sent = forServer({ server: { path: "/x/relatex" }, debounceMs: 50, knowledgeBase: { dataDir: "/kb" } });
  assert.deepEqual(sent, { debounceMs: 50, knowledgeBase: { dataDir: "/kb" } });
  assert.equal(forServer(null), null);
});

const status = (over: Partial<KnowledgeBaseStatus>): KnowledgeBaseStatus => ({
  path: "/home/u/.local/share/relatex/default", exists: true, records: 41, model: "m", loaded: true,
  text: "knowledge base /home/u/.local/share/relatex/default: 41 records", ...over,
});

test("no knowledge base: the status bar offers to build one from the project", () => {
  const view = statusBarView(status({ exists: false, records: 0, text: "no knowledge base at /x/default" }));
  assert.equal(view.command, "relatex.buildKnowledgeBase");
  assert.match(view.text, /no knowledge base/);
  assert.match(view.tooltip, /no knowledge base at \/x\/default/);
});

test("a loaded knowledge base shows its size; while loading it says so", () => {
  assert.equal(statusBarView(status({})).text, "$(database) relatex: 41 papers");
  assert.equal(statusBarView(status({ records: 112548, loaded: false })).text,
    "$(database) relatex: 112,548 papers (loading)");
  assert.equal(statusBarView(status({})).command, "relatex.showKnowledgeBaseStatus");
  assert.match(statusBarView(undefined).text, /relatex/);
});
