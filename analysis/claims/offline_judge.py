"""The default claim-support judge: a calibrated score without any language model.

Features of (claim, evidence sentences): embedding similarity of the claim to the best evidence
sentences (when an embedding function is given), coverage of the claim's content words and of its
names/acronyms by the evidence, the same weighted by how rare each word is in the field (background
document frequencies, see :mod:`relatex.analysis.claims.term_statistics`), how much of the cited title the
claim names, contrast features (how much closer the claim is to the evidence than to the random
background abstracts closest to it, so that generic claims do not look supported), and checks for
numbers, negations and comparisons the evidence does not back. A logistic function with a few weights fit on real citing sentences turns them into a
support probability; a measurement (decimal, percentage) missing from the evidence also caps the
label at "partially_supported". The judge reports only how far the cited text supports the claim:
it can never show a contradiction, so it never returns "contradicted".
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from relatex.analysis.claims.claim_support import (
    NOT_ADDRESSED,
    PARTIALLY_SUPPORTED,
    SUPPORTED,
    SupportVerdict,
)
from relatex.analysis.claims.claim_words import STOPWORDS, stem
from relatex.analysis.claims.evidence import Evidence, clean_text
from relatex.analysis.claims.term_statistics import TermStatistics, default_term_statistics

log = logging.getLogger(__name__)

EmbedFn = Callable[[Sequence[str]], np.ndarray]

FEATURES: tuple[str, ...] = (
    "dense_max",  # max cosine(claim, evidence sentence)
    "dense_top2",  # mean of the two best cosines
    "dense_paper",  # max cosine(claim, mean of a paper's sentence vectors)
    "lexical_best",  # share of claim content stems in the best single sentence
    "lexical_all",  # share of claim content stems anywhere in the evidence
    "names_covered",  # share of the claim's names/acronyms found in the evidence
    "has_names",  # 1 when the claim has names/acronyms
    "numbers_missing",  # share of the claim's numbers absent from the evidence
    "negation_mismatch",  # negation in the claim but not the best sentence, or vice versa
    "comparison_unbacked",  # claim compares ("outperforms") and the evidence never does
    "idf_all",  # IDF-weighted share of claim stems anywhere in the evidence
    "idf_best",  # IDF-weighted share of claim stems in the best single sentence
    "rare_mass",  # summed IDF of the shared stems, in units of the largest IDF (capped at 3)
    "title_coverage",  # IDF-weighted share of a paper's title stems found in the claim (best paper)
    "names_idf",  # names/acronyms of the claim found in the evidence, IDF-weighted share
    "dense_contrast",  # dense_max minus the claim's mean cosine to its 3 closest background abstracts
    "claim_background",  # the claim's mean cosine to its 3 closest background abstracts
    "idf_contrast",  # idf_all minus its mean over the claim's 3 best-matching background abstracts
)

DENSE_FEATURES: frozenset[str] = frozenset(
    {"dense_max", "dense_top2", "dense_paper", "dense_contrast", "claim_background"}
)

# Logistic weights (intercept first, then one per FEATURES entry), fit by
# `python bench/fit_claim_judge.py` on the development split (cited papers whose id hashes to dev):
# 367 ScisummNet citing sentences (author-year markers removed) and ACM-CR related-work sentences,
# each paired with its cited paper's title + abstract (positive), with a random one of the cited
# paper's 3 nearest other papers by MiniLM embedding (near negative) and with a random paper
# (random negative); positives and near negatives count twice, so ranking near papers dominates
# while unrelated papers still score low. L2-regularised logistic regression (Newton's method,
# l2 = 0.05); the penalty features numbers_missing, negation_mismatch and comparison_unbacked may
# only lower support (a positive fit fixes them at 0; they still cap labels and explain verdicts).
# Rare-term and contrast features use the shipped background statistics (analysis/term_df.json.gz).
WEIGHTS_DENSE: tuple[float, ...] = (
    -0.613, 0.72, -3.639, 2.236, -0.027, -0.06, -1.57, 0.285, -0.135, -0.246, 0.0,
    0.884, 1.523, 0.504, 1.629, 1.764, 2.683, -1.962, -0.423,
)
# The same fit without the embedding features (no calibrated embedding model available).
WEIGHTS_LEXICAL: tuple[float, ...] = (
    -1.602, 0.0, 0.0, 0.0, -0.013, -0.352, -1.206, 0.305, -0.04, -0.187, 0.0,
    0.902, 2.051, 0.515, 1.705, 1.373, 0.0, 0.0, 0.232,
)

# "partially_supported" from PARTIAL_RATIO * threshold: at the default threshold 0.5 this flags
# (below 0.2) about as many true citations of the dev split as the previous weights did below 0.3
# (6%), while flagging 62% of random wrong citations instead of 29% (bench/claim_support.py sweep).
PARTIAL_RATIO = 0.4

BACKGROUND_TOP = 3  # a claim's similarity level: its mean over its closest background abstracts

_NEGATIONS = frozenset(
    "not no never cannot can't don't doesn't didn't isn't aren't wasn't weren't won't fails fail failed "
    "failing neither nor unable lack lacks lacking without none nothing hardly".split()
)
_COMPARISON = re.compile(
    r"\b(outperform\w*|better|worse|superior|inferior|improv\w*|exceed\w*|beat\w*|higher|lower|"
    r"faster|slower|more accurate|less accurate|state[- ]of[- ]the[- ]art|best|surpass\w*|"
    r"gains?|reduc\w*|increas\w*|decreas\w*|than)\b",
    re.IGNORECASE,
)
_CITATION_MARKERS = (
    re.compile(r"\[[\d,\s\-\u2013]+\]"),  # [12], [3, 4-6]
    re.compile(r"\(([^()]*?\b(?:1[89]|20)\d\d[a-z]?\b[^()]*?)\)"),  # (Brants, 2000; Collins 2002)
    re.compile(r"\b[A-Z][\w\-']+(?:\s+(?:and|&)\s+[A-Z][\w\-']+)?\s+et\s+al\.?", re.UNICODE),
    re.compile(r"\b(?:1[89]|20)\d\d[a-z]?\b"),
)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9\-']*|\d+(?:[.,]\d+)?%?")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?%?")
def strip_citations(text: str, surnames: Sequence[str] = ()) -> str:
    """The claim without citation markers, years and the cited authors' surnames."""
    value = clean_text(text)
    for pattern in _CITATION_MARKERS:
        value = pattern.sub(" ", value)
    for name in sorted({s for s in surnames if len(s) > 1}, key=len, reverse=True):
        value = re.sub(rf"\b{re.escape(name)}(?:'s)?\b", " ", value, flags=re.IGNORECASE)
    value = re.sub(r"\(\s*[,;]*\s*\)", " ", value)
    return " ".join(value.split())


