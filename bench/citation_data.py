"""Data recipe of the citation model: citing sentences, the split rule, document texts and negatives.

Sources (``../shared/data``): ScisummNet's 978 highly cited ACL papers with their abstracts and the
citing sentences of each (``scisummnet/reference_papers.jsonl.gz``), every citation edge between ACL
papers (``acl-anthology/citations.jsonl.gz``, to know which other papers a citing paper cites), and
ACL Anthology abstracts (``acl-anthology/anthology+abstracts.bib.gz``) as a pool of extra documents
for negatives.

Split rule (by cited paper, never by sentence): ``h = int(md5(acl_id).hexdigest(), 16)``;
``h % 2 == 1`` is the test half (the same half ``bench/claim_support.py`` reports on);
otherwise ``(h // 2) % 5 == 0`` is the development slice (model selection and calibration) and
the rest is training. A sentence whose text also cites a development or test paper is dropped
from training; negatives for training come from training papers and from ACL Anthology papers
that are neither development nor test papers. ACM-CR is never used for training.

Claim text: the citing sentence with author-year markers and the cited paper's author surnames
removed (``claim_support.strip_author_year``), as a LaTeX draft presents it to the judge.
Document text: ``"{title}. {abstract}"``, exactly what the knowledge base embeds.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import json
import random
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from claim_data import strip_author_year

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"
SPLIT_RULE = ("ScisummNet/ACL by cited paper: h = int(md5(acl_id), 16); h % 2 == 1 test; "
              "else (h // 2) % 5 == 0 dev; else train")


def paper_split(acl_id: str) -> str:
    """'train', 'dev' or 'test' for a cited ACL paper (the split rule above)."""
    h = int(hashlib.md5(acl_id.encode()).hexdigest(), 16)
    if h % 2 == 1:
        return "test"
    return "dev" if (h // 2) % 5 == 0 else "train"


@dataclass(frozen=True)
class Doc:
    pid: str
    title: str
    abstract: str
    authors: tuple[str, ...]

    @property
    def text(self) -> str:
        """What the knowledge base embeds for a record."""
        return f"{self.title}. {self.abstract}" if self.abstract else self.title


@dataclass(frozen=True)
class Citation:
    claim: str  # citing sentence, markers and cited surnames removed
    raw: str
    cited: str
    citing: str
    split: str


def load_scisummnet(data: Path) -> tuple[dict[str, Doc], list[Citation]]:
    """ScisummNet papers with an abstract, and their citing sentences as claims."""
    docs: dict[str, Doc] = {}
    citations: list[Citation] = []
    with gzip.open(data / "scisummnet/reference_papers.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if not row.get("abstract") or not row.get("title"):
                continue
            meta = row.get("aan_metadata") or {}
            if isinstance(meta, str):
                meta = ast.literal_eval(meta)
            authors = tuple(a.strip() for a in (meta.get("author") or "").split(";") if a.strip())
            pid = row["acl_id"]
            docs[pid] = Doc(pid, " ".join(row["title"].split()), " ".join(row["abstract"].split()), authors)
            sentences = row["citing_sentences"]
            if isinstance(sentences, str):
                sentences = ast.literal_eval(sentences)
            for cs in sentences:
                raw = " ".join((cs.get("clean_text") or "").split())
                if not 40 <= len(raw) <= 600:
                    continue
                claim = " ".join(strip_author_year(raw, authors).split())
                if len(claim) >= 25:
                    citations.append(Citation(claim, raw, pid, str(cs.get("citing_paper_id") or ""),
                                              paper_split(pid)))
    # a sentence that also cites a held-out paper never trains the model
    held_out = {c.raw for c in citations if c.split != "train"}
    citations = [c for c in citations if c.split != "train" or c.raw not in held_out]
    return docs, citations


def cited_by_citing(data: Path) -> dict[str, set[str]]:
    """Every ACL paper a citing paper cites (citation edges), to exclude them as negatives."""
    out: dict[str, set[str]] = defaultdict(set)
    with gzip.open(data / "acl-anthology/citations.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            out[row["citing"]].add(row["cited"])
    return out


_ENTRY = re.compile(r"^@\w+\{")
_FIELD = re.compile(r"^\s*(title|abstract|url|author)\s*=\s*\{(.*)\},?\s*$")
_ACL_URL = re.compile(r"aclanthology\.org/([^/\s}]+?)/?$")


def load_acl_pool(data: Path, exclude: set[str], n: int, seed: int) -> dict[str, Doc]:
    """A random sample of ``n`` ACL Anthology papers with abstracts, none of them in ``exclude``."""
    found: list[Doc] = []
    fields: dict[str, str] = {}

    def flush() -> None:
        url = _ACL_URL.search(fields.get("url", ""))
        if url and fields.get("abstract") and fields.get("title") and url.group(1) not in exclude:
            title = " ".join(fields["title"].replace("{", "").replace("}", "").split())
            authors = tuple(a.strip() for a in fields.get("author", "").split(" and ") if a.strip())
            found.append(Doc(url.group(1), title, " ".join(fields["abstract"].split()), authors))

    with gzip.open(data / "acl-anthology/anthology+abstracts.bib.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            if _ENTRY.match(line):
                flush()
                fields = {}
            else:
                match = _FIELD.match(line)
                if match:
                    fields[match.group(1)] = match.group(2)
        flush()
    rng = random.Random(seed)
    rng.shuffle(found)
    return {d.pid: d for d in found[:n]}
