"""The default claim-support judge: a calibrated score without any language model.

Features of (claim, evidence sentences): embedding similarity of the claim to the best evidence
sentences (when an embedding function is given), coverage of the claim's content words and of its
names/acronyms by the evidence, and checks for numbers, negations and comparisons the evidence does
not back. A logistic function with a few weights fit on real citing sentences turns them into a
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

from relatex.analysis.claim_support import NOT_ADDRESSED, PARTIALLY_SUPPORTED, SUPPORTED, SupportVerdict
from relatex.analysis.evidence import Evidence, clean_text

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
)

# Logistic weights (intercept first, then one per FEATURES entry), fit by
# `python bench/claim_support.py --fit` on the development split (cited papers whose id hashes to
# dev) of 734 pairs: ScisummNet citing sentences and ACM-CR related-work sentences vs. their cited
# paper's title + abstract (positives) and vs. a random one of the cited paper's 3 nearest other
# papers by MiniLM embedding (negatives). L2-regularised logistic regression (Newton's method); the
# three penalty features are constrained to weights <= 0 (the fit gave numbers_missing and
# comparison_unbacked a positive weight, so they are fixed at 0 and only cap labels / explain).
WEIGHTS_DENSE: tuple[float, ...] = (
    -1.03, 2.547, -1.871, -0.382, 0.361, 2.473, 0.676, 0.015, 0.0, -0.1, 0.0,
)
# The same fit without the three embedding features (no calibrated embedding model available).
WEIGHTS_LEXICAL: tuple[float, ...] = (
    -0.868, 0.0, 0.0, 0.0, 0.454, 2.601, 0.695, -0.004, 0.0, -0.1, 0.0,
)

STOPWORDS = frozenset(
    """a about above after again against all also although am among an and any are as at be because been
    before being below between both but by can could did do does doing done down during each either
    else et al etc few for from further had has have having he her here hers him his how however i if in
    into is it its itself just may me might more most much must my no nor not now of off on once only or
    other our ours out over own per same she should since so some such than that the their theirs them
    then there these they this those through thus to too under until up upon us very via was we were what
    when where whether which while who whom whose why will with within without would yet you your
    paper papers work works approach approaches method methods propose proposed proposes present presents
    presented show shows shown showed use used uses using based new recent recently previous previously
    study studies studied describe described describes introduce introduced introduces example e g i
    report reported reports find found finds first one two well many several various different""".split()
)

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
_SUFFIXES = ("ational", "ization", "fulness", "iveness", "ations", "ation", "ments", "ment", "ities", "ity",
             "ings", "ing", "ness", "ives", "ive", "ers", "er", "ied", "ies", "ed", "es", "s", "ly")


def stem(word: str) -> str:
    """A cheap suffix-stripping stem (lower case, at most 7 characters)."""
    word = word.lower().strip("'-")
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                continue
            word = word[: -len(suffix)]
            break
    return word[:7]


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
        partial_ratio: float = 0.6,
        weights: Sequence[float] | None = None,
        cache_size: int = 20000,
    ) -> None:
        if embed is not None and weights is None and not calibrated_for(embed_id):
            log.info("claim judge weights are calibrated for MiniLM embeddings, not %s: lexical features only",
                     embed_id)
            embed = None
        self.embed = embed
        self.threshold = threshold
        self.partial_threshold = threshold * partial_ratio
        self.weights = tuple(weights) if weights is not None else (WEIGHTS_DENSE if embed else WEIGHTS_LEXICAL)
        if len(self.weights) != len(FEATURES) + 1:
            raise ValueError(f"expected {len(FEATURES) + 1} weights, got {len(self.weights)}")
        kind = f"dense:{embed_id or 'custom'}" if embed else "lexical"
        fingerprint = hashlib.sha256(repr(self.weights).encode()).hexdigest()[:8]  # re-fit weights: new cache keys
        self.judge_id = f"offline/1/{kind}/t{threshold:g}/p{partial_ratio:g}/w{fingerprint}"
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

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

        dense_max = dense_top2 = dense_paper = 0.0
        sims = np.zeros(len(evidence), dtype=np.float32)
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

        combined = [float(sims[i]) + lexical[i] + (0.01 if item.source != "title" else 0.0)
                    for i, item in enumerate(evidence)]
        best = int(np.argmax(combined))
        negation_mismatch = float(has_negation(text) != has_negation(evidence[best].sentence))
        comparison_unbacked = float(bool(_COMPARISON.search(text)) and not _COMPARISON.search(evidence_text))
        values = (dense_max, dense_top2, dense_paper, lexical[best], lexical_all, names_covered,
                  float(bool(names)), numbers_missing, negation_mismatch, comparison_unbacked)
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