def content_stems(text: str) -> set[str]:
    return {stem(t) for t in _TOKEN.findall(text) if t.lower() not in STOPWORDS and not t[0].isdigit() and len(t) > 1}


def term_stems(text: str) -> set[str]:
    """The stems whose background document frequencies weight rare-term overlap (content stems)."""
    return content_stems(text)


def name_tokens(text: str) -> set[str]:
    """Names and acronyms: tokens with an inner capital or a digit (TnT, BLEU, word2vec), lower-cased."""
    found: set[str] = set()
    for token in _TOKEN.findall(text):
        if token[0].isdigit() or len(token) < 2:
            continue
        if any(c.isupper() for c in token[1:]) or (any(c.isdigit() for c in token) and token[0].isalpha()):
            found.add(token.lower().strip("'-"))
    return found


def numbers(text: str) -> set[str]:
    return {n.replace(",", ".").rstrip("%") for n in _NUMBER.findall(text)}


def has_negation(text: str) -> bool:
    return any(t.lower() in _NEGATIONS for t in re.findall(r"[A-Za-z']+", text))


@dataclass(frozen=True)
class SupportFeatures:
    """The feature vector of one (claim, evidence) pair and the best evidence sentence."""

    values: tuple[float, ...]
    best_index: int  # index into the evidence sequence
    missing_measurements: tuple[str, ...] = ()  # decimals/percentages of the claim absent from the evidence

    def as_dict(self) -> dict[str, float]:
        return dict(zip(FEATURES, self.values, strict=True))


