"""Reading .bib files: exact entry ranges, normalised fields, @string macros, parse findings.

:class:`~relatex.analysis.bib.bibtex_scan.BlockScanner` finds every ``@type{...}`` block with its
exact source range and reads its fields (bibtexparser 2 is the fallback for blocks the fast
parser rejects). Broken blocks become ``bib-parse-error`` findings and the rest of the file
still loads. Parsed files are cached (same text, unchanged file, content hash; optionally on
disk); big files can be streamed with constant memory.
"""

from __future__ import annotations

import gc
import gzip
import hashlib
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path

from relatex.analysis.bib import bib_cache
from relatex.analysis.bib.bib_cache import StatSignature, stat_signature
from relatex.analysis.bib.bibtex_decode import decode_latex, split_names
from relatex.analysis.bib.bibtex_entry import MONTHS, make_entry
from relatex.analysis.bib.bibtex_model import BibEntry, BibFile
from relatex.analysis.bib.bibtex_scan import BlockScanner
from relatex.analysis.findings import Finding
from relatex.analysis.text_files import decode_text

__all__ = [
    "MONTHS",
    "decode_latex",
    "split_names",
    "make_entry",
    "parse_bib_text",
    "load_bib_file",
    "iter_bib_blocks",
    "iter_bib_entries",
    "read_bib_text",
    "content_hash",
    "clear_cache",
    "quick_keys",
]

log = logging.getLogger(__name__)


# -- public API -------------------------------------------------------------------------------


def parse_bib_text(text: str, path: Path, digest: str | None = None) -> BibFile:
    """Parse the text of a .bib file. Never raises: broken blocks become findings."""
    strings: dict[str, str] = {}
    scanner = BlockScanner(text, path, strings)
    entries: list[BibEntry] = []
    findings: list[Finding] = []
    # The cyclic collector would repeatedly walk the growing list of entries (which hold no
    # cycles); pausing it keeps loading linear on very large files.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for item in scanner.scan(0, final=True):
            if isinstance(item, BibEntry):
                entries.append(item)
            else:
                findings.append(item)
    finally:
        if gc_was_enabled:
            if len(entries) >= bib_cache.LONG_LIVED_ENTRIES:
                gc.freeze()  # else the next collection walks the millions of objects just made
            gc.enable()
    return BibFile(
        path=path,
        text=text,
        entries=tuple(entries),
        strings=dict(strings),
        findings=tuple(findings),
        content_hash=digest or content_hash(text),
    )


_QUICK_KEY = re.compile(rb"@(?!comment\b|string\b|preamble\b)[A-Za-z]+\s*(?:\{\s*([^,\s{}]+)|\(\s*([^,\s{}()]+))\s*,",
                        re.IGNORECASE)


def quick_keys(path: Path) -> set[str]:
    """The citation keys of a .bib or .bib.gz file by a scan of its bytes, without parsing it
    (about a second for 170 MB, a tenth of a full parse): enough to check a draft's citations
    while the file is being parsed. It finds every key the parser finds and may also see one
    written inside an ``@comment`` block. Raises OSError when the file cannot be read."""
    if path.name.endswith(".gz"):
        with gzip.open(path, "rb") as handle:
            data = handle.read()
    else:
        data = path.read_bytes()
    return {(m.group(1) or m.group(2)).decode("utf-8", "replace") for m in _QUICK_KEY.finditer(data)}


