"""Papers under the label their text names: regrouping between themes, and the bridge before the rest."""

from __future__ import annotations

import re
from dataclasses import replace

from relatex.retrieval.records import PaperRecord
from relatex.writing.contribution_extract import extract
from relatex.writing.offline_writer import section_guard, write_offline, write_theme
from relatex.writing.paragraph_themes import regrouped, theme_terms, topic_papers
from relatex.writing.plan import PaperBrief, ThemeOutline, WritingPlan

ABSTRACTS = {
    "rank1": ("Probabilistic ranking for ad hoc retrieval",
              "We propose a probabilistic ranking function for ad hoc retrieval of documents."),
    "rank2": ("Learning to rank with click data",
              "We study ranking of web documents from click logs and train a pairwise ranking model."),
    "louvain": ("Fast unfolding of communities in large networks",
                "We propose a fast heuristic method that extracts the community structure of large networks."),
    "corwa": ("A corpus of related-work sections",
              "We annotate the related-work sections of NLP papers with citation spans."),
    "rws1": ("Towards automated related-work sections",
             "We introduce the task of writing the related-work sections of a paper from the papers it cites."),
}


def _plan(themes: tuple[ThemeOutline, ...]) -> WritingPlan:
    papers = {key: PaperBrief(key=key, record=PaperRecord(id=key, title=title, abstract=abstract, year=2010),
                              layer="development")
              for key, (title, abstract) in ABSTRACTS.items()}
    return WritingPlan(draft_title="Citation-graph related-work generation", draft_abstract="", papers=papers,
                       themes=themes, reading_order=tuple(papers), relations={})


def test_a_paper_naming_another_themes_label_moves_there_and_one_naming_none_stays() -> None:
    ranking = ThemeOutline(id=0, label="ranking", terms=("ranking",), keys=("rank1", "rank2", "louvain", "corwa"))
    sections = ThemeOutline(id=1, label="related-work sections", terms=("related-work sections",), keys=("rws1",))
    plan = _plan((ranking, sections))
    first, second = regrouped(plan, plan.themes)
    assert first.keys == ("rank1", "rank2", "louvain")  # community detection names no other label either
    assert second.keys == ("rws1", "corwa")
    assert theme_terms(plan, [first, second]) == [["ranking"], ["related-work sections"]]
    # a theme all of whose papers name another theme's label is left empty and dropped
    emptied = ThemeOutline(id=2, label="community structure", terms=("community structure",), keys=("corwa",))
    assert regrouped(plan, (emptied, sections)) == [replace(sections, keys=("rws1", "corwa"))]


def test_papers_off_the_label_come_last_after_one_bridge() -> None:
    theme = ThemeOutline(id=0, label="ranking", terms=("ranking",), keys=("louvain", "rank1", "corwa", "rank2"))
    plan = _plan((theme,))
    contributions = {k: extract(b.record.abstract or "", b.record.title) for k, b in plan.papers.items()}
    for seed in range(6):
        paragraph = write_theme(plan, theme, 0, section_guard(plan), contributions, None, seed).text
        order = [m.group(1) for m in re.finditer(r"\\citet\{(\w+)\}", paragraph)]
        assert order.index("louvain") > max(order.index("rank1"), order.index("rank2")), paragraph
        assert paragraph.count("Further afield, ") == 1, paragraph
        # the section's only theme: no "first line of work"
        assert paragraph.startswith("Work on ranking") and "first line" not in paragraph
        assert re.search(r"Further afield, \\citet\{(?:louvain|corwa)\}", paragraph), paragraph
    # every paper fits: no bridge
    plain = ThemeOutline(id=0, label="ranking", terms=("ranking",), keys=("rank1", "rank2"))
    assert "Beyond" not in write_offline(_plan((plain,)))


def test_a_paper_near_the_label_is_bridged_as_related_not_as_beyond_it() -> None:
    from relatex.writing.paragraph_themes import bridge_words

    plan = _plan(())
    assert bridge_words(plan.papers["louvain"], "ranking") == "Further afield,"
    # the related-work corpus shares "related-work" with the label, not "generation"
    assert bridge_words(plan.papers["corwa"], "related-work generation") == "In a related direction,"
    # a shared general word ("models") does not make a paper near
    assert bridge_words(plan.papers["louvain"], "network models") == "In a related direction,"
    assert bridge_words(plan.papers["rank1"], "matching models") == "Further afield,"


