"""Fixtures of the writing tests: eight real-looking papers, a selection over them, a draft."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from relatex.analysis.bib.bibtex_model import BibEntry, BibFile
from relatex.analysis.latex.project_model import BibResource, LatexProject, Section, SourceFile
from relatex.retrieval.records import PaperRecord
from relatex.retrieval.selection import SelectedPaper, Selection, Theme

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "writing"

DRAFT_TEXT = r"""\documentclass{article}
\usepackage{natbib}
\begin{document}
\begin{abstract}
We present a language server that writes the related-work section of a LaTeX draft from a local
knowledge base of papers, grounding every citation in a verified bibliography entry.
\end{abstract}
\section{Introduction}
Retrieval matters \citep{robertson2009bm25}.

\section{Method}
We do things.

\section{Conclusion}
Done.
\bibliography{refs}
\end{document}
"""

BIB_TEXT = r"""@article{robertson2009bm25,
  author = {Robertson, Stephen and Zaragoza, Hugo},
  title = {The Probabilistic Relevance Framework: {BM25} and Beyond},
  journal = {Foundations and Trends in Information Retrieval},
  year = {2009},
  doi = {10.1000/bm25}
}

@inproceedings{reimers2019sentence,
  author = {Reimers, Nils and Gurevych, Iryna},
  title = {Sentence-{BERT}: Sentence Embeddings using Siamese {BERT}-Networks},
  booktitle = {EMNLP},
  year = {2019}
}
"""


def load_records() -> list[PaperRecord]:
    raw = json.loads((FIXTURES / "papers.json").read_text(encoding="utf-8"))
    return [
        PaperRecord(
            id=item["id"], title=item["title"], authors=tuple(item["authors"]), year=item["year"],
            venue=item.get("venue"), abstract=item["abstract"], doi=item.get("doi"),
            arxiv_id=item.get("arxiv_id"), url=item.get("url"), references=tuple(item.get("references", ())),
            source="fixture",
        )
        for item in raw
    ]


def make_selection(records: list[PaperRecord], draft_keys: dict[str, str] | None = None) -> Selection:
    """Two themes: retrieval (first four papers) and related-work generation (the rest)."""
    graph = nx.DiGraph()
    for record in records:
        graph.add_node(record.id, record=record)
    ids = {r.id for r in records}
    for record in records:
        for target in record.references:
            if target in ids:
                graph.add_edge(record.id, target, kinds={"cites": 1.0}, weight=1.0)
    layers = {2009: "foundation", 2010: "foundation", 2018: "development", 2019: "development",
              2020: "development", 2021: "frontier", 2023: "frontier"}
    papers = tuple(
        SelectedPaper(
            record=r, score=1.0 - i * 0.05, relevance=0.8 - i * 0.05, centrality=0.5,
            layer=layers.get(r.year or 0, "development"), theme=0 if i < 4 else 1,
            reasons=("seed",), draft_key=(draft_keys or {}).get(r.id),
        )
        for i, r in enumerate(records)
    )
    themes = (
        Theme(id=0, label="retrieval, dense, passage", terms=("retrieval", "dense", "passage"),
              paper_ids=tuple(r.id for r in records[:4]), order=0),
        Theme(id=1, label="related work, summarization, citation", terms=("related work", "summarization", "citation"),
              paper_ids=tuple(r.id for r in records[4:]), order=1),
    )
    order = tuple(sorted((r.id for r in records), key=lambda i: next(r.year for r in records if r.id == i) or 0))
    return Selection(papers=papers, themes=themes, reading_order=order, graph=graph)


def make_project(tmp: Path, package: str = "natbib", text: str = DRAFT_TEXT) -> tuple[LatexProject, dict[Path, BibFile]]:
    root = tmp / "main.tex"
    root.write_text(text, encoding="utf-8")
    bib_path = tmp / "refs.bib"
    bib_path.write_text(BIB_TEXT, encoding="utf-8")
    intro = text.index(r"\section{Introduction}")
    method = text.index(r"\section{Method}")
    concl = text.index(r"\section{Conclusion}")
    end = text.index(r"\bibliography")
    sections = (
        Section("Introduction", 2, "section", root, intro, method, intro + 9, intro + 21),
        Section("Method", 2, "section", root, method, concl, method + 9, method + 15),
        Section("Conclusion", 2, "section", root, concl, end, concl + 9, concl + 19),
    )
    bib_start = text.index(r"\bibliography")
    project = LatexProject(
        root=root, root_dir=tmp, files={root: SourceFile(root, text)}, file_order=(root,),
        abstract="We present a language server that writes the related-work section of a LaTeX draft from a "
                 "local knowledge base of papers, grounding every citation in a verified bibliography entry.",
        sections=sections,
        bib_resources=(BibResource("bibliography", bib_path, root, bib_start, bib_start + len(r"\bibliography{refs}")),),
        citation_package=package,
    )
    entries = []
    for key, doi, title, authors, year in (
        ("robertson2009bm25", "10.1000/bm25", "The Probabilistic Relevance Framework: BM25 and Beyond",
         ("Robertson, Stephen", "Zaragoza, Hugo"), 2009),
        ("reimers2019sentence", None, "Sentence-BERT: Sentence Embeddings using Siamese BERT-Networks",
         ("Reimers, Nils", "Gurevych, Iryna"), 2019),
    ):
        start = BIB_TEXT.index("{" + key) - BIB_TEXT[: BIB_TEXT.index("{" + key)][::-1].index("@") - 1
        end_index = BIB_TEXT.index("\n}", start) + 2
        entries.append(BibEntry(key=key, entry_type="article", fields={"title": title}, path=bib_path, start=start,
                                end=end_index, title_plain=title, authors=authors, year=year, doi=doi))
    bibs = {bib_path: BibFile(path=bib_path, text=BIB_TEXT, entries=tuple(entries))}
    return project, bibs


@pytest.fixture()
def records() -> list[PaperRecord]:
    return load_records()


@pytest.fixture()
def selection(records: list[PaperRecord]) -> Selection:
    return make_selection(records, {"doi:10.1000/bm25": "robertson2009bm25"})


@pytest.fixture()
def draft(tmp_path: Path) -> tuple[LatexProject, dict[Path, BibFile]]:
    return make_project(tmp_path)
