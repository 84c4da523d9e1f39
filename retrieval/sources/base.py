"""What every record source shares: streaming iteration, skip counting and file access."""

from __future__ import annotations

import gzip
import html
import io
import json
import logging
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from relatex.retrieval.records import PaperRecord

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SourceItem:
    """One record as a source describes it, with the source-local id and extra identifiers.

    ``aliases`` are other names of the same paper (``acl:P02-1040``, ``openalex:W123``,
    ``s2:<paperId>``): the knowledge base resolves them to the record (``find_by_alias``).
    """

    local_id: str
    record: PaperRecord
    aliases: tuple[str, ...] = ()


class RecordSource:
    """A stream of :class:`PaperRecord` from one file or directory, read in constant memory.

    Iterating yields records; :meth:`items` yields :class:`SourceItem` (record + local id +
    aliases). Bad records are skipped and counted in ``skipped`` by reason.
    """

    kind = "records"

    def __init__(self, path: Path, name: str | None = None) -> None:
        self.path = Path(path)
        self.name = name or default_source_name(self.path)
        self.skipped: Counter[str] = Counter()
        self.read = 0

    @property
    def identity(self) -> str:
        """What the knowledge base files this source's contributions under: the resolved path,
        so ``a/refs.bib`` and ``b/refs.bib`` (same name) never replace each other's records."""
        try:
            return str(self.path.resolve())
        except (OSError, RuntimeError):
            return str(self.path.absolute())

    def items(self) -> Iterator[SourceItem]:
        raise NotImplementedError

    def __iter__(self) -> Iterator[PaperRecord]:
        for item in self.items():
            yield item.record

    def estimate_total(self) -> int | None:
        """Number of records (or lines) when cheap to count, for progress ETA; None if unknown."""
        return None

    def limited(self, count: int) -> RecordSource:
        """The same source stopped after ``count`` records (to try a large dump on a slice)."""
        return LimitedSource(self, count)

    def skip(self, reason: str) -> None:
        self.skipped[reason] += 1


def default_source_name(path: Path) -> str:
    """A source name derived from a path: the file name without .bib/.jsonl/.gz suffixes."""
    name = path.name
    for suffix in (".gz", ".jsonl", ".json", ".bib", ".ndjson"):
        name = name.removesuffix(suffix)
    return name or "source"


def open_text(path: Path) -> IO[str]:
    """A text stream of a plain or gzip-compressed UTF-8 file (bad bytes replaced)."""
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


def iter_json_lines(path: Path, source: RecordSource) -> Iterator[dict[str, Any]]:
    """JSON objects of a JSON-lines file; malformed lines are counted and skipped."""
    with open_text(path) as handle:
        for line in handle:
            text = line.strip()
            if not text:
                continue
            source.read += 1
            try:
                value = json.loads(text)
            except ValueError:
                source.skip("malformed JSON line")
                continue
            if not isinstance(value, dict):
                source.skip("JSON line is not an object")
                continue
            yield value


MAX_COUNTED_BYTES = 1 << 30


def count_lines(path: Path, prefix: bytes | None = None) -> int | None:
    """Lines of a (gzip) file, or only those starting with ``prefix``; None for files over 1 GiB
    (counting would take too long just for a progress estimate)."""
    if path.stat().st_size > MAX_COUNTED_BYTES:
        return None
    opener = gzip.open if path.suffix == ".gz" else open
    total = 0
    with opener(path, "rb") as handle:
        for line in handle:
            if prefix is None:
                total += bool(line.strip())
            elif line.startswith(prefix):
                total += 1
    return total


_SPACED_ENTITY = re.compile(r"&\s(quot|amp|lt|gt|apos|#\d+);")


def clean_text(value: Any) -> str | None:
    """A stripped, whitespace-collapsed string with HTML entities decoded ("&quot;", and "& quot;"
    as some dumps spell it), or None when empty / not a string."""
    if not isinstance(value, str):
        return None
    if "&" in value:
        value = html.unescape(_SPACED_ENTITY.sub(r"&\1;", value))
    text = " ".join(value.split())
    return text or None


def parse_year(value: Any) -> int | None:
    """A plausible publication year from an int or a string starting with four digits."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        year = value
    elif isinstance(value, str) and value.strip()[:4].isdigit():
        year = int(value.strip()[:4])
    else:
        return None
    return year if 1000 <= year <= 2100 else None


class LimitedSource(RecordSource):
    """The first ``count`` records of another source (same name, shared skip counter)."""

    def __init__(self, inner: RecordSource, count: int) -> None:
        super().__init__(inner.path, inner.name)
        self.inner = inner
        self.count = count
        self.kind = inner.kind
        self.skipped = inner.skipped

    def items(self) -> Iterator[SourceItem]:
        if self.count <= 0:
            return
        for n, item in enumerate(self.inner.items(), start=1):
            yield item
            if n >= self.count:
                return

    def estimate_total(self) -> int | None:
        return self.count


class JsonLinesSource(RecordSource):
    """A source of JSON objects, one a line (plain or .gz), each converted by :meth:`convert`."""

    def convert(self, obj: dict[str, Any]) -> tuple[PaperRecord, tuple[str, ...]] | str:
        """The record and its aliases (the first is the item's key), or the reason to skip."""
        raise NotImplementedError

    def items(self) -> Iterator[SourceItem]:
        for obj in iter_json_lines(self.path, self):
            result = self.convert(obj)
            if isinstance(result, str):
                self.skip(result)
                continue
            record, aliases = result
            yield SourceItem(aliases[0], record, aliases)

    def estimate_total(self) -> int | None:
        return count_lines(self.path)
