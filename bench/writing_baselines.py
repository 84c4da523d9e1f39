"""Text and metrics of bench/writing_quality.py: plain text of a section, the extractive
baselines (sumy's LexRank and TextRank, lead sentences) and the co-citation graph metrics."""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from typing import Any

import networkx as nx

from relatex.analysis.sentences import split_sentences
from relatex.writing.latex_validator import CITE_COMMAND, cited_keys


def plain(latex: str) -> str:
    text = "\n".join(line for line in latex.splitlines() if not line.lstrip().startswith("%"))
    text = CITE_COMMAND.sub("", text)
    text = re.sub(r"\\[a-zA-Z]+\*?", " ", text).replace("{", "").replace("}", "").replace("``", '"').replace("''", '"')
    return re.sub(r"[ \t]+", " ", text).strip()


def lead_sentences(abstracts: Sequence[str], budget: int) -> str:
    """The first sentence of each abstract, in the given order, up to ``budget`` words."""
    leads = [a[slice(*split_sentences(a)[0])] for a in abstracts if a.strip() and split_sentences(a)]
    return truncate_words(" ".join(leads), budget)


def truncate_words(text: str, budget: int) -> str:
    words = text.split()
    return " ".join(words[:budget])


class SentenceTokenizer:
    """sumy's tokenizer interface without NLTK data (punkt is not available offline)."""

    def __init__(self) -> None:
        self.language = "english"

    def to_sentences(self, paragraph: str) -> list[str]:
        return [paragraph[a:b] for a, b in split_sentences(paragraph)]

    def to_words(self, sentence: str) -> list[str]:
        return re.findall(r"[A-Za-z0-9]+(?:[-'][A-Za-z0-9]+)*", sentence)


def extractive(abstracts: Sequence[str], budget: int, kind: str) -> str:
    """sumy's LexRank or TextRank: best-rated sentences up to ``budget`` words, in document order."""
    from sumy.nlp.stemmers import Stemmer
    from sumy.parsers.plaintext import PlaintextParser
    from sumy.summarizers.lex_rank import LexRankSummarizer
    from sumy.summarizers.text_rank import TextRankSummarizer

    parser = PlaintextParser.from_string("\n\n".join(abstracts), SentenceTokenizer())
    summarizer = (LexRankSummarizer if kind == "lexrank" else TextRankSummarizer)(Stemmer("english"))
    sentences = list(parser.document.sentences)
    captured: dict[str, Any] = {}
    best = summarizer._get_best_sentences

    def grab(items: Any, count: Any, rating: Any, *args: Any, **kwargs: Any) -> Any:
        captured["rating"] = rating
        return best(items, count, rating, *args, **kwargs)

    summarizer._get_best_sentences = grab  # one ranking per text, then our word budget
    summarizer(parser.document, 1)
    rating = captured.get("rating", {})
    ranked = sorted(range(len(sentences)), key=lambda i: -float(rating.get(sentences[i], 0.0)))
    chosen: list[int] = []
    words = 0
    for index in ranked:
        if words >= budget:
            break
        chosen.append(index)
        words += len(str(sentences[index]).split())
    return truncate_words(" ".join(str(sentences[i]) for i in sorted(chosen)), budget)


def graph_metrics(latex: str) -> dict[str, float]:
    """Co-citation graph of the written text: keys cited in one paragraph (and one sentence) are linked."""
    out: dict[str, float] = {}
    paragraphs = [p for p in latex.split("\n\n") if p.strip() and not p.lstrip().startswith("%")]
    for level, units in (("paragraph", paragraphs),
                         ("sentence", [p[a:b] for p in paragraphs for a, b in split_sentences(p)])):
        graph = nx.Graph()
        for unit in units:
            keys = list(dict.fromkeys(cited_keys(unit)))
            graph.add_nodes_from(keys)
            graph.add_edges_from((a, b) for i, a in enumerate(keys) for b in keys[i + 1:])
        n = graph.number_of_nodes()
        out[f"{level}_edges"] = float(graph.number_of_edges())
        out[f"{level}_avg_degree"] = 2.0 * graph.number_of_edges() / n if n else 0.0
        out[f"{level}_clustering"] = float(nx.average_clustering(graph)) if n else 0.0
    return out


def gold_graph_metrics(text: str) -> dict[str, float]:
    """The same sentence-level graph for the gold text, from its numeric markers ([3], [4, 7])."""
    graph = nx.Graph()
    for a, b in split_sentences(text):
        refs = [r for group in re.findall(r"\[([\d,\s\-–]+)\]", text[a:b]) for r in re.findall(r"\d+", group)]
        refs = list(dict.fromkeys(refs))
        graph.add_nodes_from(refs)
        graph.add_edges_from((x, y) for i, x in enumerate(refs) for y in refs[i + 1:])
    n = graph.number_of_nodes()
    return {"sentence_edges": float(graph.number_of_edges()),
            "sentence_avg_degree": 2.0 * graph.number_of_edges() / n if n else 0.0,
            "sentence_clustering": float(nx.average_clustering(graph)) if n else 0.0}


def mean(values: Sequence[float]) -> float:
    return float(statistics.fmean(values)) if values else 0.0
