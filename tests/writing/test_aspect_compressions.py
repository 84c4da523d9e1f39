"""Shortening what the draft says it does without saying anything else: praise and emphasis left out."""

from __future__ import annotations

from relatex.writing.aspect_compressions import (
    as_infinitive,
    compressions,
    what_is_shown_done,
    without_praise,
)
from relatex.writing.closings import sayable
from relatex.writing.copy_guard import CopyGuard
from relatex.writing.draft_aspects import DraftAspect, draft_aspects


def test_praise_before_what_is_built_and_emphasis_go_with_the_article_made_to_agree() -> None:
    assert without_praise("presents TransV, a novel Web-to-Voice neural transfer network") == \
        "presents TransV, a Web-to-Voice neural transfer network"
    assert without_praise("proposes a generalizable approach for item list continuation") == \
        "proposes an approach for item list continuation"
    assert without_praise("propose a simple yet effective model") == "propose a model"
    assert without_praise("propose a novel and efficient approach to ranking") == \
        "propose an approach to ranking"
    assert without_praise("introduce a new task, citation text generation") == \
        "introduce a task, citation text generation"
    assert without_praise("present a new HMM tagger") == "present an HMM tagger"
    assert without_praise("show specifically how to enhance a parser") == "show how to enhance a parser"


def test_words_that_say_what_a_thing_is_for_stay() -> None:
    for kept in ("recommend items to the new users of a platform", "adapt a parser to a new domain",
                 "propose novel models for ranking", "study new words in tweets", "present a simple"):
        assert without_praise(kept) == kept


def test_a_draft_action_copied_but_for_its_praise_word_can_close_a_paragraph() -> None:
    abstract = ("User-generated item lists are popular on many platforms. Hence, this paper proposes a "
                "generalizable approach for user-generated item list continuation.")
    guard = CopyGuard([abstract])
    aspect = next(a for a in draft_aspects(abstract) if a.kind == "action")
    assert aspect.text == "proposes a generalizable approach for user-generated item list continuation"
    assert not guard.ok(f"our work {aspect.text}")  # said whole, a run of eight words of the draft
    assert sayable(aspect, guard) == "proposes an approach for user-generated item list continuation"
    assert "proposes an approach for user-generated item list continuation" in compressions(aspect.text, True)


def test_a_sentence_about_the_contribution_is_no_clause_of_what_the_work_does() -> None:
    abstract = ("Item lists are popular. We propose a recommender for item lists. A key contribution is in "
                "intelligently combining two preference models.")
    assert all(not a.text.lower().startswith("a key contribution") for a in draft_aspects(abstract))
    assert DraftAspect("action", "we", "propose a recommender for item lists") in draft_aspects(abstract)


def test_a_finding_is_said_with_an_infinitive_when_its_that_clause_would_copy_the_draft() -> None:
    assert as_infinitive("show that a beam-search decoder is a competitive choice") == \
        "show a beam-search decoder to be a competitive choice"
    assert as_infinitive("finds that the seven goals are strongly structured") == \
        "finds the seven goals to be strongly structured"
    for kept in ("show that the goals are not independent",  # a negation
                 "show that different features are needed for each task",  # a passive
                 "show that it is a useful method",  # a pronoun
                 "show that parsing with state-splitting is fast",  # a clause for a subject
                 "argue that the community is overly reliant on one metric"):  # not a finding
        assert as_infinitive(kept) == "", kept
    abstract = ("Graph-based and transition-based parsers differ. We show that a beam-search decoder is a "
                "competitive choice for both methods.")
    aspect = next(a for a in draft_aspects(abstract) if a.text.startswith("show"))
    assert sayable(aspect, CopyGuard([abstract])) == "show a beam-search decoder to be a competitive choice"


def test_what_a_draft_shows_how_to_do_is_what_it_does() -> None:
    assert what_is_shown_done("show specifically how to enhance a parser with alignment features") == \
        "enhance a parser with alignment features"
    assert what_is_shown_done("shows how to induce a translation lexicon") == "induces a translation lexicon"
    for other in ("show how to best combine two parsers",  # the verb follows an adverb
                  "show that parsing is fast", "describe how the data sets were created"):
        assert what_is_shown_done(other) == "", other
    abstract = ("Jointly parsing two languages helps. We show specifically how to enhance a shift-reduce "
                "dependency parser with alignment features to resolve shift-reduce conflicts.")
    aspect = next(a for a in draft_aspects(abstract) if a.text.startswith("show"))
    said = sayable(aspect, CopyGuard([abstract]))
    assert said.startswith("enhance a shift-reduce dependency parser"), said


