"""The shipped citation model (claim encoder and cross-encoder): offline loading, deterministic scores,
card thresholds, fallback."""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from relatex.analysis.claims import citation_model, cross_encoder
from relatex.analysis.claims.citation_model import (
    CARD_FILE,
    CitationModelJudge,
    CitationModelUnavailable,
    CitationReranker,
    ClaimEncoder,
    ModelCard,
    document_text,
    read_model_card,
)
from relatex.analysis.claims.claim_support import NOT_ADDRESSED, PARTIALLY_SUPPORTED, SUPPORTED
from relatex.analysis.claims.cross_encoder import CrossEncoder, CrossEncoderUnavailable
from relatex.analysis.claims.evidence import paper_evidence
from relatex.analysis.claims.offline_judge import OfflineSupportJudge
from relatex.config.settings import Settings
from relatex.workflows.claim_judges import make_claim_judge

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "analysis" / "citation_model_pairs.json"
EMBEDDER_ID = "relatex/all-MiniLM-L6-v2-int8"


@pytest.fixture(scope="module")
def encoder() -> ClaimEncoder:
    return ClaimEncoder()


@pytest.fixture(scope="module")
def embed() -> object:
    from relatex.retrieval.embedding import FastEmbedEmbedder

    return FastEmbedEmbedder().embed


def fixture_papers() -> tuple[list[dict], dict[str, dict]]:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data["claims"], {p["key"]: p for p in data["papers"]}


def evidence_for(paper: dict) -> tuple:
    return paper_evidence(paper["key"], None, paper["abstract"], title=paper["title"], authors=paper["authors"])


def test_the_shipped_model_loads_offline_and_encodes_unit_vectors(encoder: ClaimEncoder) -> None:
    vectors = encoder.encode(["We tag parts of speech with a trigram tagger.", "Word vectors from large corpora."])
    assert vectors.shape == (2, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)
    assert encoder.card.document_embedder.lower() in EMBEDDER_ID.lower()


def test_scores_are_deterministic_and_prefer_the_cited_paper(encoder: ClaimEncoder, embed: object) -> None:
    claims, papers = fixture_papers()
    judge = CitationModelJudge(encoder, embed)  # type: ignore[arg-type]
    for claim in claims:
        scores = {key: judge.score(claim["text"], evidence_for(paper))[0] for key, paper in papers.items()}
        again = {key: judge.score(claim["text"], evidence_for(paper))[0] for key, paper in papers.items()}
        assert scores == again
        assert max(scores, key=lambda k: scores[k]) == claim["cites"], (claim["text"], scores)
    verdict = judge.judge(claims[0]["text"], evidence_for(papers[claims[0]["cites"]]))
    assert verdict == judge.judge(claims[0]["text"], evidence_for(papers[claims[0]["cites"]]))
    assert verdict.evidence in papers[claims[0]["cites"]]["abstract"]
    assert verdict.judge.startswith("citation-model/")


def test_the_reranker_scores_stored_vectors(encoder: ClaimEncoder, embed: object) -> None:
    claims, papers = fixture_papers()
    keys = sorted(papers)
    vectors = embed([document_text(evidence_for(papers[k])) for k in keys])  # type: ignore[operator]
    scores = CitationReranker(encoder).scores(claims[0]["text"], vectors)
    assert keys[int(np.argmax(scores))] == claims[0]["cites"]
    assert CitationReranker(encoder).scores("anything", np.zeros((0, 384), np.float32)).shape == (0,)


class FixedEncoder:
    """An encoder returning one fixed unit vector, with a given card."""

    model_id = "citation-model/test"

    def __init__(self, card: ModelCard) -> None:
        self.card = card

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return np.tile(np.eye(4, dtype=np.float32)[0], (len(texts), 1))


