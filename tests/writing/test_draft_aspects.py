"""What a draft says its own work does, read from its abstract: tenses, adverbs, lists and clauses."""

from __future__ import annotations

import random

from relatex.retrieval.theme_labels import label_term_ok
from relatex.writing.agreement import adverb, singular_action
from relatex.writing.aspect_compressions import compressions
from relatex.writing.closings import Style, closing
from relatex.writing.copy_guard import CopyGuard
from relatex.writing.draft_aspects import DraftAspect, draft_aspects
from relatex.writing.plan import ThemeOutline
from relatex.writing.sentence_checks import vague, well_formed

BACKGROUND = "Coreference resolution links mentions of the same entity. "


def texts(abstract: str) -> list[str]:
    return [a.text for a in draft_aspects(abstract)]


def test_the_perfect_says_what_the_work_does() -> None:
    abstract = BACKGROUND + ("We have developed a corpus-based algorithm for identifying non-anaphoric noun "
                             "phrases. We have systematically investigated the amount of training data a "
                             "tagger needs.")
    assert texts(abstract) == ["develop a corpus-based algorithm for identifying non-anaphoric noun phrases",
                               "investigate the amount of training data a tagger needs"]


def test_earlier_work_of_the_authors_is_no_aspect() -> None:
    abstract = BACKGROUND + ("We have previously proposed a tagger for Hindi. We have recently reported on "
                             "two systems.")
    assert texts(abstract) == []


def test_we_inside_a_noun_phrase_is_no_action_of_ours() -> None:
    abstract = BACKGROUND + ("The system we have developed is straightforwardly extensible to nominal "
                             "predicates. We would like to compare it with systems other than the one we "
                             "have developed, beyond coreference.")
    assert not any(t.startswith(("develop", "is ")) for t in texts(abstract))


def test_a_lead_in_before_we_keeps_the_action() -> None:
    abstract = BACKGROUND + ("Considering phrases that match syntactic categories we develop techniques to "
                             "generalize the phrase table. This year we also investigated hiring non-expert "
                             "annotators for the evaluation.")
    assert texts(abstract) == ["develop techniques to generalize the phrase table",
                               "investigate hiring non-expert annotators for the evaluation"]


def test_here_and_the_list_after_a_colon_are_left_out() -> None:
    abstract = BACKGROUND + ("We present here criteria and techniques for detecting speech repairs. "
                             "We introduce five primitive grammars: Catalan, Unit Step and terminals.")
    assert texts(abstract) == ["present criteria and techniques for detecting speech repairs",
                               "introduce five primitive grammars"]


def test_a_second_verb_phrase_is_no_object_of_the_first() -> None:
    abstract = BACKGROUND + ("We have used a simple triclass Markov model and are looking for the best "
                             "estimates. "
                             "In this paper we have designed and experimented novel convolution kernels.")
    assert texts(abstract) == ["use a simple triclass Markov model"]


def test_approaching_a_task_as_another_is_what_the_work_does() -> None:
    abstract = BACKGROUND + ("In this paper we approach sense disambiguation and extraction as one tagging "
                             "problem.")
    assert texts(abstract) == ["approach sense disambiguation and extraction as one tagging problem"]


def test_the_kind_before_of_names_what_the_draft_builds() -> None:
    abstract = BACKGROUND + ("We propose a method of unknown word tagging which improves the accuracy of "
                             "rare words.")
    aspects = draft_aspects(abstract)
    assert [(a.subject, a.text) for a in aspects] == [("our method", "improves the accuracy of rare words")]


def test_a_verb_spelt_with_ly_is_no_adverb() -> None:
    assert not adverb("apply") and not adverb("rely") and adverb("automatically")
    assert singular_action("apply the method to two applications") == "applies the method to two applications"
    assert singular_action("automatically derive a mixture") == "automatically derives a mixture"


def test_an_article_before_based_is_garbled() -> None:
    assert not well_formed("Our work applies a based on a labeling formulation of the problem.")
    assert well_formed("Our work applies a model based on a labeling formulation of the problem.")


def test_the_drafts_artefact_after_a_lead_in_is_the_drafts_even_in_a_background_sentence() -> None:
    abstract = ("Coreference systems are driven by syntactic and discourse constraints. In contrast to much "
                "current work, which focuses on learning, our system is deterministic and is driven "
                "entirely by syntactic compatibility.")
    aspects = draft_aspects(abstract)
    assert [(a.subject, a.text) for a in aspects] == [
        ("our system", "is deterministic and is driven entirely by syntactic compatibility")]
    assert compressions(aspects[0].text, action=True)[-1] == "is deterministic"


def test_a_comma_between_two_adjectives_ends_no_clause() -> None:
    abstract = BACKGROUND + ("We derive the rhetorical structures of texts by means of two new, "
                             "surface-form-based algorithms that identify discourse usages of cue phrases "
                             "and break sentences into clauses.")
    assert texts(abstract) == ["derive the rhetorical structures of texts by means of two new, "
                               "surface-form-based algorithms"]  # cut before its relative clause


def test_a_trailing_participle_phrase_can_be_left_out_but_not_how_a_finding_was_reached() -> None:
    said = compressions("investigate domain adaptation for sentiment classifiers, focusing on online reviews",
                        action=True)
    assert "investigate domain adaptation for sentiment classifiers" in said
    assert "show that efficient training is feasible" not in compressions(
        "show that efficient training is feasible, using a tree adjoining grammar", action=True)


