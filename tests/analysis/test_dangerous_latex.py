"""Warnings for dangerous constructs: what is found, and that unchanged files are not re-read."""

from __future__ import annotations

from pathlib import Path

import pytest

from relatex.analysis.findings import Code
from relatex.analysis.latex import dangerous_latex


def test_each_construct_is_a_warning_at_its_place() -> None:
    text = "Intro \\immediate\\write18{rm -rf ~} and more."
    findings = dangerous_latex.dangerous_latex_findings([(Path("/p/a.tex"), text)])
    assert findings and all(f.code == Code.DANGEROUS_LATEX for f in findings)
    assert any(text[f.start:f.end].startswith("\\write18") or "write" in text[f.start:f.end] for f in findings)


def test_an_equal_text_loaded_again_is_not_checked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = dangerous_latex.dangerous_constructs

    def counting(text: str, bib: bool = False):  # type: ignore[no-untyped-def]
        calls.append(len(text))
        return real(text, bib=bib)

    monkeypatch.setattr(dangerous_latex, "dangerous_constructs", counting)
    path = Path("/p/refs.bib")
    first = "@misc{a, title={\\write18{x}}}\n" * 50
    second = "".join(list(first))  # equal content, another object (the .bib loaded again)
    assert second is not first
    found = dangerous_latex.dangerous_latex_findings([(path, first)])
    assert dangerous_latex.dangerous_latex_findings([(path, second)]) == found
    assert dangerous_latex.dangerous_latex_findings([(path, second)]) == found
    assert len(calls) == 1
    # the newest object is the one remembered (the old one can be freed)
    assert dangerous_latex._memo[path][0] is second
    changed = second.replace("title", "note", 1)
    dangerous_latex.dangerous_latex_findings([(path, changed)])
    assert len(calls) == 2
