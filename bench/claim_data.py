"""The papers and citing sentences the claim-support benchmarks judge: ScisummNet and ACM-CR
loaders, the split by cited paper, near neighbours, and the author-year stripping a LaTeX draft
implies (shared by ``claim_support.py``, ``citation_model.py`` and ``fit_claim_judge.py``)."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from splits import half_of

from relatex.analysis.claims.evidence import Evidence, paper_evidence
from relatex.analysis.claims.offline_judge import strip_citations


@dataclass
class Paper:
    pid: str
    title: str
    abstract: str
    authors: tuple[str, ...]


def split_of(pid: str) -> str:
    return "dev" if int(hashlib.md5(pid.encode()).hexdigest(), 16) % 2 == 0 else "test"


def load_scisummnet(data: Path) -> tuple[dict[str, Paper], list[tuple[str, str]]]:
    papers: dict[str, Paper] = {}
    sentences: list[tuple[str, str]] = []
    with gzip.open(data / "scisummnet/reference_papers.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if not row.get("abstract") or not row.get("title"):
                continue
            meta = row.get("aan_metadata") or {}
            authors = tuple(a.strip() for a in (meta.get("author") or "").split(";") if a.strip())
            papers[row["acl_id"]] = Paper(row["acl_id"], row["title"], row["abstract"], authors)
            for cs in row["citing_sentences"]:
                text = (cs.get("clean_text") or "").strip()
                if 40 <= len(text) <= 600:
                    sentences.append((text, row["acl_id"]))
    return papers, sentences


_ENTRY_START = re.compile(r"^@(\w+)\{([^,]+),")
_FIELD = re.compile(r"^(\w+) = \{(.*)\},?$")


def load_acm(data: Path) -> tuple[dict[str, Paper], list[tuple[str, list[str], str]], list[dict]]:
    queries = [json.loads(line) for line in (data / "acm-cr/queries.jsonl").open(encoding="utf-8")]
    wanted: set[str] = set()
    for q in queries:
        for ref in q["references"].values():
            if ref["in_collection"]:
                wanted.add(ref["target"].lower())
    papers: dict[str, Paper] = {}
    current: str | None = None
    fields: dict[str, str] = {}

    def flush() -> None:
        if current and fields.get("abstract") and fields.get("title") and current not in papers:
            authors = tuple(a.strip() for a in fields.get("author", "").split(" and ") if a.strip())
            papers[current] = Paper(current, fields["title"], fields["abstract"], authors)

    with gzip.open(data / "acm-cr/acm-dl.bib.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("@"):
                flush()
                match = _ENTRY_START.match(line)
                key = match.group(2).strip().lower() if match else None
                current = key if key in wanted else None
                fields = {}
            elif current is not None:
                field = _FIELD.match(line.rstrip("\n"))
                if field:
                    fields[field.group(1).lower()] = field.group(2)
        flush()
    sentences: list[tuple[str, list[str], str]] = []  # (text, cited DOIs, the query paper's DOI)
    for q in queries:
        for context in q["contexts"]:
            if "related" not in context["section"].lower():
                continue
            for s in context["sentences"]:
                targets = [q["references"][m]["target"].lower() for m in s["cites"] if m in q["references"]]
                sentences.append((s["text"], targets, q["doi"].lower()))
    return papers, sentences, queries


_YEAR = r"(?:1[89]|20)\d\d[a-z]?"
_NAME = r"(?:[A-Z][\w\-'\u2019]+|van|von|de|der|den|del|la|le|du|da|dos)"
_AUTHORS = rf"{_NAME}(?:\s+{_NAME})*(?:\s*(?:,|and|&|et)\s*{_NAME}(?:\s+{_NAME})*)*(?:\s+(?:et|and)\s+al\.?)?"
_AUTHOR_YEAR = (
    re.compile(rf"{_AUTHORS}(?:'s|\u2019s)?\s*,?\s*\(\s*{_YEAR}(?:\s*[,;]\s*{_YEAR})*\s*\)"),  # Brants (2000)
    re.compile(rf"\([^()]*?\b{_YEAR}\b[^()]*?\)"),  # (Brants, 2000; Collins et al. 2002)
    re.compile(rf"{_AUTHORS}\s*,?\s*{_YEAR}\b"),  # Brants 2000, unbracketed
)


def strip_author_year(text: str, authors: Sequence[str] = ()) -> str:
    """The sentence as a LaTeX draft has it: author-year citation markers removed.

    ScisummNet sentences cite as "Brants (2000)" or "(Brants, 2000)"; a draft has ``\\cite{key}``,
    which the judge never sees. Names followed by a year, bracketed author-year groups, and the
    cited paper's surnames are removed, so no pair is judged on author names.
    """
    value = text
    for pattern in _AUTHOR_YEAR:
        value = pattern.sub(" ", value)
    surnames = {_surname(a) for a in authors}
    return strip_citations(value, sorted(s for s in surnames if s))


def _surname(author: str) -> str:
    author = author.strip()
    if "," in author:
        return author.split(",", 1)[0].strip()
    parts = author.split()
    return parts[-1] if parts else ""


def neighbours(papers: dict[str, Paper], embedder: object, half: dict[str, str] | None = None,
               k: int = 3) -> dict[str, list[str]]:
    """The k nearest other papers of each paper (title+abstract embedding); with ``half``, only
    among those of its own half: a test claim's near negative is never a development paper."""
    ids = sorted(papers)
    vectors = embedder.embed([f"{papers[i].title}. {papers[i].abstract}" for i in ids])  # type: ignore[attr-defined]
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, -1.0)
    if half is not None:
        halves = np.array([half.get(i, "") for i in ids])
        sims[halves[:, None] != halves[None, :]] = -2.0
        sims[halves == "", :] = -2.0
    order = np.argsort(-sims, axis=1)[:, :k]
    return {pid: [ids[j] for j in order[row]] for row, pid in enumerate(ids)}


def acm_paper_halves(sentences: list[tuple[str, list[str], str]]) -> dict[str, str]:
    """A cited ACM paper's half: that of the query papers citing it; papers cited from both
    halves have none (they are never negatives)."""
    seen: dict[str, set[str]] = {}
    for _text, targets, query in sentences:
        for target in targets:
            seen.setdefault(target, set()).add(half_of(query))
    return {pid: next(iter(halves)) for pid, halves in seen.items() if len(halves) == 1}


def evidence_of(paper: Paper, key: str = "cited") -> tuple[Evidence, ...]:
    return paper_evidence(key, paper.pid, paper.abstract, title=paper.title, authors=paper.authors)
