"""The draft as the selection sees it: key resolution (DOI, arXiv, title) and co-citation groups."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.analysis.latex.latex_project import load_project
from relatex.analysis.latex.project_model import CitationKey, CitationSite, LatexProject, SourceFile
from relatex.analysis.verification.project_checks import load_bibliographies
from relatex.retrieval.draft import draft_context, resolve_entry
from relatex.retrieval.knowledge_base import KnowledgeBase
from tests.fixtures.graph.graph_kb import DRAFT, build_kb


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeBase]:
    base = build_kb(tmp_path_factory.mktemp("graph-kb"))
    yield base
    base.close()


def _entry(text: str):  # type: ignore[no-untyped-def]
    return parse_bib_text(text, Path("x.bib")).entries[0]


def test_resolution_by_doi_arxiv_and_title(kb: KnowledgeBase) -> None:
    by_doi = _entry("@article{a, title={Whatever}, doi={https://doi.org/10.1000/CR.1}}")
    by_arxiv = _entry("@misc{b, title={Other}, eprint={2301.00001}, archiveprefix={arXiv}}")
    by_url = _entry("@misc{b2, title={Other}, url={https://arxiv.org/abs/2301.00001v3}}")
    by_title = _entry("@article{c, author={Gori, M.}, year={2006},"
                      " title={Citation {R}ecommendation using the citation graph and personalised PageRank}}")
    assert resolve_entry(by_doi, kb).id == "doi:10.1000/cr.1"  # type: ignore[union-attr]
    assert resolve_entry(by_arxiv, kb).id == "arxiv:2301.00001"  # type: ignore[union-attr]
    resolved_url = resolve_entry(by_url, kb)
    assert resolved_url is None or resolved_url.id == "arxiv:2301.00001"
    assert resolve_entry(by_title, kb).id == "doi:10.1000/cr.3"  # type: ignore[union-attr]


def test_title_match_needs_the_same_first_author_and_close_year(kb: KnowledgeBase) -> None:
    title = "Citation recommendation using the citation graph and personalised PageRank"
    wrong_author = _entry(f"@article{{c, author={{Smith, John}}, year={{2006}}, title={{{title}}}}}")
    wrong_year = _entry(f"@article{{c, author={{Gori, Marco}}, year={{2015}}, title={{{title}}}}}")
    no_author = _entry(f"@article{{c, title={{{title}}}}}")
    assert resolve_entry(wrong_author, kb) is None
    assert resolve_entry(wrong_year, kb) is None
    assert resolve_entry(no_author, kb) is not None
    assert resolve_entry(_entry("@article{d, title={Nothing like this exists}}"), kb) is None


def test_draft_context_of_the_fixture_project(kb: KnowledgeBase) -> None:
    project = load_project(DRAFT)
    draft = draft_context(project, load_bibliographies(project), kb)
    assert draft.title.startswith("Seeded citation graph expansion")
    assert "personalised PageRank" in draft.abstract
    assert draft.in_kb == {"he2010", "gu2023", "gori2006"}
    assert draft.cited["he2010"].id == "doi:10.1000/cr.1"
    assert draft.cited["gori2006"].id == "doi:10.1000/cr.3"
    # Not in the knowledge base: a record built from the entry keeps the paper in the graph.
    assert draft.cited["unknownpaper"].source == "draft" and draft.cited["unknownpaper"].year == 2001
    assert draft.missing_keys == ("nobibentry",)
    assert draft.sentence_groups == (("he2010", "gori2006"), ("unknownpaper", "nobibentry"))
    assert set(map(frozenset, draft.paragraph_groups)) == {frozenset({"he2010", "gori2006", "gu2023"})}
    assert draft.key_for("doi:10.1000/cr.3") == "gori2006"
    assert [title for title, _ in draft.sections] == ["Introduction"]


def test_co_citation_groups_from_sentences_and_paragraphs(kb: KnowledgeBase) -> None:
    path = Path("/virtual/main.tex")
    text = "One \\cite{a,b}. Two \\cite{c}.\n\nThree \\cite{d} and \\cite{a}.\n\nFour \\cite{e}."

    def site(keys: str, sentence: tuple[int, int]) -> CitationSite:
        start = text.index(f"\\cite{{{keys}}}")
        ks = tuple(CitationKey(k, path, start + 6, start + 6 + len(k)) for k in keys.split(","))
        return CitationSite("cite", ks, path, start, start + len(keys) + 7,
                            sentence_start=sentence[0], sentence_end=sentence[1])

    sites = (site("a,b", (0, 15)), site("c", (16, 30)), site("d", (32, 60)), site("a", (32, 60)),
             site("e", (62, 76)))
    project = LatexProject(root=path, root_dir=path.parent, files={path: SourceFile(path, text)},
                           file_order=(path,), citations=sites)
    bib = parse_bib_text("".join(f"@misc{{{k}, title={{Paper {k}}}}}\n" for k in "abcde"), Path("/virtual/r.bib"))
    draft = draft_context(project, {bib.path: bib}, kb)
    assert draft.sentence_groups == (("a", "b"), ("d", "a"))
    assert draft.paragraph_groups == (("a", "b", "c"),)
    assert draft.in_kb == frozenset()
