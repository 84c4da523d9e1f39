"""Limits that keep a hostile or huge project from flooding the editor.

Findings per file are capped (errors first, then warnings, information, hints; in document order
within a severity) with one summary finding for the rest; a document over the size limit gets
one information finding instead of an analysis.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from relatex.analysis.findings import Code, Finding, Severity

_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFORMATION: 2, Severity.HINT: 3}


def cap_per_file(findings: Iterable[Finding], limit: int) -> list[Finding]:
    """At most ``limit`` findings per file, the most severe first, plus a summary per capped file."""
    by_file: dict[Path, list[Finding]] = {}
    for finding in findings:
        by_file.setdefault(finding.path, []).append(finding)
    kept: list[Finding] = []
    for path, items in by_file.items():
        if len(items) <= limit:
            kept.extend(items)
            continue
        items.sort(key=lambda f: (_RANK.get(f.severity, 4), f.start, f.end))
        kept.extend(items[:limit])
        left = items[limit:]
        counts = ", ".join(f"{sum(1 for f in left if f.severity is s)} {s.value}" for s in _RANK
                           if any(f.severity is s for f in left))
        kept.append(Finding(Code.TOO_MANY_FINDINGS, Severity.INFORMATION,
                            f"{len(left)} more findings in {path.name} are not shown ({counts}); "
                            f"the limit is relatex.maxFindingsPerFile = {limit}",
                            path, 0, 0, {"hidden": len(left), "limit": limit}))
    return sorted(kept, key=Finding.sort_key)


def utf8_size(text: str, limit: int) -> int:
    """The UTF-8 size of ``text``, computed only when the character count cannot decide ``limit``."""
    if len(text) > limit or len(text) * 4 <= limit:
        return len(text)
    return len(text.encode("utf-8", errors="replace"))


def oversized_document(path: Path, size: int, limit: int) -> Finding | None:
    """The one finding of a document of ``size`` bytes over ``limit``, or None when it is within."""
    if size <= limit:
        return None
    return Finding(Code.DOCUMENT_TOO_LARGE, Severity.INFORMATION,
                   f"{path.name} is {size / 1e6:.1f} MB, over relatex.maxDocumentBytes ({limit / 1e6:.1f} MB): "
                   "it is not analysed (no diagnostics, hovers or generation); editing works as usual",
                   path, 0, 0, {"bytes": size, "limit": limit})
