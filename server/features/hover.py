"""Hover cards on citation keys (in .tex) and on entries (in .bib).

The card is Markdown: title, authors, year, venue, DOI/arXiv links, a short summary, the
verification verdict and, for the sentence under the cursor, the support verdict with its
evidence. The handler only reads what the syntax and background passes computed: no I/O.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.retrieval.records import PaperRecord
from relatex.server.documents import uri_to_path
from relatex.server.features.cite_scan import KeyAt, bib_key_at, cite_key_at
from relatex.server.features.markup import markup_for
from relatex.server.positions import PositionMapper
from relatex.server.roots import BackgroundResults
from relatex.workflows.check_project import ProjectSnapshot

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer

CONTRIBUTION = re.compile(
    r"\b(we|this (paper|work|article|study)|our|here)\b[^.]*\b(propos|present|introduc|describ|develop|show|"
    r"demonstrat|investigat|stud|address|report|find|found)",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
VERDICT_TEXT = {
    "verified": "\u2714 verified",
    "mismatch": "\u26a0 differs from the authority",
    "preprint": "\u2139 preprint (a published version exists)",
    "not_found": "? not found in any authority",
    "absent": "not in the knowledge base (not checked online)",
    "ambiguous": "? several candidate records",
    "unchecked": "not checked",
}
SUPPORT_TEXT = {
    "supported": "\u2714 supported",
    "partially_supported": "\u25d1 partially supported",
    "not_addressed": "\u2718 not addressed by the cited paper",
    "contradicted": "\u2718 contradicted",
    "unknown": "? unknown (no abstract)",
}


def _clean(value: str) -> str:
    value = re.sub(r"\\[A-Za-z]+\s*", "", value)
    return " ".join(value.replace("{", "").replace("}", "").split())


def contribution_summary(abstract: str | None, max_chars: int = 320) -> str | None:
    """The abstract's first contribution sentence (plus the next one when short)."""
    if not abstract:
        return None
    sentences = [s.strip() for s in _SENTENCE.split(_clean(abstract)) if s.strip()]
    if not sentences:
        return None
    index = next((i for i, s in enumerate(sentences) if CONTRIBUTION.search(s)), 0)
    summary = sentences[index]
    if len(summary) < 120 and index + 1 < len(sentences):
        summary += " " + sentences[index + 1]
    return summary if len(summary) <= max_chars else summary[: max_chars - 1].rstrip() + "\u2026"


def _display_name(name: str) -> str:
    """'Last, First' (BibTeX order) as 'First Last'; 'Last, Jr, First' as 'First Last Jr'."""
    parts = [p.strip() for p in _clean(name).split(",")]
    if len(parts) == 2 and parts[1]:
        return f"{parts[1]} {parts[0]}"
    if len(parts) == 3 and parts[2]:
        return f"{parts[2]} {parts[0]} {parts[1]}"
    return ", ".join(p for p in parts if p)


def _authors(names: tuple[str, ...] | list[str], limit: int = 6) -> str:
    shown = [_display_name(n) for n in names[:limit]]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(shown) + more


def build_card(key: str, entry: BibEntry | None, record: PaperRecord | None, verdict: Any,
               support: Any = None, llm_summary: str | None = None) -> str:
    """The Markdown card of one cited work."""
    title = _clean((entry.title_plain or entry.get("title", "") or "") if entry else "") or (record.title if record else "")
    authors = tuple(entry.authors) if entry and entry.authors else (record.authors if record else ())
    year = (entry.year if entry else None) or (record.year if record else None)
    venue = ""
    if entry is not None:
        venue = _clean(entry.get("journal") or entry.get("booktitle") or entry.get("publisher") or "")
    if not venue and record is not None:
        venue = record.venue or ""
    doi = (entry.doi if entry else None) or (record.doi if record else None)
    arxiv = (entry.arxiv_id if entry else None) or (record.arxiv_id if record else None)
    abstract = (record.abstract if record else None) or (entry.get("abstract") if entry else None)
    lines = [f"**{title or key}**", ""]
    meta = " \u00b7 ".join(x for x in (_authors(authors), str(year) if year else "", venue) if x)
    if meta:
        lines += [meta, ""]
    links = []
    if doi:
        links.append(f"[doi:{doi}](https://doi.org/{doi})")
    if arxiv:
        links.append(f"[arXiv:{arxiv}](https://arxiv.org/abs/{arxiv})")
    if links:
        lines += [" \u00b7 ".join(links), ""]
    summary = llm_summary or contribution_summary(abstract)
    if summary:
        lines += [f"> {summary}", ""]
    if entry is None:
        lines += [f"`{key}` is not defined in the bibliography.", ""]
    if verdict is not None:
        status = getattr(verdict, "status", "unchecked")
        text = VERDICT_TEXT.get(status, status)
        evidence = getattr(verdict, "evidence", ()) or ()
        source = getattr(evidence[0], "source", "") if evidence else ""
        line = f"**Bibliography:** {text}" + (f" ({source})" if source else "")
        mismatches = getattr(verdict, "mismatches", ()) or ()
        if mismatches:
            fields = ", ".join(getattr(m, "field", str(m)) for m in mismatches)
            line += f" \u2014 fields: {fields}"
        lines += [line, ""]
    if support is not None:
        label = SUPPORT_TEXT.get(support.label, support.label)
        lines.append(f"**This sentence:** {label} (score {support.score:.2f})")
        if support.evidence:
            lines.append(f"> \u201c{support.evidence}\u201d")
        lines.append("")
    lines.append(f"`{key}`")
    return "\n".join(lines).strip()


