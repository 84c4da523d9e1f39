"""Closings from the draft's focus: a title phrase set against a theme only where the contrast holds."""

from __future__ import annotations

import random

from relatex.retrieval.records import PaperRecord
from relatex.writing.closings import Style
from relatex.writing.draft_focus import CLOSING_FOCUS, focus_closing, focus_phrases
from relatex.writing.offline_writer import write_offline
from relatex.writing.plan import PaperBrief, ThemeOutline, WritingPlan

TITLE = "Efficient Test Collection Construction via Active Learning"
POOLING = [("Forming test collections with no system pooling", "We build test collections without pooling runs.")]


def _pick(rng: int = 0) -> Style:
    return Style(random.Random(rng))


def test_the_title_gives_its_noun_phrases_in_order_names_kept_artefacts_left_out() -> None:
    assert focus_phrases(TITLE) == ["efficient test collection construction", "test collection construction",
                                    "collection construction", "active learning"]
    assert focus_phrases("Distilling BERT Encoders for Dense Retrieval") == ["BERT encoders", "dense retrieval"]
    assert focus_phrases("Bayesian Estimators for Unsupervised Tagging") == ["Bayesian estimators", "unsupervised tagging"]
    # a phrase that wants its of-phrase takes it where that is a phrase of the title ("models of what")
    assert focus_phrases("Bayesian Models of Query Reformulation") == ["Bayesian models of query reformulation",
                                                                       "query reformulation"]
    assert focus_phrases("Models For The Semantic Classification Of Noun Phrases") == [
        "semantic classification of noun phrases", "noun phrases"]
    # "our work focuses on neural network" needs an article a focus cannot take
    assert "neural network" not in focus_phrases("A Neural Network for Answer Selection")
    # what a title says of its time or kind is no topic
    assert focus_phrases("Coreference Resolution: Fifteen Years Later") == ["coreference resolution"]
    assert focus_phrases("Findings of the EMNLP-WMT 2011 Shared Task") == []
    # what of: "its focus on automatic identification" says nothing; a bakeoff needs an article
    assert focus_phrases("Linguistic Knowledge Sources in the Automatic Identification and Classification of "
                         "Reviews") == ["linguistic knowledge sources"]
    assert focus_phrases("A Chinese Morphological Analyzer for the Fourth Sighan Bakeoff") == []


def test_a_phrase_after_and_is_its_own_or_shares_its_head() -> None:
    # an acronym before "and" names a thing of its own; two modifiers before "and" share the head
    assert focus_phrases("Parsing The WSJ Using CCG And Log-Linear Models") == ["log-linear models"]
    assert focus_phrases("Estimating Upper And Lower Bounds On The Performance Of Word-Sense Disambiguation "
                         "Programs")[0] == "upper and lower bounds"
    assert "syntactic and semantic features" in focus_phrases(
        "Simple Coreference Resolution with Rich Syntactic and Semantic Features")
    assert focus_phrases("Pro and Con Reasons in Reviews") == []  # "pro" is no modifier the lexicon knows


def test_a_phrase_the_theme_papers_name_is_no_contrast() -> None:
    used: set[str] = set()
    text = focus_closing(["active learning"], "test collections", "test collections",
                         [("Active learning for test collections", "")], _pick().pick, used)
    assert text == "" and not used  # the papers do active learning: "our work differs in ..." is false
    # papers on a kin of the phrase ("noun compounds", "active sampling") share the word that specifies it
    compounds = [("Classifying the semantic relations in noun compounds",
                  "We classify relationships between two-word noun compounds with a neural network.")]
    assert focus_closing(["noun phrases"], "semantic relations", "semantic relations", compounds,
                         _pick().pick, set()) == ""
    sampling = [("Active sampling for large-scale evaluation", "We sample documents for judging.")]
    assert focus_closing(["active learning"], "test collections", "test collections", sampling,
                         _pick().pick, set()) == ""
    # a generic word shared is no kinship: "user recommendation" is set apart from item recommendation
    items = [("Item recommendation with variational autoencoders", "We rank items for each profile.")]
    assert focus_closing(["user recommendation"], "collaborative filtering", "collaborative filtering", items,
                         _pick().pick, set()).endswith("user recommendation.")


