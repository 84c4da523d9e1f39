"""Topic claims: sentences that only name what the cited papers are about are checked against titles
when the papers have no abstract, or when the judge finds no claim in the abstract."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from relatex.analysis.claims.claim_support import (
    CONTRADICTED,
    NOT_ADDRESSED,
    PARTIALLY_SUPPORTED,
    SUPPORTED,
    UNKNOWN,
    SupportVerdict,
    check_claims,
)
from relatex.analysis.claims.evidence import Evidence, paper_evidence
from relatex.analysis.claims.topic_claims import names_term, titles_name_topic, topic_terms
from relatex.analysis.latex.project_model import Claim
from tests.analysis.test_claim_support import KeywordJudge

TITLES = {
    "luo": "Coreference or Not: A Twin Model for Coreference Resolution",
    "yang": "An Entity-Mention Model for Coreference Resolution with Inductive Logic Programming",
    "collier": "An Experiment in Hybrid Dictionary and Statistical Sentence Alignment",
    "sun": "Constructing of a Large-Scale Chinese-English Parallel Corpus",
    "aswani": "A Hybrid Approach to Align Sentences and Words in English-Hindi Parallel Corpora",
    "schmid": "Part-of-Speech Tagging With Neural Networks",
}
ABSTRACTS = {"tagger": "We present a fast tagger based on Markov models. It tags 10,000 tokens per second."}


@pytest.mark.parametrize(("claim", "terms"), [
    ("Other work on coreference resolution includes.", ("coreference resolution",)),
    ("Research on pronoun resolution and machine learning forms a further strand.",
     ("pronoun resolution", "machine learning")),
    ("A second strand of research deals with word alignment.", ("word alignment",)),
    ("Several studies address semantics.", ("semantics",)),
    ("Work on statistical machine translation is also closely related.",
     ("statistical machine translation",)),
    ("Work on named entity recognition is closely related.", ("named entity recognition",)),
    ("Another group of papers centres on transition-based dependency parsing.",
     ("transition-based dependency parsing",)),
    ("We begin with research on sentence alignment, parallel corpora and lexicons.",
     ("sentence alignment", "parallel corpora", "lexicons")),
])
def test_topic_terms_reads_the_topic_of_a_topic_claim(claim: str, terms: tuple[str, ...]) -> None:
    assert topic_terms(claim) == terms


@pytest.mark.parametrize("claim", [
    "Other work on parsing improves accuracy by 2 points.",  # says more than a topic
    "Luo et al. show that coreference resolution benefits from ranking.",
    "Other work on methods includes.",  # no content word: nothing to check
    "Coreference resolution is hard.",
])
def test_claims_saying_more_than_a_topic_are_not_topic_claims(claim: str) -> None:
    assert topic_terms(claim) == ()


def test_a_title_names_a_term_by_its_stems_in_any_order_and_across_hyphens() -> None:
    assert names_term(TITLES["schmid"], "neural network")
    assert names_term("Introduction to the Bio-entity Recognition Task", "entity recognition")
    assert names_term("Should we Translate Queries in Cross Language Information Retrieval?",
                      "cross-language information retrieval")
    assert names_term(TITLES["aswani"], "parallel corpus")  # corpora / corpus
    assert not names_term(TITLES["schmid"], "word alignment")
    # a plural names its singular, whatever the plural ending ("roles" was cut to "rol", "role" kept whole)
    assert names_term("Semantic Role Recognition Using Kernels on Labeled Trees", "semantic roles")
    assert names_term("A Study of Query Strategies for Searches", "query strategy and search")
    assert names_term("Compound Nouns in Context", "compound noun") and not names_term("Focus Groups", "bias")


def test_titles_must_each_name_a_term_and_together_all_terms() -> None:
    terms = ("sentence alignment", "parallel corpus")
    assert titles_name_topic(terms, {k: TITLES[k] for k in ("collier", "sun", "aswani")})
    assert not titles_name_topic(terms, {k: TITLES[k] for k in ("collier",)})  # "parallel corpus" unnamed
    assert not titles_name_topic(terms, {k: TITLES[k] for k in ("collier", "schmid")})  # schmid names neither
    assert not titles_name_topic((), {"luo": TITLES["luo"]})


def _evidence(key: str) -> tuple[Evidence, ...]:
    return paper_evidence(key, f"id:{key}", ABSTRACTS.get(key), title=TITLES.get(key, "A Fast Tagger"))


def _claim(text: str, *keys: str) -> Claim:
    return Claim(text, keys, Path("/d/main.tex"), 0, len(text), 0, 1)


def test_check_claims_supports_a_topic_claim_from_titles_alone() -> None:
    judge = KeywordJudge()
    [result] = check_claims([_claim("Other work on coreference resolution includes.", "luo", "yang")],
                            _evidence, judge)
    assert result.verdict.label == SUPPORTED
    assert result.verdict.evidence == TITLES["luo"] and result.verdict.evidence_paper == "luo"
    assert {k: v.label for k, v in result.per_key.items()} == {"luo": SUPPORTED, "yang": SUPPORTED}
    assert judge.calls == []  # no judge call on titles


def test_titles_that_do_not_name_the_topic_leave_the_claim_unknown() -> None:
    claims = [_claim("Other work on coreference resolution includes.", "schmid"),
              _claim("Other work on sentence alignment and parallel corpus includes.",
                     "collier", "sun", "schmid")]
    results = check_claims(claims, _evidence, KeywordJudge())
    assert [r.verdict.label for r in results] == [UNKNOWN, UNKNOWN]
    assert {k: v.label for k, v in results[1].per_key.items()} == {
        "collier": SUPPORTED, "sun": SUPPORTED, "schmid": UNKNOWN}  # each title judged on its own


def test_a_claim_saying_more_than_its_topic_stays_unknown_on_titles() -> None:
    claim = _claim("Luo et al. show that coreference resolution needs a twin model.", "luo")
    [result] = check_claims([claim], _evidence, KeywordJudge())
    assert result.verdict.label == UNKNOWN


def test_papers_with_an_abstract_are_still_judged_by_the_judge() -> None:
    judge = KeywordJudge()
    [result] = check_claims([_claim("Other work on tagger includes.", "tagger", "luo")], _evidence, judge)
    assert judge.calls and result.verdict.judge == "keyword/1"


class _FixedJudge:
    """A judge that gives one label to every claim (a model that finds no claim in a topic sentence)."""

    judge_id = "fixed/1"

    def __init__(self, label: str) -> None:
        self.label = label

    def judge(self, claim: str, evidence: Sequence[Evidence]) -> SupportVerdict:
        return SupportVerdict(self.label, 0.1, evidence[0].sentence, evidence[0].paper_key, self.judge_id)


def _with_abstract(key: str) -> tuple[Evidence, ...]:
    abstract = "We present a model and evaluate it on two benchmarks, with gains in accuracy."
    return paper_evidence(key, f"id:{key}", abstract, title=TITLES[key])


def test_a_topic_its_titles_name_holds_even_where_the_judge_finds_no_claim_in_the_abstract() -> None:
    topic = _claim("A second strand of research deals with coreference resolution.", "luo", "yang")
    [result] = check_claims([topic], _with_abstract, _FixedJudge(NOT_ADDRESSED))
    assert result.verdict.label == SUPPORTED and result.verdict.judge == "fixed/1+titles"
    assert {k: v.label for k, v in result.per_key.items()} == {"luo": SUPPORTED, "yang": SUPPORTED}
    # a title that does not name the topic, a claim saying more, a contradiction: the judge's verdict
    off_topic = _claim("A second strand of research deals with coreference resolution.", "luo", "schmid")
    more = _claim("Luo et al. show that coreference resolution needs a twin model.", "luo")
    results = check_claims([off_topic, more], _with_abstract, _FixedJudge(PARTIALLY_SUPPORTED))
    assert [r.verdict.label for r in results] == [PARTIALLY_SUPPORTED, PARTIALLY_SUPPORTED]
    assert results[0].per_key["schmid"].label == PARTIALLY_SUPPORTED
    [contradicted] = check_claims([topic], _with_abstract, _FixedJudge(CONTRADICTED))
    assert contradicted.verdict.label == CONTRADICTED
