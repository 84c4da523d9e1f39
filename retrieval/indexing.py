"""Incremental, resumable indexing of source items into the record store and the vector store.

Per batch: compare each item's content hash (SHA-256 of its normalised content) with the stored
one -> skip, or merge it into its record (deduplicated by DOI, arXiv id, title + first author +
year) and re-embed only records whose embedded text changed. The vectors are written first, then
the batch's records, contributions and hashes commit in one SQLite transaction. A crash between
the two leaves vectors for uncommitted records, which the next writer open repairs (the ids are
noted in ``pending_ids`` before the vector write); rerunning skips every committed batch.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from relatex.retrieval.dedup import merge_records
from relatex.retrieval.embedding import Embedder
from relatex.retrieval.record_store import RecordStore, record_to_json, text_hash, title_key
from relatex.retrieval.records import PaperRecord, normalise_arxiv_id, normalise_doi, normalise_title
from relatex.retrieval.sources.base import SourceItem
from relatex.retrieval.vector_store import VectorStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SearchHit:
    """A search result; ranks are 1-based positions in the dense / BM25 lists (None: absent)."""

    record: PaperRecord
    score: float
    dense_rank: int | None
    lexical_rank: int | None


@dataclass(frozen=True)
class IndexProgress:
    source: str
    processed: int
    total: int | None
    elapsed: float
    embedded: int

    @property
    def rate(self) -> float:
        return self.processed / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        if not self.total or self.rate <= 0:
            return None
        return max(0.0, (self.total - self.processed) / self.rate)


@dataclass
class IndexSummary:
    """What an indexing run did. ``completed`` is False when it was cancelled (a rerun resumes)."""

    source: str
    read: int = 0
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    merged: int = 0
    removed: int = 0
    embedded: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    completed: bool = True

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source, "read": self.read, "added": self.added, "updated": self.updated,
            "unchanged": self.unchanged, "merged": self.merged, "removed": self.removed,
            "embedded": self.embedded, "skipped": dict(self.skipped), "seconds": round(self.seconds, 3),
            "completed": self.completed,
        }


DUPLICATE = "duplicate id within the source"


def as_cancel_check(cancel: threading.Event | Callable[[], bool] | None) -> Callable[[], bool]:
    if cancel is None:
        return lambda: False
    if isinstance(cancel, threading.Event):
        return cancel.is_set
    return cancel


def payload_of(record: PaperRecord) -> dict[str, Any]:
    """What the vector store keeps to render a hit without a second lookup."""
    return {
        "title": record.title,
        "authors": list(record.authors[:10]),
        "year": record.year,
        "venue": record.venue,
        "doi": record.doi,
        "arxiv_id": record.arxiv_id,
    }


def _batches(items: Iterable[SourceItem], size: int) -> Iterator[list[SourceItem]]:
    batch: list[SourceItem] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _identity_lookup(records: RecordStore, record: PaperRecord, pending: Mapping[str, str]) -> tuple[str | None, str]:
    """The id of an existing (or pending in this batch) record describing the same paper, and
    the kind of identifier that matched (``doi``, ``arxiv``, ``title``)."""
    keys: list[tuple[str, Callable[[str], str | None]]] = []
    if doi := normalise_doi(record.doi):
        keys.append((f"doi:{doi}", records.id_by_doi))
    if arx := normalise_arxiv_id(record.arxiv_id):
        keys.append((f"arxiv:{arx}", records.id_by_arxiv))
    if tkey := title_key(record):
        keys.append((f"title:{tkey}", records.id_by_title_key))
    for key, lookup in keys:
        kind = key.split(":", 1)[0]
        if key in pending:
            return pending[key], kind
        found = lookup(key.split(":", 1)[1])
        if found:
            return found, kind
    return None, ""


def titles_agree(first: str, second: str) -> bool:
    """Whether two titles name the same paper: equal when normalised, one a prefix of the other
    (a subtitle dropped), or sharing most of their words. A missing title agrees with anything."""
    a, b = normalise_title(first or ""), normalise_title(second or "")
    if not a or not b or a == b or a.startswith(b) or b.startswith(a):
        return True
    words_a, words_b = set(a.split()), set(b.split())
    return len(words_a & words_b) / len(words_a | words_b) >= 0.6


def _same_paper_target(records: RecordStore, record: PaperRecord, target: str, titles: dict[str, str],
                       entry: tuple[str, str]) -> str:
    """``target``, unless it only shares an identifier with ``record`` while the titles disagree
    (two papers under one DOI in the data): then ``record``'s own id, or one made distinct by the
    ``entry`` (source, local id) it comes from, so that it stays when the entry's title is edited."""
    def agrees(rid: str) -> bool | None:  # None: no such record yet
        title = titles.get(rid)
        if title is None:
            stored = records.get(rid)
            if stored is None:
                return None
            title = titles[rid] = stored.title
        return titles_agree(title, record.title)

    if agrees(target) is not False:
        return target
    if agrees(record.id) is not False:
        return record.id
    distinct = f"{record.id}~{hashlib.sha1(chr(0).join(entry).encode()).hexdigest()[:8]}"
    log.info("%s shares an identifier with %s but not its title; kept apart as %s", record.title, target, distinct)
    return distinct