def test_labels_follow_the_thresholds_of_the_card(tmp_path: Path) -> None:
    card_path = tmp_path / "card.md"
    card_path.write_text("# card\n\n```json\n" + json.dumps({
        "version": "t", "document_embedder": "all-MiniLM-L6-v2-int8",
        "calibration": {"intercept": -5.0, "slope": 10.0},
        "thresholds": {"warn_below": 0.2, "partial_below": 0.6}}) + "\n```\n", encoding="utf-8")
    card = read_model_card(card_path)
    assert (card.warn_below, card.partial_below, card.slope) == (0.2, 0.6, 10.0)

    def embed(texts: Sequence[str]) -> np.ndarray:  # cosine with the claim = the first number of the text
        out = np.zeros((len(texts), 4), dtype=np.float32)
        for i, text in enumerate(texts):
            c = float(text.split("cos=")[1].split()[0]) if "cos=" in text else 0.0
            out[i, 0], out[i, 1] = c, np.sqrt(1 - c * c)
        return out

    judge = CitationModelJudge(FixedEncoder(card), embed)  # type: ignore[arg-type]
    labels = {}
    for cosine in (0.2, 0.5, 0.9):  # p = 0.047, 0.5, 0.98
        evidence = paper_evidence("k", None, f"This paper has cos={cosine} here.", title="T")
        labels[cosine] = judge.judge("a claim", evidence).label
    assert labels == {0.2: NOT_ADDRESSED, 0.5: PARTIALLY_SUPPORTED, 0.9: SUPPORTED}


def test_the_shipped_card_is_readable_and_ordered() -> None:
    card = read_model_card(CARD_FILE)
    assert 0.0 < card.warn_below <= card.partial_below < 1.0
    assert card.slope > 0 or card.cross_slope > 0


@pytest.mark.parametrize("text", ["no json here", "```json\n{\"version\": 1}\n```",
                                  "```json\n{\"version\": \"1\", \"document_embedder\": \"x\", \"calibration\": "
                                  "{\"intercept\": 0, \"slope\": 1}, \"thresholds\": {\"warn_below\": 0.9, "
                                  "\"partial_below\": 0.1}}\n```"])
def test_a_broken_card_is_reported(tmp_path: Path, text: str) -> None:
    (tmp_path / "card.md").write_text(text, encoding="utf-8")
    with pytest.raises(CitationModelUnavailable):
        read_model_card(tmp_path / "card.md")


@pytest.mark.parametrize("damage", ["missing", "corrupt"])
def test_without_a_loadable_model_the_feature_judge_is_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, damage: str) -> None:
    model = tmp_path / "model.onnx"
    if damage == "corrupt":
        model.write_bytes(b"not an onnx file")
    monkeypatch.setattr(citation_model, "MODEL_FILE", model)
    citation_model.forget_shipped_encoder()
    try:
        with caplog.at_level(logging.WARNING):
            first = make_claim_judge(Settings(), None, "")
            second = make_claim_judge(Settings(), None, "")
        assert isinstance(first, OfflineSupportJudge) and isinstance(second, OfflineSupportJudge)
        assert caplog.text.count("citation model unavailable") == 1
    finally:
        citation_model.forget_shipped_encoder()


def test_the_model_is_the_default_judge_with_the_default_embedder(embed: object) -> None:
    judge = make_claim_judge(Settings(), embed, EMBEDDER_ID)  # type: ignore[arg-type]
    assert isinstance(judge, CitationModelJudge)
    other = make_claim_judge(Settings(), embed, "hashing-256")  # type: ignore[arg-type]
    assert isinstance(other, OfflineSupportJudge)


def test_a_copied_model_loads_from_another_place(tmp_path: Path) -> None:
    shutil.copyfile(citation_model.MODEL_FILE, tmp_path / "m.onnx")
    assert ClaimEncoder(tmp_path / "m.onnx").encode(["x"]).shape == (1, 384)


class ConstantScorer:
    def __init__(self, p: float) -> None:
        self.p = p

    def score(self, claim: str, evidence: Sequence[object]) -> float:
        return self.p