def test_a_phrase_sharing_a_word_with_the_label_is_no_contrast() -> None:
    # the pooling paper never says "construction", but the theme is test collections: no contrast
    text = focus_closing(focus_phrases(TITLE), "test collections", "test collections", POOLING, _pick().pick, set())
    assert text.endswith("active learning.") and "construction" not in text


def test_each_paragraph_gets_another_phrase_and_another_template() -> None:
    used: set[str] = set()
    phrases = ["prosody modulation", "user engagement", "conversational systems"]
    first = focus_closing(phrases, "negative impacts", "negative impacts", POOLING, _pick(1).pick, used)
    second = focus_closing(phrases, "intelligent assistants", "intelligent assistants", POOLING, _pick(1).pick, used)
    assert first.endswith("prosody modulation.") and second.endswith("user engagement.")
    # "user engagement" shares a word with a theme on user satisfaction: the next phrase is taken
    assert focus_closing(phrases, "user satisfaction", "user satisfaction", POOLING, _pick(1).pick, set()).endswith(
        "prosody modulation.")
    templates = [t for t in CLOSING_FOCUS if t in used]
    assert len(templates) == 2
    third = focus_closing(["modulation of prosody"], "speech", "speech", POOLING, _pick().pick, used)
    assert third.endswith("modulation of prosody.")  # a new head word; "prosody modulation" was said once


def test_no_phrase_left_or_a_paper_known_by_its_title_only_no_closing() -> None:
    assert focus_closing([], "dense retrieval", "dense retrieval", POOLING, _pick().pick, set()) == ""
    # the title "Beyond Pooling" names no method: what the paper leaves out needs its abstract to show
    untold = [*POOLING, ("Beyond pooling", "")]
    assert focus_closing(["active learning"], "test collections", "test collections", untold, _pick().pick, set()) == ""


def _brief(key: str, title: str, abstract: str, theme: int) -> PaperBrief:
    record = PaperRecord(id=key, title=title, abstract=abstract, authors=("Ann Smith",), year=2019)
    return PaperBrief(key=key, record=record, theme=theme, relevance=0.5, sentences=(abstract,))


def test_a_draft_without_aspects_names_its_title_once_then_closes_by_its_focus() -> None:
    papers = {
        "a": _brief("a", "Minimal test collections for retrieval evaluation",
                    "We study test collections for retrieval evaluation with few judgments.", 0),
        "b": _brief("b", "Bandit methods for relevance judging",
                    "We propose a bandit method that selects documents for relevance judging.", 1),
        "c": _brief("c", "Stopping methods for relevance judging",
                    "We present stopping methods that decide when relevance judging can end.", 1),
    }
    themes = (ThemeOutline(id=0, label="test collections", terms=("test collections",), keys=("a",)),
              ThemeOutline(id=1, label="relevance judging", terms=("relevance judging",), keys=("b", "c")))
    body = write_offline(WritingPlan(draft_title=TITLE, draft_abstract="", papers=papers, themes=themes))
    paragraphs = [p for p in body.split("\n\n") if "\\cite" in p]
    assert len(paragraphs) == 2
    assert "our study of efficient test collection construction via active learning" in paragraphs[0].lower()
    last = paragraphs[1].rsplit(". ", 1)[-1]
    assert "our work" in last.lower() and last.rstrip().endswith("test collection construction.")


def test_half_a_compound_written_apart_is_no_focus() -> None:
    phrases = focus_phrases("Reordering Rules for Large Scale Machine Translation")
    assert "scale machine translation" not in phrases and "machine translation" in phrases
    assert "grained entity typing" not in focus_phrases("Fine Grained Entity Typing")


def test_an_aside_in_the_title_is_no_focus() -> None:
    phrases = focus_phrases("EM Can Find Pretty Good HMM POS-Taggers (When Given a Good Start)")
    assert "HMM POS-Taggers" in phrases and not any("start" in p for p in phrases)


