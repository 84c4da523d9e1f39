"""Identity of the work behind a BibTeX entry: DOI, arXiv id, normalised title + first author.

Used to detect the same paper cited under two keys, and to match a user's entry to a record
of the knowledge base or an authority. The normalisers mirror those of the knowledge base
(which lives in ``retrieval``) so that both sides compare the same strings.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from relatex.analysis.bib.bibtex_model import BibEntry

_DOI_PREFIX = re.compile(r"^(https?://)?(dx\.)?doi\.org/", re.I)
_DOI_IN_TEXT = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>{}]+)", re.I)
_ARXIV_NEW = re.compile(r"(\d{4}\.\d{4,5})(v\d+)?")
_ARXIV_OLD = re.compile(r"([a-z\-]+(\.[A-Z]{2})?/\d{7})(v\d+)?")
_ARXIV_IN_TEXT = re.compile(
    r"(?:arxiv(?:\s+preprint)?\s*(?:abs/)?:?\s*|arxiv\.org/(?:abs|pdf)/|corr\s*abs/|10\.48550/arxiv\.)"
    r"(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})",
    re.I,
)


def normalise_doi(doi: str | None) -> str | None:
    """A DOI without resolver prefix, lower-cased; None when it is not a DOI."""
    if not doi:
        return None
    value = doi.strip().lower()
    value = _DOI_PREFIX.sub("", value)
    value = value.removeprefix("doi:").strip()
    value = value.replace("\\_", "_").rstrip(".,;")
    return value if value.startswith("10.") and "/" in value and " " not in value else None


def normalise_arxiv_id(value: str | None) -> str | None:
    """An arXiv identifier without version, URL or 'arXiv:' prefix; None when absent."""
    if not value:
        return None
    text = value.strip()
    text = re.sub(r"^(https?://)?(www\.)?(export\.)?arxiv\.org/(abs|pdf)/", "", text, flags=re.I)
    text = re.sub(r"^arxiv:", "", text, flags=re.I).removesuffix(".pdf")
    match = _ARXIV_NEW.fullmatch(text) or _ARXIV_OLD.fullmatch(text)
    return match.group(1) if match else None


_LATEX_COMMAND = re.compile(r"\\[a-zA-Z]+\s*")
_NOT_ALNUM = re.compile(r"[^a-zA-Z0-9]+")


def normalise_title(title: str) -> str:
    """Lower-case ASCII words of a title, for comparison (LaTeX braces and accents dropped)."""
    if title.isascii():  # most titles: no accents to strip (the per-character pass is the cost)
        text = title
    else:
        text = "".join(ch for ch in unicodedata.normalize("NFKD", title) if not unicodedata.combining(ch))
    text = _LATEX_COMMAND.sub(" ", text)
    return " ".join(_NOT_ALNUM.sub(" ", text).lower().split())


def surname(author: str) -> str:
    """The family name of an author written 'Last, First' or 'First Last'."""
    author = author.strip()
    if "," in author:
        return author.split(",", 1)[0].strip()
    parts = author.split()
    return parts[-1] if parts else ""


def normalised_surname(author: str) -> str:
    """The surname as lower-case ASCII letters, for comparison."""
    return normalise_title(surname(author)).replace(" ", "")


def doi_from_fields(fields: Mapping[str, str]) -> str | None:
    """The DOI of an entry: the ``doi`` field, else a doi.org URL or a DOI in ``eprint``."""
    if (doi := normalise_doi(fields.get("doi"))) is not None:
        return doi
    for name in ("url", "eprint", "howpublished"):
        value = fields.get(name)
        if value and "doi" in value.lower():
            match = _DOI_IN_TEXT.search(value)
            if match and (doi := normalise_doi(match.group(1))) is not None:
                return doi
    return None


def arxiv_from_fields(fields: Mapping[str, str]) -> str | None:
    """The arXiv id of an entry: ``eprint`` with archivePrefix/eprinttype arXiv, a journal like
    ``arXiv preprint arXiv:2101.00001`` or ``CoRR abs/...``, an arxiv.org URL, or an arXiv DOI."""
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    eprint = fields.get("eprint")
    if eprint and (prefix == "arxiv" or "arxiv" in eprint.lower() or not prefix):
        if (arx := normalise_arxiv_id(eprint)) is not None:
            return arx
    venue = (fields.get("journal") or fields.get("journaltitle") or "").strip().lower()
    if venue in ("corr", "arxiv", "arxiv preprint", "arxiv e-prints"):
        for name in ("volume", "pages", "number"):
            number = (fields.get(name) or "").strip()
            if (arx := normalise_arxiv_id(number.removeprefix("abs/"))) is not None:
                return arx
    for name in ("journal", "journaltitle", "volume", "url", "note", "howpublished", "doi", "booktitle"):
        value = fields.get(name)
        if value and ("arxiv" in value.lower() or "corr" in value.lower()):
            match = _ARXIV_IN_TEXT.search(value)
            if match and (arx := normalise_arxiv_id(match.group(1))) is not None:
                return arx
    return None


@dataclass(frozen=True)
class WorkIdentity:
    """The comparable identifiers of one entry."""

    doi: str | None
    arxiv_id: str | None
    title: str  # normalised
    first_author: str  # normalised surname

    def keys(self) -> tuple[str, ...]:
        """Hashable identity keys: two entries sharing any key are the same work."""
        found: list[str] = []
        if self.doi:
            found.append(f"doi:{self.doi}")
        if self.arxiv_id:
            found.append(f"arxiv:{self.arxiv_id}")
        if len(self.title) >= 12 and self.first_author:
            found.append(f"title:{self.title}|{self.first_author}")
        return tuple(found)


def work_identity(entry: BibEntry) -> WorkIdentity:
    """Identifiers of an entry, normalised for comparison."""
    people = entry.authors or entry.editors
    return WorkIdentity(
        doi=entry.doi,
        arxiv_id=entry.arxiv_id,
        title=normalise_title(entry.title_plain),
        first_author=normalised_surname(people[0]) if people else "",
    )


def same_work(a: BibEntry, b: BibEntry) -> bool:
    """True when two entries describe the same work.

    Same DOI or same arXiv id decides; two different DOIs mean different works (a preprint
    and its published version are matched through the arXiv id or the title instead);
    otherwise the normalised title and first-author surname must both agree.
    """
    ia, ib = work_identity(a), work_identity(b)
    if ia.doi and ib.doi and ia.doi == ib.doi:
        return True
    if ia.arxiv_id and ib.arxiv_id and ia.arxiv_id == ib.arxiv_id:
        return True
    if ia.doi and ib.doi and not _is_arxiv_doi(ia.doi) and not _is_arxiv_doi(ib.doi):
        return False
    return bool(ia.title) and len(ia.title) >= 12 and ia.title == ib.title and ia.first_author == ib.first_author


def matches_identifiers(
    entry: BibEntry,
    *,
    doi: str | None = None,
    arxiv_id: str | None = None,
    title: str | None = None,
    first_author: str | None = None,
) -> bool:
    """True when an entry matches the given identifiers (DOI, arXiv id or title + first author)."""
    ident = work_identity(entry)
    if doi and ident.doi and normalise_doi(doi) == ident.doi:
        return True
    if arxiv_id and ident.arxiv_id and normalise_arxiv_id(arxiv_id) == ident.arxiv_id:
        return True
    if title and normalise_title(title) == ident.title and ident.title:
        if first_author is None:
            return True
        return normalised_surname(first_author) == ident.first_author
    return False


def _is_arxiv_doi(doi: str) -> bool:
    return doi.startswith("10.48550/")
