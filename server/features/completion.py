"""Completion inside ``\\cite{...}`` (every cite variant, after a comma too).

First the draft's .bib keys ranked by BM25 of the surrounding sentence against each entry's
title, keywords and abstract (plain prefix order until the index is built), then
knowledge-base papers not yet in the .bib; choosing one of those runs ``relatex.addEntry``,
which appends its rendered BibTeX entry to the draft's bibliography. A reply never waits for the
knowledge-base search: while it runs (in the executor, once per sentence, when the editor pauses
its requests) the list is marked incomplete, and the papers come with the next list the editor asks for.
"""

from __future__ import annotations

import bisect
import gc
import hashlib
import logging
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from relatex.analysis.bib.bib_cache import LONG_LIVED_ENTRIES
from relatex.analysis.bib.bibliography_index import bibs_key
from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.server.documents import uri_to_path
from relatex.server.features.cite_scan import cite_context, rough_plain, sentence_around
from relatex.server.features.completion_suggestions import MAX_KB_ITEMS, KbSuggestions
from relatex.server.features.hover import build_card, snapshot_for
from relatex.workflows.check_project import ProjectSnapshot
from relatex.writing.citation_keys import base_key, detect_key_style, unique_key

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer

log = logging.getLogger(__name__)

#: .bib keys per list (more than an editor shows): a cut list is marked incomplete, so the editor asks again.
MAX_BIB_ITEMS = 20
#: Items whose card is sent with the list; the others get it on ``completionItem/resolve``.
INLINE_CARDS = 2
ADD_ENTRY_COMMAND = "relatex.addEntry"


@dataclass
class KeyRanker:
    """Keys of a set of .bib files: sorted for prefix lookup, plus a BM25 index when built."""

    signature: tuple[str, ...]
    keys: list[str]
    lowered: list[tuple[str, str]]  # (lower-case key, key), sorted
    index: Any = None  # relatex.retrieval.lexical.LexicalIndex over keys
    building: bool = False
    style: str = ""  # the draft's citation-key style (writing.citation_keys)
    dois: frozenset[str] = frozenset()
    cards: dict[str, str] = field(default_factory=dict)  # key -> card of its entry
    details: dict[str, str | None] = field(default_factory=dict)  # key -> detail line

    def card(self, key: str, entry: BibEntry | None) -> str:
        """The hover card of a .bib key for completion (built once per key and contents)."""
        card = self.cards.get(key)
        if card is None:
            card = self.cards[key] = build_card(key, entry, None, None)
        return card

    def detail(self, key: str, entry: BibEntry | None) -> str | None:
        """The item's one-line detail: title and year (built once per key and contents)."""
        if key not in self.details:
            title = (entry.title_plain or entry.get("title", "") or "") if entry else ""
            year = f" ({entry.year})" if entry and entry.year else ""
            self.details[key] = (title[:80] + year) if title else None
        return self.details[key]

    def unique(self, base: str) -> str:
        """``base`` or a suffixed variant no existing key uses (case-insensitively)."""
        clashing = self.by_prefix(base, 10_000)
        if base.lower() not in {k.lower() for k in clashing}:
            return base
        return str(unique_key(base, set(clashing), self.style))

    def by_prefix(self, prefix: str, limit: int) -> list[str]:
        low = prefix.lower()
        start = bisect.bisect_left(self.lowered, (low, ""))
        out: list[str] = []
        for lowered, key in self.lowered[start:]:
            if not lowered.startswith(low) or len(out) >= limit:
                break
            out.append(key)
        return out

    def ranked(self, sentence: str, prefix: str, exclude: set[str], limit: int) -> tuple[list[str], bool]:
        """Keys for the cursor: relevance first, then prefix order; and whether the list is cut."""
        low = prefix.lower()
        chosen: list[str] = []
        if self.index is not None and sentence.strip():
            for key, _score in self.index.best(sentence, k=limit * 3 if not low else 2000):
                if key in exclude or not key.lower().startswith(low):
                    continue
                chosen.append(key)
                if len(chosen) >= limit:
                    break
        seen = set(chosen)
        pool = self.by_prefix(prefix, limit * 2 + len(exclude)) if low else self.keys[: limit * 2 + len(exclude)]
        for key in pool:
            if len(chosen) >= limit:
                break
            if key not in seen and key not in exclude:
                chosen.append(key)
                seen.add(key)
        total = len(self.keys) if not low else len(self.by_prefix(prefix, limit + 1))
        return chosen, total > len(chosen)


_rankers: dict[tuple[str, ...], KeyRanker] = {}
_latest: list[KeyRanker] = []


LARGE_BIBLIOGRAPHY = 20_000  # beyond this many entries, abstracts are left out of the ranking index


def _entry_text(entry: BibEntry, with_abstract: bool = True) -> str:
    parts = [entry.title_plain or entry.get("title", "") or "", entry.get("keywords", "") or "",
             (entry.get("abstract", "") or "")[:400] if with_abstract else ""]
    return " ".join(p for p in parts if p)