def _remember(pending: dict[str, str], record: PaperRecord, rid: str) -> None:
    if doi := normalise_doi(record.doi):
        pending.setdefault(f"doi:{doi}", rid)
    if arx := normalise_arxiv_id(record.arxiv_id):
        pending.setdefault(f"arxiv:{arx}", rid)
    if tkey := title_key(record):
        pending.setdefault(f"title:{tkey}", rid)


class _BatchWriter:
    """Applies changes of a set of records: re-merge, embed what changed, write vectors, commit."""

    def __init__(self, records: RecordStore, store: VectorStore, embedder: Embedder, summary: IndexSummary) -> None:
        self.records = records
        self.store = store
        self.embedder = embedder
        self.summary = summary

    def apply(
        self,
        affected: set[str],
        new_parts: Mapping[str, list[tuple[str, str, PaperRecord]]],
        removed_parts: set[tuple[str, str]],
        contribution_rows: list[tuple[str, str, str, str, str, int]],
        deleted_contributions: list[tuple[str, str]],
        alias_rows: list[tuple[str, str]],
        seen: tuple[str, list[str], int] | None,
    ) -> dict[str, str]:
        """Write the changes; returns record id -> "added" | "updated" for records that changed."""
        existing_parts = self.records.contributions_of(affected)
        state = self.records.record_state(affected)
        merged: dict[str, PaperRecord] = {}
        for rid in sorted(affected):
            parts = {(s, lid): rec for s, lid, rec in existing_parts.get(rid, [])}
            for key in removed_parts:
                parts.pop(key, None)
            for source, lid, rec in new_parts.get(rid, []):
                parts[(source, lid)] = rec
            if parts:
                merged[rid] = merge_records([parts[k] for k in sorted(parts)], rid)
        deleted = sorted(rid for rid in affected if rid not in merged and rid in state)
        to_embed = [rid for rid, rec in merged.items() if rid not in state or state[rid][1] != text_hash(rec)]
        changed = [rid for rid, rec in merged.items() if rid not in state or state[rid][0] != rec.content_hash()]
        statuses = {rid: "added" if rid not in state else "updated" for rid in changed}
        vectors: dict[str, np.ndarray] = {}
        if to_embed:
            matrix = self.embedder.embed([merged[rid].embedding_text() for rid in to_embed])
            vectors.update(zip(to_embed, matrix, strict=True))
            self.summary.embedded += len(to_embed)
        keep = [rid for rid in changed if rid not in vectors]
        vectors.update(self.records.vectors(keep))
        upsert_ids = [rid for rid in changed if rid in vectors]
        if upsert_ids:
            with self.records.transaction():
                self.records.set_meta("pending_ids", "\n".join(upsert_ids))
            self.store.upsert(upsert_ids, np.vstack([vectors[r] for r in upsert_ids]),
                              [payload_of(merged[r]) for r in upsert_ids])
            self.store.flush()
        with self.records.transaction():
            if deleted_contributions:
                for source in {s for s, _ in deleted_contributions}:
                    self.records.delete_contributions(source, [lid for s, lid in deleted_contributions if s == source])
            if contribution_rows:
                self.records.put_contributions(contribution_rows)
            if seen is not None and seen[1]:
                self.records.mark_seen(*seen)
            if changed:
                self.records.put_records([(merged[rid], vectors.get(rid)) for rid in changed])
            if deleted:
                self.records.delete_records(deleted)
            if alias_rows:
                self.records.put_aliases(alias_rows)
            if changed or deleted:
                self.records.bump_generation()
            self.records.conn.execute("DELETE FROM meta WHERE key='pending_ids'")
        if deleted:
            self.store.delete(deleted)
            self.store.flush()
            self.summary.removed += len(deleted)
        return statuses


