"""relatex's citation model: a claim encoder trained on real citing sentences (int8 ONNX, package data).

An asymmetric dual encoder. Papers are embedded by the knowledge base's own frozen embedder
(``title. abstract``), so stored record vectors serve as paper vectors; the claim encoder maps a
citing sentence (citation markers and cited surnames removed) next to the vector of the paper it
cites. cosine(claim, paper) is turned into a support probability by the logistic calibration and
thresholds in the model card (``citation_model_card.md``, a JSON block), fit on development data
only. The evidence sentence is the abstract sentence whose vector is closest to the claim's.
Runs on onnxruntime and tokenizers; no download, no torch.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from relatex.analysis.claims.claim_support import (
    NOT_ADDRESSED,
    PARTIALLY_SUPPORTED,
    SUPPORTED,
    SupportVerdict,
)
from relatex.analysis.claims.cross_encoder import DEFAULT_MAX_TOKENS, CrossEncoder, CrossEncoderUnavailable
from relatex.analysis.claims.evidence import Evidence, clean_text, split_into_sentences
from relatex.analysis.claims.offline_judge import strip_citations
from relatex.analysis.claims.onnx_models import open_onnx_model

log = logging.getLogger(__name__)

EmbedFn = Callable[[Sequence[str]], np.ndarray]

MODEL_FILE = Path(__file__).with_name("citation_claim_encoder.int8.onnx")
TOKENIZER_FILE = Path(__file__).with_name("citation_claim_encoder.tokenizer.json")
CARD_FILE = Path(__file__).with_name("citation_model_card.md")
MAX_CLAIM_TOKENS = 64


class CitationModelUnavailable(RuntimeError):
    """The shipped claim encoder or its card is missing or cannot be loaded."""


@dataclass(frozen=True)
class ModelCard:
    """The machine-readable part of the model card.

    Support probability = logistic(intercept + slope * cosine(claim, paper) + sentence_slope *
    cosine(claim, closest abstract sentence) + features_slope * logit(feature scorer's probability)
    + cross_slope * cross-encoder logit); below ``warn_below`` a citation is "not supported" (a
    warning); below ``partial_below`` "partially supported" (equal values: no partial band);
    ``document_embedder`` names the embedder whose vectors the claim encoder was trained against;
    ``cross_max_tokens`` is the cross-encoder's input length, ``cross_focus_words`` the length above
    which it reads a paper's title and the abstract sentences nearest the claim (0: the whole text).
    """

    intercept: float
    slope: float
    warn_below: float
    partial_below: float
    document_embedder: str
    version: str
    sentence_slope: float = 0.0
    features_slope: float = 0.0
    cross_slope: float = 0.0
    cross_max_tokens: int = DEFAULT_MAX_TOKENS
    cross_focus_words: int = 0

    def probability(self, cosine: float, sentence_cosine: float = 0.0, features_logit: float = 0.0,
                    cross_logit: float = 0.0) -> float:
        z = (self.intercept + self.slope * cosine + self.sentence_slope * sentence_cosine
             + self.features_slope * features_logit + self.cross_slope * cross_logit)
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def label(self, probability: float) -> str:
        if probability < self.warn_below:
            return NOT_ADDRESSED
        if probability < self.partial_below:
            return PARTIALLY_SUPPORTED
        return SUPPORTED


_JSON_BLOCK = re.compile(r"```json\s*\n(.*?)\n```", re.DOTALL)


def read_model_card(path: Path | None = None) -> ModelCard:
    """The calibration and thresholds from the first ```json block of the card."""
    path = path or CARD_FILE
    try:
        match = _JSON_BLOCK.search(path.read_text(encoding="utf-8"))
        if match is None:
            raise ValueError("no ```json block")
        data = json.loads(match.group(1))
        cross = data.get("cross_encoder", {})
        card = ModelCard(float(data["calibration"]["intercept"]), float(data["calibration"]["slope"]),
                         float(data["thresholds"]["warn_below"]), float(data["thresholds"]["partial_below"]),
                         str(data["document_embedder"]), str(data["version"]),
                         float(data["calibration"].get("sentence_slope", 0.0)),
                         float(data["calibration"].get("features_slope", 0.0)),
                         float(data["calibration"].get("cross_slope", 0.0)),
                         int(cross.get("max_tokens", DEFAULT_MAX_TOKENS)), int(cross.get("focus_words", 0)))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CitationModelUnavailable(f"model card {path} unreadable: {exc}") from exc
    if not 0.0 <= card.warn_below <= card.partial_below <= 1.0:
        raise CitationModelUnavailable(f"model card {path}: thresholds out of order")
    return card


class ClaimEncoder:
    """The int8 ONNX claim encoder: texts to L2-normalised vectors in the document embedder's space."""

    def __init__(self, model_path: Path | None = None, card_path: Path | None = None,
                 tokenizer_path: Path | None = None, threads: int = 2) -> None:
        model_path = model_path or MODEL_FILE
        tokenizer_path = tokenizer_path or TOKENIZER_FILE
        try:
            self._session, self._tokenizer = open_onnx_model(model_path, tokenizer_path, threads)
        except Exception as exc:
            raise CitationModelUnavailable(f"citation model {model_path} cannot be loaded: {exc}") from exc
        self._tokenizer.enable_truncation(max_length=MAX_CLAIM_TOKENS)
        self._tokenizer.enable_padding()
        self.card = read_model_card(card_path or CARD_FILE)
        self.model_id = f"citation-model/{self.card.version}"
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        out: list[np.ndarray] = []
        for i in range(0, len(texts), batch_size):
            batch = self._tokenizer.encode_batch(list(texts[i:i + batch_size]))
            ids = np.array([e.ids for e in batch], dtype=np.int64)
            mask = np.array([e.attention_mask for e in batch], dtype=np.int64)
            with self._lock:
                vectors = self._session.run(None, {"input_ids": ids, "attention_mask": mask,
                                                   "token_type_ids": np.zeros_like(ids)})[0]
            out.append(np.asarray(vectors, dtype=np.float32))
        return np.vstack(out) if out else np.zeros((0, 384), dtype=np.float32)


def claim_text(claim: str, surnames: Sequence[str] = ()) -> str:
    """What the encoder reads: the sentence without citation markers and the cited surnames."""
    return strip_citations(claim, sorted(set(surnames))) or clean_text(claim)


def document_text(evidence: Sequence[Evidence]) -> str:
    """One paper's ``title. abstract`` from its evidence sentences, as the knowledge base embeds it."""
    title = next((e.sentence for e in evidence if e.source == "title"), "")
    abstract = " ".join(e.sentence for e in evidence if e.source == "abstract")
    return f"{title}. {abstract}" if title and abstract else (title or abstract)


def _by_paper(evidence: Sequence[Evidence]) -> dict[str, list[Evidence]]:
    """The evidence sentences of each cited paper, in the order the papers come."""
    papers: dict[str, list[Evidence]] = {}
    for item in evidence:
        papers.setdefault(item.paper_key, []).append(item)
    return papers


class FeatureScorer(Protocol):
    """The feature-based offline scorer's probability (``OfflineSupportJudge.score``)."""

    def score(self, claim: str, evidence: Sequence[Evidence]) -> float: ...


class _VectorMemo:
    """A bounded, thread-safe memo of the document embedder's vectors by text."""

    def __init__(self, embed: EmbedFn, size: int = 20000) -> None:
        self._embed = embed
        self._size = size
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            known = {t: self._vectors[t] for t in texts if t in self._vectors}
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            known.update(zip(missing, np.asarray(self._embed(missing), dtype=np.float32), strict=True))
        with self._lock:
            for text in missing:
                self._vectors[text] = known[text]
            while len(self._vectors) > self._size:
                self._vectors.popitem(last=False)
        return np.vstack([known[t] for t in texts])


class CitationModelJudge:
    """Claim-support judge on the citation model: the card's calibration of the claim encoder's
    cosines, the feature scorer and the cross-encoder; evidence = the closest sentence."""

    def __init__(self, encoder: ClaimEncoder, embed: EmbedFn, features: FeatureScorer | None = None,
                 cross: CrossEncoder | None = None) -> None:
        self.encoder = encoder
        self.card = encoder.card
        self.features = features if self.card.features_slope else None
        self.cross = cross if self.card.cross_slope else None
        shared = getattr(self.features, "vectors", None) if getattr(self.features, "embed", None) else None
        self._documents = _VectorMemo(shared if callable(shared) else embed)  # each sentence embedded once
        fingerprint = hashlib.sha256(repr(self.card).encode()).hexdigest()[:8]
        self.judge_id = f"{encoder.model_id}/{fingerprint}"

    def score(self, claim: str, evidence: Sequence[Evidence]) -> tuple[float, float, Evidence]:
        """The best paper's cosine, the closest sentence's cosine and that sentence (the evidence)."""
        if not evidence:
            raise ValueError("the citation model needs at least one evidence sentence")
        papers = _by_paper(evidence)
        surnames = [s for item in evidence for s in item.authors]
        vector = self.encoder.encode([claim_text(claim, surnames)])[0]
        keys = list(papers)
        doc_vectors = self._documents([document_text(papers[k]) for k in keys])
        cosines = doc_vectors @ vector
        best_key = keys[int(np.argmax(cosines))]
        sentences = [e for e in papers[best_key] if e.source != "title"] or papers[best_key]
        sims = self._documents([e.sentence for e in sentences]) @ vector
        best = int(np.argmax(sims))
        return float(cosines.max()), float(sims[best]), sentences[best]

    def prepare(self, texts: Sequence[str]) -> None:
        """Let the feature scorer embed the sentences and claims it will be asked about in one batch."""
        prepare = getattr(self.features, "prepare", None)
        if callable(prepare):
            prepare(texts)

    def prepare_papers(self, papers: Sequence[Sequence[Evidence]]) -> None:
        """Embed every paper's text and sentences in one batch (a gate or a check about to judge
        many claims about these papers; the embedder is far faster on one large batch)."""
        texts = [document_text(items) for items in papers if items]
        texts += [item.sentence for items in papers for item in items]
        if texts:
            self._documents(list(dict.fromkeys(texts)))

    def features_logit(self, claim: str, evidence: Sequence[Evidence]) -> float:
        """logit of the feature scorer's probability (0 when the card gives it no weight)."""
        if self.features is None:
            return 0.0
        p = min(max(self.features.score(claim, evidence), 1e-4), 1 - 1e-4)
        return math.log(p / (1 - p))

    def cross_logit(self, claim: str, evidence: Sequence[Evidence]) -> float:
        """The cross-encoder's best logit over the cited papers (0 when the card gives it no weight)."""
        if self.cross is None or not evidence:
            return 0.0
        papers = _by_paper(evidence)
        surnames = [s for item in evidence for s in item.authors]
        texts = [document_text(items) for items in papers.values()]
        return float(self.cross.logits(claim_text(claim, surnames), texts).max())

    def judge(self, claim: str, evidence: Sequence[Evidence]) -> SupportVerdict:
        cosine, sentence_cosine, best = self.score(claim, evidence)
        probability = self.card.probability(cosine, sentence_cosine, self.features_logit(claim, evidence),
                                            self.cross_logit(claim, evidence))
        label = self.card.label(probability)
        return SupportVerdict(label, round(probability, 4), best.sentence, best.paper_key, self.judge_id,
                              f"citation model: support {probability:.2f} (cosine {cosine:.3f})")


class CitationReranker:
    """Scores candidate papers for a text (a claim, a paragraph, a draft's abstract) by the claim encoder."""

    def __init__(self, encoder: ClaimEncoder) -> None:
        self.encoder = encoder

    def query_vector(self, text: str) -> np.ndarray:
        """The text's vector in the document space: the normalised mean of its sentences' claim vectors."""
        sentences = split_into_sentences(claim_text(text)) or [text]
        mean = self.encoder.encode(sentences).mean(axis=0)
        norm = float(np.linalg.norm(mean))
        return (mean / norm if norm > 0 else mean).astype(np.float32)

    def scores(self, text: str, document_vectors: np.ndarray) -> np.ndarray:
        """cosine(the text's vector, each row of the document embedder's vectors)."""
        if len(document_vectors) == 0:
            return np.zeros(0, dtype=np.float32)
        return np.asarray(document_vectors, dtype=np.float32) @ self.query_vector(text)


_SHARED: dict[str, Any] = {}
_SHARED_LOCK = threading.Lock()


def forget_shipped_encoder() -> None:
    """Load the shipped encoders again on next use (tests, or after a model file changed)."""
    with _SHARED_LOCK:
        _SHARED.clear()


def shipped_encoder() -> ClaimEncoder | None:
    """The shipped claim encoder, loaded once per process; None (logged once) when unavailable."""
    with _SHARED_LOCK:
        if "encoder" not in _SHARED:
            try:
                _SHARED["encoder"] = ClaimEncoder()
            except CitationModelUnavailable as exc:
                log.warning("citation model unavailable (%s); using the feature-based offline judge", exc)
                _SHARED["encoder"] = None
        encoder: ClaimEncoder | None = _SHARED["encoder"]
        return encoder


def shipped_cross_encoder() -> CrossEncoder | None:
    """The shipped cross-encoder, loaded once per process; None (logged once) when unavailable."""
    with _SHARED_LOCK:
        if "cross" not in _SHARED:
            try:  # the card's input length, whether or not the claim encoder was loaded first
                card = read_model_card()
                max_tokens, focus_words = card.cross_max_tokens, card.cross_focus_words
            except CitationModelUnavailable:
                max_tokens, focus_words = DEFAULT_MAX_TOKENS, 0
            try:
                # one thread: claims are judged in the background while the editor asks for hovers,
                # and a second thread saves only about 15% (1.04 vs 1.22 s per 100 pairs on 2 cores)
                _SHARED["cross"] = CrossEncoder(max_tokens=max_tokens, threads=1, focus_words=focus_words)
            except CrossEncoderUnavailable as exc:
                log.warning("citation cross-encoder unavailable (%s); using the feature-based offline judge", exc)
                _SHARED["cross"] = None
        cross: CrossEncoder | None = _SHARED["cross"]
        return cross
