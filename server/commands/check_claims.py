"""`relatex check --claims`: do the cited papers support the sentences that cite them?

Evidence for a citation key is the .bib entry's ``abstract`` field, else the abstract (and full
text) of the knowledge-base record the entry resolves to; keys with neither are "unknown". The
judge is chosen by ``judge.kind`` (``relatex.workflows.claim_judges``): relatex's citation model
(default, offline), the feature-based offline scorer, an ONNX NLI model, or the configured LLM.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from relatex.analysis.bib.bibtex_model import BibEntry, BibFile
from relatex.analysis.claims.claim_support import (
    CONTRADICTED,
    NOT_ADDRESSED,
    PARTIALLY_SUPPORTED,
    UNKNOWN,
    ClaimResult,
    SupportJudge,
    VerdictCache,
    check_claims,
    citation_recall_precision,
    judge_id,
)
from relatex.analysis.claims.evidence import Evidence, paper_evidence
from relatex.analysis.findings import Code, Finding, Severity
from relatex.analysis.latex.project_model import LatexProject
from relatex.analysis.text_positions import LineIndex
from relatex.config.settings import Settings

log = logging.getLogger(__name__)

_CODES = {
    NOT_ADDRESSED: (Code.CLAIM_NOT_SUPPORTED, Severity.WARNING),
    PARTIALLY_SUPPORTED: (Code.CLAIM_PARTIALLY_SUPPORTED, Severity.INFORMATION),
    CONTRADICTED: (Code.CLAIM_CONTRADICTED, Severity.WARNING),
}
_MAX_QUOTE = 240


def make_judge(settings: Settings) -> SupportJudge:
    """The judge named by ``settings.judge.kind`` over the configured embedder (see ``claim_judges``)."""
    from relatex.workflows.claim_judges import make_claim_judge

    try:
        from relatex.workflows.knowledge_bases import make_embedder

        embedder = make_embedder(settings)
    except Exception as exc:  # the model may be missing on this machine
        log.warning("no embedding model for the claim judge (%s); using lexical features only", exc)
        return make_claim_judge(settings, None, "")
    return make_claim_judge(settings, embedder.embed, embedder.model_id)


def _open_kb(settings: Settings) -> Any:
    try:
        from relatex.workflows.knowledge_bases import open_knowledge_base

        return open_knowledge_base(settings, read_only=True)
    except FileNotFoundError:
        return None
    except Exception as exc:  # a broken or locked knowledge base only costs evidence
        log.warning("knowledge base unavailable for claim evidence: %s", exc)
        return None


def _record_evidence(key: str, entry: BibEntry, kb: Any) -> tuple[Evidence, ...]:
    try:
        from relatex.retrieval.draft import resolve_entry

        record = resolve_entry(entry, kb)
    except Exception as exc:  # lookup failure: no evidence, not a crash
        log.warning("cannot look up %s in the knowledge base: %s", key, exc)
        return ()
    if record is None or not (record.abstract or record.full_text):
        return ()
    return paper_evidence(key, record.id, record.abstract, title=record.title, full_text=record.full_text,
                          authors=record.authors)


def evidence_source(bibs: Mapping[Path, BibFile], kb: Any = None) -> Callable[[str], tuple[Evidence, ...]]:
    """Evidence per citation key: the entry's abstract, else its knowledge-base record, else nothing."""
    entries: dict[str, BibEntry] = {}
    for bib in bibs.values():
        for key, entry in bib.by_key().items():
            entries.setdefault(key, entry)

    def lookup(key: str) -> tuple[Evidence, ...]:
        entry = entries.get(key)
        if entry is None:
            return ()
        abstract = entry.get("abstract")
        if abstract and abstract.strip():
            return paper_evidence(key, None, abstract, title=entry.title_plain or entry.get("title"),
                                  authors=entry.authors)
        return _record_evidence(key, entry, kb) if kb is not None else ()

    return lookup


def _quote(text: str) -> str:
    return text if len(text) <= _MAX_QUOTE else text[: _MAX_QUOTE - 1].rstrip() + "\u2026"