def index_items(
    records: RecordStore,
    store: VectorStore,
    embedder: Embedder,
    items: Iterable[SourceItem],
    source: str,
    skipped: Counter[str] | None = None,
    batch_size: int = 256,
    progress: Callable[[IndexProgress], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    total: int | None = None,
    remove_stale: bool = True,
    legacy_name: str | None = None,
) -> IndexSummary:
    """Index ``items`` under the source identity ``source``; see the module docstring. On a complete
    run, contributions still filed under ``legacy_name`` (the short name older versions used) that
    this source now provides are retired."""
    cancel = cancel or (lambda: False)
    summary = IndexSummary(source=source)
    if skipped is not None:
        summary.skipped = skipped
    started = time.monotonic()
    with records.transaction():
        run = records.start_run(source)
    writer = _BatchWriter(records, store, embedder, summary)
    seen_local: set[str] = set()
    titles: dict[str, str] = {}  # record id -> title, for the DOI/title agreement check
    processed = 0

    for batch in _batches(items, batch_size):
        unique = _unique_items(batch, seen_local, summary)
        stored = records.contribution_hashes(source, list(unique))
        unchanged = [lid for lid, it in unique.items() if lid in stored and stored[lid][0] == it.record.content_hash()]
        summary.unchanged += len(unchanged)
        affected, new_parts, removed_parts, rows, alias_rows = _plan_batch(
            records, unique, stored, set(unchanged), (source, run), titles)
        statuses = writer.apply(affected, new_parts, removed_parts, rows, [], alias_rows, (source, unchanged, run))
        _count_statuses(summary, rows, statuses, stored)
        processed += len(batch)
        with records.transaction():
            records.update_run(run, processed)
        if progress is not None:
            progress(IndexProgress(source, processed, total, time.monotonic() - started, summary.embedded))
        if cancel():
            summary.completed = False
            break

    if summary.completed and remove_stale:
        _remove_stale(records, writer, summary, (source, run), legacy_name, batch_size, cancel)
    # records the source itself rejected count as read too
    summary.read += sum(n for reason, n in summary.skipped.items() if reason != DUPLICATE)
    summary.seconds = time.monotonic() - started
    with records.transaction():
        records.finish_run(run, "completed" if summary.completed else "cancelled", summary.as_dict())
    return summary


def _unique_items(batch: list[SourceItem], seen_local: set[str], summary: IndexSummary) -> dict[str, SourceItem]:
    """The batch's items by local id, without ids already seen in this run (counted as skipped)."""
    unique: dict[str, SourceItem] = {}
    for item in batch:
        summary.read += 1
        if item.local_id in seen_local or item.local_id in unique:
            summary.skipped[DUPLICATE] += 1
            continue
        unique[item.local_id] = item
    seen_local.update(unique)
    return unique


_Parts = dict[str, list[tuple[str, str, PaperRecord]]]
_Rows = list[tuple[str, str, str, str, str, int]]


def _plan_batch(
    records: RecordStore, unique: Mapping[str, SourceItem], stored: Mapping[str, tuple[str, str]],
    unchanged_set: set[str], run_of: tuple[str, int], titles: dict[str, str],
) -> tuple[set[str], _Parts, set[tuple[str, str]], _Rows, list[tuple[str, str]]]:
    """The record each changed item merges into: (affected ids, new parts, removed parts,
    contribution rows, alias rows) for :meth:`_BatchWriter.apply`."""
    source, run = run_of
    pending: dict[str, str] = {}
    new_parts: _Parts = {}
    affected: set[str] = set()
    removed_parts: set[tuple[str, str]] = set()
    rows: _Rows = []
    alias_rows: list[tuple[str, str]] = []
    for lid, item in unique.items():
        if lid in unchanged_set:
            continue
        record = item.record
        found, matched_by = _identity_lookup(records, record, pending)
        target = found or record.id
        # one DOI for two papers, or another file's entry under the same id ("refs:smith20" of a/refs.bib
        # and of b/refs.bib): a paper of another title is kept apart; this entry's own earlier version is not
        if matched_by == "doi" or (not found and stored.get(lid, ("", ""))[1] != target):
            target = _same_paper_target(records, record, target, titles, (source, lid))
        titles.setdefault(target, record.title)
        if lid in stored and stored[lid][1] != target:
            affected.add(stored[lid][1])
            removed_parts.add((source, lid))
        _remember(pending, record, target)
        affected.add(target)
        new_parts.setdefault(target, []).append((source, lid, record))
        rows.append((source, lid, target, record.content_hash(), record_to_json(record), run))
        aliases = (*item.aliases, record.id) if target.split("~")[0] != record.id else item.aliases
        alias_rows.extend((alias, target) for alias in aliases if alias != target)
    return affected, new_parts, removed_parts, rows, alias_rows


def _count_statuses(summary: IndexSummary, rows: _Rows, statuses: Mapping[str, str],
                    stored: Mapping[str, tuple[str, str]]) -> None:
    counted: set[str] = set()
    for _source, lid, target, *_rest in rows:
        status = statuses.get(target) if target not in counted else None
        counted.add(target)
        if status == "added":
            summary.added += 1
        elif status == "updated" and lid in stored:
            summary.updated += 1
        elif lid not in stored:
            summary.merged += 1
        else:
            summary.unchanged += 1


def _remove_stale(records: RecordStore, writer: _BatchWriter, summary: IndexSummary, run_of: tuple[str, int],
                  legacy_name: str | None, batch_size: int, cancel: Callable[[], bool]) -> None:
    """Retire the contributions this complete run no longer provides."""
    source, run = run_of
    stale = [(source, lid, rid) for lid, rid in records.stale_contributions(source, run)]
    if legacy_name and legacy_name != source:  # filed by name before sources had a path identity
        stale += [(legacy_name, lid, rid) for lid, rid in records.shadowed_contributions(legacy_name, source)]
    for start in range(0, len(stale), batch_size):
        if cancel():
            summary.completed = False
            break
        chunk = stale[start:start + batch_size]
        parts = [(name, lid) for name, lid, _ in chunk]
        writer.apply({rid for *_, rid in chunk}, {}, set(parts), [], parts, [], None)
