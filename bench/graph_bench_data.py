"""Data for ``bench/graph_expansion.py``: the drafts (tasks) of ACM-CR and the ACL Anthology, the
records of their subset knowledge bases, and the development/test half of every draft.

Halves follow ``bench/splits.py``: an ACM-CR draft is its query paper (``half_of(doi)``); an ACL draft
is the citing paper, split by ``half_of`` of its ACL id (lower-cased by ``half_of``).
"""

from __future__ import annotations

import gzip
import json
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from splits import half_of  # type: ignore[import-not-found]  # bench/ is on the path

from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.retrieval.acl_citations import AclCitationIndex
from relatex.retrieval.records import PaperRecord
from relatex.retrieval.sources.base import clean_text
from relatex.retrieval.sources.bibtex_source import acl_id_from_url, bib_entry_record

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
HALVES = ("dev", "test")
_KEY = re.compile(r"@\w+\s*\{\s*([^,\s]+)\s*,")
_DOI = re.compile(r"\bdoi\s*=\s*\{([^}]*)\}", re.I)
_URL = re.compile(r"\burl\s*=\s*\{([^}]*)\}", re.I)
_YEAR = re.compile(r"\byear\s*=\s*\{(\d{4})\}")


@dataclass
class Task:
    """One draft: its text, its true references (record ids) and co-citation groups (record ids)."""

    name: str
    title: str
    abstract: str
    references: list[str]
    exclude: set[str]
    groups: list[tuple[str, ...]]
    half: str
    year: int = 0  # the draft's year (ACL drafts; 0: unknown)


def bib_blocks(path: Path) -> Iterator[str]:
    """Raw entry blocks of a (gzipped) .bib file: each starts at a line beginning with '@'."""
    block: list[str] = []
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("@") and block:
                yield "".join(block)
                block = []
            block.append(line)
    if block:
        yield "".join(block)


def records_from_blocks(blocks: Sequence[str], source: str) -> list[PaperRecord]:
    bib = parse_bib_text("\n".join(blocks), Path(f"{source}.bib"))
    out = []
    for entry in bib.entries:
        result = bib_entry_record(entry, source)
        if not isinstance(result, str):
            out.append(result[0])
    return out


class Reservoir:
    """A uniform sample of ``size`` blocks from a stream (reservoir sampling)."""

    def __init__(self, size: int, rng: random.Random) -> None:
        self.size = size
        self.rng = rng
        self.seen = 0
        self.blocks: list[str] = []

    def offer(self, block: str) -> None:
        self.seen += 1
        if len(self.blocks) < self.size:
            self.blocks.append(block)
        elif (j := self.rng.randrange(self.seen)) < self.size:
            self.blocks[j] = block


def _acm_task(q: dict, by_doi: dict[str, str]) -> Task | None:
    refs = {}
    for marker, ref in q["references"].items():
        rid = by_doi.get(ref["target"].lower()) if ref["in_collection"] else None
        if rid:
            refs[marker] = rid
    if len(refs) < 3:
        return None
    groups = []
    for context in q["contexts"]:
        for sentence in context["sentences"]:
            ids = tuple(dict.fromkeys(refs[c] for c in sentence["cites"] if c in refs))
            if len(ids) > 1:
                groups.append(ids)
    return Task(q["doi"], q["title"], q["abstract"], sorted(set(refs.values())), set(), groups, half_of(q["doi"]))


def load_acm(distractors: int, rng: random.Random) -> tuple[list[PaperRecord], list[Task]]:
    """Every in-collection reference of the query papers plus random distractors with abstracts."""
    lines = (DATA / "acm-cr" / "queries.jsonl").read_text(encoding="utf-8").splitlines()
    queries = [json.loads(line) for line in lines]
    wanted = {r["target"].lower() for q in queries for r in q["references"].values() if r["in_collection"]}
    blacklist = {q["doi"].lower() for q in queries}
    kept: dict[str, str] = {}
    reservoir = Reservoir(distractors, rng)
    for block in bib_blocks(DATA / "acm-cr" / "acm-dl.bib.gz"):
        match = _KEY.match(block)
        key = match.group(1).lower() if match else ""
        doi_match = _DOI.search(block)
        doi = doi_match.group(1).strip().lower() if doi_match else key
        if key in blacklist or doi in blacklist:
            continue
        if key in wanted or doi in wanted:
            kept.setdefault(doi, block)
            continue
        if "abstract =" in block and block.startswith(("@inproceedings", "@article")):
            reservoir.offer(block)
    records = records_from_blocks(list(kept.values()) + reservoir.blocks, "acm")
    by_doi = {r.doi: r.id for r in records if r.doi}
    tasks = [task for q in queries if (task := _acm_task(q, by_doi)) is not None]
    return records, tasks


_AUTHOR = re.compile(r"\bauthor\s*=\s*\{(.*?)\},?\s*\n", re.S)


