"""The cases of bench/bib_verification.py: entries sampled from the ACL and ACM corpora, written
differently (restyled) or corrupted in one known way (wrong year, dropped author, fabricated...)."""

from __future__ import annotations

import os
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from relatex.analysis.bib.bib_edits import format_entry
from relatex.analysis.bib.bibtex import iter_bib_entries
from relatex.analysis.bib.bibtex_model import BibEntry

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("RELATEX_SHARED_DATA", REPO.parent / "shared" / "data"))
CORPORA = {"acl": DATA / "acl-anthology" / "anthology+abstracts.bib.gz", "acm": DATA / "acm-cr" / "acm-dl.bib.gz"}
KINDS = ("wrong_year", "dropped_author", "swapped_authors", "altered_title", "wrong_doi", "fabricated", "arxiv_version")
EXPECTED = {  # the verdict (and field) that names the corruption exactly
    "wrong_year": ("mismatch", "year"),
    "dropped_author": ("mismatch", "authors"),
    "swapped_authors": ("mismatch", "authors"),
    "altered_title": ("mismatch", "title"),
    "wrong_doi": ("mismatch", "doi"),
    "fabricated": ("not_found", None),
    "arxiv_version": ("preprint", None),
}
KEEP_FIELDS = ("author", "title", "booktitle", "journal", "year", "pages", "doi", "publisher", "volume", "number")
FILLER_WORDS = ("robust", "neural", "efficient", "adaptive", "semantic", "scalable", "interactive", "latent",
                "multilingual", "contextual", "probabilistic", "hierarchical", "sparse", "unsupervised")


@dataclass
class Case:
    key: str
    corpus: str
    kind: str  # "clean" or a corruption kind
    text: str
    original: dict[str, str]


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _eligible(entry: BibEntry) -> bool:
    return bool(entry.title_plain and entry.authors and entry.year and entry.entry_type in ("inproceedings", "article"))


def sample_entries(seed: int, per_corpus: int) -> tuple[dict[str, list[BibEntry]], dict[str, Any]]:
    """Reservoir samples of eligible entries per corpus, plus pools for corruptions."""
    rng = random.Random(seed)
    samples: dict[str, list[BibEntry]] = {}
    dois: list[str] = []
    surnames: list[str] = []
    titles: list[str] = []
    for corpus, path in CORPORA.items():
        reservoir: list[BibEntry] = []
        seen = 0
        for entry in iter_bib_entries(path):
            if not _eligible(entry):
                continue
            seen += 1
            if len(reservoir) < per_corpus:
                reservoir.append(entry)
            elif (j := rng.randrange(seen)) < per_corpus:
                reservoir[j] = entry
            if entry.doi and rng.random() < 0.02:
                dois.append(entry.doi)
            if rng.random() < 0.01:
                surnames.extend(a for a in entry.authors[:2])
                titles.append(entry.title_plain)
        samples[corpus] = reservoir
        log(f"{corpus}: sampled {len(reservoir)} of {seen} eligible entries")
    return samples, {"dois": dois, "authors": surnames, "titles": titles}


def _fields(entry: BibEntry) -> dict[str, str]:
    return {name: entry.fields[name] for name in KEEP_FIELDS if entry.fields.get(name)}


def _authors(names: list[str]) -> str:
    return " and ".join(names)


def corrupt(entry: BibEntry, kind: str, rng: random.Random, pools: dict[str, Any]) -> dict[str, str] | None:
    """The fields of a corrupted copy, or None when the corruption does not apply."""
    fields = _fields(entry)
    names = list(entry.authors)
    if kind == "wrong_year":
        assert entry.year is not None
        fields["year"] = str(entry.year + rng.choice((-2, -1, 1, 2)))
    elif kind == "dropped_author":
        if len(names) < 2:
            return None
        del names[rng.randrange(1, len(names))]
        fields["author"] = _authors(names)
    elif kind == "swapped_authors":
        if len(names) < 2:
            return None
        i = rng.randrange(len(names) - 1)
        names[i], names[i + 1] = names[i + 1], names[i]
        if [n.split(",")[0] for n in names] == [n.split(",")[0] for n in entry.authors]:
            return None  # two authors with the same surname
        fields["author"] = _authors(names)
    elif kind == "altered_title":
        words = entry.title_plain.split()
        content = [i for i, w in enumerate(words) if len(w) > 3 and w.isalpha()]
        if len(words) < 4 or not content:
            return None
        for i in rng.sample(content, min(len(content), 1 if len(words) < 8 else 2)):
            replacement = rng.choice([w for w in FILLER_WORDS if w != words[i].lower()])
            words[i] = replacement.capitalize() if words[i][0].isupper() else replacement
        fields["title"] = " ".join(words)
    elif kind == "wrong_doi":
        other = rng.choice([d for d in pools["dois"] if d != entry.doi])
        fields["doi"] = other
    elif kind == "fabricated":
        a, b = rng.sample(pools["titles"], 2)
        head = a.split(":")[0].split()[: rng.randint(3, 5)]
        tail = b.split()[-rng.randint(3, 4):]
        fields = {
            "title": " ".join(head + ["for"] + tail),
            "author": _authors(rng.sample(pools["authors"], rng.randint(1, 4))),
            "year": str(rng.randint(2005, 2022)),
        }
        venue_field = "booktitle" if entry.entry_type == "inproceedings" else "journal"
        if entry.fields.get(venue_field):
            fields[venue_field] = entry.fields[venue_field]
        fields["pages"] = f"{(p := rng.randint(1, 400))}--{p + rng.randint(5, 12)}"
    elif kind == "arxiv_version":
        assert entry.year is not None
        year = entry.year - rng.choice((0, 1))
        arxiv = f"{year % 100:02d}{rng.randint(1, 12):02d}.{rng.randint(1, 19999):05d}"
        fields = {"title": fields["title"], "author": fields["author"], "year": str(year)}
        if rng.random() < 0.5:
            fields["journal"] = f"arXiv preprint arXiv:{arxiv}"
        else:
            fields.update({"eprint": arxiv, "archiveprefix": "arXiv", "howpublished": "arXiv"})
    else:
        raise ValueError(kind)
    return fields


