"""Check that the cited papers support the sentences that cite them (claim support).

Both front ends call :func:`check_claims`: the language server in its background pass and
``relatex check --claims``. There is one of each part:

- evidence (:func:`evidence_source`): the .bib entry's ``abstract``, else the abstract and full
  text of the knowledge-base record the entry resolves to; keys with neither are "unknown";
- judge: ``engines.judge()`` (``settings.judge.kind``); leave-one-out precision is exact except
  with an LLM judge (it would cost model calls);
- findings and summary: :mod:`relatex.workflows.claim_findings`.

A :class:`ClaimCache` makes checks incremental: verdicts are cached by (sentence, evidence,
judge), and whole results by the claim's signature (judge, sentence, keys, evidence), so after
an edit only the changed claims are judged again. Cancellation is looked at between claims.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from relatex.analysis.bib.bibtex_model import BibEntry, BibFile
from relatex.analysis.cancellation import Cancel, is_cancelled
from relatex.analysis.claims.claim_scope import citation_scopes
from relatex.analysis.claims.claim_support import ClaimResult, SupportVerdict, VerdictCache, judge_id
from relatex.analysis.claims.claim_support import check_claims as judge_claims
from relatex.analysis.claims.evidence import Evidence, paper_evidence
from relatex.analysis.findings import Finding
from relatex.analysis.latex.project_model import Claim, LatexProject
from relatex.config.settings import Settings
from relatex.retrieval.draft import resolve_entry
from relatex.retrieval.records import PaperRecord
from relatex.workflows.claim_findings import claim_findings, summarise
from relatex.workflows.engines import Engines
from relatex.workflows.progress import ProgressCallback, counting_progress, no_progress
from relatex.workflows.verify_bibliography import first_entries

log = logging.getLogger(__name__)

#: Whole results remembered per claim signature before the memo is emptied.
MAX_MEMO = 50_000
EvidenceFn = Callable[[str], tuple[Evidence, ...]]
Signature = tuple[Any, ...]


class ClaimCache:
    """What claim checks remember: verdicts and, per claim signature, whole results."""

    def __init__(self, verdicts: VerdictCache | None = None) -> None:
        self.verdicts = verdicts if verdicts is not None else VerdictCache(max_entries=20000)
        self.results: dict[Signature, tuple[SupportVerdict, dict[str, SupportVerdict],
                                            dict[str, SupportVerdict]]] = {}
        self.lock = threading.Lock()

    @classmethod
    def on_disk(cls, settings: Settings) -> ClaimCache:
        """Verdicts kept under the cache directory (re-checking an unchanged draft is free)."""
        return cls(VerdictCache(directory=settings.online.resolved_cache_dir() / "claims"))

    def close(self) -> None:
        self.verdicts.close()


@dataclass(frozen=True)
class ClaimCheckRequest:
    """Check the claims of ``project`` against the entries of ``bibs``. ``records`` are the
    knowledge-base records of entries already resolved (the editor's); the others are resolved
    here when their entry has no abstract."""

    project: LatexProject
    bibs: Mapping[Path, BibFile]
    records: Mapping[str, PaperRecord] | None = None


@dataclass(frozen=True)
class ClaimCheckResult:
    """Per-claim results (claim order), their findings and summary, and the judge's id."""

    results: tuple[ClaimResult, ...] = ()
    findings: tuple[Finding, ...] = ()
    summary: dict[str, Any] = field(default_factory=dict)
    judge: str = ""
    complete: bool = True


def record_evidence(key: str, record: PaperRecord | None) -> tuple[Evidence, ...]:
    """A knowledge-base record's evidence (none without abstract and full text)."""
    if record is None or not (record.abstract or record.full_text):
        return ()
    return paper_evidence(key, record.id, record.abstract, title=record.title, full_text=record.full_text,
                          authors=record.authors)


def entry_evidence(key: str, entry: BibEntry) -> tuple[Evidence, ...]:
    """A .bib entry's own evidence: its abstract (none without one)."""
    abstract = entry.get("abstract")
    if not abstract or not abstract.strip():
        return ()
    return paper_evidence(key, None, abstract, title=entry.title_plain or entry.get("title"), authors=entry.authors)


def resolve_record(entry: BibEntry, engines: Engines) -> PaperRecord | None:
    """The knowledge-base record ``entry`` resolves to (None without a knowledge base or match)."""
    kb = engines.knowledge_base()
    if kb is None:
        return None
    try:
        with engines.using_knowledge_base():
            return resolve_entry(entry, kb)
    except Exception as exc:  # a lookup failure costs evidence, not the check
        log.warning("cannot look up %s in the knowledge base: %s", entry.key, exc)
        return None


def evidence_source(bibs: Mapping[Path, BibFile], records: Mapping[str, PaperRecord] | None = None,
                    engines: Engines | None = None) -> EvidenceFn:
    """Evidence per citation key: the entry's abstract, else its knowledge-base record (from
    ``records``, else resolved through ``engines``), else nothing. Memoised per key."""
    entries = first_entries(bibs)
    memo: dict[str, tuple[Evidence, ...]] = {}

    def lookup(key: str) -> tuple[Evidence, ...]:
        if key in memo:
            return memo[key]
        entry = entries.get(key)
        found: tuple[Evidence, ...] = ()
        if entry is not None:
            found = entry_evidence(key, entry)
            if not found and records is not None:
                found = record_evidence(key, records.get(key))
            elif not found and engines is not None:
                found = record_evidence(key, resolve_record(entry, engines))
        memo[key] = found
        return found

    return lookup


def _evidence_digest(items: Sequence[Evidence]) -> str:
    text = "\x1e".join(f"{e.paper_id}\x1f{e.source}\x1f{e.sentence}" for e in items)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def claim_signature(claim: Claim, judge: str, evidence_of: EvidenceFn, scope: str | None = None) -> Signature:
    """What a claim's result depends on: judge, sentence, keys and their evidence, and the part of
    the sentence its citation speaks for."""
    digests = tuple(_evidence_digest(evidence_of(key)) for key in claim.keys)
    return (judge, " ".join(claim.text.split()), tuple(claim.keys), digests, scope)


def _judge_changed(claims: Sequence[Claim], signatures: Sequence[Signature], evidence_of: EvidenceFn,
                   engines: Engines, cache: ClaimCache, cancel: Cancel,
                   progress: ProgressCallback) -> None:
    """Judge the claims whose signature has no result yet; remember their results."""
    with cache.lock:
        todo = [(c, s) for c, s in zip(claims, signatures, strict=True) if s not in cache.results]
    if not todo:
        return
    judge = engines.judge()
    exact = not judge_id(judge).startswith("llm/")
    fresh = judge_claims([c for c, _ in todo], evidence_of, judge, cache.verdicts,
                         counting_progress(progress, "judged claims"), lambda: is_cancelled(cancel),
                         leave_one_out=exact, scopes=[s[-1] for _, s in todo])
    with cache.lock:
        if len(cache.results) > MAX_MEMO:
            cache.results.clear()
        for result, (_, signature) in zip(fresh, todo, strict=False):
            cache.results[signature] = (result.verdict, dict(result.per_key), dict(result.without_key))


def check_claims(request: ClaimCheckRequest, engines: Engines, cancel: Cancel = None,
                 progress: ProgressCallback = no_progress, cache: ClaimCache | None = None) -> ClaimCheckResult:
    """Judge the draft's claims (only those changed since ``cache`` saw them), with findings
    and summary. When cancelled, the claims judged so far are returned (``complete`` False)."""
    claims = list(request.project.claims)
    if not claims:
        return ClaimCheckResult()
    own_cache = cache is None
    cache = cache if cache is not None else ClaimCache()
    try:
        evidence_of = evidence_source(request.bibs, request.records,
                                      engines if request.records is None else None)
        judge = judge_id(engines.judge())
        scopes = citation_scopes(claims)  # of the whole draft: a scope depends on its sentence's other claims
        signatures = [claim_signature(claim, judge, evidence_of, scope)
                      for claim, scope in zip(claims, scopes, strict=True)]
        _judge_changed(claims, signatures, evidence_of, engines, cache, cancel, progress)
        with cache.lock:
            results = tuple(ClaimResult(claim, *cache.results[sig])
                            for claim, sig in zip(claims, signatures, strict=True) if sig in cache.results)
    finally:
        if own_cache:
            cache.close()
    texts = {path: source.text for path, source in request.project.files.items()}
    return ClaimCheckResult(results, tuple(claim_findings(results)),
                            summarise(results, texts, request.project.root_dir, judge), judge,
                            complete=len(results) == len(claims))


def cache_store(store: MutableMapping[Any, Any], lock: Any) -> ClaimCache:
    """The :class:`ClaimCache` kept in a front end's cache dict under ``"workflow"``."""
    with lock:
        cache = store.get("workflow")
        if not isinstance(cache, ClaimCache):
            cache = store["workflow"] = ClaimCache()
        return cache
