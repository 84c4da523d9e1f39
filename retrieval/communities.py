"""Themes of the selected papers: Louvain communities labelled by class-based TF-IDF.

Communities come from ``networkx.community.louvain_communities`` (fixed seed) on the
undirected weighted graph of the selected papers; papers left alone (no edge to another
selected paper) join the community whose centroid is most similar, so every theme has at
least two papers when possible.

Labels (c-TF-IDF, as in BERTopic): each community is one "class document" made of its titles
and abstracts; the weight of term t in class c is

    tf(t, c) / |c| * log(1 + A / f(t))

with ``A`` the mean number of terms per class and ``f(t)`` the frequency of t over all
classes. Unigrams and bigrams, stopwords removed; a unigram inside a chosen bigram is skipped.

Labels are made readable by :mod:`relatex.retrieval.theme_labels`.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence

import networkx as nx
import numpy as np

STOPWORDS = frozenset(
    """a about above across after again against all almost also although always am among an and
    another any are around as at based be because been before being below between both but by can
    could did do does doing done during each either et al etc few for from further had has have
    having here how however i if in into is it its itself just large less many may more most much
    must new no nor not novel of off on once one only or other our ours out over own paper papers
    per present presents propose proposed proposes provide show shows shown significantly since so
    some such than that the their them then there these they this those three through thus to too
    two under until up upon us use used uses using very via was we well were what when where which
    while who whom why will with within without work works would yet approach approaches method
    methods results result study studies task tasks problem problems first second different existing
    various several given often make makes made set sets able however moreover furthermore
    towards toward us based also can cannot quot amp nbsp apos like unlike versus vs beyond despite along
    inside outside onto near""".split()
)
_WORD = re.compile(r"[a-z][a-z0-9\-]+")
# phrases whose stopword holds them together: split, "part of speech" would leave "part" and "speech"
_FIXED_PHRASES = re.compile(
    r"\b(?:parts? of speech|state of the art|out of vocabulary|sequence to sequence|end to end)\b")


def terms_of(text: str) -> list[str]:
    """Lower-case unigrams and bigrams of a text, stopwords and short tokens removed."""
    text = _FIXED_PHRASES.sub(lambda m: m.group(0).replace(" ", "-"), text.lower())  # one term
    words = [w.strip("-") for w in _WORD.findall(text.replace("\u2010", "-").replace("\u2011", "-"))]
    kept = [len(w) > 2 and w not in STOPWORDS for w in words]
    unigrams = [w for w, keep in zip(words, kept, strict=True) if keep]
    bigrams = [  # words next to each other in the text: "learning to rank" gives no "learning rank"
        f"{a} {b}" for i, (a, b) in enumerate(zip(words, words[1:], strict=False)) if kept[i] and kept[i + 1]
    ]
    return unigrams + bigrams


def class_tfidf(class_texts: Mapping[int, Sequence[str]]) -> dict[int, list[tuple[str, float]]]:
    """Terms of each class with their c-TF-IDF weight, best first."""
    counts = {c: Counter(t for text in texts for t in terms_of(text)) for c, texts in class_texts.items()}
    total = Counter[str]()
    for counter in counts.values():
        total.update(counter)
    sizes = {c: sum(counter.values()) for c, counter in counts.items()}
    mean_size = (sum(sizes.values()) / len(sizes)) if sizes else 0.0
    out: dict[int, list[tuple[str, float]]] = {}
    for c, counter in counts.items():
        weights = [
            (term, (n / sizes[c]) * math.log(1.0 + mean_size / total[term]))
            for term, n in counter.items()
            if sizes[c]
        ]
        # Terms seen once in a class say little about it (unless the class is one paper).
        if len(class_texts[c]) > 1:
            weights = [(t, w) for t, w in weights if counter[t] > 1] or weights
        weights.sort(key=lambda tw: (-tw[1], tw[0]))
        out[c] = weights
    return out


def top_terms(weighted: Sequence[tuple[str, float]], n: int = 3, bigram_ratio: float = 0.7) -> tuple[str, ...]:
    """The ``n`` best terms. A unigram gives way to a bigram containing it that weighs at least
    ``bigram_ratio`` as much (more readable); words already inside a chosen term are skipped."""
    weight_of = dict(weighted)
    bigrams = [t for t, _ in weighted if " " in t]
    chosen: list[str] = []
    for term, weight in weighted:
        if " " not in term:
            better = [b for b in bigrams if term in b.split() and weight_of[b] >= bigram_ratio * weight]
            if better:
                term = better[0]
        words = set(term.split())
        if term in chosen or any(words & set(c.split()) for c in chosen):
            continue
        chosen.append(term)
        if len(chosen) == n:
            break
    return tuple(chosen)


def detect_communities(
    graph: nx.Graph,
    vectors: Mapping[str, np.ndarray] | None = None,
    seed: int = 0,
    resolution: float = 1.0,
) -> list[list[str]]:
    """Louvain communities of an undirected weighted graph; singletons join their nearest community.

    Communities are returned largest first, members sorted by id.
    """
    if graph.number_of_nodes() == 0:
        return []
    parts = [set(c) for c in nx.community.louvain_communities(graph, weight="weight", seed=seed, resolution=resolution)]
    groups = [c for c in parts if len(c) > 1]
    singles = [next(iter(c)) for c in parts if len(c) == 1]
    if not groups:
        return [sorted(c) for c in parts] if not vectors else _cluster_by_vectors(singles, vectors)
    if vectors and singles:
        centroids = []
        for group in groups:
            vs = [vectors[i] for i in group if i in vectors]
            centroids.append(np.mean(vs, axis=0) if vs else None)
        leftovers: list[str] = []
        for node in singles:
            if node not in vectors:
                leftovers.append(node)
                continue
            sims = [float(np.dot(vectors[node], c)) if c is not None else -1.0 for c in centroids]
            groups[int(np.argmax(sims))].add(node)
        groups.extend({n} for n in leftovers)
    else:
        groups.extend({n} for n in singles)
    return sorted((sorted(g) for g in groups), key=lambda g: (-len(g), g[0]))


def _cluster_by_vectors(ids: Sequence[str], vectors: Mapping[str, np.ndarray]) -> list[list[str]]:
    """No edges at all: Louvain on the 2-nearest-neighbour similarity graph instead."""
    knn = nx.Graph()
    knn.add_nodes_from(ids)
    with_vec = [i for i in ids if i in vectors]
    if len(with_vec) >= 2:
        matrix = np.stack([vectors[i] for i in with_vec])
        sims = matrix @ matrix.T
        np.fill_diagonal(sims, -np.inf)
        for row, node in enumerate(with_vec):
            for col in np.argsort(-sims[row])[:2]:
                knn.add_edge(node, with_vec[int(col)], weight=max(float(sims[row, col]), 1e-6))
    if knn.number_of_edges() == 0:
        return [[i] for i in sorted(ids)]
    parts = nx.community.louvain_communities(knn, weight="weight", seed=0)
    return sorted((sorted(c) for c in parts), key=lambda g: (-len(g), g[0]))
