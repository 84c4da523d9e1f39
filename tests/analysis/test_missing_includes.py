"""Missing included files: one finding per folder, a warning when the names look generated."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from relatex.analysis.findings import Code, Severity
from relatex.analysis.latex.latex_project import load_project
from relatex.analysis.latex.latex_text import plain_text


def test_generated_plots_are_one_warning_and_a_missing_chapter_stays_an_error(tmp_path: Path) -> None:
    plots = "".join(f"\\input{{plots/p{i}.pgf}}\n" for i in range(5))
    (tmp_path / "main.tex").write_text(f"\\documentclass{{article}}\n\\begin{{document}}\n{plots}"
                                       "\\input{chapters/missing}\n\\end{document}\n", encoding="utf-8")
    found = [f for f in load_project(tmp_path / "main.tex").findings if f.code is Code.INCLUDE_NOT_FOUND]
    assert [(f.severity, f.data["target"]) for f in found] == [
        (Severity.WARNING, "plots/p0.pgf"), (Severity.ERROR, "chapters/missing")]
    assert found[0].message.startswith("5 included files not found in 'plots/'")
    assert len(found[0].data["others"]) == 4 and "and 2 more" in found[0].message


def test_pylatexenc_warnings_do_not_reach_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    plain_text("$\\frac{a}{$ and $\\end{x}$ and $a^{b$")
    assert capsys.readouterr().err == ""
    assert logging.getLogger("pylatexenc").getEffectiveLevel() > logging.WARNING