def test_where_no_contrast_can_be_checked_the_theme_is_background_to_a_focus() -> None:
    from relatex.writing.draft_focus import focus_relation
    from relatex.writing.offline_templates import CLOSING_GENERIC

    used: set[str] = set()
    pick = _pick().pick
    phrases = focus_phrases(TITLE)
    first = focus_relation(phrases, "test collections", pick, used)
    assert "efficient test collection construction" in first and "test collections" in first, first
    assert any(first == " ".join(t.format(term="test collections", topic="efficient test collection construction",
                                          study="study of").split()) for t in CLOSING_GENERIC)
    # the next paragraph takes the next head ("construction" is said), in another template
    second = focus_relation(phrases, "pooling", pick, used)
    assert "our study of active learning" in second and second[:12] != first[:12], second
    assert focus_relation(phrases, "pooling", pick, used) == ""  # every head said once
    # the phrase is the term itself: nothing to relate
    assert focus_relation(["active learning"], "active learning", _pick().pick, set()) == ""
    # ... or the term and a head naming a kind of work ("word-sense disambiguation programs")
    assert focus_relation(["word-sense disambiguation programs"], "word-sense disambiguation", _pick().pick,
                          set()) == ""
    assert focus_relation(["parsing programs"], "word-sense disambiguation", _pick().pick, set())
    # the draft's whole title, once said by the section, is not said again
    assert focus_relation(["syntax-based alignment"], "translation models", _pick().pick, {"topic"},
                          topic="syntax-based alignment") == ""
    # what the title uses is no study of the draft's ("our study of machine learning"); its task is
    means = focus_relation(["machine learning", "coreference resolution"], "pronoun resolution", _pick().pick,
                           {"topic"}, topic="machine learning for coreference resolution")
    assert "machine learning" not in means and "study of coreference resolution" in means, means
    roles = focus_relation(["semantic roles", "question answering"], "answer types", _pick().pick, {"topic"},
                           topic="using semantic roles to improve question answering")
    assert "semantic roles" not in roles and "question answering" in roles, roles
    studied = focus_relation(["query rewriting", "voice shopping"], "voice search", _pick().pick, {"topic"},
                             topic="query rewriting for voice shopping null queries")
    assert "study of query rewriting" in studied, studied  # what is done for something is what is studied


def test_a_new_thing_the_title_names_is_the_drafts_own() -> None:
    from relatex.writing.title_topics import names_an_artefact

    assert names_an_artefact("new objective function for word alignment")  # "our new objective function"
    assert names_an_artefact("novel neural ranking model for search")
    assert not names_an_artefact("new word detection in Chinese")  # a task, studied
    assert not names_an_artefact("new approaches to parsing")
    assert not names_an_artefact("new users' preferences for items")  # "new" says who, not what is built
    assert not names_an_artefact("new Zealand English for speech recognition")  # a name


def test_a_title_in_title_case_is_read_as_one_in_sentence_case() -> None:
    assert focus_phrases("Automatic Identification Of Pro And Con Reasons In Online Reviews") == ["online reviews"]


def test_what_a_title_moves_away_from_is_no_focus_but_where_it_goes_is() -> None:
    title = "Machine Learning for Coreference Resolution: From Local Classification to Global Ranking"
    assert focus_phrases(title) == ["machine learning", "coreference resolution", "global ranking"]
    assert focus_phrases("From Discourse Structures to Text Summaries") == ["text summaries"]


def test_a_second_closing_on_the_same_first_term_names_the_whole_label() -> None:
    papers = {
        "a": _brief("a", "Minimal test collections for retrieval evaluation",
                    "We study test collections for retrieval evaluation with few judgments.", 0),
        "b": _brief("b", "Test collections built by relevance judging with bandits",
                    "We propose a bandit method, a kind of active learning, that selects documents.", 1),
        "c": _brief("c", "Stopping methods for test collections",
                    "We present stopping methods that decide when judging of test collections can end.", 1),
    }
    themes = (ThemeOutline(id=0, label="test collections", terms=("test collections", "retrieval evaluation"),
                           keys=("a",)),
              ThemeOutline(id=1, label="test collections", terms=("test collections", "relevance judging"),
                           keys=("b", "c")))
    body = write_offline(WritingPlan(draft_title=TITLE, draft_abstract="", papers=papers, themes=themes))
    closings = [p.rsplit(". ", 1)[-1] for p in body.split("\n\n")[2:]]
    assert len(closings) == 2 and "test collections" in closings[0], body
    assert "test collections and relevance judging" in closings[1], body