def signature_of(snapshot: ProjectSnapshot) -> tuple[str, ...]:
    return tuple(f"{path}:{digest}" for path, digest in bibs_key(snapshot.bibs))


def ranker_for(snapshot: ProjectSnapshot) -> KeyRanker:
    """The key ranker of a snapshot's bibliographies (built once per set of .bib contents)."""
    signature = signature_of(snapshot)
    ranker = _rankers.get(signature)
    if ranker is None:
        entries = snapshot.entries_by_key()
        keys = list(entries)
        style = detect_key_style(keys[:5000])
        ranker = KeyRanker(signature, keys, sorted((k.lower(), k) for k in keys), style=style,
                           dois=frozenset(e.doi.lower() for e in entries.values() if e.doi))
        if len(_rankers) > 4:
            _rankers.clear()
        _rankers[signature] = ranker
        _latest[:] = [ranker]
    return ranker


def current_ranker(snapshot: ProjectSnapshot) -> KeyRanker:
    """The snapshot's ranker when built, else the latest one (keys of a moment ago), else empty."""
    ranker = _rankers.get(signature_of(snapshot))
    if ranker is not None:
        return ranker
    if _latest:
        return _latest[0]
    if len(snapshot.entries_by_key()) <= 5000:
        return ranker_for(snapshot)
    return KeyRanker((), [], [])


#: Up to this many entries, every item's detail line and card are built with the ranking index.
PREPARED_ITEMS = 5000
#: Rankers of at least this many keys are kept on disk (building one takes seconds at 100k).
PERSIST_MIN_KEYS = 5000
KEPT_RANKERS = 4


def build_index(snapshot: ProjectSnapshot, cache_dir: Path | None = None) -> None:
    """Build the key list and BM25 index of a snapshot's entries (background work); with
    ``cache_dir``, large ones are kept on disk and loaded from there after a restart."""
    ranker = ranker_for(snapshot)
    if ranker.index is not None or ranker.building:
        return
    ranker.building = True
    from relatex.retrieval.lexical import LexicalIndex  # background work: imported on first use

    entries = snapshot.entries_by_key()
    stored = None
    if cache_dir is not None and len(entries) >= PERSIST_MIN_KEYS:
        digest = hashlib.sha256("\n".join(ranker.signature).encode("utf-8", "surrogatepass")).hexdigest()[:24]
        stored = cache_dir / f"keys-bm25-{digest}"
        if (stored / "ids.json").is_file():
            try:
                ranker.index = LexicalIndex.load(stored)
            except Exception as exc:  # a damaged cache is rebuilt
                log.warning("completion index cache %s unreadable (%s); rebuilding", stored, exc)
    if ranker.index is None:
        with_abstract = len(entries) <= LARGE_BIBLIOGRAPHY
        ranker.index = LexicalIndex.build((key, _entry_text(entry, with_abstract))
                                                  for key, entry in entries.items())
        if stored is not None:
            _store(ranker.index, stored)
    if len(entries) <= PREPARED_ITEMS:  # each item's detail and card, ready before it is asked for
        for key, entry in entries.items():
            ranker.detail(key, entry)
            ranker.card(key, entry)
    if len(entries) >= LONG_LIVED_ENTRIES:
        gc.freeze()  # the index lives as long as its .bib (see relatex.analysis.bib.bib_cache)