def finding_for(result: ClaimResult) -> Finding | None:
    """A finding on the claim's citation command for an unsupported, partial or contradicted claim."""
    verdict = result.verdict
    if verdict.label not in _CODES:
        return None
    code, severity = _CODES[verdict.label]
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
    data: dict[str, Any] = {
        "label": verdict.label, "score": verdict.score, "judge": verdict.judge, "keys": list(result.claim.keys),
        "evidence": verdict.evidence, "evidence_paper": verdict.evidence_paper, "rationale": verdict.rationale,
        "per_key": {k: v.label for k, v in result.per_key.items()},
    }
    return Finding(code, severity, message, result.claim.path, result.claim.cite_start, result.claim.cite_end, data)


def summarise(results: list[ClaimResult], texts: Mapping[Path, str], root_dir: Path | None = None,
              judge: str = "") -> dict[str, Any]:
    """Citation recall/precision and the per-claim verdicts, JSON-ready."""
    recall, precision = citation_recall_precision(results)
    indexes: dict[Path, LineIndex] = {}
    rows: list[dict[str, Any]] = []
    for result in results:
        claim, verdict = result.claim, result.verdict
        if claim.path not in indexes:
            indexes[claim.path] = LineIndex(texts.get(claim.path, ""))
        line, column = indexes[claim.path].position(claim.cite_start)
        try:
            shown = claim.path.relative_to(root_dir) if root_dir else claim.path
        except ValueError:
            shown = claim.path
        rows.append({
            "location": f"{shown}:{line + 1}:{column + 1}", "label": verdict.label, "score": verdict.score,
            "per_key": {k: v.label for k, v in result.per_key.items()},
            "without_key": {k: v.label for k, v in result.without_key.items()}, "keys": list(claim.keys),
            "text": claim.text, "evidence_paper": verdict.evidence_paper, "evidence": verdict.evidence,
        })
    counts: dict[str, int] = {}
    for result in results:
        counts[result.verdict.label] = counts.get(result.verdict.label, 0) + 1
    return {
        "citation_recall": round(recall, 4),
        "citation_precision": round(precision, 4),
        "claims_checked": len(results),
        "claims_without_evidence": counts.get(UNKNOWN, 0),
        "verdict_counts": counts,
        "judge": judge,
        "verdicts": rows,
    }


def claim_findings(
    project: LatexProject,
    bibs: Mapping[Path, BibFile],
    settings: Settings,
    *,
    judge: SupportJudge | None = None,
    kb: Any = None,
    cache: VerdictCache | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancel: Callable[[], bool] | None = None,
) -> tuple[list[Finding], dict[str, Any]]:
    """Claim-support findings for a draft and a summary (citation recall/precision, verdicts).

    ``judge``, ``kb`` and ``cache`` default to those built from the settings (the verdict cache
    lives under the cache directory, so re-checking an unchanged draft is free).
    """
    own_kb = False
    if kb is None and _needs_knowledge_base(project, bibs):
        kb = _open_kb(settings)
        own_kb = kb is not None
    own_cache = cache is None
    verdicts = cache if cache is not None else VerdictCache(directory=settings.online.resolved_cache_dir() / "claims")
    try:
        chosen = judge if judge is not None else make_judge(settings)
        exact = not judge_id(chosen).startswith("llm/")  # leave-one-out costs model calls with an LLM
        results = check_claims(project.claims, evidence_source(bibs, kb), chosen, verdicts, progress, cancel,
                               leave_one_out=exact)
    finally:
        if own_kb:
            kb.close()
        if own_cache:
            verdicts.close()
    findings = [f for f in (finding_for(r) for r in results) if f is not None]
    texts = {path: source.text for path, source in project.files.items()}
    return findings, summarise(results, texts, project.root_dir, judge_id(chosen))


def _needs_knowledge_base(project: LatexProject, bibs: Mapping[Path, BibFile]) -> bool:
    """Whether some claim cites an entry without an abstract (the knowledge base may have one)."""
    entries: dict[str, BibEntry] = {}
    for bib in bibs.values():
        for key, entry in bib.by_key().items():
            entries.setdefault(key, entry)
    keys = {key for claim in project.claims for key in claim.keys}
    return any(key in entries and not (entries[key].get("abstract") or "").strip() for key in keys)
