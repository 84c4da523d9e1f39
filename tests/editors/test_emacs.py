"""Real Emacs 28 with eglot drives editors/emacs/relatex.el: connect, hover, generate.

The script installs Debian's emacs-nox and elpa-eglot when they are missing (root and apt needed).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.editors.editor_support import relatex_executable

pytestmark = pytest.mark.editors
REPO = Path(__file__).resolve().parents[2]


def _can_install() -> bool:
    return shutil.which("apt-get") is not None and os.geteuid() == 0


def test_emacs_end_to_end() -> None:
    if shutil.which("emacs") is None and not _can_install():
        pytest.skip("emacs is not installed and cannot be installed here (needs root and apt-get)")
    result = subprocess.run(
        ["bash", str(REPO / "tests" / "editors" / "emacs_e2e.sh")],
        capture_output=True, text=True, timeout=900,
        env=dict(os.environ, RELATEX=relatex_executable()),
    )
    sys.stdout.write(result.stdout[-4000:])
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert "emacs e2e: passed" in result.stdout