def _store(index: Any, directory: Path) -> None:
    """Keep a ranking index on disk, and only the most recently used few."""
    try:
        directory.parent.mkdir(parents=True, exist_ok=True)
        index.save(directory)
        kept = sorted((p for p in directory.parent.glob("keys-bm25-*") if ".tmp" not in p.name),
                      key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[KEPT_RANKERS:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        log.warning("cannot keep the completion index in %s: %s", directory, exc)


def _item_range(server: RelatexServer, uri: str, start: int, end: int) -> types.Range:
    doc = server.state.document(uri)
    assert doc is not None
    return doc.mapper().range(start, end)


def bib_items(keys: Sequence[str], snapshot: ProjectSnapshot, ranker: KeyRanker, edit: types.Range | None,
              data: dict[str, str] | None) -> list[types.CompletionItem]:
    """The .bib keys as items; the first :data:`INLINE_CARDS` carry their card, the others are resolved
    from ``data`` (None: the list's defaults carry it). ``edit``: the range each item replaces, or None."""
    entries = snapshot.entries_by_key()
    items = []
    for rank, key in enumerate(keys):
        entry = entries.get(key)
        inline = rank < INLINE_CARDS
        items.append(types.CompletionItem(
            label=key,
            kind=types.CompletionItemKind.Reference,
            detail=ranker.detail(key, entry),
            documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=ranker.card(key, entry))
            if inline else None,
            sort_text=f"0{rank:05d}",
            text_edit=types.TextEdit(range=edit, new_text=key) if edit is not None else None,
            data=None if inline else data,
        ))
    return items


def resolve_item(server: RelatexServer, item: types.CompletionItem) -> types.CompletionItem:
    """Fill in the card of a .bib key item sent without one."""
    data = item.data if isinstance(item.data, dict) else None
    if item.documentation is not None or data is None or data.get("relatex") != "bib-key":
        return item
    try:
        snapshot = snapshot_for(server, uri_to_path(str(data.get("uri", ""))))
    except ValueError:
        return item
    if snapshot is None:
        return item
    key = str(data.get("key", item.label))
    entry = snapshot.entries_by_key().get(key)
    item.documentation = types.MarkupContent(kind=types.MarkupKind.Markdown,
                                             value=current_ranker(snapshot).card(key, entry))
    return item


def kb_items(records: Sequence[Any], ranker: KeyRanker, uri: str, edit: types.Range | None,
             prefix: str) -> list[types.CompletionItem]:
    """Knowledge-base papers not yet in the .bib, each adding its entry when chosen (``edit``: see bib_items)."""
    items: list[types.CompletionItem] = []
    proposed: set[str] = set()
    for record in records:
        if len(items) >= MAX_KB_ITEMS:
            break
        if record.doi and record.doi.lower() in ranker.dois:
            continue
        key = ranker.unique(base_key(record, ranker.style))
        if key in proposed:
            continue
        proposed.add(key)
        if prefix and not (key.lower().startswith(prefix.lower()) or prefix.lower() in record.title.lower()):
            continue
        items.append(types.CompletionItem(
            label=key,
            kind=types.CompletionItemKind.Reference,
            detail=f"new from the knowledge base: {record.title[:70]} ({record.year or 'n.d.'})",
            documentation=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                              value=build_card(key, None, record, None).replace(
                                                  f"`{key}` is not defined in the bibliography.",
                                                  "Choosing it adds this entry to the bibliography.")),
            sort_text=f"1{len(items):05d}",
            filter_text=f"{key} {prefix}" if prefix else key,
            text_edit=types.TextEdit(range=edit, new_text=key) if edit is not None else None,
            command=types.Command(title="Add the BibTeX entry", command=ADD_ENTRY_COMMAND,
                                  arguments=[record.id, key, uri]),
        ))
    return items


def list_defaults(server: RelatexServer, rng: types.Range,
                  data: dict[str, str]) -> types.CompletionItemDefaults | None:
    """The range (and the resolve data, when the editor reads that default too) every item
    shares, said once in the list when the editor reads list defaults (LSP 3.17); else None."""
    completion = server.client_capabilities.text_document and server.client_capabilities.text_document.completion
    supported = completion.completion_list.item_defaults if completion and completion.completion_list else None
    if not supported or "editRange" not in supported:
        return None
    return types.CompletionItemDefaults(edit_range=rng, data=data if "data" in supported else None)


def register(server: RelatexServer) -> None:
    suggestions = KbSuggestions()

    def build_logged(snapshot: ProjectSnapshot) -> None:
        try:
            build_index(snapshot, server.settings.bib_cache_dir())
        except Exception as exc:
            server.report_once("completion index", exc)

    def on_snapshot(snapshot: ProjectSnapshot) -> None:
        ranker = _rankers.get(signature_of(snapshot))
        if ranker is None or (ranker.index is None and not ranker.building):
            server.state.executor.submit(build_logged, snapshot)

    server.analysis_hooks.append(on_snapshot)

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=["{", ","], resolve_provider=True))
    @server.guarded("completion")
    def complete(params: types.CompletionParams) -> types.CompletionList | None:
        uri = params.text_document.uri
        doc = server.state.document(uri)
        if doc is None:
            return None
        offset = doc.mapper().offset(params.position)
        snapshot = snapshot_for(server, uri_to_path(uri))
        macros = snapshot.project.cite_macros if snapshot is not None and snapshot.project is not None else ()
        ctx = cite_context(doc.text, offset, macros)
        if ctx is None:
            return None
        if snapshot is None:
            return types.CompletionList(is_incomplete=True, items=[])
        start, end = sentence_around(doc.text, offset)
        sentence = rough_plain(doc.text[start:end])
        rng = _item_range(server, uri, ctx.prefix_start, ctx.key_end)
        ranker = current_ranker(snapshot)
        indexed = ranker.index is not None
        keys, cut = ranker.ranked(sentence, ctx.prefix, set(ctx.existing), MAX_BIB_ITEMS)
        data = {"relatex": "bib-key", "uri": uri}
        defaults = list_defaults(server, rng, data)
        edit = None if defaults is not None or rng.start == rng.end else rng
        items = bib_items(keys, snapshot, ranker, edit, None if defaults is not None and defaults.data else data)
        records, pending = suggestions.lookup(server, sentence)
        if records is None and pending is not None:
            cut = True  # the knowledge-base papers come with the next list the editor asks for
        items.extend(kb_items(records or [], ranker, uri, edit, ctx.prefix))
        return types.CompletionList(is_incomplete=cut or not indexed, item_defaults=defaults, items=items)

    @server.feature(types.COMPLETION_ITEM_RESOLVE)
    def resolve(item: types.CompletionItem) -> types.CompletionItem:
        try:
            return resolve_item(server, item)
        except Exception as exc:  # the item as sent is still a valid answer
            server.report_once("completion", exc)
            return item
