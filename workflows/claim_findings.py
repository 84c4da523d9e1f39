"""The one finding builder and the one summary of a claim check (both front ends show these).

Convention (chosen once for the CLI and the editor): a finding sits on the **citation command**
(``\\citep{key}``), not on the whole sentence. The citation is what the author would change (the
quick fixes replace or add a key there), it is short enough to read in a one-line report, and it
does not hide other diagnostics of the sentence under one long underline. The message is the
command line's, which says what was compared and how closely it matched::

    The cited abstract (key) does not appear to support this sentence (support 0.35, offline
    judge); closest evidence in key: "..."

The data payload carries what the quick fixes and tests need: label, score (4 decimals), judge,
keys, the sentence (``claim``, ``claim_start``, ``claim_end``), the citation command
(``cite_start``, ``cite_end``), the closest evidence and the per-key labels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from relatex.analysis.claims.claim_support import (
    CONTRADICTED,
    NOT_ADDRESSED,
    PARTIALLY_SUPPORTED,
    UNKNOWN,
    ClaimResult,
    citation_recall_precision,
)
from relatex.analysis.findings import Code, Finding, Severity
from relatex.analysis.text_positions import LineIndex

CLAIM_CODES = {
    NOT_ADDRESSED: (Code.CLAIM_NOT_SUPPORTED, Severity.WARNING),
    PARTIALLY_SUPPORTED: (Code.CLAIM_PARTIALLY_SUPPORTED, Severity.INFORMATION),
    CONTRADICTED: (Code.CLAIM_CONTRADICTED, Severity.WARNING),
}
MAX_QUOTE = 240


def _quote(text: str) -> str:
    return text if len(text) <= MAX_QUOTE else text[: MAX_QUOTE - 1].rstrip() + "\u2026"


def claim_message(result: ClaimResult) -> str:
    """The message of an unsupported, partial or contradicted claim."""
    verdict = result.verdict
    keys = ", ".join(result.claim.keys)
    if verdict.label == NOT_ADDRESSED:
        head = f"The cited abstract ({keys}) does not appear to support this sentence"
    elif verdict.label == PARTIALLY_SUPPORTED:
        head = f"The cited abstract ({keys}) supports this sentence only in part"
    else:
        head = f"The cited paper ({keys}) appears to contradict this sentence"
    message = f"{head} (support {verdict.score:.2f}, {verdict.judge.split('/')[0]} judge)"
    if verdict.evidence:
        message += f"; closest evidence in {verdict.evidence_paper}: \u201c{_quote(verdict.evidence)}\u201d"
    return message


def claim_finding(result: ClaimResult) -> Finding | None:
    """The finding of one claim (None when it is supported or has no evidence)."""
    verdict, claim = result.verdict, result.claim
    if verdict.label not in CLAIM_CODES:
        return None
    code, severity = CLAIM_CODES[verdict.label]
    data: dict[str, Any] = {
        "label": verdict.label, "score": round(verdict.score, 4), "judge": verdict.judge,
        "keys": list(claim.keys), "claim": claim.text, "claim_start": claim.start, "claim_end": claim.end,
        "cite_start": claim.cite_start, "cite_end": claim.cite_end,
        "evidence": verdict.evidence, "evidence_paper": verdict.evidence_paper, "rationale": verdict.rationale,
        "per_key": {k: v.label for k, v in result.per_key.items()},
    }
    return Finding(code, severity, claim_message(result), claim.path, claim.cite_start, claim.cite_end, data)


def claim_findings(results: Sequence[ClaimResult]) -> list[Finding]:
    """The findings of a check's results, in claim order."""
    return [f for f in (claim_finding(r) for r in results) if f is not None]


def _shown(path: Path, root_dir: Path | None) -> Path:
    try:
        return path.relative_to(root_dir) if root_dir else path
    except ValueError:
        return path


def summarise(results: Sequence[ClaimResult], texts: Mapping[Path, str], root_dir: Path | None = None,
              judge: str = "") -> dict[str, Any]:
    """Citation recall/precision and the per-claim verdicts, JSON-ready."""
    recall, precision = citation_recall_precision(results)
    indexes: dict[Path, LineIndex] = {}
    rows: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    for result in results:
        claim, verdict = result.claim, result.verdict
        counts[verdict.label] = counts.get(verdict.label, 0) + 1
        if claim.path not in indexes:
            indexes[claim.path] = LineIndex(texts.get(claim.path, ""))
        line, column = indexes[claim.path].position(claim.cite_start)
        rows.append({
            "location": f"{_shown(claim.path, root_dir)}:{line + 1}:{column + 1}", "label": verdict.label,
            "score": verdict.score, "per_key": {k: v.label for k, v in result.per_key.items()},
            "without_key": {k: v.label for k, v in result.without_key.items()}, "keys": list(claim.keys),
            "text": claim.text, "evidence_paper": verdict.evidence_paper, "evidence": verdict.evidence,
        })
    return {
        "citation_recall": round(recall, 4),
        "citation_precision": round(precision, 4),
        "claims_checked": len(results),
        "claims_without_evidence": counts.get(UNKNOWN, 0),
        "verdict_counts": counts,
        "judge": judge,
        "verdicts": rows,
    }
