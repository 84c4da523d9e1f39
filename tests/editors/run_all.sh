#!/usr/bin/env bash
# `make test-editors`: every real-editor test, each reported on its own.
set -u
repo="$(cd "$(dirname "$0")/../.." && pwd)"
status=0
"$repo/.venv/bin/python" -m pytest -q "$repo/tests/editors/test_nvim.py" "$repo/tests/editors/test_emacs.py" || status=1
bash "$repo/tests/editors/vscode_e2e.sh" || status=1
exit $status
