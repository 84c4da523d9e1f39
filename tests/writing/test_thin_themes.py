"""A theme with nothing to say of its papers joins a kindred paragraph as a citation list."""

from __future__ import annotations

import re
from pathlib import Path

from relatex.retrieval.records import PaperRecord
from relatex.writing.offline_writer import write_offline
from relatex.writing.plan import PaperBrief, ThemeOutline, WritingPlan
from relatex.writing.thin_themes import FoldedTheme, discusses, fold_targets, list_sentences

PAPERS = {
    "ng2002": ("Improving machine learning approaches to coreference resolution",
               "We present a noun phrase coreference system that extends earlier work and reports the best "
               "results to date on two coreference resolution data sets."),
    "soon2001": ("A machine learning approach to coreference resolution of noun phrases",
                 "We present a learning approach to coreference resolution of noun phrases in unrestricted "
                 "text."),
    "luo2005": ("On coreference resolution performance metrics", ""),
    "zhao2010": ("Maximum metric score training for coreference resolution", ""),
    "petrov2008": ("Coarse-to-fine syntactic machine translation using language projections", ""),
    "carreras2009": ("Non-projective parsing for statistical machine translation", ""),
}


def _plan(themes: tuple[ThemeOutline, ...]) -> WritingPlan:
    papers = {k: PaperBrief(key=k, record=PaperRecord(id=k, title=t, abstract=a or None, year=2008),
                            layer="development") for k, (t, a) in PAPERS.items()}
    return WritingPlan(draft_title="Supervised noun phrase coreference research", draft_abstract="",
                       papers=papers, themes=themes, reading_order=tuple(papers), relations={})


def test_a_paragraph_discusses_when_a_later_sentence_cites_beyond_lists() -> None:
    assert discusses(r"Work on X \citep{a,b}. \citet{a} study X. Other work on X includes~\citep{b}.")
    assert not discusses(r"Research on X \citep{a,b} forms a further strand. See also~\citep{c}.")
    assert not discusses(r"Work on X \citep{a}. Other work on Y includes~\citep{b}. Our work differs.")


def test_thin_themes_fold_into_the_kindred_theme_only() -> None:
    terms = [["coreference resolution"], ["dependency parsing"], ["metrics", "coreference resolution"],
             ["machine translation"], ["parsers", "dependency parsing"]]
    thin = [False, False, True, True, True]
    assert fold_targets(terms, thin) == {2: 0, 4: 1}  # machine translation is near no discussed theme
    assert fold_targets(terms, [True] * 5) == {}  # nothing discusses: nothing to fold into
    general = [["learning models"], ["learning methods"]]
    assert fold_targets(general, [False, True]) == {}  # general words only
    # a word in common is no kinship: the thin label's term must lie wholly within the other label
    assert fold_targets([["cross-lingual textual entailment"], ["cross-language information retrieval"]],
                        [False, True]) == {}
    assert fold_targets([["subjectivity classifiers"], ["sentiment classification"]], [False, True]) == {}
    lists = [FoldedTheme("X", ("X",), ("a", "b"), ()), FoldedTheme("Y", ("Y",), ("c",), ())]
    same = list_sentences("X", ["a"], lists)
    assert same == [r"Other work on X includes~\citep{a,b}.", r"Other work on Y includes~\citep{c}."]


def test_title_only_theme_is_a_list_in_its_kin_and_an_unrelated_one_keeps_its_paragraph() -> None:
    themes = (ThemeOutline(id=0, label="coreference resolution", terms=("coreference resolution",),
                           keys=("ng2002", "soon2001")),
              ThemeOutline(id=1, label="metrics and coreference resolution",
                           terms=("metrics", "coreference resolution"), keys=("luo2005", "zhao2010")),
              ThemeOutline(id=2, label="machine translation", terms=("machine translation",),
                           keys=("petrov2008", "carreras2009")))
    for seed in range(4):
        body = write_offline(_plan(themes), seed=seed)
        paragraphs = [p for p in body.split("\n\n") if "\\cite" in p]
        assert len(paragraphs) == 2, body
        first = paragraphs[0]
        listed = r"Other work on [a-z ]*coreference resolution includes~\\citep\{luo2005,zhao2010\}\."
        assert re.search(listed, first), body
        assert first.index("luo2005") > first.index(r"\citet{"), body  # after the discussed papers
        assert "petrov2008" in paragraphs[1] and "machine translation" in paragraphs[1], body
        assert "metrics" not in body.split("\n\n")[1], body  # the overview names the paragraphs written
        cited = set(re.findall(r"[a-z]+\d{4}", body))
        assert cited == set(PAPERS), body  # every paper is still cited