def test_the_feature_scorer_counts_only_when_the_card_weighs_it() -> None:
    base = ModelCard(0.0, 0.0, 0.1, 0.1, "all-MiniLM-L6-v2-int8", "t")
    weighted = ModelCard(0.0, 0.0, 0.1, 0.1, "all-MiniLM-L6-v2-int8", "t", features_slope=1.0)
    evidence = paper_evidence("k", None, "An abstract sentence.", title="T")

    def embed(texts: Sequence[str]) -> np.ndarray:
        return np.tile(np.eye(4, dtype=np.float32)[1], (len(texts), 1))

    plain = CitationModelJudge(FixedEncoder(base), embed, ConstantScorer(0.9))  # type: ignore[arg-type]
    assert plain.features is None and plain.judge("claim", evidence).score == 0.5
    mixed = CitationModelJudge(FixedEncoder(weighted), embed, ConstantScorer(0.9))  # type: ignore[arg-type]
    assert mixed.judge("claim", evidence).score == pytest.approx(0.9, abs=1e-3)


def test_a_prepared_judge_embeds_each_text_once_in_few_batches(encoder: ClaimEncoder, embed: object) -> None:
    calls: list[list[str]] = []

    def counting(texts: Sequence[str]) -> np.ndarray:
        calls.append(list(texts))
        return embed(texts)  # type: ignore[operator, no-any-return]

    claims, papers = fixture_papers()
    judge = CitationModelJudge(encoder, counting, OfflineSupportJudge(counting))
    evidence = [evidence_for(p) for p in papers.values()]
    unprepared = [judge.judge(c["text"], evidence_for(papers[c["cites"]])) for c in claims]
    unprepared_batches = len(calls)
    calls.clear()
    judge = CitationModelJudge(encoder, counting, OfflineSupportJudge(counting))
    judge.prepare([item.sentence for items in evidence for item in items] + [c["text"] for c in claims])
    judge.prepare_papers(evidence)
    prepared = [judge.judge(c["text"], evidence_for(papers[c["cites"]])) for c in claims]
    embedded = [text for batch in calls for text in batch]
    assert prepared == unprepared  # the same verdicts
    assert len(embedded) == len(set(embedded))  # each text once
    assert len(calls) <= 3 < unprepared_batches  # in a few batches, not one or more per claim


@pytest.fixture(scope="module")
def cross() -> CrossEncoder:
    shipped = citation_model.shipped_cross_encoder()
    assert shipped is not None
    return shipped


def paper_text(paper: dict) -> str:
    return document_text(evidence_for(paper))


def test_the_shipped_cross_encoder_loads_offline_and_prefers_the_cited_paper(cross: CrossEncoder) -> None:
    claims, papers = fixture_papers()
    keys = sorted(papers)
    for claim in claims:
        logits = cross.logits(claim["text"], [paper_text(papers[k]) for k in keys])
        assert logits.shape == (len(keys),) and np.isfinite(logits).all()
        assert keys[int(np.argmax(logits))] == claim["cites"], (claim["text"], logits)


def test_scores_are_deterministic_whatever_the_batch(cross: CrossEncoder) -> None:
    claims, papers = fixture_papers()
    texts = [paper_text(p) for p in papers.values()]
    fresh = CrossEncoder()
    together = fresh.logits(claims[0]["text"], texts)
    one_by_one = [CrossEncoder().logits(claims[0]["text"], [t])[0] for t in texts]
    assert np.allclose(together, one_by_one, atol=1e-4)
    assert np.array_equal(fresh.logits(claims[0]["text"], texts), together)  # memoised: the same values
    assert cross.logits("anything", []).shape == (0,)


