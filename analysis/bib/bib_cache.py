"""The on-disk cache of parsed .bib files, shared by the CLI and the language server.

Per .bib file it keeps the parsed file (a pickle named by path and content hash) and a small
key summary: the file's size and modification time, its content hash and its citation keys.
With the summary an editor restarted on an unchanged 100k-entry file knows at once which keys
exist (enough for the first diagnostics of a draft) and loads the parsed file without reading
and hashing the text again. The cache is pruned to the most recently used files.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import hashlib
import logging
import marshal
import os
import pickle
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from relatex.analysis.bib.bibtex_model import BibEntry, BibFile

log = logging.getLogger(__name__)

DISK_FORMAT = 3  # 3: % comment lines inside entries, repeated fields reported
#: Parsed files kept per cache directory (least recently used deleted first).
MAX_PARSED_FILES = 32

StatSignature = tuple[int, int]  # (mtime_ns, size)


def stat_signature(path: Path) -> StatSignature | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def _path_id(path: Path) -> str:
    return hashlib.sha256(str(path).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def parsed_path(cache_dir: Path, path: Path, digest: str) -> Path:
    return cache_dir / f"bib-{DISK_FORMAT}-{_path_id(path)}-{digest[:32]}.pickle"


def summary_path(cache_dir: Path, path: Path) -> Path:
    return cache_dir / f"keys-{DISK_FORMAT}-{_path_id(path)}.marshal"


@dataclass(frozen=True)
class KeySummary:
    """The citation keys of a .bib file as it was when last parsed."""

    path: Path
    signature: StatSignature
    digest: str
    keys: tuple[str, ...]


#: Entries and characters of text per pickled piece. A parsed 100k-entry file is a few hundred
#: MB of objects; loading it in pieces lets other threads (the editor's requests) run between
#: them instead of waiting for one long call that holds the GIL.
ENTRIES_PER_PIECE = 2000
#: Files with at least this many entries are kept out of the cyclic garbage collector once loaded.
LONG_LIVED_ENTRIES = 10_000
TEXT_PER_PIECE = 1 << 22


def _write_pieces(bib: BibFile, handle: BinaryIO) -> None:
    text_pieces = [bib.text[i:i + TEXT_PER_PIECE] for i in range(0, len(bib.text), TEXT_PER_PIECE)]
    entry_pieces = [bib.entries[i:i + ENTRIES_PER_PIECE] for i in range(0, len(bib.entries), ENTRIES_PER_PIECE)]
    dump = functools.partial(pickle.dump, file=handle, protocol=pickle.HIGHEST_PROTOCOL)
    dump(("relatex-bib", DISK_FORMAT, len(text_pieces), len(entry_pieces)))
    dump(dataclasses.replace(bib, text="", entries=()))
    for piece in text_pieces:
        dump(piece)
    for entries in entry_pieces:
        dump(entries)


def _read_pieces(handle: BinaryIO) -> BibFile | None:
    magic, version, text_count, entry_count = pickle.load(handle)
    if magic != "relatex-bib" or version != DISK_FORMAT:
        return None
    head = pickle.load(handle)
    if not isinstance(head, BibFile):
        return None
    text = "".join(pickle.load(handle) for _ in range(text_count))
    entries: list[BibEntry] = []
    for _ in range(entry_count):
        entries.extend(pickle.load(handle))
    return dataclasses.replace(head, text=text, entries=tuple(entries))


def load_parsed(cache_dir: Path, path: Path, digest: str) -> BibFile | None:
    """The parsed file of ``path`` with content ``digest`` (None when not cached or unreadable)."""
    target = parsed_path(cache_dir, path, digest)
    gc_was_enabled = gc.isenabled()
    gc.disable()  # millions of small objects without cycles: the collector would only slow this
    bib = None
    try:
        with open(target, "rb") as handle:
            bib = _read_pieces(handle)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None
    finally:
        if gc_was_enabled:
            if bib is not None and len(bib.entries) >= LONG_LIVED_ENTRIES:
                gc.freeze()  # else the next collection walks the millions of objects just made
            gc.enable()
    if bib is None or bib.content_hash != digest:
        return None
    touch(target)
    return bib


def save_parsed(cache_dir: Path, bib: BibFile, signature: StatSignature | None) -> None:
    """Keep ``bib`` on disk (replacing older versions of the same path) with its key summary."""
    target = parsed_path(cache_dir, bib.path, bib.content_hash)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        for old in cache_dir.glob(target.name.rsplit("-", 1)[0] + "-*.pickle"):
            if old != target:
                old.unlink(missing_ok=True)
        atomic_write(target, lambda handle: _write_pieces(bib, handle))
        if signature is not None:
            save_summary(cache_dir, bib, signature)
        prune(cache_dir, "bib-*.pickle", MAX_PARSED_FILES)
        prune(cache_dir, "keys-*.marshal", MAX_PARSED_FILES * 2)
    except OSError as exc:
        log.warning("cannot write the BibTeX cache %s: %s", target, exc)


def save_summary(cache_dir: Path, bib: BibFile, signature: StatSignature) -> None:
    """Record that the file with ``signature`` has ``bib``'s content and keys."""
    keys = tuple(dict.fromkeys(entry.key for entry in bib.entries))
    payload = (DISK_FORMAT, str(bib.path), signature, bib.content_hash, keys)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        data = marshal.dumps(payload)
        atomic_write(summary_path(cache_dir, bib.path), lambda handle: handle.write(data))
    except OSError as exc:
        log.warning("cannot write the BibTeX key summary for %s: %s", bib.path, exc)


def load_summary(cache_dir: Path, path: Path) -> KeySummary | None:
    """The key summary of ``path`` when the file is unchanged since it was written, else None."""
    signature = stat_signature(path)
    if signature is None:
        return None
    try:
        payload = marshal.loads(summary_path(cache_dir, path).read_bytes())
        version, stored_path, stored_signature, digest, keys = payload
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if version != DISK_FORMAT or stored_path != str(path) or tuple(stored_signature) != signature:
        return None
    if not isinstance(digest, str) or not isinstance(keys, tuple):
        return None
    return KeySummary(path, signature, digest, keys)


def atomic_write(target: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write through a temporary file and rename: readers never see a partial file."""
    tmp = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            write(handle)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def touch(target: Path) -> None:
    try:
        os.utime(target)  # most recently used: pruned last
    except OSError:
        pass


def prune(cache_dir: Path, pattern: str, keep: int) -> None:
    """Delete all but the ``keep`` most recently used files matching ``pattern``."""
    files: list[tuple[int, Path]] = []
    for path in cache_dir.glob(pattern):
        try:
            files.append((path.stat().st_mtime_ns, path))
        except OSError:
            continue
    files.sort(reverse=True)
    for _, path in files[keep:]:
        path.unlink(missing_ok=True)
