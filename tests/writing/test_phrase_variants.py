"""Other ways to say a phrase: capitals that only spell an acronym lower-cased (names and the acronym
itself kept), a generic modifier dropped."""

from __future__ import annotations

from relatex.writing.contribution_extract import extract
from relatex.writing.phrase_attempts import attempts
from relatex.writing.phrase_variants import lowered_expansions, without_generic_modifier


def test_an_expansion_is_written_in_lower_case_and_its_acronym_kept() -> None:
    assert lowered_expansions("an end-to-end Deep learning framework for Rating Elicitation (DRE)") == \
        "an end-to-end deep learning framework for rating elicitation (DRE)"
    assert lowered_expansions("Support Vector Machines (SVMs) and Conditional Random Fields (CRFs)") == \
        "support vector machines (SVMs) and conditional random fields (CRFs)"
    assert lowered_expansions("new deep Aesthetic Cross-Domain Networks (ACDNs)") == \
        "new deep aesthetic cross-domain networks (ACDNs)"
    # the acronym named by the abstract, left out of the phrase
    assert lowered_expansions("a Graph Attention Ranker for queries", ("GAR",)) == \
        "a graph attention ranker for queries"


def test_names_and_words_the_acronym_does_not_spell_keep_their_capitals() -> None:
    for phrase in ("the Penn Treebank (PTB)", "a Hidden Markov Model (HMM)", "a tagger for Wall Street (WSJ)",
                   "a Graph Attention Ranker for queries (GR)"):
        assert lowered_expansions(phrase) == phrase, phrase
    assert lowered_expansions("a model for the Penn Treebank", ("PT",)) == "a model for the Penn Treebank"
    assert lowered_expansions("a Graph Attention Ranker", ("XYZ",)) == "a Graph Attention Ranker"
    assert lowered_expansions("Learning to Rank (LTR)") == "Learning to Rank (LTR)"  # "to" spells the T


def test_a_generic_modifier_goes_with_its_article_mended() -> None:
    assert without_generic_modifier("an end-to-end deep learning framework") == "a deep learning framework"
    assert without_generic_modifier("a novel scalable inference method") == "an inference method"
    assert without_generic_modifier("an efficient user model") == "a user model"
    assert without_generic_modifier("an efficient SVM") == "an efficient SVM"  # "a SVM" would be wrong
    assert without_generic_modifier("a two-stage parser") == "a two-stage parser"  # says what it is
    # every generic modifier before the head goes, not the first alone (eight words would copy the abstract)
    assert without_generic_modifier("a scalable end-to-end tree boosting system called XGBoost") == \
        "a tree boosting system called XGBoost"
    assert without_generic_modifier("a simple yet efficient method") == "a simple yet efficient method"


def test_a_phrase_too_close_to_its_abstract_loses_a_generic_modifier_before_its_purpose() -> None:
    abstract = ("Recommender systems ask new users to rate a few seed items. Choosing those items is hard. "
                "This paper proposes a novel end-to-end Deep learning framework for Rating Elicitation "
                "(DRE), which picks all seed items at once.")
    title = "Deep Rating Elicitation for New Users in Collaborative Filtering"
    phrases = [c.phrase for c in attempts(extract(abstract, title), title)]
    shorter = phrases.index("a deep learning framework for rating elicitation")
    by_title = "an end-to-end Deep learning framework for new users in collaborative filtering"
    assert shorter < phrases.index(by_title)


def test_a_thing_called_by_a_name_is_also_said_name_first() -> None:
    from relatex.writing.phrase_variants import name_first

    assert name_first("a neural ranking model called SetRank") == "SetRank, a neural ranking model"
    assert name_first("a model called SetRank which learns sets") == ""  # more than the name follows
    abstract = "In this paper, we propose a neural learning-to-rank model called SetRank which learns sets."
    title = "SetRank: Learning a Permutation-Invariant Ranking Model"
    phrases = [c.phrase for c in attempts(extract(abstract, title), title)]
    assert phrases.index("SetRank, a neural learning-to-rank model") < phrases.index("")  # before the title


def test_proposing_to_do_something_is_said_as_proposing_doing_it() -> None:
    abstract = ("Learning to rank has been studied. In this paper, we propose to use the inherent feature "
                "distributions of the top results to learn a context model.")
    contribution = extract(abstract, "Learning a Deep Listwise Context Model for Ranking Refinement")
    assert (contribution.verb, contribution.phrase) == (
        "propose_doing", "using the inherent feature distributions of the top results")