def test_long_inputs_are_cut_to_the_card_length(cross: CrossEncoder) -> None:
    long_paper = "A title. " + "This sentence repeats a finding about parsing. " * 200
    short = CrossEncoder(max_tokens=32)
    assert np.isfinite(short.logits("A claim about parsing " * 100, [long_paper])).all()
    card = read_model_card()
    assert (cross.max_tokens, cross.focus_words) == (card.cross_max_tokens, card.cross_focus_words)


@pytest.mark.parametrize("damage", ["missing", "corrupt"])
def test_an_unloadable_cross_encoder_is_reported(tmp_path: Path, damage: str) -> None:
    model = tmp_path / "cross.onnx"
    if damage == "corrupt":
        model.write_bytes(b"not an onnx file")
    with pytest.raises(CrossEncoderUnavailable):
        CrossEncoder(model)


def test_without_the_cross_encoder_a_card_that_needs_it_falls_back_to_the_feature_judge(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from relatex.retrieval.embedding import FastEmbedEmbedder

    if not read_model_card().cross_slope:
        pytest.skip("the shipped card gives the cross-encoder no weight")
    monkeypatch.setattr(cross_encoder, "CROSS_MODEL_FILE", tmp_path / "absent.onnx")
    citation_model.forget_shipped_encoder()
    try:
        with caplog.at_level(logging.WARNING):
            first = make_claim_judge(Settings(), FastEmbedEmbedder().embed, EMBEDDER_ID)
            second = make_claim_judge(Settings(), FastEmbedEmbedder().embed, EMBEDDER_ID)
        assert isinstance(first, OfflineSupportJudge) and isinstance(second, OfflineSupportJudge)
        assert caplog.text.count("cross-encoder unavailable") == 1
    finally:
        citation_model.forget_shipped_encoder()


def test_the_default_judge_weighs_the_cross_encoder_as_its_card_says() -> None:
    from relatex.retrieval.embedding import FastEmbedEmbedder

    citation_model.forget_shipped_encoder()
    judge = make_claim_judge(Settings(), FastEmbedEmbedder().embed, EMBEDDER_ID)
    assert isinstance(judge, CitationModelJudge)
    assert (judge.cross is not None) == bool(judge.card.cross_slope)


class FixedCross:
    """A cross-encoder whose logit is the number after 'logit=' in the paper's text."""

    def logits(self, claim: str, papers: Sequence[str]) -> np.ndarray:
        return np.array([float(p.split("logit=")[1].split()[0]) for p in papers], dtype=np.float32)


def test_the_cross_logit_counts_with_the_card_weight_and_takes_the_best_cited_paper() -> None:
    def embed(texts: Sequence[str]) -> np.ndarray:
        return np.tile(np.eye(4, dtype=np.float32)[1], (len(texts), 1))  # cosine 0 with the claim

    card = ModelCard(0.0, 0.0, 0.1, 0.1, "all-MiniLM-L6-v2-int8", "t", cross_slope=1.0)
    judge = CitationModelJudge(FixedEncoder(card), embed, cross=FixedCross())  # type: ignore[arg-type]
    weak = paper_evidence("a", None, "Its logit=-3 here.", title="A")
    strong = paper_evidence("b", None, "Its logit=2 here.", title="B")
    assert judge.judge("claim", weak).score == pytest.approx(1 / (1 + np.exp(3)), abs=1e-3)
    assert judge.judge("claim", weak + strong).score == pytest.approx(1 / (1 + np.exp(-2)), abs=1e-3)
    unweighted = CitationModelJudge(FixedEncoder(ModelCard(0.0, 0.0, 0.1, 0.1, "x", "t")), embed,
                                    cross=FixedCross())  # type: ignore[arg-type]
    assert unweighted.cross is None and unweighted.judge("claim", weak).score == 0.5


def test_a_copied_cross_encoder_loads_from_another_place(tmp_path: Path) -> None:
    shutil.copyfile(cross_encoder.CROSS_MODEL_FILE, tmp_path / "c.onnx")
    assert CrossEncoder(tmp_path / "c.onnx").logits("x", ["y"]).shape == (1,)