def logistic(weights: Sequence[float], values: Sequence[float]) -> float:
    z = weights[0] + sum(w * v for w, v in zip(weights[1:], values, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def calibrated_for(embed_id: str) -> bool:
    """Whether the dense weights fit an embedder: the MiniLM family they were fit with, or an
    unnamed embedding function (the caller vouches for it)."""
    return not embed_id or "minilm" in embed_id.lower()


class OfflineSupportJudge:
    """Support probability from embeddings, lexical overlap and simple checks; no model needed.

    ``embed`` maps texts to L2-normalised vectors (the knowledge base's embedder); without it,
    or when ``embed_id`` names a model the weights were not fit for, the lexical weights are used.
    ``threshold``: probability at or above which a claim is "supported"; from
    ``partial_ratio * threshold`` it is "partially_supported". A claim stating a measurement (a
    decimal or a percentage) that the evidence does not contain is at most "partially_supported".
    """

    def __init__(
        self,
        embed: EmbedFn | None = None,
        *,
        embed_id: str = "",
        threshold: float = 0.5,
        partial_ratio: float = PARTIAL_RATIO,
        weights: Sequence[float] | None = None,
        cache_size: int = 20000,
        term_statistics: TermStatistics | None = None,
    ) -> None:
        if embed is not None and weights is None and not calibrated_for(embed_id):
            log.info("claim judge weights are calibrated for MiniLM embeddings, not %s: lexical features only",
                     embed_id)
            embed = None
        self.embed = embed
        self.embed_id = embed_id
        self.threshold = threshold
        self.partial_threshold = threshold * partial_ratio
        self.weights = tuple(weights) if weights is not None else (WEIGHTS_DENSE if embed else WEIGHTS_LEXICAL)
        if len(self.weights) != len(FEATURES) + 1:
            raise ValueError(f"expected {len(FEATURES) + 1} weights, got {len(self.weights)}")
        kind = f"dense:{embed_id or 'custom'}" if embed else "lexical"
        fingerprint = hashlib.sha256(repr(self.weights).encode()).hexdigest()[:8]  # re-fit weights: new cache keys
        self.judge_id = f"offline/1/{kind}/t{threshold:g}/p{partial_ratio:g}/w{fingerprint}"
        self._statistics = term_statistics
        self._background_vectors: np.ndarray | None = None
        self._background_stems: list[set[str]] | None = None
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    @property
    def term_statistics(self) -> TermStatistics:
        """Background document frequencies (the shipped ones unless given), loaded on first use."""
        if self._statistics is None:
            self._statistics = default_term_statistics()
        return self._statistics

    def _background(self) -> tuple[np.ndarray | None, list[set[str]]]:
        """Vectors (when embedding) and stems of the background abstracts, computed once."""
        background = self.term_statistics.background
        if self._background_stems is None:
            self._background_stems = [term_stems(text) for text in background]
        if self.embed is not None and self._background_vectors is None and background:
            vectors = self.term_statistics.vectors_for(self.embed_id)
            if vectors is None:  # another model: embed the background texts once
                vectors = np.asarray(self.embed(list(background)), dtype=np.float32)
            with self._lock:
                self._background_vectors = vectors
        return self._background_vectors, self._background_stems

    def prepare(self, texts: Sequence[str]) -> None:
        """Embed (and remember) texts the judge will be asked about, in one batch."""
        if self.embed is not None and texts:
            self._embed(list(dict.fromkeys(texts)))

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """The embedder's vectors of ``texts``, remembered (shared with a judge built on this one)."""
        return self._embed(texts)

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        assert self.embed is not None
        with self._lock:
            known = {t: self._vectors[t] for t in texts if t in self._vectors}
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            vectors = np.asarray(self.embed(missing), dtype=np.float32)
            known.update(zip(missing, vectors, strict=True))
        with self._lock:
            for text in dict.fromkeys(texts):
                self._vectors[text] = known[text]
                self._vectors.move_to_end(text)
            while len(self._vectors) > self._cache_size:
                self._vectors.popitem(last=False)
        return np.vstack([known[t] for t in texts])

    def features(self, claim: str, evidence: Sequence[Evidence]) -> SupportFeatures:
        """The feature vector of a claim against evidence (at least one item)."""
        if not evidence:
            raise ValueError("features need at least one evidence sentence")
        surnames = {s for item in evidence for s in item.authors}
        text = strip_citations(claim, sorted(surnames)) or clean_text(claim)
        claim_stems = content_stems(text)
        sentence_stems = [content_stems(item.sentence) for item in evidence]
        all_stems = set().union(*sentence_stems)
        n = max(len(claim_stems), 1)
        lexical = [len(claim_stems & s) / n for s in sentence_stems]
        lexical_all = len(claim_stems & all_stems) / n

        names = name_tokens(text)
        evidence_text = " ".join(item.sentence for item in evidence)
        evidence_lower = evidence_text.lower()
        names_covered = sum(1 for t in names if t in evidence_lower) / len(names) if names else 0.0

        claim_numbers = numbers(text)
        evidence_numbers = numbers(evidence_text)
        numbers_missing = len(claim_numbers - evidence_numbers) / len(claim_numbers) if claim_numbers else 0.0

        dense_max = dense_top2 = dense_paper = dense_contrast = claim_background = 0.0
        sims = np.zeros(len(evidence), dtype=np.float32)
        background_vectors, background_stems = self._background()
        if self.embed is not None:
            vectors = self._embed([text, *(item.sentence for item in evidence)])
            claim_vec, sentence_vecs = vectors[0], vectors[1:]
            sims = sentence_vecs @ claim_vec
            ranked = np.sort(sims)[::-1]
            dense_max = float(ranked[0])
            dense_top2 = float(ranked[:2].mean())
            papers: dict[str, list[int]] = {}
            for i, item in enumerate(evidence):
                papers.setdefault(item.paper_key, []).append(i)
            for rows in papers.values():
                mean = sentence_vecs[rows].mean(axis=0)
                norm = float(np.linalg.norm(mean))
                if norm > 0:
                    dense_paper = max(dense_paper, float(mean @ claim_vec) / norm)
            if background_vectors is not None and len(background_vectors):
                reference = np.sort(background_vectors @ claim_vec)[-BACKGROUND_TOP:]
                claim_background = float(reference.mean())
                dense_contrast = dense_max - claim_background

        combined = [float(sims[i]) + lexical[i] + (0.01 if item.source != "title" else 0.0)
                    for i, item in enumerate(evidence)]
        best = int(np.argmax(combined))
        negation_mismatch = float(has_negation(text) != has_negation(evidence[best].sentence))
        comparison_unbacked = float(bool(_COMPARISON.search(text)) and not _COMPARISON.search(evidence_text))
        stats = self.term_statistics
        idf = {t: stats.idf(t) for t in claim_stems}
        total = sum(idf.values()) or 1.0
        shared = claim_stems & all_stems
        idf_all = sum(idf[t] for t in shared) / total
        idf_best = max(sum(idf[t] for t in claim_stems & s) / total for s in sentence_stems)
        rare_mass = min(sum(idf[t] for t in shared) / stats.max_idf, 3.0)
        title_coverage = 0.0
        for i, item in enumerate(evidence):
            if item.source == "title" and sentence_stems[i]:
                weights = {t: stats.idf(t) for t in sentence_stems[i]}
                covered = sum(w for t, w in weights.items() if t in claim_stems) / (sum(weights.values()) or 1.0)
                title_coverage = max(title_coverage, covered)
        idf_contrast = idf_all
        if background_stems:
            overlaps = sorted(sum(idf[t] for t in claim_stems & b) for b in background_stems)
            idf_contrast = idf_all - sum(overlaps[-BACKGROUND_TOP:]) / (total * min(BACKGROUND_TOP, len(overlaps)))
        names_idf = 0.0
        if names:
            name_weights = {t: stats.idf(stem(t)) for t in names}
            names_idf = sum(w for t, w in name_weights.items() if t in evidence_lower) / (
                sum(name_weights.values()) or 1.0)
        values = (dense_max, dense_top2, dense_paper, lexical[best], lexical_all, names_covered,
                  float(bool(names)), numbers_missing, negation_mismatch, comparison_unbacked,
                  idf_all, idf_best, rare_mass, title_coverage, names_idf, dense_contrast, claim_background,
                  idf_contrast)
        missing = tuple(sorted(n for n in claim_numbers - evidence_numbers if "." in n or f"{n}%" in text))
        return SupportFeatures(values, best, missing)

    def score(self, claim: str, evidence: Sequence[Evidence]) -> float:
        return logistic(self.weights, self.features(claim, evidence).values)

    def label_for(self, probability: float, features: SupportFeatures) -> str:
        """The verdict label of a support probability, capped when a measurement is unbacked."""
        if probability >= self.threshold and not features.missing_measurements:
            return SUPPORTED
        if probability >= self.partial_threshold:
            return PARTIALLY_SUPPORTED
        return NOT_ADDRESSED

    def judge(self, claim: str, evidence: Sequence[Evidence]) -> SupportVerdict:
        features = self.features(claim, evidence)
        probability = logistic(self.weights, features.values)
        best = evidence[features.best_index]
        label = self.label_for(probability, features)
        named = features.as_dict()
        reasons = [f"support {probability:.2f}"]
        if features.missing_measurements:
            reasons.append(f"{', '.join(features.missing_measurements)} does not occur in the cited text")
        elif named["numbers_missing"] > 0:
            reasons.append("a number in the sentence does not occur in the cited text")
        if named["comparison_unbacked"]:
            reasons.append("the cited text makes no comparison")
        if named["negation_mismatch"]:
            reasons.append("negation differs from the closest evidence")
        return SupportVerdict(label, round(probability, 4), best.sentence, best.paper_key, self.judge_id,
                              "; ".join(reasons))
