"""Background checks after each syntax pass: bibliography verification and claim support.

They run in their own one-thread executor so the syntax pass never waits behind them. Work is
cached by content (entry text hash; claim text + evidence hash + judge), so only changed entries
and sentences are re-judged; a pass stops between items when a newer generation exists and its
finished items stay cached for the next pass.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.analysis.findings import Code, Finding, Severity
from relatex.analysis.latex.project_model import CitationSite
from relatex.retrieval.records import PaperRecord
from relatex.server.workspace_state import BackgroundResults, ProjectSnapshot, optional_module, text_hash

if TYPE_CHECKING:
    from relatex.server.lsp_server import RelatexServer
    from relatex.server.workspace_state import WorkspaceState

log = logging.getLogger(__name__)

MAX_VERIFIED_ENTRIES = 2000
CLAIM_CODES = {
    "not_addressed": (Code.CLAIM_NOT_SUPPORTED, Severity.WARNING),
    "partially_supported": (Code.CLAIM_PARTIALLY_SUPPORTED, Severity.INFORMATION),
    "contradicted": (Code.CLAIM_CONTRADICTED, Severity.WARNING),
}

_background_executor: dict[int, ThreadPoolExecutor] = {}


def background_executor(state: WorkspaceState) -> ThreadPoolExecutor:
    key = id(state)
    if key not in _background_executor:
        _background_executor[key] = ThreadPoolExecutor(max_workers=1, thread_name_prefix="relatex-checks")
    return _background_executor[key]


def shutdown_background(state: WorkspaceState) -> None:
    executor = _background_executor.pop(id(state), None)
    if executor is not None:
        executor.shutdown(wait=False, cancel_futures=True)


def entry_hash(entry: BibEntry, text: str) -> str:
    return text_hash(f"{entry.path}\x1f{text[entry.start:entry.end]}")


def cited_entries(snapshot: ProjectSnapshot) -> list[BibEntry]:
    """Entries the draft cites (all of them for ``\\nocite{*}``), capped."""
    if snapshot.project is None:
        return []
    by_key = snapshot.entries_by_key()
    keys: list[str] = list(snapshot.project.cited_keys())
    if any(k.key == "*" for site in snapshot.project.citations for k in site.keys):
        keys = list(by_key)
    return [by_key[k] for k in keys if k in by_key][:MAX_VERIFIED_ENTRIES]


def citations_by_key(snapshot: ProjectSnapshot) -> dict[str, list[CitationSite]]:
    result: dict[str, list[CitationSite]] = {}
    if snapshot.project is None:
        return result
    for site in snapshot.project.citations:
        for key in site.keys:
            result.setdefault(key.key, []).append(site)
    return result


def resolve_records(state: WorkspaceState, snapshot: ProjectSnapshot, entries: Sequence[BibEntry],
                    cancel: Callable[[], bool]) -> dict[str, PaperRecord]:
    """The knowledge-base record of each entry (cached by entry text)."""
    draft = optional_module("retrieval.draft")
    kb = state.knowledge_base()
    records: dict[str, PaperRecord] = {}
    if draft is None or kb is None:
        return records
    for entry in entries:
        if cancel():
            break
        digest = entry_hash(entry, snapshot.texts.get(entry.path, ""))
        with state.cache_lock:
            known = digest in state.record_cache
            record = state.record_cache.get(digest)
        if not known:
            with state.kb_lock:
                try:
                    record = draft.resolve_entry(entry, kb)
                except Exception as exc:
                    log.warning("resolving %s failed: %s", entry.key, exc)
                    record = None
            with state.cache_lock:
                state.record_cache[digest] = record
        if record is not None:
            records[entry.key] = record
    return records


def authorities(state: WorkspaceState) -> list[Any]:
    """The authorities entries are verified against: the knowledge base, then online ones."""
    result: list[Any] = []
    module = optional_module("retrieval.authorities")
    kb = state.knowledge_base()
    if module is None:
        return result
    if kb is not None:
        result.append(module.KnowledgeBaseAuthority(kb))
    if state.settings.online.enabled and hasattr(module, "online_authorities"):  # (settings) -> authorities
        try:
            result.extend(module.online_authorities(state.settings))
        except Exception as exc:
            log.warning("online authorities unavailable: %s", exc)
    return result


def verify(state: WorkspaceState, snapshot: ProjectSnapshot, entries: Sequence[BibEntry],
           cancel: Callable[[], bool]) -> tuple[dict[str, Any], list[Finding]]:
    """Verdict and findings per cited entry (verdicts cached by entry text)."""
    module = optional_module("analysis.verification.bib_verification")
    verdicts: dict[str, Any] = {}
    findings: list[Finding] = []
    if module is None:
        return verdicts, findings
    sources = authorities(state)
    if not sources:
        return verdicts, findings
    sites = citations_by_key(snapshot)
    for entry in entries:
        if cancel():
            break
        digest = entry_hash(entry, snapshot.texts.get(entry.path, ""))
        with state.cache_lock:
            verdict = state.verdict_cache.get(digest)
        if verdict is None:
            with state.kb_lock:
                verdict = module.verify_entry(entry, sources)
            with state.cache_lock:
                state.verdict_cache[digest] = verdict
        verdicts[entry.key] = verdict
        findings.extend(module.verdict_findings(verdict, entry, sites.get(entry.key, [])))
    return verdicts, findings


def optional_attr(module_name: str, name: str) -> Any:
    module = optional_module(module_name)
    if module is None:
        raise RuntimeError(f"relatex.{module_name} is not available")
    return getattr(module, name)


def make_judge(state: WorkspaceState) -> Any:
    """The claim-support judge chosen by ``settings.judge`` (None when unavailable)."""
    try:
        from relatex.workflows.claim_judges import make_claim_judge

        kb = state.knowledge_base()
        embed = kb.embed if kb is not None else None
        model_id = getattr(getattr(kb, "embedder", None), "model_id", "") if kb is not None else ""
        return make_claim_judge(state.settings, embed, model_id)
    except Exception as exc:
        log.warning("claim judge unavailable: %s", exc)
        return None


def claim_verdict_cache(state: WorkspaceState) -> Any:
    module = optional_module("analysis.claims.claim_support")
    if module is None:
        return None
    with state.cache_lock:
        if "verdicts" not in state.claim_cache:
            state.claim_cache["verdicts"] = module.VerdictCache(max_entries=20000)
        return state.claim_cache["verdicts"]


def evidence_function(snapshot: ProjectSnapshot, records: Mapping[str, PaperRecord]) -> Callable[[str], Any]:
    evidence = optional_module("analysis.claims.evidence")
    by_key = snapshot.entries_by_key()

    def evidence_for_key(key: str) -> Any:
        if evidence is None:
            return ()
        record = records.get(key)
        entry = by_key.get(key)
        if record is None and entry is None:
            return ()
        abstract = (record.abstract if record else None) or (entry.get("abstract") if entry else None)
        title = (record.title if record else None) or (entry.title_plain if entry else None)
        authors = record.authors if record else (entry.authors if entry else ())
        full_text = record.full_text if record else ()
        return evidence.paper_evidence(key, record.id if record else None, abstract, title=title,
                                       full_text=full_text, authors=authors)

    return evidence_for_key


def claim_findings(results: Sequence[Any]) -> list[Finding]:
    """A finding on the cited sentence for each claim that is not (fully) supported."""
    findings: list[Finding] = []
    for result in results:
        verdict = result.verdict
        if verdict.label not in CLAIM_CODES:
            continue
        code, severity = CLAIM_CODES[verdict.label]
        claim = result.claim
        keys = ", ".join(claim.keys)
        label = verdict.label.replace("_", " ")
        message = f"Claim {label} by {keys} (score {verdict.score:.2f})"
        if verdict.evidence:
            message += f"; best evidence ({verdict.evidence_paper or keys}): \u201c{verdict.evidence}\u201d"
        findings.append(Finding(
            code, severity, message, claim.path, claim.start, claim.end,
            {"keys": list(claim.keys), "label": verdict.label, "score": round(verdict.score, 4),
             "cite_start": claim.cite_start, "cite_end": claim.cite_end, "claim": claim.text,
             "evidence": verdict.evidence, "evidence_paper": verdict.evidence_paper},
        ))
    return findings


def check_claims(state: WorkspaceState, snapshot: ProjectSnapshot, records: Mapping[str, PaperRecord],
                 cancel: Callable[[], bool]) -> tuple[list[Any], list[Finding]]:
    module = optional_module("analysis.claims.claim_support")
    if module is None or snapshot.project is None or not snapshot.project.claims:
        return [], []
    judge = make_judge(state)
    if judge is None:
        return [], []
    # only claims whose sentence, keys or cited entries changed are judged again
    entries = snapshot.entries_by_key()
    judge_name = str(getattr(judge, "judge_id", type(judge).__name__))

    def signature(claim: Any) -> tuple[Any, ...]:
        cited = tuple(entry_hash(entries[k], snapshot.texts.get(entries[k].path, "")) if k in entries else ""
                      for k in claim.keys)
        record_ids = tuple(records[k].id if k in records else "" for k in claim.keys)
        return (judge_name, " ".join(claim.text.split()), claim.keys, cited, record_ids)

    with state.cache_lock:
        memo: dict[tuple[Any, ...], tuple[Any, Any]] = state.claim_cache.setdefault("results", {})
    claims = list(snapshot.project.claims)
    signatures = [signature(claim) for claim in claims]
    todo = [claim for claim, sig in zip(claims, signatures, strict=True) if sig not in memo]
    fresh = module.check_claims(todo, evidence_function(snapshot, records), judge,
                                cache=claim_verdict_cache(state), cancel=cancel) if todo else []
    with state.cache_lock:
        if len(memo) > 50_000:
            memo.clear()
        for result in fresh:
            memo[signature(result.claim)] = (result.verdict, result.per_key)
    results = [module.ClaimResult(claim, *memo[sig]) for claim, sig in zip(claims, signatures, strict=True)
               if sig in memo]
    return results, claim_findings(results)


SUMMARY_PROMPT = ("Summarise the contribution of the paper in one or two plain sentences, using only its title "
                  "and abstract. Answer with the sentences only.")


def llm_summaries(state: WorkspaceState, records: Mapping[str, PaperRecord], cancel: Callable[[], bool],
                  limit: int = 20, timeout: float = 20.0, pause: float = 300.0) -> int:
    """One- or two-sentence LLM summaries of cited papers for hover cards (cached per record).

    Optional extras, so cheap to fail: one attempt per paper (no retries) with a ``timeout``;
    after a failure (no key, endpoint down or overloaded) the model is not asked again for
    ``pause`` seconds unless the LLM settings change, and the cards use the abstracts.
    """
    settings = state.settings
    if settings.llm.provider == "none" or cancel():
        return 0
    todo = [r for r in records.values() if r.abstract and r.id not in state.summary_cache][:limit]
    failed = state.summary_failure
    if not todo or (failed is not None and failed[0] == settings.llm and time.monotonic() - failed[1] < pause):
        return 0

    def give_up(reason: object) -> None:
        log.warning("LLM summaries unavailable (%s); hover cards use the abstracts for %.0f s", reason, pause)
        state.summary_failure = (settings.llm, time.monotonic())

    factory = optional_module("workflows.language_models")
    if factory is None:
        return 0
    quick = dataclasses.replace(settings, llm=dataclasses.replace(settings.llm, timeout=min(settings.llm.timeout,
                                                                                             timeout)))
    try:
        llm = factory.make_llm(quick)
    except Exception as exc:  # e.g. no API key: not a failure of the background checks
        give_up(exc)
        return 0
    if llm is None:
        return 0
    if hasattr(llm, "max_retries"):
        llm.max_retries = 0
    made = 0
    try:
        for record in todo:
            if cancel():
                break
            try:
                response = llm.complete(SUMMARY_PROMPT, [{"role": "user", "content":
                                                          f"Title: {record.title}\n\nAbstract: {record.abstract}"}],
                                        max_tokens=160, temperature=0.0)
            except Exception as exc:  # offline, refused or overloaded: cards fall back to the abstract
                give_up(exc)
                break
            text = " ".join(str(getattr(response, "text", "") or "").split())
            if text:
                state.summary_cache[record.id] = text if len(text) <= 600 else text[:599].rstrip() + "\u2026"
                made += 1
    finally:
        close = getattr(llm, "close", None)
        if callable(close):
            close()
    return made


def background_pass(state: WorkspaceState, snapshot: ProjectSnapshot,
                    cancel: Callable[[], bool], on_partial: Callable[[BackgroundResults], None] | None = None,
                    claims: bool = True) -> BackgroundResults:
    """Resolve records, verify cited entries, then judge claims (runs in the background)."""
    entries = cited_entries(snapshot)
    records = resolve_records(state, snapshot, entries, cancel)
    verdicts, findings = verify(state, snapshot, entries, cancel)
    result = BackgroundResults(snapshot.generation, tuple(findings), verdicts, records, [])
    if on_partial is not None and not cancel():
        on_partial(result)
    if claims and not cancel():
        claim_results, found = check_claims(state, snapshot, records, cancel)
        result = BackgroundResults(snapshot.generation, tuple(findings) + tuple(found), verdicts, records,
                                   claim_results)
        if on_partial is not None and not cancel():
            on_partial(result)  # claim diagnostics do not wait for the model's summaries
    if not cancel():
        llm_summaries(state, records, cancel)
    return result


def start_background_checks(server: RelatexServer, snapshot: ProjectSnapshot) -> None:
    """Schedule the background pass for a fresh snapshot; publish when still current."""
    import asyncio

    state = server.state
    root: Path = snapshot.root
    loop = asyncio.get_running_loop()

    def stale() -> bool:
        return state.generation(root) != snapshot.generation

    def cancel() -> bool:  # the pass's checkpoints, in the background thread
        state.yield_to_foreground()  # requests from the editor first
        return stale()

    def accept(result: BackgroundResults) -> None:  # on the event loop
        if stale():
            return
        state.background[root] = result
        from relatex.server.features.diagnostics import publish_snapshot

        publish_snapshot(server, snapshot)

    def on_partial(result: BackgroundResults) -> None:
        loop.call_soon_threadsafe(accept, result)

    async def run() -> None:
        try:
            result = await loop.run_in_executor(background_executor(state), background_pass, state, snapshot,
                                                cancel, on_partial)
        except Exception as exc:
            server.report_once("verification and claim checks", exc)
            return
        accept(result)

    loop.create_task(run())


def carry_over(previous: BackgroundResults | None, old: ProjectSnapshot | None,
               new: ProjectSnapshot) -> BackgroundResults | None:
    """The previous background results, restricted to files whose text did not change."""
    if previous is None or old is None:
        return None
    same = {path for path, text in new.texts.items() if old.texts.get(path) == text}
    kept = tuple(f for f in previous.findings if f.path in same)
    return BackgroundResults(new.generation, kept, previous.verdicts, previous.records, previous.claims)
