"""Authorities over fixed records, and the records, for the bibliography verification tests."""

from __future__ import annotations

from pathlib import Path

from relatex.analysis.bib.bib_matching import title_similarity
from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.analysis.verification.bib_verification import (
    AuthorityRecord,
    AuthorityUnavailable,
    BibVerdict,
    verify_entry,
)

BIB = Path("/draft/refs.bib")
TEX = Path("/draft/main.tex")


class MemoryAuthority:
    """An authority over a fixed list of records (title lookup by word similarity); exhaustive
    (a registry such as Crossref) unless told it is a local knowledge base."""

    def __init__(self, records: list[AuthorityRecord], name: str = "memory", exhaustive: bool = True) -> None:
        self.records = records
        self.name = name
        self.exhaustive = exhaustive
        self.calls: list[str] = []

    def by_doi(self, doi: str) -> list[AuthorityRecord]:
        self.calls.append(f"doi:{doi}")
        return [r for r in self.records if r.doi == doi]

    def by_arxiv(self, arxiv_id: str) -> list[AuthorityRecord]:
        self.calls.append(f"arxiv:{arxiv_id}")
        return [r for r in self.records if r.arxiv_id == arxiv_id]

    def by_title(self, title: str, limit: int = 5) -> list[AuthorityRecord]:
        self.calls.append(f"title:{title}")
        return [r for r in self.records if title_similarity(title, r.title) >= 0.5][:limit]


class OfflineAuthority:
    name = "offline"
    exhaustive = True

    def by_doi(self, doi: str) -> list[AuthorityRecord]:
        raise AuthorityUnavailable("no network")

    by_arxiv = by_doi

    def by_title(self, title: str, limit: int = 5) -> list[AuthorityRecord]:
        raise AuthorityUnavailable("no network")


BERT = AuthorityRecord(
    source="memory",
    record_id="doi:10.18653/v1/n19-1423",
    title="BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
    authors=("Devlin, Jacob", "Chang, Ming-Wei", "Lee, Kenton", "Toutanova, Kristina"),
    year=2019,
    venue="Proceedings of the 2019 Conference of the North American Chapter of the Association for "
    "Computational Linguistics: Human Language Technologies, Volume 1 (Long and Short Papers)",
    doi="10.18653/v1/n19-1423",
    pages="4171--4186",
    entry_type="inproceedings",
)
ACCENT = AuthorityRecord(
    source="memory",
    record_id="doi:10.1145/1111.2222",
    title="Évaluation des systèmes de recherche d'information",
    authors=("Grau, Béatrice", "Müller, Jörg", "Ødegaard, Åse"),
    year=2012,
    venue="CORIA",
    doi="10.1145/1111.2222",
    pages="1–8",
    entry_type="inproceedings",
)
TNT = AuthorityRecord(
    source="memory",
    record_id="acl:A00-1031",
    title="TnT -- A Statistical Part-of-Speech Tagger",
    authors=("Brants, Thorsten",),
    year=2000,
    venue="Sixth Applied Natural Language Processing Conference",
    pages="224--231",
    entry_type="inproceedings",
)
RESNET = AuthorityRecord(
    source="memory",
    record_id="doi:10.1109/cvpr.2016.90",
    title="Deep Residual Learning for Image Recognition",
    authors=("He, Kaiming", "Zhang, Xiangyu", "Ren, Shaoqing", "Sun, Jian"),
    year=2016,
    venue="2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
    doi="10.1109/cvpr.2016.90",
    pages="770--778",
    entry_type="inproceedings",
)
ALL = [BERT, ACCENT, TNT, RESNET]


def entry(text: str) -> BibEntry:
    bib = parse_bib_text(text, BIB)
    assert bib.entries, bib.findings
    return bib.entries[0]


def verify(text: str, records: list[AuthorityRecord] | None = None) -> BibVerdict:
    return verify_entry(entry(text), [MemoryAuthority(ALL if records is None else records)])