def content_hash(text: str) -> str:
    """SHA-256 of a text (its UTF-8 bytes), the cache key of a parsed file."""
    digest = hashlib.sha256()
    step = 1 << 22  # hash in slices: no second full-size copy of a large file
    for start in range(0, len(text), step):
        digest.update(text[start:start + step].encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _open_text(path: Path):  # type: ignore[no-untyped-def]
    if path.name.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", errors="replace", newline="")
    return open(path, encoding="utf-8", errors="replace", newline="")


def read_bib_text(path: Path) -> str:
    """The text of a .bib or .bib.gz file (a .bib that is not UTF-8 is read as Latin-1, as
    :func:`relatex.analysis.text_files.decode_text` does; never raises for bad content;
    raises OSError when the file cannot be read)."""
    if not path.name.endswith(".gz"):
        return decode_text(path.read_bytes())[0]
    with _open_text(path) as handle:
        return str(handle.read())


_CACHE_SIZE = 8
_cache: OrderedDict[tuple[str, str], BibFile] = OrderedDict()
_latest: dict[str, tuple[BibFile, tuple[int, int] | None]] = {}  # path -> (file, (mtime_ns, size))
_cache_lock = threading.Lock()


def clear_cache() -> None:
    """Forget every parsed file held in memory."""
    with _cache_lock:
        _cache.clear()
        _latest.clear()


def load_bib_file(path: Path, text: str | None = None, cache_dir: Path | None = None) -> BibFile:
    """Parse a .bib file (``text`` overrides the file, e.g. unsaved editor text).

    Results are cached: the same text as last time for this path (compared directly), an
    unchanged file on disk (same mtime and size) or known content (same hash) are returned at
    once. With ``cache_dir``, parsed files are also kept on disk across processes (see
    :mod:`relatex.analysis.bib.bib_cache`). Raises OSError only when ``text`` is None and the file
    cannot be read.
    """
    name = str(path)
    signature: StatSignature | None = None
    if text is None:
        signature = stat_signature(path)
        with _cache_lock:
            latest = _latest.get(name)
        if latest is not None and signature is not None and latest[1] == signature:
            return latest[0]
        if cache_dir is not None and signature is not None:
            known = _load_unchanged(cache_dir, path, signature)
            if known is not None:
                return known
        text = read_bib_text(path)
    else:
        with _cache_lock:
            latest = _latest.get(name)
        if latest is not None and (latest[0].text is text or latest[0].text == text):
            return latest[0]
    digest = content_hash(text)
    with _cache_lock:
        cached = _cache.get((name, digest))
    if cached is not None:
        _remember(name, cached, signature)
        return cached
    bib = bib_cache.load_parsed(cache_dir, path, digest) if cache_dir is not None else None
    if bib is None or bib.text != text:
        bib = parse_bib_text(text, path, digest)
        if cache_dir is not None:
            bib_cache.save_parsed(cache_dir, bib, signature)
    elif cache_dir is not None and signature is not None:
        bib_cache.save_summary(cache_dir, bib, signature)  # same content, new mtime
    return _remember(name, bib, signature)


def _load_unchanged(cache_dir: Path, path: Path, signature: StatSignature) -> BibFile | None:
    """The parsed file from the disk cache when the file is unchanged since (no read, no hash)."""
    summary = bib_cache.load_summary(cache_dir, path)
    if summary is None or summary.signature != signature:
        return None
    with _cache_lock:
        cached = _cache.get((str(path), summary.digest))
    bib = cached or bib_cache.load_parsed(cache_dir, path, summary.digest)
    return _remember(str(path), bib, signature) if bib is not None else None


def _remember(name: str, bib: BibFile, signature: StatSignature | None) -> BibFile:
    """Keep ``bib`` as the latest of ``name``; returns the one object kept for its content (two
    threads that loaded the same file at once get the same object, not two equal copies)."""
    with _cache_lock:
        key = (name, bib.content_hash)
        bib = _cache.get(key, bib)
        _cache[key] = bib
        _cache.move_to_end(key)
        _latest[name] = (bib, signature)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
        live = {id(b) for b in _cache.values()}
        for stale in [k for k, (b, _) in _latest.items() if id(b) not in live]:
            del _latest[stale]
    return bib


_CHUNK = 1 << 20


def iter_bib_blocks(path: Path, chunk_size: int = _CHUNK) -> Iterator[BibEntry | Finding]:
    """Stream the entries and parse-error findings of a .bib or .bib.gz file, in file order,
    with constant memory (one chunk plus the largest block). Offsets are character offsets
    in the whole (decompressed) text, as :func:`parse_bib_text` would give."""
    strings: dict[str, str] = {}
    with _open_text(path) as handle:
        buffer = ""
        base = 0
        line = 1
        clean = True
        eof = False
        while not eof:
            chunk = handle.read(chunk_size)
            eof = not chunk
            buffer += chunk
            scanner = BlockScanner(buffer, path, strings, base=base, first_line=line, clean_line_start=clean)
            yield from scanner.scan(0, final=eof)
            if eof:
                return
            keep_from = scanner.stopped_at if scanner.stopped_at is not None else len(buffer)
            if scanner.stopped_at is None:
                # keep a possible partial "@type" header at the end of the buffer
                tail = buffer.rfind("@", max(0, len(buffer) - 64))
                if tail >= 0 and not buffer[tail + 1:].strip(" \t"):
                    keep_from = tail
            line_start = buffer.rfind("\n", 0, keep_from) + 1
            clean = buffer[line_start:keep_from].strip() == "" and (line_start > 0 or clean)
            line += buffer.count("\n", 0, keep_from)
            base += keep_from
            buffer = buffer[keep_from:]


def iter_bib_entries(path: Path, chunk_size: int = _CHUNK) -> Iterator[BibEntry]:
    """Stream the entries of a .bib or .bib.gz file (malformed blocks are skipped)."""
    for item in iter_bib_blocks(path, chunk_size):
        if isinstance(item, BibEntry):
            yield item