def test_a_task_the_drafts_own_work_is_for_is_a_focus_after_the_titles_phrases() -> None:
    from relatex.writing.draft_focus import draft_focus_phrases, task_phrases

    abstract = ("Shallow semantic parsing has recently received much attention. We introduce a general framework "
                "for answer extraction which exploits semantic role annotations. We also present an algorithm for "
                "harvesting semantic relations.")
    assert task_phrases(abstract) == ["answer extraction"]  # "harvesting semantic relations": no task noun
    title = "Using Semantic Roles to Improve Question Answering"
    assert draft_focus_phrases(title, abstract) == ("semantic roles", "question answering", "answer extraction")
    assert task_phrases("We address the task of unsupervised POS tagging.") == ["unsupervised POS tagging"]
    assert task_phrases("We propose a network for better estimation of similarity.") == []  # how well, no task
    # background sentences are the field's, not the draft's: "methods for parsing" there is no focus
    assert task_phrases("Many methods for dependency parsing exist.") == []


def test_a_theme_the_draft_names_is_a_concern_it_shares_each_template_once() -> None:
    from relatex.writing.draft_focus import CLOSING_SHARED, shared_concern

    title, used = "Web Search by People with and without Dyslexia", set[str]()
    first = shared_concern("dyslexia", title, "", _pick().pick, used)
    second = shared_concern("web search", title, "", _pick().pick, used)
    said = {t.format(term=term) for t in CLOSING_SHARED for term in ("dyslexia", "web search")}
    assert first in said and second in said and first.split()[:2] != second.split()[:2]  # another template
    assert shared_concern("people", title, "", _pick().pick, used) == ""  # both templates said: no third
    assert shared_concern("reading speed", title, "", _pick().pick, set()) == ""  # the draft does not name it
    # the term whole, in either number: not its words apart, nor a word sharing only a stem
    assert shared_concern("quasi-synchronous grammar", "Parsing with Quasi-synchronous Grammars", "", _pick().pick,
                          set())
    for term, other in (("ontological semantics", "Ontologizing Semantic Relations"),
                        ("dependency parsing", "A Transition-Based Dependency Parser Using a Dynamic Parsing Strategy")):
        assert shared_concern(term, other, "", _pick().pick, set()) == "", term
    own = "Readers often struggle. We study the eye movements of searchers with dyslexia."
    assert shared_concern("eye movements", title, own, _pick().pick, set())
    field = "Eye movements have been studied widely. We study query formulation."  # background: the field's
    assert shared_concern("eye movements", title, field, _pick().pick, set()) == ""


def test_a_paragraph_on_the_drafts_own_subject_closes_when_its_phrases_are_said() -> None:
    papers = {
        "c": _brief("c", "Eye tracking in search", "We record eye tracking data of searchers reading result pages.", 0),
        "d": _brief("d", "Gaze and relevance", "We use eye tracking to infer relevance of search results.", 0),
        "e": _brief("e", "Query logs of web search", "We analyse web search query logs of a large engine.", 1),
        "f": _brief("f", "Web search sessions", "We model web search sessions from query logs.", 1),
        "a": _brief("a", "Dyslexia and web search", "We study how searchers with dyslexia formulate queries.", 2),
        "b": _brief("b", "Reading with dyslexia", "We measure reading speed of readers with dyslexia.", 2),
    }
    themes = (ThemeOutline(id=0, label="eye tracking", terms=("eye tracking",), keys=("c", "d")),
              ThemeOutline(id=1, label="query logs", terms=("query logs",), keys=("e", "f")),
              ThemeOutline(id=2, label="dyslexia", terms=("dyslexia",), keys=("a", "b")))
    plan = WritingPlan(draft_title="Web Search by People with Dyslexia", draft_abstract="", papers=papers,
                       themes=themes)
    paragraphs = [p for p in write_offline(plan).split("\n\n") if "\\cite" in p]
    assert len(paragraphs) == 3
    assert paragraphs[2].rstrip().endswith("our work is concerned with dyslexia."), paragraphs[2]
