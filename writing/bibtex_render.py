"""A knowledge-base record as a BibTeX entry: entry type, fields, escaping and title protection.

Records from .bib sources keep their (already LaTeX) field values, with bare special characters
escaped; records from JSON sources (arXiv, OpenAlex, Semantic Scholar) are plain Unicode and
are escaped fully. Capitalised words and acronyms in titles are protected with braces so that
bibliography styles do not lower-case them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from relatex.analysis.bib.bib_edits import format_entry
from relatex.analysis.latex.latex_sanitiser import sanitise_fields
from relatex.retrieval.records import PaperRecord, normalise_arxiv_id
from relatex.writing.latex_validator import balance_braces

# fields copied into a new entry, in this order (abstracts, keywords and the like are dropped:
# they bloat the user's .bib and often hold unescaped characters)
FIELD_ORDER = (
    "author", "editor", "title", "booktitle", "journal", "series", "year", "month", "volume", "number",
    "pages", "publisher", "address", "school", "institution", "howpublished", "doi", "url", "eprint",
    "archiveprefix", "primaryclass", "note",
)
RAW_FIELDS = frozenset({"doi", "url", "eprint", "archiveprefix", "primaryclass"})
_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
            "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}
_PROCEEDINGS = re.compile(r"proceedings|conference|workshop|symposium|proc\.|companion|\bacl\b|\bemnlp\b|"
                          r"\bnaacl\b|\bsigir\b|\bkdd\b|\bneurips\b|\bicml\b|\biclr\b|\bcoling\b|posters|findings|meeting|"
                          r"\beacl\b|\bcikm\b|\bwsdm\b|\bwww\b|\bchi\b|\baaai\b|\bijcai\b|learning representations", re.I)


def escape_latex(text: str) -> str:
    """Plain text to LaTeX for a .bib value: the special characters escaped.

    Literal braces are dropped: BibTeX counts ``\\{`` as a brace too, so no escaped form of an
    unmatched brace is safe inside a field value.
    """
    return "".join(_SPECIAL.get(ch, ch) for ch in text if ch not in "{}")


# combining accent -> LaTeX accent command; letters without a decomposition get their own macro
_ACCENTS = {"\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=", "\u0306": "u",
            "\u0307": ".", "\u0308": '"', "\u030a": "r", "\u030b": "H", "\u030c": "v", "\u0327": "c",
            "\u0328": "k", "\u0323": "d"}
_LETTERS = {"\u00df": r"{\ss}", "\u00e6": r"{\ae}", "\u00c6": r"{\AE}", "\u00f8": r"{\o}", "\u00d8": r"{\O}",
            "\u00e5": r"{\aa}", "\u00c5": r"{\AA}", "\u0153": r"{\oe}", "\u0152": r"{\OE}", "\u0142": r"{\l}",
            "\u0141": r"{\L}", "\u0131": r"{\i}", "\u2013": "--", "\u2014": "---", "\u2018": "`", "\u2019": "'",
            "\u201c": "``", "\u201d": "''", "\u00a0": "~"}


def latex_accents(text: str) -> str:
    """Accented and special letters as LaTeX commands (``Schütze`` -> ``Sch{\\"u}tze``).

    Classic BibTeX styles sort, abbreviate and case-convert by bytes: a raw ``ü`` in an
    8-bit-unaware toolchain is mangled or breaks the run, a braced accent command never is.
    Characters with no plain-LaTeX form (CJK, Greek, ...) are kept as they are.
    """
    import unicodedata

    out: list[str] = []
    for ch in text:
        if ord(ch) < 128:
            out.append(ch)
        elif ch in _LETTERS:
            out.append(_LETTERS[ch])
        else:
            parts = unicodedata.normalize("NFD", ch)
            if len(parts) == 2 and parts[0].isascii() and parts[0].isalpha() and parts[1] in _ACCENTS:
                base = r"\i" if parts[0] == "i" else r"\j" if parts[0] == "j" else parts[0]
                accent = _ACCENTS[parts[1]]
                out.append(f"{{\\{accent}{base}}}" if not accent.isalpha() and base[0] != "\\"
                           else f"{{\\{accent}{{{base}}}}}")
            else:
                out.append(ch)
    return "".join(out)


def escape_bare_specials(value: str) -> str:
    """LaTeX text from a .bib: escape ``& % #`` (and ``_`` outside math) not already escaped."""
    out: list[str] = []
    in_math = False
    i = 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            out.append(value[i:i + 2])
            i += 2
            continue
        if ch == "$":
            in_math = not in_math
        elif ch in "&%#" or (ch == "_" and not in_math):
            out.append("\\" + ch)
            i += 1
            continue
        out.append(ch)
        i += 1
    if in_math:  # an unmatched $ would break the document: escape them all
        return escape_bare_specials(value.replace("$", r"\$"))
    return "".join(out)


def _needs_protection(word: str) -> bool:
    letters = re.sub(r"[^A-Za-z]", "", word)
    if len(letters) < 2:
        return False
    return any(ch.isupper() for ch in letters[1:]) or (letters.isupper() and len(letters) > 1)


def protect_title(title: str) -> str:
    """Brace words with inner capitals or acronyms (``BERT``, ``DeepWalk``); braced titles are kept."""
    if "{" in title:
        return title
    parts = re.split(r"(\s+)", title)
    return "".join(f"{{{p}}}" if p.strip() and _needs_protection(p) else p for p in parts)


def protect_plain_title(title: str) -> str:
    """A plain-text title escaped for LaTeX, with capitalised words and acronyms braced."""
    parts = re.split(r"(\s+)", title)
    return "".join(
        f"{{{escape_latex(p)}}}" if p.strip() and _needs_protection(p) else escape_latex(p) for p in parts
    )


def entry_type_for(record: PaperRecord) -> str:
    """``article``, ``inproceedings`` or ``misc`` (preprints), unless the source gave one."""
    if record.bibtex_type and re.fullmatch(r"[A-Za-z]+", record.bibtex_type):
        return record.bibtex_type.lower()
    venue = record.venue or ""
    if not venue or "arxiv" in venue.lower():
        return "misc" if normalise_arxiv_id(record.arxiv_id) or not venue else "article"
    return "inproceedings" if _PROCEEDINGS.search(venue) else "article"


def entry_fields(record: PaperRecord) -> dict[str, str]:
    """The ordered fields of the entry for ``record``, through the sanitiser: commands outside its
    allow-list escaped, URLs other than http(s)/doi and malformed identifiers dropped."""
    from_bib = bool(record.bibtex_fields)
    source: dict[str, str] = {k.lower(): str(v) for k, v in record.bibtex_fields.items()}
    fields: dict[str, str] = {}
    if record.authors:
        fields["author"] = " and ".join(record.authors)
    title = source.get("title") or record.title
    fields["title"] = protect_title(title) if from_bib else protect_plain_title(record.title)
    if record.year:
        fields["year"] = str(record.year)
    kind = entry_type_for(record)
    if record.venue and "booktitle" not in source and "journal" not in source:
        venue_field = "booktitle" if kind in {"inproceedings", "incollection", "inbook"} else "journal"
        if kind in {"article", "inproceedings", "incollection", "inbook"}:
            fields[venue_field] = record.venue if from_bib else escape_latex(record.venue)
    if record.doi:
        fields["doi"] = record.doi
    arxiv = normalise_arxiv_id(record.arxiv_id)
    if arxiv:
        fields["eprint"] = arxiv
        fields["archiveprefix"] = "arXiv"
    if record.url:
        fields["url"] = record.url
    elif arxiv and not record.doi:
        fields["url"] = f"https://arxiv.org/abs/{arxiv}"
    for name, value in source.items():
        if name in FIELD_ORDER and name not in fields and value.strip():
            fields[name] = value
    if kind == "misc" and arxiv and "howpublished" not in fields and "journal" not in fields:
        fields["howpublished"] = f"arXiv preprint arXiv:{arxiv}"
    out: dict[str, str] = {}
    for name in FIELD_ORDER:
        if name not in fields:
            continue
        value = " ".join(fields[name].split())
        if name == "pages":
            value = value.replace("\u2013", "--").replace("\u2014", "--")
            value = re.sub(r"(?<=\d)-(?=\d)", "--", value)
        if from_bib and name not in RAW_FIELDS:
            value = escape_bare_specials(value)
        if name not in RAW_FIELDS:
            value = latex_accents(value)
        out[name] = _balance(value)
    return sanitise_fields(out)[0]


def _balance(value: str) -> str:
    """Drop unbalanced braces so one bad value cannot break the whole .bib."""
    return balance_braces(value)[0]


def format_fields(entry_type: str, key: str, fields: Mapping[str, str]) -> str:
    """Canonical entry text (the project's one BibTeX formatter), ending with a newline."""
    return format_entry(entry_type, key, fields).rstrip("\n") + "\n"


def render_entry(record: PaperRecord, key: str) -> str:
    """The BibTeX text of ``record`` under ``key``."""
    return format_fields(entry_type_for(record), key, entry_fields(record))
