"""workflows.check_project.check_file: the syntax pass of `relatex check` (root found, .bib alone, errors)."""

from __future__ import annotations

from pathlib import Path

import pytest

from relatex.analysis.findings import Code
from relatex.workflows.check_project import CheckError, CheckRequest, check_file
from relatex.workflows.engines import Engines

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "demo"


def test_an_included_file_is_checked_through_its_root() -> None:
    check = check_file(CheckRequest(EXAMPLE / "sections" / "method.tex"), Engines())
    assert check.project.root == (EXAMPLE / "main.tex").resolve()
    assert check.findings == () and not check.bib_only
    assert set(check.texts) >= {EXAMPLE / "main.tex", EXAMPLE / "references.bib"}


def test_a_bib_file_alone(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{a, title = {T}, year = {2020}}\n@article{a, title = {U}, year = {2021}}\n",
                   encoding="utf-8")
    check = check_file(CheckRequest(bib), Engines())
    assert check.bib_only and Code.DUPLICATE_KEY in {f.code for f in check.findings}


def test_unused_hints_are_capped_by_the_request(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text("".join(f"@misc{{k{i}, title = {{T{i}}}}}\n" for i in range(5)),
                                       encoding="utf-8")
    (tmp_path / "main.tex").write_text("\\documentclass{article}\\begin{document}x\\bibliography{refs}"
                                       "\\end{document}\n", encoding="utf-8")
    check = check_file(CheckRequest(tmp_path / "main.tex", max_unused=2), Engines())
    assert len([f for f in check.findings if f.code is Code.UNUSED_ENTRY]) <= 3


def test_files_that_cannot_be_checked(tmp_path: Path) -> None:
    with pytest.raises(CheckError, match="no such file"):
        check_file(CheckRequest(tmp_path / "missing.tex"), Engines())
    with pytest.raises(CheckError, match="is a directory"):
        check_file(CheckRequest(tmp_path), Engines())
