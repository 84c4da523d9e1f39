"""The knowledge base's source of truth: an SQLite database (WAL) of records, their vectors,
per-source contributions with content hashes, identifier aliases and index runs.

Writes are grouped: one transaction per indexing batch, never one per record. Readers in other
processes see the last committed batch (SQLite WAL snapshot isolation).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np

from relatex.retrieval.records import PaperRecord, normalise_title, work_key

SCHEMA_VERSION = "1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    id TEXT PRIMARY KEY,
    json TEXT NOT NULL,
    hash TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    norm_title TEXT NOT NULL,
    title_key TEXT,
    doi TEXT,
    arxiv TEXT,
    vector BLOB
);
CREATE INDEX IF NOT EXISTS records_doi ON records(doi);
CREATE INDEX IF NOT EXISTS records_arxiv ON records(arxiv);
CREATE INDEX IF NOT EXISTS records_title ON records(norm_title);
CREATE INDEX IF NOT EXISTS records_title_key ON records(title_key);
CREATE TABLE IF NOT EXISTS contributions (
    source TEXT NOT NULL,
    local_id TEXT NOT NULL,
    record_id TEXT NOT NULL,
    hash TEXT NOT NULL,
    json TEXT NOT NULL,
    run INTEGER NOT NULL,
    PRIMARY KEY (source, local_id)
);
CREATE INDEX IF NOT EXISTS contributions_record ON contributions(record_id);
CREATE INDEX IF NOT EXISTS contributions_run ON contributions(source, run);
CREATE TABLE IF NOT EXISTS aliases (alias TEXT PRIMARY KEY, record_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS aliases_record ON aliases(record_id);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    status TEXT NOT NULL,
    processed INTEGER NOT NULL DEFAULT 0,
    summary TEXT
);
"""

_TUPLE_FIELDS = {f.name for f in fields(PaperRecord) if f.name in {"authors", "references", "full_text"}}


def record_to_json(record: PaperRecord) -> str:
    data: dict[str, Any] = {}
    for f in fields(PaperRecord):
        value = getattr(record, f.name)
        if f.name == "bibtex_fields":
            value = dict(value)
        elif f.name in _TUPLE_FIELDS:
            value = list(value)
        if value in (None, "", [], {}) and f.name not in {"id", "title"}:
            continue
        data[f.name] = value
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def record_from_json(text: str) -> PaperRecord:
    data = json.loads(text)
    for name in _TUPLE_FIELDS:
        if name in data:
            data[name] = tuple(data[name])
    if "bibtex_fields" in data:
        data["bibtex_fields"] = dict(data["bibtex_fields"])
    return PaperRecord(**data)


def title_key(record: PaperRecord) -> str | None:
    """:func:`work_key` + year: the last-resort duplicate key."""
    work = work_key(record)
    return None if work is None else f"{work}|{record.year or ''}"


def text_hash(record: PaperRecord) -> str:
    """Hash of the embedded text: a change re-embeds the record, any other change only re-stores it."""
    import hashlib

    return hashlib.sha256(record.embedding_text().encode("utf-8")).hexdigest()