def test_a_second_label_term_that_is_a_facet_is_no_topic() -> None:
    from relatex.writing.paragraph_themes import facet_term, joint_terms

    def brief(key: str, title: str, abstract: str = "") -> PaperBrief:
        return PaperBrief(key=key, record=PaperRecord(id=key, title=title, abstract=abstract))

    wsj = [brief("a", "Dependency parsing of the Wall Street Journal", "We parse the Wall Street Journal corpus."),
           brief("b", "Fast dependency parsing", "Results on the Penn Treebank (Wall Street Journal section).")]
    assert facet_term("Street Journal", wsj)  # part of a longer name wherever it occurs
    assert not facet_term("Penn Treebank", wsj)
    assert facet_term("parses", wsj) and facet_term("significant improvements", wsj)
    assert not facet_term("user modeling", wsj)
    assert facet_term("blind tests", wsj)  # how a paper was tested is no topic beside the first
    assert not facet_term("test collections", wsj)
    assert joint_terms(["dependency parsing", "Street Journal"], wsj) == ["dependency parsing"]
    # a piece of a name or a measure tells no paragraphs apart either
    assert joint_terms(["dependency parsing", "Street Journal"], wsj, others=["dependency trees"]) == \
        ["dependency parsing"]


def test_a_facet_second_term_gives_way_to_a_later_term_that_names_a_topic() -> None:
    from relatex.writing.paragraph_themes import joint_terms

    def brief(key: str, title: str) -> PaperBrief:
        return PaperBrief(key=key, record=PaperRecord(id=key, title=title, abstract=""))

    papers = [brief("a", "Coreference resolution of noun phrases with rules"),
              brief("b", "Noun phrases and their antecedents"), brief("c", "Coreference resolution rules")]
    terms = ["coreference resolution", "rules", "noun phrases"]
    assert joint_terms(terms, papers, others=["coreference chains"]) == ["coreference resolution", "noun phrases"]
    # with no later term that names a topic, the facet stays only where it tells two paragraphs apart
    assert joint_terms(terms[:2], papers, others=["coreference chains"]) == terms[:2]
    assert joint_terms(terms[:2], papers, others=[]) == terms[:1]


def test_themes_a_paragraph_would_name_alike_are_written_as_one() -> None:
    first = ThemeOutline(id=0, label="ranking", terms=("ranking",), keys=("rank1",))
    other = ThemeOutline(id=1, label="related-work sections", terms=("related-work sections",),
                         keys=("rws1",))
    again = ThemeOutline(id=2, label="ranking", terms=("ranking",), keys=("rank2",))
    plan = _plan((first, other, again))
    themes = regrouped(plan, plan.themes)
    assert [t.keys for t in themes] == [("rank1", "rank2"), ("rws1",)]
    section = write_offline(plan)
    assert section.count("ranking \\citep") == 1, section  # one topic sentence on ranking, citing both
    # a second term that tells them apart keeps them two paragraphs
    clicks = replace(again, label="ranking, click data", terms=("ranking", "click data"))
    assert len(regrouped(plan, (first, other, clicks))) == 3


COREFERENCE = {"coref1": "Coreference resolution with rules", "coref2": "Rules for coreference resolution",
               "coref3": "Coreference resolution of pronouns", "coref4": "Coreference resolution in news",
               "coref5": "Coreference resolution as ranking", "coref6": "Coreference resolution for all",
               "coref7": "Coreference resolution with graphs"}


