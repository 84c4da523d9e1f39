"""Bare appositives completed by their relative clause, their purpose, the title or the name."""

from __future__ import annotations

from relatex.writing.appositives import descriptor_variants
from relatex.writing.contribution_extract import extract
from relatex.writing.phrase_attempts import attempts

LEXICONS = ("Semantic knowledge can be a great asset to natural language processing systems. In this paper, "
            "we present a corpus-based method that can be used to build semantic lexicons for specific "
            "categories. The input to the system is a small set of seed words for a category.")


def test_a_clause_saying_what_a_thing_can_be_used_for_becomes_its_purpose() -> None:
    variants = descriptor_variants(
        "a corpus-based method", "a corpus-based method that can be used to build semantic lexicons for specific "
        "categories.")
    assert variants[0] == "a corpus-based method for building semantic lexicons"
    assert descriptor_variants("a tool", "a tool which can be used for the analysis of dialogue corpora")[0] == \
        "a tool for the analysis of dialogue corpora"
    assert descriptor_variants("a framework", "a framework which could be employed to rank documents")[0] == \
        "a framework for ranking documents"
    # "used to" before an article is no purpose verb ("to the same effect")
    assert all(" for " not in v for v in descriptor_variants("a measure", "a measure that can be used to the "
                                                              "same effect"))


def test_an_abstracts_use_clause_is_said_without_copying_it() -> None:
    contribution = extract(LEXICONS, "A Corpus-Based Approach for Building Semantic Lexicons")
    assert contribution.phrase == "a corpus-based method for building semantic lexicons"


def test_a_completed_appositive_falls_back_to_the_title_not_to_a_citation_list() -> None:
    contribution = extract(LEXICONS, "A Corpus-Based Approach for Building Semantic Lexicons")
    assert contribution.alternatives
    assert attempts(contribution, "A Corpus-Based Approach for Building Semantic Lexicons")[-1].phrase == ""


RIPPLE = ("To address the sparsity and cold start problem of collaborative filtering, researchers usually make use "
          "of side information, such as social networks or item attributes, to improve recommendation "
          "performance. This paper considers the knowledge graph as the source of side information. To address "
          "the limitations of existing embedding-based and path-based methods for knowledge-graph-aware "
          "recommendation, we propose RippleNet, an end-to-end framework that naturally incorporates the "
          "knowledge graph into recommender systems.")
RIPPLE_TITLE = "RippleNet: Propagating User Preferences on the Knowledge Graph for Recommender Systems"


def test_an_adverb_before_the_clauses_verb_is_dropped_as_a_whole_modifier() -> None:
    variants = descriptor_variants("RippleNet, an end-to-end framework", RIPPLE.split("we propose ")[1].rstrip("."))
    assert variants[0] == "RippleNet, an end-to-end framework that incorporates the knowledge graph into " \
        "recommender systems"
    assert "RippleNet, an end-to-end framework incorporating the knowledge graph into recommender systems" in variants


def test_the_abstracts_next_contribution_is_tried_before_the_title() -> None:
    contribution = extract(RIPPLE, RIPPLE_TITLE)
    assert contribution.phrase == "the knowledge graph as the source of side information"
    assert contribution.second is not None and contribution.second.phrase.startswith("RippleNet, an end-to-end")
    phrases = [c.phrase for c in attempts(contribution, RIPPLE_TITLE)]
    at = phrases.index(contribution.second.phrase)
    assert 0 < at < phrases.index("")  # after the first contribution's ways, before the title


def test_a_comparison_is_never_cut_from_what_it_compares_with() -> None:
    from relatex.writing.contribution_extract import extract
    from relatex.writing.contributions import cut_before_of

    abstract = ("To meet this challenge, we present a preliminary approach that involves a graphical "
                "visualization to compare a path with a group of paths.")
    contribution = extract(abstract, "Eye Tracking and Online Search: Lessons Learned and Challenges")
    said = [contribution.phrase, *contribution.alternatives]
    assert not any(p.endswith("to compare a path") for p in said), said
    assert cut_before_of("a method to compare a path with a group of paths", "a method to compare a path")


def test_a_family_of_measures_is_completed_by_what_its_members_do() -> None:
    from relatex.writing.appositives import descriptor_variants, is_bare_appositive

    assert is_bare_appositive("ROUGE, a family of measures")
    rest = " a family of measures that score a candidate summary by its overlap with human summaries."
    variants = descriptor_variants("ROUGE, a family of measures", rest)
    assert variants[:2] == ["ROUGE, a family of measures that score a candidate summary",
                            "ROUGE, a family of measures scoring a candidate summary"], variants
    # a plural verb only where its object follows: "measures that human judges prefer" names no verb
    judged = " a family of measures that human judges prefer."
    assert descriptor_variants("ROUGE, a family of measures", judged) == ["ROUGE"]


def test_a_relative_clause_is_cut_before_within_and_keeps_its_purpose() -> None:
    rest = ("a technique that makes a parameter prediction to maximize efficiency within an effectiveness envelope "
            "on a per query basis, using only static pre-retrieval features")
    variants = descriptor_variants("a technique", rest, "Dynamic Cutoff Prediction in Multi-Stage Retrieval Systems")
    assert variants[:2] == ["a technique that makes a parameter prediction to maximize efficiency",
                            "a technique making a parameter prediction to maximize efficiency"]


def test_based_without_on_joins_a_modifier_and_is_no_place_to_cut() -> None:
    abstract = ("In this paper we present an extension of a machine learning based coreference resolution system "
                "which uses features induced from different semantic knowledge sources.")
    said = [a.phrase for a in attempts(extract(abstract), "Exploiting Semantic Role Labeling for Coreference")]
    assert "an extension of a machine learning" not in said, said  # "a machine learning | based ... system"
    assert all(not p.endswith("machine learning") for p in said), said