class RecordStore:
    """SQLite access for the knowledge base. Not thread-safe: one instance per thread."""

    def __init__(self, path: Path, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
        if read_only:
            if not path.exists():
                raise FileNotFoundError(f"no knowledge base at {path.parent} (run `relatex index` first)")
            self.conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30, check_same_thread=False)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.executescript(_SCHEMA)
            if self.get_meta("schema") is None:
                self.set_meta("schema", SCHEMA_VERSION)
        self.conn.execute("PRAGMA busy_timeout=30000")

    # -- transactions -------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic batch: everything inside commits together or not at all."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    @contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: several queries see the same committed state."""
        self.conn.execute("BEGIN")
        try:
            yield self.conn
        finally:
            self.conn.execute("COMMIT")

    def close(self) -> None:
        self.conn.close()

    # -- meta ---------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def generation(self) -> int:
        """Incremented by every committed change to records: readers compare it to refresh."""
        return int(self.get_meta("generation") or 0)

    # -- records ------------------------------------------------------------------------------
    def count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM records").fetchone()[0])

    def get(self, record_id: str) -> PaperRecord | None:
        row = self.conn.execute("SELECT json FROM records WHERE id=?", (record_id,)).fetchone()
        return record_from_json(row[0]) if row else None

    def get_many(self, ids: Iterable[str]) -> dict[str, PaperRecord]:
        wanted = list(dict.fromkeys(ids))
        result: dict[str, PaperRecord] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for rid, text in self.conn.execute(f"SELECT id, json FROM records WHERE id IN ({marks})", chunk):
                result[rid] = record_from_json(text)
        return result

    def record_state(self, ids: Iterable[str]) -> dict[str, tuple[str, str]]:
        """(hash, text_hash) of the stored records among ``ids``."""
        wanted = list(dict.fromkeys(ids))
        result: dict[str, tuple[str, str]] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT id, hash, text_hash FROM records WHERE id IN ({marks})"
            for rid, h, th in self.conn.execute(sql, chunk):
                result[rid] = (h, th)
        return result

    def records_after(self, last: str, limit: int) -> list[tuple[str, PaperRecord]]:
        """Up to ``limit`` (id, record) pairs whose ids come after ``last``, in id order."""
        query = "SELECT id, json FROM records WHERE id > ? ORDER BY id LIMIT ?"
        rows = self.conn.execute(query, (last, limit))
        return [(rid, record_from_json(text)) for rid, text in rows.fetchall()]

    def iter_records(self, batch: int = 1000,
                     lock: AbstractContextManager[Any] | None = None) -> Iterator[PaperRecord]:
        """Every record in id order, ``batch`` at a time, each batch read under ``lock`` when given."""
        last = ""
        while True:
            with lock or nullcontext():
                rows = self.records_after(last, batch)
            if not rows:
                return
            yield from (record for _, record in rows)
            last = rows[-1][0]

    def iter_texts(self, batch: int = 5000) -> Iterator[tuple[str, str]]:
        """(id, embedding text) of every record, in id order (for the lexical index)."""
        for record in self.iter_records(batch):
            yield record.id, lexical_text(record)

    def iter_vectors(self, batch: int = 2000) -> Iterator[tuple[list[str], np.ndarray]]:
        last = ""
        while True:
            rows = self.conn.execute(
                "SELECT id, vector FROM records WHERE id > ? AND vector IS NOT NULL ORDER BY id LIMIT ?",
                (last, batch),
            ).fetchall()
            if not rows:
                return
            ids = [r[0] for r in rows]
            yield ids, np.vstack([np.frombuffer(r[1], dtype=np.float32) for r in rows])
            last = ids[-1]

    def all_ids(self) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT id FROM records")}

    def vectors(self, ids: Iterable[str]) -> dict[str, np.ndarray]:
        wanted = list(dict.fromkeys(ids))
        result: dict[str, np.ndarray] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT id, vector FROM records WHERE id IN ({marks}) AND vector IS NOT NULL"
            for rid, blob in self.conn.execute(sql, chunk):
                result[rid] = np.frombuffer(blob, dtype=np.float32).copy()
        return result

    def put_records(self, items: Sequence[tuple[PaperRecord, np.ndarray | None]]) -> None:
        """Insert or replace records with their vectors (call inside :meth:`transaction`)."""
        rows = []
        for record, vector in items:
            rows.append((
                record.id,
                record_to_json(record),
                record.content_hash(),
                text_hash(record),
                normalise_title(record.title),
                title_key(record),
                record.doi,
                record.arxiv_id,
                None if vector is None else np.asarray(vector, dtype=np.float32).tobytes(),
            ))
        self.conn.executemany(
            "INSERT OR REPLACE INTO records(id, json, hash, text_hash, norm_title, title_key, doi, arxiv, vector)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )

    def delete_records(self, ids: Sequence[str]) -> None:
        self.conn.executemany("DELETE FROM records WHERE id=?", [(i,) for i in ids])
        self.conn.executemany("DELETE FROM aliases WHERE record_id=?", [(i,) for i in ids])

    def bump_generation(self) -> None:
        self.set_meta("generation", str(self.generation() + 1))

    # -- identifier lookups ---------------------------------------------------------------------
    def id_by_doi(self, doi: str) -> str | None:
        row = self.conn.execute("SELECT id FROM records WHERE doi=? LIMIT 1", (doi,)).fetchone()
        return row[0] if row else self.resolve_alias(f"doi:{doi}")

    def id_by_arxiv(self, arxiv_id: str) -> str | None:
        row = self.conn.execute("SELECT id FROM records WHERE arxiv=? LIMIT 1", (arxiv_id,)).fetchone()
        return row[0] if row else self.resolve_alias(f"arxiv:{arxiv_id}")

    def id_by_title_key(self, key: str) -> str | None:
        row = self.conn.execute("SELECT id FROM records WHERE title_key=? LIMIT 1", (key,)).fetchone()
        return row[0] if row else None

    def ids_by_title(self, norm_title: str, limit: int) -> list[str]:
        rows = self.conn.execute("SELECT id FROM records WHERE norm_title=? LIMIT ?", (norm_title, limit))
        return [r[0] for r in rows]

    def resolve_alias(self, alias: str) -> str | None:
        row = self.conn.execute("SELECT record_id FROM aliases WHERE alias=?", (alias,)).fetchone()
        return row[0] if row else None

    def put_aliases(self, pairs: Iterable[tuple[str, str]]) -> None:
        self.conn.executemany("INSERT OR REPLACE INTO aliases(alias, record_id) VALUES (?, ?)", list(pairs))

    def aliases_of(self, record_id: str) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT alias FROM aliases WHERE record_id=?", (record_id,))]

    # -- contributions ------------------------------------------------------------------------
    def contribution_hashes(self, source: str, local_ids: Sequence[str]) -> dict[str, tuple[str, str]]:
        """local id -> (content hash, record id) of stored contributions of ``source``."""
        result: dict[str, tuple[str, str]] = {}
        for start in range(0, len(local_ids), 500):
            chunk = list(local_ids[start:start + 500])
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT local_id, hash, record_id FROM contributions WHERE source=? AND local_id IN ({marks})"
            for lid, h, rid in self.conn.execute(sql, [source, *chunk]):
                result[lid] = (h, rid)
        return result

    def contributions_of(self, record_ids: Iterable[str]) -> dict[str, list[tuple[str, str, PaperRecord]]]:
        """record id -> [(source, local id, contributed record)]."""
        wanted = list(dict.fromkeys(record_ids))
        result: dict[str, list[tuple[str, str, PaperRecord]]] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ",".join("?" * len(chunk))
            sql = (f"SELECT record_id, source, local_id, json FROM contributions WHERE record_id IN ({marks})"
                   " ORDER BY source, local_id")
            for rid, source, lid, text in self.conn.execute(sql, chunk):
                result.setdefault(rid, []).append((source, lid, record_from_json(text)))
        return result

    def put_contributions(self, rows: Sequence[tuple[str, str, str, str, str, int]]) -> None:
        """(source, local id, record id, hash, json, run) rows."""
        self.conn.executemany(
            "INSERT OR REPLACE INTO contributions(source, local_id, record_id, hash, json, run)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )

    def mark_seen(self, source: str, local_ids: Sequence[str], run: int) -> None:
        self.conn.executemany(
            "UPDATE contributions SET run=? WHERE source=? AND local_id=?",
            [(run, source, lid) for lid in local_ids],
        )

    def stale_contributions(self, source: str, run: int) -> list[tuple[str, str]]:
        """(local id, record id) of contributions of ``source`` not seen in ``run``."""
        rows = self.conn.execute(
            "SELECT local_id, record_id FROM contributions WHERE source=? AND run<>?", (source, run)
        )
        return [(r[0], r[1]) for r in rows]

    def shadowed_contributions(self, legacy: str, source: str) -> list[tuple[str, str]]:
        """(local id, record id) of contributions filed under ``legacy`` that ``source`` replaces:
        all of them when ``source`` has most of their local ids (the same file, indexed before
        sources were filed by path), else only those it also has."""
        rows = [(r[0], r[1]) for r in self.conn.execute(
            "SELECT local_id, record_id FROM contributions WHERE source=?", (legacy,))]
        if not rows:
            return []
        shared = {r[0] for r in self.conn.execute(
            "SELECT local_id FROM contributions WHERE source=? AND local_id IN "
            "(SELECT local_id FROM contributions WHERE source=?)", (source, legacy))}
        return rows if 2 * len(shared) >= len(rows) else [row for row in rows if row[0] in shared]

    def delete_contributions(self, source: str, local_ids: Sequence[str]) -> None:
        self.conn.executemany(
            "DELETE FROM contributions WHERE source=? AND local_id=?", [(source, lid) for lid in local_ids]
        )

    def sources(self) -> dict[str, int]:
        rows = self.conn.execute("SELECT source, COUNT(*) FROM contributions GROUP BY source")
        return {r[0]: int(r[1]) for r in rows}

    # -- runs ---------------------------------------------------------------------------------
    def start_run(self, source: str) -> int:
        cur = self.conn.execute(
            "INSERT INTO runs(source, started, status) VALUES (?, ?, 'running')", (source, time.time())
        )
        return int(cur.lastrowid or 0)

    def update_run(self, run: int, processed: int) -> None:
        self.conn.execute("UPDATE runs SET processed=? WHERE id=?", (processed, run))

    def finish_run(self, run: int, status: str, summary: Mapping[str, Any]) -> None:
        self.conn.execute(
            "UPDATE runs SET finished=?, status=?, summary=? WHERE id=?",
            (time.time(), status, json.dumps(summary), run),
        )

    def last_runs(self, limit: int = 10) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT id, source, started, finished, status, processed, summary FROM runs ORDER BY id DESC LIMIT ?",
            (limit,),
        )
        keys = ("id", "source", "started", "finished", "status", "processed", "summary")
        return [dict(zip(keys, r, strict=True)) for r in rows]


def lexical_text(record: PaperRecord) -> str:
    """Title, abstract and author keywords: the text BM25 indexes."""
    keywords = record.bibtex_fields.get("keywords", "") if record.bibtex_fields else ""
    text = record.embedding_text()
    return f"{text} {keywords}" if keywords else text