def support_for(background: BackgroundResults | None, snapshot: ProjectSnapshot, path: Path, offset: int,
                current_text: str, key: str) -> Any:
    """The support verdict of ``key`` in the claim under the cursor (when the text is current)."""
    if background is None or snapshot.texts.get(path) != current_text:
        return None
    for result in background.claims:
        claim = result.claim
        if claim.path == path and claim.start <= offset <= claim.end and key in claim.keys:
            return result.per_key.get(key) or result.verdict
    return None


def snapshot_for(server: RelatexServer, path: Path) -> ProjectSnapshot | None:
    """The latest snapshot of a project that contains ``path``."""
    return server.state.roots.snapshot_for(path)


def key_at_cursor(snapshot: ProjectSnapshot | None, path: Path, text: str, offset: int) -> KeyAt | None:
    """The citation key (or .bib entry key) at ``offset`` of the editor's current text.

    The text scan knows the usual citation commands; the author's own (``\\newcommand{\\pc}``
    citing its argument) are known to the project model, used while it matches the text.
    """
    if path.name.endswith((".bib", ".bib.gz")):
        return bib_key_at(text, offset)
    found = cite_key_at(text, offset)
    if found is not None or snapshot is None or snapshot.project is None or snapshot.texts.get(path) != text:
        return found
    for site in snapshot.project.citations:
        if site.path == path and site.start <= offset <= site.end:
            for key in site.keys:
                if key.start <= offset <= key.end:
                    return KeyAt(key.key, key.start, key.end)
    return None


def card_for(server: RelatexServer, path: Path, text: str, offset: int) -> tuple[str, KeyAt] | None:
    snapshot = snapshot_for(server, path)
    is_bib = path.name.endswith((".bib", ".bib.gz"))
    key_at = key_at_cursor(snapshot, path, text, offset)
    if key_at is None or snapshot is None:
        return None
    key = key_at.key
    entry = snapshot.entries_by_key().get(key)
    background = server.state.roots.background.get(snapshot.root)
    record = background.records.get(key) if background else None
    verdict = background.verdicts.get(key) if background else None
    support = None if is_bib else support_for(background, snapshot, path, offset, text, key)
    # the model's summary (cached by the background pass) only while a model is configured
    use_llm = record is not None and server.settings.llm.provider != "none"
    llm_summary = server.state.caches.summaries.get(record.id) if record is not None and use_llm else None
    return build_card(key, entry, record, verdict, support, llm_summary), key_at


def register(server: RelatexServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @server.guarded("hover")
    def hover(params: types.HoverParams) -> types.Hover | None:
        doc = server.state.document(params.text_document.uri)
        path = uri_to_path(params.text_document.uri)
        text = doc.text if doc is not None else server.state.text_of(path)
        if text is None:
            return None
        mapper = doc.mapper() if doc is not None else PositionMapper(text)
        found = card_for(server, path, text, mapper.offset(params.position))
        if found is None:
            return None
        card, key_at = found
        return types.Hover(
            contents=markup_for(server.client_capabilities, card),
            range=mapper.range(key_at.start, key_at.end),
        )
