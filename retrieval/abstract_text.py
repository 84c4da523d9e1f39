"""Whether a record's abstract is prose a writer may read, or debris of a PDF's text.

Abstracts taken from PDFs are sometimes not the abstract at all: a table ("string date occurrence
Local .125 context All .125 ..."), a page of the bibliography ("Jelinek. 1991. language modeling
speech In A. Waibel and K.F. Lee, editors, ..."), or a page that starts mid-sentence. Read as an
abstract, such text gives theme labels ("protest", from a table of a thesaurus's entries) and
sentences that say nothing of the paper. :func:`readable_abstract` keeps only prose; a paper whose
abstract is debris is written about, labelled and judged by its title, as one without an abstract.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from relatex.retrieval.records import PaperRecord

_NUMBER = re.compile(r"[\d.,%()+\-:;=/\[\]]+")
# marks of a reference list: "Katz, S. M.", "1991. ", "In Proceedings", "pp. 9", "editors,", "23(1):13"
_REFERENCE = re.compile(r"\b[A-Z][a-z]+,?\s(?:[A-Z]\.\s?)+(?:and\s)?|\b(?:19|20)\d\d[a-z]?\.\s"
                        r"|\bIn\s(?:Proceedings|Proc\.)|\bpp\.\s?\d|\beditors?,|\d+\(\d+\):\d+")
# a text that starts as no abstract does: in a sentence, or inside a reference ("Heights, NY. Katz, ...")
# ... or with a name written in lower case ("jTLEX is ...", "word2vec") or an ordinal ("2nd Nurse Care ...")
_SENTENCE_START = re.compile(r"[\"“‘'(\[]?(?:[A-Z]|[a-z]+[A-Z0-9]|\d+(?:st|nd|rd|th)\b)")
_REFERENCE_START = re.compile(r"[A-Z][a-z]*\.\s|[A-Z]\.\s|[A-Z][a-z]+,\s[A-Z]{1,2}\b")
MIN_WORDS = 12  # shorter texts are judged by nothing here
# a figure's or table's caption ("Figure 3: Size and devset performance ..."): a page of the body, no abstract
# or one whose label the PDF lost ("2: Test set performance of our systems")
_CAPTION_START = re.compile(r"(?:Figure|Fig\.|Table)\s+\d+\s*[.:]|\d+\s*:\s+[A-Z]")


@lru_cache(maxsize=4096)  # theme labels read each abstract, the writing plan again
def debris_reason(abstract: str) -> str:
    """Why ``abstract`` is no prose ("" when it is): a table (a quarter of its words numbers), a
    text starting with a figure's or table's caption, or a text starting mid-sentence or inside a
    reference that holds numbers or references. Texts in a script other than Latin are not judged
    (their words are not split by spaces)."""
    words = abstract.split()
    letters = [c for c in abstract if c.isalpha()]
    if len(words) < MIN_WORDS or sum(1 for c in letters if c.isascii()) * 2 < len(letters):
        return ""
    numbers = sum(1 for w in words if _NUMBER.fullmatch(w)) / len(words)
    if numbers >= 0.25:
        return f"a table ({numbers:.0%} of its words are numbers)"
    start = abstract.lstrip()
    if _CAPTION_START.match(start):
        return "starts with a caption"
    if _SENTENCE_START.match(start) and not _REFERENCE_START.match(start):
        return ""
    references = len(_REFERENCE.findall(abstract))
    if numbers >= 0.05 or references >= 3:
        return f"starts mid-sentence, with {numbers:.0%} numbers and {references} reference marks"
    return ""


def readable_abstract(record: PaperRecord) -> str:
    """The record's abstract when it is prose, else ""."""
    abstract = record.abstract or ""
    return "" if debris_reason(abstract) else abstract


def readable_text(record: PaperRecord) -> str:
    """Title and readable abstract (:meth:`PaperRecord.embedding_text` of :func:`without_debris`)."""
    return without_debris(record).embedding_text()


def without_debris(record: PaperRecord) -> PaperRecord:
    """The record as a writer reads it: without its abstract when that is debris."""
    return replace(record, abstract=None) if record.abstract and not readable_abstract(record) else record