_ACCENT_TEX = {"é": "{\\'e}", "è": "{\\`e}", "á": "{\\'a}", "ó": "{\\'o}", "í": "{\\'i}", "ü": '{\\"u}',
               "ö": '{\\"o}', "ä": '{\\"a}', "ç": "{\\c{c}}", "ñ": "{\\~n}", "ø": "{\\o}", "ß": "{\\ss}"}


def _tex_accents(text: str) -> str:
    return "".join(_ACCENT_TEX.get(ch, ch) for ch in text)


def restyle(entry: BibEntry, rng: random.Random) -> dict[str, str]:
    """The same facts written the way people write BibTeX by hand: initials, 'First Last',
    'and others', LaTeX accents, sentence-case or braced titles, abbreviated venues, single
    hyphens in pages, no DOI. A correct entry: any flag on it is a false alarm."""
    fields = _fields(entry)
    names = []
    for name in entry.authors:
        last, _, first = name.partition(", ")
        style = rng.choice(("initials", "first-last", "same"))
        if style == "initials" and first:
            first = " ".join(f"{part[0]}." for part in first.replace("-", " ").split() if part[:1].isalpha())
        names.append(f"{first} {last}".strip() if style == "first-last" else (f"{last}, {first}" if first else last))
    if len(names) > 4 and rng.random() < 0.5:
        names = names[:3] + ["others"]
    fields["author"] = _tex_accents(" and ".join(names))
    title = entry.title_plain
    choice = rng.choice(("sentence", "braced", "same"))
    if choice == "sentence":
        title = title[:1] + title[1:].lower()
    elif choice == "braced":
        title = "{" + title + "}"
    fields["title"] = _tex_accents(title.replace("&", "\\&"))
    venue_field = "booktitle" if fields.get("booktitle") else "journal"
    if fields.get(venue_field) and rng.random() < 0.6:
        venue = entry.fields.get("series") or "".join(w[0] for w in fields[venue_field].split() if w[:1].isupper())
        fields[venue_field] = f"Proc. of {venue}" if venue_field == "booktitle" else venue
    if fields.get("pages") and rng.random() < 0.5:
        fields["pages"] = re.sub(r"\s*(--|–|—)\s*", "-", fields["pages"])
    if rng.random() < 0.5:
        fields.pop("doi", None)
    for name in ("publisher", "volume", "number"):
        fields.pop(name, None)
    return fields


def build_cases(samples: dict[str, list[BibEntry]], pools: dict[str, Any], seed: int) -> list[Case]:
    rng = random.Random(seed + 1)
    cases: list[Case] = []
    for corpus, entries in samples.items():
        for index, entry in enumerate(entries):
            original = _fields(entry)
            key = f"{corpus}{index:04d}"
            cases.append(Case(key, corpus, "clean", format_entry(entry.entry_type, key, original), original))
            restyled = format_entry(entry.entry_type, f"{key}r", restyle(entry, rng))
            cases.append(Case(f"{key}r", corpus, "clean_restyled", restyled, original))
            for attempt in range(len(KINDS)):
                kind = KINDS[(index + attempt) % len(KINDS)]
                fields = corrupt(entry, kind, rng, pools)
                if fields is None:
                    continue
                entry_type = "misc" if kind == "arxiv_version" and "journal" not in fields else entry.entry_type
                entry_type = "article" if kind == "arxiv_version" and "journal" in fields else entry_type
                cases.append(Case(f"{key}x", corpus, kind, format_entry(entry_type, f"{key}x", fields), original))
                break
    return cases
