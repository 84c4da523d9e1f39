"""A citation in a sentence that cites at several places is judged for the part of the sentence it closes."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from relatex.analysis.claims.claim_scope import citation_scopes
from relatex.analysis.claims.claim_support import NOT_ADDRESSED, SUPPORTED, SupportVerdict, check_claims
from relatex.analysis.claims.evidence import Evidence, paper_evidence
from relatex.analysis.latex.project_loader import analyse_file

TWO_PLACES = (r"Lexical retrieval with BM25 \citep{bm25} and dense retrieval with sentence embeddings "
              r"\citep{sbert} complement each other, as each finds what the other misses.")


def claims_of(text: str) -> list:
    return list(analyse_file(Path("/d/main.tex"), text).claims)


def test_each_citation_speaks_for_the_text_since_the_citation_before_it() -> None:
    claims = claims_of(TWO_PLACES + "\n")
    scopes = dict(zip([c.keys[0] for c in claims], citation_scopes(claims), strict=True))
    assert scopes == {"bm25": "Lexical retrieval with BM25",
                      "sbert": "and dense retrieval with sentence embeddings"}


def test_a_sentence_citing_at_one_place_or_a_short_part_has_no_scope() -> None:
    assert citation_scopes(claims_of(r"Dense retrieval helps \citep{a,b}." + "\n")) == [None]
    assert citation_scopes(claims_of(r"BM25 \citep{a} and SBERT \citep{b} complement each other." + "\n")) \
        == [None, None]  # "BM25" and "and SBERT": too short to judge alone


class WordJudge:
    """Supports a claim when every content word of it is in the evidence."""

    judge_id = "words/1"

    def __init__(self) -> None:
        self.claims: list[str] = []

    def judge(self, claim: str, evidence: Sequence[Evidence]) -> SupportVerdict:
        self.claims.append(claim)
        words = [w.strip(".,").lower() for w in claim.split() if len(w.strip(".,")) > 3]
        text = " ".join(e.sentence.lower() for e in evidence)
        share = sum(w in text for w in words) / max(1, len(words))
        return SupportVerdict(SUPPORTED if share == 1 else NOT_ADDRESSED, share, evidence[-1].sentence,
                              evidence[-1].paper_key, self.judge_id)


ABSTRACTS = {"bm25": "Lexical retrieval with BM25 ranks documents by term weights.",
             "sbert": "Dense retrieval with sentence embeddings from siamese networks."}


def evidence(key: str) -> tuple[Evidence, ...]:
    return paper_evidence(key, None, ABSTRACTS[key], title=key.upper())


def test_a_citation_is_not_flagged_for_what_the_sentence_says_of_the_other_paper() -> None:
    judge = WordJudge()
    results = check_claims(claims_of(TWO_PLACES + "\n"), evidence, judge)
    assert [r.verdict.label for r in results] == [SUPPORTED, SUPPORTED]
    assert any("complement" in c for c in judge.claims)  # the whole sentence is judged first


def test_a_citation_whose_own_part_is_unsupported_is_still_flagged() -> None:
    text = (r"Lexical retrieval with BM25 \citep{bm25} and convolutional image classifiers "
            r"\citep{sbert} complement each other." + "\n")
    results = check_claims(claims_of(text), evidence, WordJudge())
    assert [r.verdict.label for r in results] == [SUPPORTED, NOT_ADDRESSED]


def test_scopes_passed_in_are_used_as_given() -> None:
    claims = claims_of(TWO_PLACES + "\n")
    judge = WordJudge()
    results = check_claims(claims, evidence, judge, scopes=[None, None])
    assert [r.verdict.label for r in results] == [NOT_ADDRESSED, NOT_ADDRESSED]