def test_a_closing_never_says_a_clause_cut_to_its_subject() -> None:
    clause = "the confidence intervals of the estimates are computed separately for every corpus"
    theme = ThemeOutline(id=0, label="dense retrieval", terms=("dense retrieval",), keys=("a", "b"))
    assert "the confidence intervals" in compressions(clause)  # the whole clause copies the draft
    assert closing(theme, (DraftAspect("clause", "", clause), 1.0), Style(random.Random(1)),
                   guard=CopyGuard([clause])) == ""


def test_what_a_table_shows_is_no_aspect() -> None:
    abstract = ("We present two evaluation methods for machine translation. The lower and upper values of "
                "the confidence intervals are shown in the table. The skip-bigram statistics are then shown "
                "in Table 2.")
    assert texts(abstract) == ["present two evaluation methods for machine translation"]


def test_weak_labels_and_vague_heads() -> None:
    assert not label_term_ok("tags") and not label_term_ok("parses") and label_term_ok("part-of-speech tags")
    assert not label_term_ok("rather") and not label_term_ok("typically")  # adverbs name no theme
    # semantic frames are a theme (FrameNet); other lone singulars stay, as the fallback says less, but
    # "tag" is written "tags" (no theme), and its themes take another term or join a kindred one
    assert label_term_ok("frames") and label_term_ok("parse") and not label_term_ok("tag")
    assert vague("a constraint") and vague("a two-stage optimization") and not vague("a syntactic constraint")


def test_a_method_is_a_noun_phrase_and_a_lost_space_after_a_comma_is_restored() -> None:
    from relatex.writing.contribution_extract import extract

    text = ("Part-of-speech tagging assigns tags to words. Our tagger is based on Markov models performs "
            "at least as well as other approaches.")
    assert extract(text, "A statistical tagger").method == ""
    found = extract("We present a learning semantic parser,SCISSOR, that maps sentences to meaning.",
                    "SCISSOR")
    assert ",SCISSOR" not in found.phrase


def test_what_the_other_side_is_the_reader_never_saw() -> None:
    from relatex.writing.sentence_checks import phrase_complete

    assert not phrase_complete("an approach exploring the tradeoff from the other direction")
    assert phrase_complete("an approach exploring the tradeoff between speed and accuracy")


def test_a_definite_object_keeps_the_clause_that_says_which() -> None:
    abstract = ("Offline evaluations are common. We present a simulation study to estimate the error that "
                "such missing data causes in commonly-used evaluation metrics in order to assess its "
                "prevalence and impact.")
    assert not any(a.text.endswith("the error") for a in draft_aspects(abstract))


def test_no_verb_is_read_into_a_preposition_or_a_noun() -> None:
    abstract = ("We present the lexical-semantic net GermaNet which integrates conceptual ontological "
                "information with lexical semantics, within and across word classes. This paper aims to "
                "survey the current state of research, development and use of machine translation.")
    texts = [a.text for a in draft_aspects(abstract)]
    assert not any(t.startswith(("across", "acrosses", "use of", "uses of")) for t in texts), texts
    assert any("development and use of machine translation" in t for t in texts), texts


def test_where_the_paper_says_something_is_no_aspect() -> None:
    abstract = ("Text similarity over short passages matters for summarization. We provide a detailed "
                "definition in the next section. We present a composite similarity metric for short "
                "passages.")
    texts = [a.text for a in draft_aspects(abstract)]
    assert texts and not any("section" in t for t in texts), texts


def test_ongoing_work_and_a_bare_strategy_say_nothing() -> None:
    assert vague("ongoing work") and vague("an alternative strategy") and vague("a measure")
    assert not vague("a strategy for detecting preposition errors")


def test_a_clause_about_the_first_or_the_latter_of_something_unseen_is_no_aspect() -> None:
    abstract = ("We present two unsupervised approaches to learning narrative schemas. The first uses "
                "distributional methods for learning narrative relations between events. The latter orders "
                "the events in time. Both run on raw text. The first-order model learns schemas from raw text.")
    texts = [a.text for a in draft_aspects(abstract)]
    assert not any(t.startswith(("the first ", "the latter", "both")) for t in texts), texts
    assert "the first-order model learns schemas from raw text" in texts  # a compound, not a reference


def test_what_the_work_will_attempt_or_has_set_out_to_do_is_what_it_does() -> None:
    abstract = BACKGROUND + ("This paper will attempt to establish upper and lower bounds on the performance of "
                             "sense taggers. We have set out to find tasks where the judges agree.")
    assert texts(abstract) == ["establishes upper and lower bounds on the performance of sense taggers",
                               "find tasks where the judges agree"]


def test_a_set_of_features_is_no_set_of_experiments() -> None:
    from relatex.writing.draft_aspects import evaluation_only

    abstract = BACKGROUND + ("We propose a set of partition-based features to learn a ranking model. We conduct "
                             "a comprehensive set of experiments. We report a series of experiments on MUC-6.")
    assert texts(abstract) == ["propose a set of partition-based features to learn a ranking model"]
    assert evaluation_only("present a set of experiments on three corpora")
    assert not evaluation_only("present a number of new features for parsing")
