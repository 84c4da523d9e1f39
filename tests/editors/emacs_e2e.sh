#!/usr/bin/env bash
# Real Emacs 28 + eglot: build the knowledge base from the editor, hover, apply "Generate related work".
# Installs Debian's emacs-nox and elpa-eglot when they are missing.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
relatex="${RELATEX:-$repo/.venv/bin/relatex}"
if ! command -v emacs >/dev/null || ! dpkg -s elpa-eglot >/dev/null 2>&1; then
  echo "installing emacs-nox and elpa-eglot" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq emacs-nox elpa-eglot) >&2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$repo/examples/demo" "$work/project"
mkdir "$work/kb"  # a clean data folder: the test builds the knowledge base from the editor
HOME="$work" timeout 400 emacs --batch -q -l "$repo/tests/editors/emacs_e2e.el" \
  "$repo" "$work/project" "$work/kb" "$relatex"
grep -q '\\section{Related Work}' "$work/project/main.tex"
echo "emacs e2e: passed"