def _person(name: str) -> tuple[str, str]:
    """A name as (surname, given names), lower-cased, without dots ("Croft, W. Bruce": "croft", "w bruce")."""
    last, _, first = name.partition(",") if "," in name else (name.split()[-1] if name.split() else "", "",
                                                              " ".join(name.split()[:-1]))
    return last.strip().lower(), " ".join(first.replace(".", " ").split()).lower()


def _people(block: str) -> set[tuple[str, str]]:
    found = _AUTHOR.search(block)
    return {_person(n) for n in found.group(1).split(" and ")} if found else set()


def _doi_of(block: str) -> str:
    found = _DOI.search(block) or _KEY.match(block)
    return found.group(1).strip().lower() if found else ""


def acm_authors_papers(records: Sequence[PaperRecord]) -> list[PaperRecord]:
    """Every other article or paper of the ACM DL collection written by an author of a query
    paper (same surname and given names), that ``records`` do not hold: in a real knowledge base the
    authors' own uncited work lies close to the draft, unlike random distractors."""
    blacklist = {json.loads(line)["doi"].lower()
                 for line in (DATA / "acm-cr" / "queries.jsonl").read_text(encoding="utf-8").splitlines()}
    path = DATA / "acm-cr" / "acm-dl.bib.gz"
    authors = set().union(*(_people(b) for b in bib_blocks(path) if _doi_of(b) in blacklist))
    held = {r.doi for r in records if r.doi}
    own: dict[str, str] = {}
    for block in bib_blocks(path):
        doi = _doi_of(block)
        if doi not in blacklist and doi not in held and block.startswith(("@inproceedings", "@article")) \
                and _people(block) & authors:
            own.setdefault(doi, block)
    return records_from_blocks(list(own.values()), "acm")


def _acl_pairs() -> set[tuple[str, str]]:
    pairs = set()
    with gzip.open(DATA / "acl-anthology" / "citations.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if row["citing"] != row["cited"]:
                pairs.add((row["citing"], row["cited"]))
    return pairs


def _scisummnet_abstracts() -> dict[str, str]:
    abstracts = {}
    with gzip.open(DATA / "scisummnet" / "reference_papers.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if row.get("abstract"):
                abstracts[row["acl_id"]] = clean_text(row["abstract"]) or ""  # decodes "& quot;"
    return abstracts


def _acl_records(wanted: set[str], distractors: int, rng: random.Random) -> list[PaperRecord]:
    abstracts = _scisummnet_abstracts()
    kept: dict[str, str] = {}
    reservoir = Reservoir(distractors, rng)
    for block in bib_blocks(DATA / "acl-anthology" / "anthology+abstracts.bib.gz"):
        url = _URL.search(block)
        acl = acl_id_from_url(url.group(1)) if url else None
        if acl is None:
            continue
        if acl in wanted:
            kept[acl] = block
            continue
        year = _YEAR.search(block)
        if year and int(year.group(1)) <= 2016:
            reservoir.offer(block)
    records = []
    for record in records_from_blocks(list(kept.values()) + reservoir.blocks, "acl"):
        acl = acl_id_from_url(record.url)
        if acl in abstracts and not record.abstract:
            record = record.with_changes(abstract=abstracts[acl])
        records.append(record)
    return records


def load_acl(distractors: int, drafts: int, rng: random.Random,
             with_abstracts: bool = False) -> tuple[list[PaperRecord], list[Task], AclCitationIndex]:
    """Anthology records of every citing and cited paper plus same-era distractors (<= 2016).

    Papers of that era have no abstract in the Anthology file: the cited papers get theirs from
    ScisummNet; a draft (citing paper) is represented by its title only, unless it is a ScisummNet
    paper itself. ``drafts`` citing papers with at least 5 cited ACL papers are drawn in each half
    (split by the citing paper's ACL id); ``with_abstracts`` draws only citing papers with an abstract.
    """
    pairs = _acl_pairs()
    records = _acl_records({a for a, _ in pairs} | {b for _, b in pairs}, distractors, rng)
    index = AclCitationIndex(pairs)
    by_acl = {acl_id_from_url(r.url): r for r in records if r.url}
    candidates = []
    for citing, cited in index.cites.items():
        draft = by_acl.get(citing)
        refs = sorted({by_acl[c].id for c in cited if c in by_acl})
        if draft is not None and len(refs) >= 5 and (draft.abstract or not with_abstracts):
            candidates.append(Task(citing, draft.title, draft.abstract or "", refs, {draft.id}, [], half_of(citing),
                                   draft.year or 0))
    candidates.sort(key=lambda t: t.name)  # set order varies between runs: sort before sampling
    rng.shuffle(candidates)
    chosen = [t for half in HALVES for t in [c for c in candidates if c.half == half][:drafts]]
    return records, sorted(chosen, key=lambda t: t.name), index


def without_draft(index: AclCitationIndex, citing: str) -> AclCitationIndex:
    """The citation index minus the draft's own edges (leave one out)."""
    return AclCitationIndex((a, b) for a, b in index.pairs() if a != citing)
