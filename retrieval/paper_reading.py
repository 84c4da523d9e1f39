"""Which sentences of a paper the writer reads: Citegeist's depth, the sentences closest to the draft."""

from __future__ import annotations

import math
import re
from collections import Counter

from relatex.retrieval.communities import terms_of
from relatex.retrieval.records import PaperRecord

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[])")


def _sentences(text: str) -> list[str]:
    try:
        from relatex.analysis.sentences import split_sentences

        return [text[a:b].strip() for a, b in split_sentences(text) if text[a:b].strip()]
    except Exception:  # the sentence splitter may be missing: a plain regex split
        return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def read_sentences(record: PaperRecord, draft_terms: Counter[str], depth: int) -> tuple[str, ...]:
    """The ``depth`` sentences of the paper (full text when present, else abstract) closest to
    the draft by term overlap (cosine of term counts), in their original order."""
    if depth <= 0:
        return ()
    body = " ".join(record.full_text) if record.full_text else (record.abstract or "")
    sentences = _sentences(body)
    if len(sentences) <= depth:
        return tuple(sentences)
    draft_norm = math.sqrt(sum(v * v for v in draft_terms.values())) or 1.0
    scored = []
    for index, sentence in enumerate(sentences):
        counts = Counter(terms_of(sentence))
        norm = math.sqrt(sum(v * v for v in counts.values())) or 1.0
        dot = sum(n * draft_terms.get(t, 0) for t, n in counts.items())
        scored.append((dot / (norm * draft_norm), -index))
    best = sorted(range(len(sentences)), key=lambda i: scored[i], reverse=True)[:depth]
    return tuple(sentences[i] for i in sorted(best))
