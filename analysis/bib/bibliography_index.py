"""What the checks of a draft need to know about its bibliographies, computed once per content.

A thesis with a 100k-entry .bib is re-checked after every keystroke in a chapter; everything
that depends on the .bib files alone (which keys exist, one entry per file and key, parse
errors, duplicate keys and works) is built once per set of contents and remembered, in memory
and, for large files, on disk, so an editor restarted on the same files finds it at once.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import logging
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from relatex.analysis.bib.bib_cache import atomic_write, prune, touch
from relatex.analysis.bib.bib_duplicates import duplicate_key_findings, duplicate_work_findings
from relatex.analysis.bib.bibtex_model import BibEntry, BibFile
from relatex.analysis.findings import Finding

log = logging.getLogger(__name__)

#: Bibliographies with at least this many entries keep their findings on disk.
PERSIST_MIN_ENTRIES = 2000
#: Findings files kept in a cache directory (the least recently used go first).
MAX_FINDINGS_FILES = 16
_DISK_FORMAT = 2  # 2: one duplicate-key finding per key

BibsKey = tuple[tuple[str, str], ...]
V = TypeVar("V")


class ContentMemo(Generic[V]):
    """The last few values computed from sets of bibliographies, by their contents (thread-safe;
    a value is built outside the lock, so two threads may build the same one once each)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[BibsKey, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: BibsKey, build: Callable[[], V]) -> V:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
                return value
        value = build()
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.size:
                self._values.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._values.clear()


def bibs_key(bibs: Mapping[Path, BibFile]) -> BibsKey:
    """The identity of a set of bibliographies: each path with its content hash."""
    return tuple(sorted(
        (str(path), bib.content_hash or hashlib.sha256(bib.text.encode("utf-8", "surrogatepass")).hexdigest())
        for path, bib in bibs.items()
    ))


@dataclass(frozen=True)
class BibliographyIndex:
    """Keys, entries and file-level findings of a set of .bib files (read-only once built)."""

    key: BibsKey
    defined: dict[str, BibEntry]  # first entry of each key, over all files
    by_key: dict[str, list[BibEntry]]  # every entry of each key (duplicates included)
    unique: tuple[BibEntry, ...]  # one entry per (file, key), in file order
    unique_count: dict[str, int]  # key -> number of files defining it
    malformed: frozenset[tuple[Path, int]]  # (path, start) of entries read after a parse error
    file_findings: tuple[Finding, ...]  # parse errors, duplicate keys, duplicate works

    @functools.cached_property
    def folded_keys(self) -> dict[str, str]:
        """Case-folded key -> the defined key (computed on first use: 0.1 s at 100k keys)."""
        return {key.casefold(): key for key in self.defined}


def _build(bibs: Mapping[Path, BibFile], key: BibsKey, findings: tuple[Finding, ...]) -> BibliographyIndex:
    defined: dict[str, BibEntry] = {}
    by_key: dict[str, list[BibEntry]] = {}
    unique: list[BibEntry] = []
    unique_count: dict[str, int] = {}
    for bib in bibs.values():
        seen: set[str] = set()
        for entry in bib.entries:
            entries = by_key.get(entry.key)
            if entries is None:
                by_key[entry.key] = [entry]
                defined[entry.key] = entry
            else:
                entries.append(entry)
            if entry.key not in seen:
                seen.add(entry.key)
                unique.append(entry)
                unique_count[entry.key] = unique_count.get(entry.key, 0) + 1
    malformed = frozenset((f.path, int(f.data["entry_start"])) for bib in bibs.values() for f in bib.findings
                          if "entry_start" in f.data)
    return BibliographyIndex(key, defined, by_key, tuple(unique), unique_count, malformed, findings)


def compute_file_findings(bibs: Mapping[Path, BibFile]) -> list[Finding]:
    """Parse errors, duplicate keys and duplicate works of the files (seconds for 100k entries)."""
    findings: list[Finding] = []
    for bib in bibs.values():
        findings.extend(bib.findings)
    findings.extend(duplicate_key_findings(bibs))
    findings.extend(duplicate_work_findings(bibs))
    return findings


_MEMO: ContentMemo[BibliographyIndex] = ContentMemo(8)


def bibliography_index(bibs: Mapping[Path, BibFile], cache_dir: Path | None = None) -> BibliographyIndex:
    """The index of ``bibs`` (remembered per content; file findings also under ``cache_dir``)."""
    key = bibs_key(bibs)

    def build() -> BibliographyIndex:
        total = sum(len(bib.entries) for bib in bibs.values())
        persist = cache_dir if total >= PERSIST_MIN_ENTRIES else None
        findings = _load_findings(persist, key) if persist is not None else None
        if findings is None:
            findings = tuple(compute_file_findings(bibs))
            if persist is not None:
                _save_findings(persist, key, findings)
        return _build(bibs, key, findings)

    return _MEMO.get(key, build)


def clear_memo() -> None:
    """Forget the indexes held in memory (the disk copies stay)."""
    _MEMO.clear()


def _findings_path(cache_dir: Path, key: BibsKey) -> Path:
    digest = hashlib.sha256(repr(key).encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return cache_dir / f"findings-{_DISK_FORMAT}-{digest}.pickle"


def _load_findings(cache_dir: Path, key: BibsKey) -> tuple[Finding, ...] | None:
    target = _findings_path(cache_dir, key)
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        with open(target, "rb") as handle:
            stored_key, findings = pickle.load(handle)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None
    finally:
        if gc_was_enabled:
            gc.enable()
    if stored_key != key or not isinstance(findings, tuple):
        return None
    touch(target)  # most recently used: pruned last
    return findings


def _save_findings(cache_dir: Path, key: BibsKey, findings: tuple[Finding, ...]) -> None:
    target = _findings_path(cache_dir, key)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        atomic_write(target, lambda handle: pickle.dump((key, findings), handle, protocol=pickle.HIGHEST_PROTOCOL))
        prune(cache_dir, "findings-*.pickle", MAX_FINDINGS_FILES)
    except OSError as exc:
        log.warning("cannot write the bibliography findings cache %s: %s", target, exc)