def test_a_theme_whose_label_names_nothing_an_earlier_label_does_not_joins_that_theme() -> None:
    base = _plan(())
    briefs = {key: PaperBrief(key=key, record=PaperRecord(id=key, title=title, abstract="", year=2010),
                              layer="development") for key, title in COREFERENCE.items()}
    plan = replace(base, papers={**base.papers, **briefs})
    rules = ThemeOutline(id=0, label="coreference resolution, rules",
                         terms=("coreference resolution", "rules"), keys=("coref1", "coref2"))
    other = ThemeOutline(id=1, label="related-work sections", terms=("related-work sections",),
                         keys=("rws1",))
    plain = ThemeOutline(id=2, label="coreference resolution", terms=("coreference resolution",),
                         keys=("coref3",))
    merged = regrouped(plan, (rules, other, plain))
    assert [t.keys for t in merged] == [("coref1", "coref2", "coref3"), ("rws1",)]
    # the earlier, plainer label does not take in a later one that names more
    assert len(regrouped(plan, (plain, other, rules))) == 3
    # nor a later one without its first term: "rules" would head a paragraph of papers on coreference
    ruled = replace(rules, label="rules, coreference resolution", terms=("rules", "coreference resolution"))
    assert len(regrouped(plan, (ruled, other, plain))) == 3
    # nor a later one of more papers than a weak theme has
    many = replace(plain, keys=("coref3", "coref4", "coref5", "coref6", "coref7"))
    assert len(regrouped(plan, (rules, other, many))) == 3


def test_a_topic_sentence_cites_papers_whose_titles_name_the_label_where_its_first_ones_do_not() -> None:
    plan = _plan(())
    label = ["related-work sections"]
    order = {"rank1": 0.9, "rank2": 0.8, "louvain": 0.7, "rws1": 0.6, "corwa": 0.5}
    briefs = [replace(plan.papers[k], relevance=r) for k, r in order.items()]
    # the four most relevant papers (taken as on the label) include one whose title names it: as before
    assert [b.key for b in topic_papers(briefs, set(order), label)] == ["rank1", "rank2", "louvain", "rws1"]
    # none of the four does: the papers whose titles name the label are cited instead
    retitled = replace(briefs[3], record=replace(briefs[3].record, title="Towards automated writing"))
    briefs[3] = retitled
    assert [b.key for b in topic_papers(briefs, set(order), label)] == ["corwa"]
    # no title names it: the most relevant papers, as before
    first_four = ["rank1", "rank2", "louvain", "rws1"]
    assert [b.key for b in topic_papers(briefs[:4], set(order), label)] == first_four
    # the chosen papers have titles only: the most relevant with an abstract instead, where there are any
    titles_only = [replace(b, record=replace(b.record, abstract=None)) for b in briefs[:4]]
    unnamed = replace(briefs[4], record=replace(briefs[4].record, title="Writing with citations"))
    assert [b.key for b in topic_papers([*titles_only, unnamed], set(order), label)] == ["corwa"]
    assert [b.key for b in topic_papers(titles_only, set(order), label)] == first_four  # none has one


# titles the phrases say whole, so that each paper's sentence opens on the paper, not on its title
SAID_WHOLE = {
    "r1": ("Probabilistic ranking", "We propose probabilistic ranking of documents with term weights."),
    "r2": ("Pairwise ranking", "We train pairwise ranking models of web documents from click logs."),
    "r3": ("Graph ranking", "We propose graph ranking of web pages from the links between them."),
}


def _said_whole(years: dict[str, int], layers: dict[str, str],
                relations: dict[tuple[str, str], tuple[str, ...]]) -> tuple[ThemeOutline, WritingPlan]:
    theme = ThemeOutline(id=0, label="ranking", terms=("ranking",), keys=tuple(SAID_WHOLE))
    papers = {k: PaperBrief(key=k, record=PaperRecord(id=k, title=t, abstract=a, year=years[k]),
                            layer=layers[k]) for k, (t, a) in SAID_WHOLE.items()}
    return theme, WritingPlan(draft_title="Citation-graph related-work generation", draft_abstract="",
                              papers=papers, themes=(theme,), reading_order=tuple(papers),
                              relations=relations)


def _paragraphs(theme: ThemeOutline, plan: WritingPlan, seeds: int) -> list[str]:
    contributions = {k: extract(b.record.abstract or "", b.record.title) for k, b in plan.papers.items()}
    return [write_theme(plan, theme, 0, section_guard(plan), contributions, None, seed).text
            for seed in range(seeds)]


