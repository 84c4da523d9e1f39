"""Title, authors and abstract across document classes; thebibliography; section headings."""

from __future__ import annotations

from pathlib import Path

import pytest

from relatex.analysis.latex.latex_project import load_project
from relatex.analysis.latex.latex_scan import mask_text
from relatex.analysis.latex.structure import find_authors, find_section_headings

STYLES = Path(__file__).resolve().parent.parent / "fixtures" / "analysis" / "latex" / "styles"


@pytest.mark.parametrize(
    ("name", "title", "authors", "abstract"),
    [
        ("ieee.tex", "Graph Expansion for Citation Recommendation",
         ("Grace Hopper", "John von Neumann", "Emmy Noether"), "Citation graphs connect papers."),
        ("acmart.tex", "Dense Retrieval for Scholarly Search", ("Barbara Liskov", "Donald Knuth"),
         "Dense retrievers find related papers."),
        ("elsarticle.tex", "Claim Verification with Natural Language Inference",
         ("Marie Curie", "Pierre Curie"), "We verify claims against abstracts."),
    ],
)
def test_front_matter_variants(name: str, title: str, authors: tuple[str, ...], abstract: str) -> None:
    project = load_project(STYLES / name)
    assert project.title == title
    assert project.authors == authors
    assert project.abstract == abstract
    assert project.abstract_range is not None
    path, start, end = project.abstract_range
    assert project.files[path].text[end:].startswith(r"\end{abstract}")


def test_abstract_command_and_keywords_excluded(tmp_path: Path) -> None:
    root = tmp_path / "paper.tex"
    root.write_text(
        "\\documentclass{svjour3}\n\\title{T}\n\\abstract{Short \\emph{abstract} text. "
        "\\keywords{one, two}}\n\\begin{document}\\maketitle\nBody.\\end{document}\n"
    )
    project = load_project(root)
    assert project.abstract == "Short abstract text."
    text = root.read_text()
    assert project.abstract_range == (root.resolve(), text.index("Short"), text.index("}}\n") + 1)
    ieee = tmp_path / "ieee.tex"
    ieee.write_text("\\begin{abstract}A. \\begin{IEEEkeywords}k1, k2\\end{IEEEkeywords}\\end{abstract}")
    assert load_project(ieee).abstract == "A."


@pytest.mark.parametrize(
    ("source", "names"),
    [
        (r"\author{Ada Lovelace \and Alan Turing}", ["Ada Lovelace", "Alan Turing"]),
        (r"\author{Ada Lovelace\inst{1} \and Alan Turing\inst{2}}", ["Ada Lovelace", "Alan Turing"]),
        (r"\author[1]{Ada Lovelace}\author[2]{Alan Turing\thanks{x}}", ["Ada Lovelace", "Alan Turing"]),
        ("\\author{Ada Lovelace \\\\ Univ. of London \\\\ \\texttt{ada@x.org} \\And Alan Turing \\\\ NPL}",
         ["Ada Lovelace", "Alan Turing"]),
        (r"\author{Ada Lovelace, Alan Turing and Grace Hopper}", ["Ada Lovelace", "Alan Turing", "Grace Hopper"]),
        (r"\author{Kurt G\"{o}del}", ["Kurt Gödel"]),
        (r"\icmlauthor{Ada Lovelace}{lon}", ["Ada Lovelace"]),
    ],
)
def test_author_variants(source: str, names: list[str]) -> None:
    assert find_authors(source, mask_text(source)) == names


def test_thebibliography_items(tmp_path: Path) -> None:
    path = STYLES / "thebibliography.tex"
    project = load_project(path)
    text = project.files[path.resolve()].text
    assert [(r.kind, r.path, r.exists) for r in project.bib_resources] == [("thebibliography", None, True)]
    resource = project.bib_resources[0]
    assert text[resource.start:resource.end].startswith(r"\begin{thebibliography}")
    assert text[resource.start:resource.end].endswith(r"\end{thebibliography}")
    assert [(i.key, i.text) for i in project.bib_items] == [
        ("knuth84", "D. E. Knuth. The TeX book. Addison-Wesley, 1984."),
        ("lamport94", "L. Lamport. LaTeX: A Document Preparation System. 1994."),
    ]
    first = project.bib_items[0]
    assert text[first.start:first.end] == (
        r"\bibitem[Knuth(1984)]{knuth84} D.~E. Knuth. \emph{The \TeX book}. Addison-Wesley, 1984."
    )
    assert project.findings == ()


def test_section_headings_short_titles_stars_and_labels() -> None:
    source = (
        "\\part{One}\n\\chapter*{Preface}\n\\section[Short]{Long \\emph{Title}}\n  \\label{sec:long}\n"
        "\\subsection{Sub}% comment\n\\label{sub}\n\\subsubsection{Deep}\\paragraph{Para.} text\n"
        "% \\section{Commented}\n\\subparagraph{Tiny}\n\\section{Broken"
    )
    headings = find_section_headings(source, mask_text(source))
    assert [(h.command, h.level, h.title, h.label) for h in headings] == [
        ("part", 0, "One", None),
        ("chapter*", 1, "Preface", None),
        ("section", 2, "Long Title", "sec:long"),
        ("subsection", 3, "Sub", "sub"),
        ("subsubsection", 4, "Deep", None),
        ("paragraph", 5, "Para.", None),
        ("subparagraph", 6, "Tiny", None),
    ]
    section = headings[2]
    assert source[section.title_start:section.title_end] == "Long \\emph{Title}"
    assert source[section.start:section.head_end] == "\\section[Short]{Long \\emph{Title}}\n  \\label{sec:long}"
