"""The offline claim judge: features, calibrated labels, and a sanity check on real citing sentences."""

from __future__ import annotations

import gzip
import json
import random
import time
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from relatex.analysis.claims.claim_support import CONTRADICTED, NOT_ADDRESSED, SUPPORTED
from relatex.analysis.claims.evidence import paper_evidence
from relatex.analysis.claims.offline_judge import (
    FEATURES,
    PARTIAL_RATIO,
    OfflineSupportJudge,
    content_stems,
    name_tokens,
    numbers,
    stem,
    strip_citations,
)
from relatex.analysis.claims.term_statistics import (
    TermStatistics,
    default_term_statistics,
    load_term_statistics,
    save_term_statistics,
    uniform_statistics,
)

TNT = paper_evidence(
    "brants2000", "acl:A00-1031",
    "Trigrams'n'Tags (TnT) is an efficient statistical part-of-speech tagger. Contrary to claims found "
    "elsewhere in the literature, we argue that a tagger based on Markov models performs at least as well as "
    "other current approaches, including the Maximum Entropy framework. We present evaluations on two corpora "
    "and reach an accuracy of 96.7% on the Penn Treebank.",
    title="TnT - A Statistical Part-Of-Speech Tagger", authors=["Brants, Thorsten"],
)


class BagOfWordsEmbedder:
    """A deterministic stand-in for a sentence embedder: hashed stems, L2-normalised; counts calls."""

    def __init__(self, dim: int = 512) -> None:
        self.dim = dim
        self.texts: list[str] = []

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in content_stems(text):
                out[row, zlib.crc32(token.encode()) % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


def test_text_helpers() -> None:
    assert stem("models") == stem("model") and stem("tagging") == stem("tagged") == "tagg"
    assert strip_citations("Brants (2000) showed that TnT [12] is fast (Brants, 2000; Smith et al., 2001).",
                           ["Brants"]) == "showed that TnT is fast ."
    assert strip_citations("As Collins et al. argue, parsing helps.") == "As argue, parsing helps."
    assert name_tokens("We compare TnT and BLEU with word2vec and the Tagger.") == {"tnt", "bleu", "word2vec"}
    assert numbers("accuracy of 96.7% on 2 corpora") == {"96.7", "2"}
    assert "the" not in content_stems("the tagger") and "tagg" in content_stems("the tagger")


def test_supported_and_unrelated_claims_with_embeddings() -> None:
    judge = OfflineSupportJudge(BagOfWordsEmbedder(), embed_id="")
    good = judge.judge("A tagger based on Markov models performs as well as maximum entropy approaches "
                       "(Brants, 2000).", TNT)
    assert good.label == SUPPORTED and good.evidence_paper == "brants2000"
    assert good.evidence is not None and "Markov models" in good.evidence
    bad = judge.judge("Transformers translate between languages with attention alone.", TNT)
    assert bad.label == NOT_ADDRESSED and bad.score < good.score


def test_lexical_judge_without_embeddings() -> None:
    judge = OfflineSupportJudge(None)
    assert judge.judge_id.startswith("offline/1/lexical")
    good = judge.judge("TnT is an efficient statistical part-of-speech tagger.", TNT)
    bad = judge.judge("Word embeddings capture semantic similarity of words in vector space.", TNT)
    assert good.label == SUPPORTED and bad.label == NOT_ADDRESSED


def test_unbacked_numbers_comparisons_and_negations_lower_support() -> None:
    judge = OfflineSupportJudge(BagOfWordsEmbedder(), embed_id="")
    base = "TnT reaches an accuracy of 96.7% on the Penn Treebank."
    assert judge.features(base, TNT).as_dict()["numbers_missing"] == 0.0
    wrong_number = base.replace("96.7", "98.2")
    assert judge.features(wrong_number, TNT).as_dict()["numbers_missing"] == 1.0
    assert judge.score(wrong_number, TNT) <= judge.score(base, TNT)
    flat = OfflineSupportJudge(None, weights=(0.0,) * (len(FEATURES) + 1))  # probability 0.5 for any claim
    assert flat.judge(base, TNT).label == SUPPORTED
    capped = flat.judge(wrong_number, TNT)
    assert capped.label == "partially_supported" and "98.2 does not occur" in (capped.rationale or "")
    negated = "A tagger based on Markov models does not perform as well as other approaches."
    assert judge.features(negated, TNT).as_dict()["negation_mismatch"] == 1.0
    compared = "Markov model taggers outperform maximum entropy taggers."
    plain_evidence = paper_evidence("x", None, "We describe a Markov model tagger and a maximum entropy tagger.")
    assert judge.features(compared, plain_evidence).as_dict()["comparison_unbacked"] == 1.0


def test_never_contradicted_and_threshold_bands() -> None:
    judge = OfflineSupportJudge(None)
    labels = {judge.judge(text, TNT).label for text in (
        "TnT is not a part-of-speech tagger.", "TnT fails to handle unknown words.", "Nothing related at all.")}
    assert CONTRADICTED not in labels
    flat = (0.0,) * (len(FEATURES) + 1)  # probability 0.5 whatever the claim
    text = "TnT is an efficient statistical part-of-speech tagger."
    assert OfflineSupportJudge(None, weights=flat, threshold=0.5).judge(text, TNT).label == SUPPORTED
    assert OfflineSupportJudge(None, weights=flat, threshold=0.6, partial_ratio=0.5).judge(text, TNT).label \
        == "partially_supported"
    assert OfflineSupportJudge(None, weights=flat, threshold=0.9, partial_ratio=0.6).judge(text, TNT).label \
        == NOT_ADDRESSED
    default = OfflineSupportJudge(None, weights=flat, threshold=0.9)  # partial from PARTIAL_RATIO * 0.9
    assert default.partial_threshold == pytest.approx(0.9 * PARTIAL_RATIO)
    assert default.judge(text, TNT).label == ("partially_supported" if 0.9 * PARTIAL_RATIO <= 0.5 else NOT_ADDRESSED)


def test_dense_weights_only_for_the_calibrated_embedder() -> None:
    assert OfflineSupportJudge(BagOfWordsEmbedder(), embed_id="hashing-256").embed is None
    assert OfflineSupportJudge(BagOfWordsEmbedder(), embed_id="relatex/all-MiniLM-L6-v2-int8").embed is not None
    assert OfflineSupportJudge(BagOfWordsEmbedder(), embed_id="hashing-256",
                                weights=(0.0,) * (len(FEATURES) + 1)).embed is not None


def test_evidence_vectors_are_cached_between_claims() -> None:
    embed = BagOfWordsEmbedder()
    judge = OfflineSupportJudge(embed, embed_id="")
    judge.judge("TnT is a statistical tagger.", TNT)
    first = len(embed.texts)
    judge.judge("TnT handles unknown words.", TNT)
    assert len(embed.texts) == first + 1  # only the new claim was embedded


def test_weights_are_validated() -> None:
    with pytest.raises(ValueError):
        OfflineSupportJudge(None, weights=(1.0, 2.0))
    with pytest.raises(ValueError):
        OfflineSupportJudge(None).features("claim", [])
    assert len(OfflineSupportJudge(None).weights) == len(FEATURES) + 1


@pytest.mark.shared_data
def test_true_cited_abstract_scores_higher_than_a_random_paper(shared_data: Path) -> None:
    """Real ScisummNet citing sentences: the cited abstract beats a random other abstract most of the time."""
    papers: list[dict] = []
    with gzip.open(shared_data / "scisummnet/reference_papers.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if row.get("abstract") and row.get("title"):
                papers.append(row)
            if len(papers) >= 120:
                break
    rng = random.Random(5)
    judge = OfflineSupportJudge(None)
    wins = total = 0
    for row in papers:
        sentences = [s["clean_text"] for s in row["citing_sentences"] if len(s.get("clean_text") or "") > 40]
        if not sentences:
            continue
        other = rng.choice([p for p in papers if p is not row])
        claim = rng.choice(sentences)
        true_score = judge.score(claim, paper_evidence("a", None, row["abstract"], title=row["title"]))
        wrong_score = judge.score(claim, paper_evidence("b", None, other["abstract"], title=other["title"]))
        wins += true_score > wrong_score
        total += 1
    assert total >= 80
    assert wins / total >= 0.7


def test_shipped_term_statistics_rank_rare_terms_above_common_ones(tmp_path: Path) -> None:
    stats = default_term_statistics()
    assert stats.documents > 100_000 and len(stats.df) > 10_000 and len(stats.background) >= 100
    assert stats.idf(stem("trigram")) > stats.idf(stem("results")) > 0
    assert stats.idf("zzqxunseen") >= stats.idf(stem("trigram"))  # unseen stems count as rare
    copy = tmp_path / "df.json.gz"
    save_term_statistics(TermStatistics(10, {"tagg": 3}, 2, "test", ("A background abstract.",)), copy)
    loaded = load_term_statistics(copy)
    assert loaded.df == {"tagg": 3} and loaded.background == ("A background abstract.",)
    assert loaded.idf("tagg") < loaded.idf("other")
    assert uniform_statistics().idf("a") == uniform_statistics().idf("b")
    vectors = np.eye(2, 4, dtype=np.float32)
    save_term_statistics(TermStatistics(10, {}, 2, "test", ("one.", "two."), "model-a", vectors), copy)
    packed = load_term_statistics(copy)
    assert packed.vectors_for("model-b") is None and packed.vectors_for("") is None
    assert np.allclose(packed.vectors_for("model-a"), vectors)  # type: ignore[arg-type]


def test_shipped_background_vectors_replace_embedding_for_their_model() -> None:
    stats = default_term_statistics()
    shipped = stats.vectors_for(stats.background_model)
    assert shipped is not None and shipped.shape[0] == len(stats.background)
    embed = BagOfWordsEmbedder(dim=shipped.shape[1])
    judge = OfflineSupportJudge(embed, embed_id=stats.background_model)
    judge.judge("TnT is a statistical tagger.", TNT)
    assert not set(stats.background) & set(embed.texts)  # the background was not embedded again
    other = BagOfWordsEmbedder()
    OfflineSupportJudge(other, embed_id="").judge("TnT is a statistical tagger.", TNT)
    assert set(stats.background) <= set(other.texts)  # an uncalibrated model embeds it once


def test_rare_shared_terms_count_more_than_common_ones() -> None:
    judge = OfflineSupportJudge(None)
    # each claim shares two content words with the TnT abstract: rare ones vs. common ones
    rare = judge.features("Trigrams help taggers of unseen languages.", TNT).as_dict()
    common = judge.features("Evaluations present current frameworks for unseen languages.", TNT).as_dict()
    assert rare["idf_all"] > common["idf_all"] and rare["rare_mass"] > common["rare_mass"]
    assert judge.score("Trigrams help taggers of unseen languages.", TNT) > judge.score(
        "Evaluations present current frameworks for unseen languages.", TNT)


def test_title_coverage_rewards_naming_the_cited_work() -> None:
    judge = OfflineSupportJudge(None)
    named = judge.features("We tag with the statistical part-of-speech tagger TnT.", TNT).as_dict()
    unnamed = judge.features("We tag our corpus before parsing it.", TNT).as_dict()
    assert named["title_coverage"] > 0.5 > unnamed["title_coverage"]
    untitled = paper_evidence("x", None, "Trigrams'n'Tags (TnT) is an efficient statistical tagger.")
    assert judge.features("TnT is a tagger.", untitled).as_dict()["title_coverage"] == 0.0


def test_contrast_features_compare_with_the_closest_background_abstracts() -> None:
    background = ("Part-of-speech taggers assign word classes with statistical models.",
                  "Dense retrieval encodes passages with neural networks.",
                  "Graph neural networks learn node embeddings.",
                  "Speech recognition with hidden Markov models.")
    stats = TermStatistics(1000, {"tagg": 50, "statist": 200, "model": 400}, 5, "test", background)
    judge = OfflineSupportJudge(BagOfWordsEmbedder(), embed_id="", term_statistics=stats)
    generic = judge.features("Statistical taggers assign word classes.", TNT).as_dict()
    specific = judge.features("A Markov model tagger performs as well as maximum entropy approaches.", TNT).as_dict()
    assert generic["claim_background"] > specific["claim_background"]
    assert specific["dense_contrast"] > generic["dense_contrast"]
    assert specific["dense_contrast"] == pytest.approx(specific["dense_max"] - specific["claim_background"])
    assert specific["idf_contrast"] > generic["idf_contrast"]
    lexical = OfflineSupportJudge(None, term_statistics=stats).features("Statistical taggers.", TNT).as_dict()
    assert lexical["dense_contrast"] == lexical["claim_background"] == 0.0


def test_judging_is_fast_without_embedding() -> None:
    judge = OfflineSupportJudge(None)
    judge.judge("warm up the statistics", TNT)
    claims = [f"Claim {i}: a Markov model tagger reaches high accuracy on corpus {i}." for i in range(100)]
    started = time.perf_counter()
    for claim in claims:
        judge.judge(claim, TNT)
    per_claim = (time.perf_counter() - started) / len(claims)
    assert per_claim < 0.02  # typically ~1 ms; generous bound for a loaded machine
