"""Background checks after each syntax pass: bibliography verification and claim support.

Scheduling only: the work is :func:`relatex.workflows.verify_bibliography.verify_bibliography`
and :func:`relatex.workflows.check_claims.check_claims` (the same calls as ``relatex check
--bib --claims``), run in the scheduler's one-thread background executor so the syntax pass never
waits behind them. The caches they are given live in the server state (verdicts by entry text;
claim results by signature), so only changed entries and sentences are judged again; a pass
stops between items when a newer generation exists and its finished items stay cached. The
cited papers' knowledge-base records (for hover cards and claim evidence) and their optional LLM
summaries are computed here too.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.retrieval.records import PaperRecord
from relatex.server.roots import BackgroundResults
from relatex.workflows.check_claims import ClaimCheckRequest, cache_store, check_claims, resolve_record
from relatex.workflows.check_project import ProjectSnapshot
from relatex.workflows.language_models import make_llm
from relatex.workflows.verify_bibliography import (
    EntryVerdicts,
    VerifyRequest,
    entries_to_verify,
    entry_digest,
    verify_bibliography,
)

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer
    from relatex.server.workspace_state import WorkspaceState

log = logging.getLogger(__name__)


def resolve_records(state: WorkspaceState, snapshot: ProjectSnapshot, entries: Sequence[BibEntry],
                    cancel: Callable[[], bool]) -> dict[str, PaperRecord]:
    """The knowledge-base record of each entry (cached by entry text)."""
    records: dict[str, PaperRecord] = {}
    if state.knowledge_base() is None:
        return records
    for entry in entries:
        if cancel():
            break
        digest = entry_digest(entry, snapshot.texts.get(entry.path, ""))
        with state.cache_lock:
            known = digest in state.record_cache
            record = state.record_cache.get(digest)
        if not known:
            record = resolve_record(entry, state.engines)
            with state.cache_lock:
                state.record_cache[digest] = record
        if record is not None:
            records[entry.key] = record
    return records


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

    quick = dataclasses.replace(settings, llm=dataclasses.replace(settings.llm, timeout=min(settings.llm.timeout,
                                                                                             timeout)))
    try:
        llm = make_llm(quick)
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
    if snapshot.project is None:
        return BackgroundResults(snapshot.generation)
    records = resolve_records(state, snapshot, entries_to_verify(snapshot.project, snapshot.bibs), cancel)
    verified = verify_bibliography(VerifyRequest(snapshot.project, snapshot.bibs, texts=snapshot.texts),
                                   state.engines, cancel,
                                   cache=EntryVerdicts(state.verdict_cache, state.cache_lock))
    result = BackgroundResults(snapshot.generation, verified.findings, verified.verdicts, records, [])
    if on_partial is not None and not cancel():
        on_partial(result)
    if claims and snapshot.project.claims and not cancel():
        checked = check_claims(ClaimCheckRequest(snapshot.project, snapshot.bibs, records), state.engines,
                               cancel, cache=cache_store(state.claim_cache, state.cache_lock))
        result = BackgroundResults(snapshot.generation, verified.findings + checked.findings, verified.verdicts,
                                   records, list(checked.results))
        if on_partial is not None and not cancel():
            on_partial(result)  # claim diagnostics do not wait for the model's summaries
    if not cancel():
        llm_summaries(state, records, cancel)
    return result


def start_background_checks(server: RelatexServer, snapshot: ProjectSnapshot) -> None:
    """Schedule the background pass for a fresh snapshot; its results are published while current."""
    state = server.state

    def work(cancel: Callable[[], bool], on_partial: Callable[[BackgroundResults], None]) -> BackgroundResults:
        return background_pass(state, snapshot, cancel, on_partial)

    state.scheduler.start_background(
        snapshot, work, lambda exc: server.report_once("verification and claim checks", exc))


def carry_over(previous: BackgroundResults | None, old: ProjectSnapshot | None,
               new: ProjectSnapshot) -> BackgroundResults | None:
    """The previous background results, restricted to files whose text did not change."""
    if previous is None or old is None:
        return None
    same = {path for path, text in new.texts.items() if old.texts.get(path) == text}
    kept = tuple(f for f in previous.findings if f.path in same)
    return BackgroundResults(new.generation, kept, previous.verdicts, previous.records, previous.claims)