def test_a_paper_whose_abstract_is_a_pdf_table_is_written_about_by_its_title(
        tmp_path: Path, records: list[PaperRecord]) -> None:
    from dataclasses import replace

    from relatex.writing.generate import build_plan, generate_related_work
    from tests.writing.conftest import make_project, make_selection

    table = ("string date occurrence Local .125 context All .125 word distribution Narrow .125 .083 .083 "
             ".083 .125 Wide IDF RF Burstiness 1 exact-match accuracy 0.8 0.6 0.4 0.2 4 3 2 1 combo "
             "levenshtein")
    records = [replace(r, abstract=table) if i == 1 else r for i, r in enumerate(records)]
    project, bibs = make_project(tmp_path)
    selection = make_selection(records)
    plan = build_plan(project, selection, {r.id: f"k{i}" for i, r in enumerate(records)})
    assert plan.papers["k1"].record.abstract is None and plan.papers["k1"].sentences == ()
    assert plan.papers["k0"].record.abstract == records[0].abstract
    latex = generate_related_work(project, bibs, selection).latex
    assert "levenshtein" not in latex.lower() and ".125" not in latex, latex


def test_a_title_subject_is_said_once_per_paragraph() -> None:
    from relatex.writing.contribution_extract import extract
    from relatex.writing.offline_writer import section_guard, write_theme

    papers = {
        "gildea2000": ("Automatic Labeling Of Semantic Roles", "We present a system for identifying the "
                       "semantic relationships filled by constituents of a sentence within a semantic "
                       "frame."),
        "litkowski2004": ("Senseval-3 Task: Automatic Labeling Of Semantic Roles",
                          "The task drew ten teams."),
        "gildea2002": ("Automatic Labeling Of Semantic Roles", "We employ various lexical clustering "
                       "algorithms to generalize across possible fillers of roles."),
    }
    briefs = {k: PaperBrief(key=k, record=PaperRecord(id=k, title=t, abstract=a, year=2002),
                            layer="development") for k, (t, a) in papers.items()}
    theme = ThemeOutline(id=0, label="semantic roles", terms=("semantic roles",), keys=tuple(papers))
    plan = WritingPlan(draft_title="Semantic role labeling for question answering", draft_abstract="",
                       papers=briefs, themes=(theme,), reading_order=tuple(papers), relations={})
    contributions = {k: extract(b.record.abstract or "", b.record.title) for k, b in briefs.items()}
    for seed in range(6):
        paragraph = write_theme(plan, theme, 0, section_guard(plan), contributions, None, seed).text
        assert paragraph.lower().count("automatic labeling of semantic roles") <= 1, paragraph
        assert all(k in paragraph for k in papers), paragraph


def test_a_thin_theme_as_a_list_cites_what_its_paragraph_cites() -> None:
    from relatex.analysis.sentences import split_sentences
    from relatex.writing.contribution_extract import extract
    from relatex.writing.latex_validator import cited_keys
    from relatex.writing.offline_writer import section_guard, write_theme

    theme = ThemeOutline(id=1, label="metrics and coreference resolution",
                         terms=("metrics", "coreference resolution"),
                         keys=("luo2005", "zhao2010", "petrov2008"))
    plan = _plan((theme,))
    contributions = {k: extract(b.record.abstract or "", b.record.title) for k, b in plan.papers.items()}
    for seed in range(4):
        written = write_theme(plan, theme, 2, section_guard(plan), contributions, None, seed)
        assert not discusses(written.text), written.text
        sentences = [written.text[a:b] for a, b in split_sentences(written.text)]
        pointed = [k for s in sentences if s.startswith("See also") for k in cited_keys(s)]
        assert written.as_list.pointed == tuple(pointed) == ("petrov2008",), written.text
        assert written.as_list.listed == tuple(k for k in cited_keys(written.text) if k not in pointed)
        assert written.as_list.terms == ("metrics", "coreference resolution")
