"""What the real-editor tests share: the relatex executable, nvim, and a demo knowledge base."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def relatex_executable() -> str:
    """The relatex console script of the interpreter running the tests."""
    candidate = Path(sys.executable).parent / "relatex"
    return str(candidate) if candidate.exists() else (shutil.which("relatex") or "relatex")


def nvim_executable() -> str | None:
    candidate = Path(sys.executable).parent / "nvim"
    return str(candidate) if candidate.exists() else shutil.which("nvim")


def build_demo_kb(data_dir: Path) -> Path:
    """Index examples/demo/library.bib into data_dir with the real CLI (offline model)."""
    subprocess.run(
        [relatex_executable(), "index", str(REPO / "examples" / "demo" / "library.bib"), "--data-dir", str(data_dir)],
        check=True, capture_output=True, text=True, timeout=600,
    )
    return data_dir