def test_early_on_is_said_only_of_the_oldest_paper_of_its_paragraph() -> None:
    layers = {"r1": "foundation", "r2": "development", "r3": "development"}
    early = re.compile(r"Early on, \\citet\{r1\}|An early contribution is that of \\citet\{r1\}")
    theme, plan = _said_whole({"r1": 2012, "r2": 2005, "r3": 2013}, layers, {})
    said = _paragraphs(theme, plan, 12)  # r2 (2005) is older: r1 (2012) is no early contribution
    assert not any(early.search(p) for p in said), said
    theme, plan = _said_whole({"r1": 2012, "r2": 2015, "r3": 2013}, layers, {})
    said = _paragraphs(theme, plan, 12)
    assert any(early.search(p) for p in said), said


def test_similarly_speaks_only_of_the_sentence_before() -> None:
    development = dict.fromkeys(SAID_WHOLE, "development")
    # r3 is related to r1 only, and r2's sentence comes between them
    theme, plan = _said_whole(dict.fromkeys(SAID_WHOLE, 2010), development, {("r3", "r1"): ("semantic",)})
    unnamed = re.compile(r"(Similarly|Along similar lines|In a closely related direction), \\citet\{r3\}|"
                         r"A related approach is taken by \\citet\{r3\}|\\citet\{r3\} likewise")
    named = re.compile(r"\\citet\{r1\}, \\citet\{r3\}|\\citet\{r3\}, cited by \\citet\{r1\}")
    said = _paragraphs(theme, plan, 40)
    assert not any(unnamed.search(p) for p in said), [p for p in said if unnamed.search(p)]
    # a relation of text alone names no paper: nothing in either record says how the two relate
    assert not any(named.search(p) for p in said), [p for p in said if named.search(p)]


def test_a_paper_is_named_beside_another_only_where_the_records_link_them() -> None:
    development = dict.fromkeys(SAID_WHOLE, "development")
    theme, plan = _said_whole(dict.fromkeys(SAID_WHOLE, 2010), development, {("r1", "r3"): ("cites",)})
    said = _paragraphs(theme, plan, 40)  # r1 cites r3, and r2's sentence comes between them
    cited_by = re.compile(r"Cited by \\citet\{r1\}, \\citet\{r3\}|\\citet\{r3\}, cited by \\citet\{r1\},")
    assert any(cited_by.search(p) for p in said), said
    assert not any(re.search(r"Closely related to|Along the same lines as|Building on", p) for p in said)


def test_a_relation_of_text_alone_says_nothing_of_what_the_other_paper_did() -> None:
    from relatex.writing.offline_templates import SIMILAR

    # "\citet{b} likewise propose a citation recommender" after a sentence on the probabilistic relevance
    # framework said the framework's authors proposed one too
    assert not [t for t in SIMILAR if re.search(r"likewise|approach|\{prev\}", t)]
    development = dict.fromkeys(SAID_WHOLE, "development")
    theme, plan = _said_whole(dict.fromkeys(SAID_WHOLE, 2010), development, {("r2", "r1"): ("semantic",)})
    said = _paragraphs(theme, plan, 40)  # r2's sentence follows r1's
    assert any(re.search(r"(Along similar lines|In a related direction|Similarly), \\citet\{r2\}", p) for p in said)
    assert not any(re.search(r"likewise|A related approach", p) for p in said), said


def test_similarly_needs_a_title_word_the_two_papers_share() -> None:
    from relatex.writing.plan import title_words

    # vectors put "The Probabilistic Relevance Framework" beside "Content-Based Citation Recommendation"
    assert not title_words("The Probabilistic Relevance Framework: BM25 and Beyond") & \
        title_words("Content-Based Citation Recommendation")
    assert not title_words("Neural models for ranking") & title_words("Graph models of text")  # "models" names no subject
    development = dict.fromkeys(SAID_WHOLE, "development")
    theme, plan = _said_whole(dict.fromkeys(SAID_WHOLE, 2010), development, {("r2", "r1"): ("semantic",)})
    unshared = {**plan.papers, "r2": replace(plan.papers["r2"], record=replace(plan.papers["r2"].record,
                                                                                  title="Click logs of web documents"))}
    said = _paragraphs(theme, replace(plan, papers=unshared), 40)
    assert not any(re.search(r"(Along similar lines|In a related direction|Similarly), \\citet\{r2\}", p) for p in said)
    assert plan.alike("r2", "r1") and not replace(plan, papers=unshared).alike("r2", "r1")
