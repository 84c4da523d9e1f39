"""Warnings for constructs in the author's own .tex and .bib files that run code or touch files.

A shell escape (``\\write18``), raw file writes, or macro-table changes inside a .bib entry are
never part of a paper; they arrive with copied entries and templates. relatex warns
(:attr:`Code.DANGEROUS_LATEX`) and never rewrites them.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from relatex.analysis.findings import Code, Finding, Severity
from relatex.analysis.latex.latex_sanitiser import dangerous_constructs

MAX_PER_FILE = 20


@lru_cache(maxsize=64)
def _file_findings(path: Path, text: str) -> tuple[Finding, ...]:
    bib = path.suffix.lower() == ".bib"
    found = dangerous_constructs(text, bib=bib)
    findings = [
        Finding(Code.DANGEROUS_LATEX, Severity.WARNING,
                f"'{c.name if c.name == '^^' else chr(92) + c.name}' in {'a .bib file' if bib else 'the draft'} "
                "can run commands or change how LaTeX reads the file; relatex never writes it",
                path, c.start, c.end, {"command": c.name})
        for c in found[:MAX_PER_FILE]
    ]
    if len(found) > MAX_PER_FILE:
        first = found[MAX_PER_FILE]
        findings.append(Finding(Code.DANGEROUS_LATEX, Severity.WARNING,
                                f"{len(found) - MAX_PER_FILE} more dangerous constructs in {path.name}",
                                path, first.start, first.end, {"more": len(found) - MAX_PER_FILE}))
    return tuple(findings)


def dangerous_latex_findings(files: Iterable[tuple[Path, str]]) -> list[Finding]:
    """A warning per dangerous construct in each (path, text), at most :data:`MAX_PER_FILE` each."""
    return [finding for path, text in files for finding in _file_findings(path, text)]