def test_emphasis_inside_praise_goes_with_it_and_a_finding_keeps_its_infinitive() -> None:
    assert without_praise("present a simple, but surprisingly effective, method of self-training") == \
        "present a method of self-training"
    assert without_praise("show that delexicalized parsers can be directly transferred") == \
        "show that delexicalized parsers can be transferred"
    assert "employ a parser for producing a source parse tree" in \
        compressions("employ a parser to produce a source parse tree", True)
    # "show X to produce Y" says what X does, not what X is for
    shown = compressions("show our algorithm to produce good segmentation", True)
    assert not any("for producing" in c for c in shown)


def test_a_cut_keeps_what_its_last_words_need() -> None:
    # an of-phrase a noun needs, a shared of-phrase, the "to" after "allow X" or before a gerund: the cut
    # is no compression
    for text, cut in (("can take advantage of the example-based machine translation framework",
                       "can take advantage"),
                      ("describes the development of a two-way shallow-transfer machine translation system",
                       "describes the development"),
                      ("observe a surge in the sheer volume of research products and outcomes in medicine",
                       "observe a surge in the sheer volume"),
                      ("reports on the training and evaluation of a dependency parser over this corpus",
                       "reports on the training"),
                      ("describe how the new release allows users to enhance performance using lexical "
                       "information", "describe how the new release allows users"),
                      ("describe a three step process to learning narrative event chains from raw newswire text",
                       "describe a three step process")):
        assert cut not in compressions(text, True), text
    # a second conjunct with its own of-phrase can go
    assert "examine the effects of speaking style" in \
        compressions("examine the effects of speaking style and of discourse segmentation method on the "
                     "nature of this relationship", True)


def test_an_example_list_or_a_time_span_goes_whole() -> None:
    assert "describes the parameters of the shared task" in compressions(
        "describes the parameters of the shared task including the format, pre-processing information, and "
        "evaluation criteria", True)
    assert "surveys the milestones in supervised coreference research" in compressions(
        "surveys the major milestones in supervised coreference research since its inception fifteen "
        "years ago", True)
    assert without_praise("surveys the major milestones") == "surveys the milestones"
    assert without_praise("the main idea") == "the main idea"  # a singular: not one of several


def test_a_compression_ends_where_its_clause_does() -> None:
    for text in ("the first experiment suggests that initial biasing of the probabilities is essential",
                 "the new algorithm has indeed proven to be much faster",
                 "study the impact of the same on the performance of the system",
                 "demonstrate that training a perceptron model to combine"):
        assert not any(c.endswith(("suggests", "proven", "the same")) for c in compressions(text, True)), text
    assert compressions("demonstrate that training a perceptron model to combine", True) == []
    for text, cut in (("the sentences in the corpus were at most 20 words long",
                       "the sentences in the corpus were"),
                      ("the present algorithm rests on being able to identify associations",
                       "the present algorithm rests"),
                      ("the paper reports on the training and evaluation of a parser", "the paper reports")):
        assert cut not in compressions(text), text
    assert "a user reviews the top-ranked words" in \
        compressions("a user reviews the top-ranked words and decides which ones should be entered")


def test_a_range_is_not_cut_at_its_start() -> None:
    text = "the selected papers are grouped into themes and ordered from foundational to recent work"
    said = compressions(text)
    assert not any("ordered to recent work" in c for c in said), said
    assert text in said


def test_a_measure_word_and_a_relative_clause_can_go() -> None:
    text = "establishes upper and lower bounds on the level of performance that can be expected in an evaluation"
    said = compressions(text, True)
    assert "establishes upper and lower bounds on performance that can be expected in an evaluation" in said
    assert "establishes upper and lower bounds on performance" in said
    # the abstract's own sentence: with its relative clause the shorter wording still copies 8 words
    abstract = ("This paper will attempt to establish upper and lower bounds on the level of performance that "
                "can be expected in an evaluation.")
    assert sayable(DraftAspect(kind="action", subject="our work", text=text), CopyGuard([abstract], limit=8)) \
        == "establishes upper and lower bounds on performance"
    # "show that" opens what is shown, no relative clause: nothing is cut there
    assert "show" not in compressions("show that the parser can be trained in an hour", True)
