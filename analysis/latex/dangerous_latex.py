"""Warnings for constructs in the author's own .tex and .bib files that run code or touch files.

A shell escape (``\\write18``), raw file writes, or macro-table changes inside a .bib entry are
never part of a paper; they arrive with copied entries and templates. relatex warns
(:attr:`Code.DANGEROUS_LATEX`) and never rewrites them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path

from relatex.analysis.findings import Code, Finding, Severity
from relatex.analysis.latex.latex_sanitiser import dangerous_constructs

MAX_PER_FILE = 20
#: Files whose findings are remembered (the latest text of each).
MEMO_FILES = 64

# path -> (the text last checked, its findings). Keyed by path, not by text: a 170 MB .bib
# loaded again as a new but equal string is compared once, and from then on recognised by
# identity (a cache keyed by text would compare it in full on every keystroke in a chapter).
_memo: OrderedDict[Path, tuple[str, tuple[Finding, ...]]] = OrderedDict()
_memo_lock = threading.Lock()


def _file_findings(path: Path, text: str) -> tuple[Finding, ...]:
    with _memo_lock:
        known = _memo.get(path)
    if known is not None and (known[0] is text or known[0] == text):
        findings = known[1]
    else:
        findings = _compute_findings(path, text)
    with _memo_lock:
        _memo[path] = (text, findings)
        _memo.move_to_end(path)
        while len(_memo) > MEMO_FILES:
            _memo.popitem(last=False)
    return findings


def _compute_findings(path: Path, text: str) -> tuple[Finding, ...]:
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
