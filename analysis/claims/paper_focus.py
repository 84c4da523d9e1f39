"""What the cross-encoder reads of a long paper: its title and the abstract sentences nearest the claim.

The cross-encoder reads at most ``max_tokens`` word pieces of claim and paper together, about 80
words of the paper. Cut at its end, a long abstract loses whatever its later sentences say. A paper
longer than ``words`` words is read as its first sentence (the title), then the abstract sentences
that share the most content words with the claim (the first abstract sentence wins ties), in their
order in the abstract, within ``words`` words. A paper that fits is read whole, unchanged. The
training script (``bench/train_cross_encoder.py --focus-words``) and the product use this one
function, so the model reads at run time what it was trained on.
"""

from __future__ import annotations

import re
from functools import lru_cache

from relatex.analysis.claims.claim_words import STOPWORDS, stem
from relatex.analysis.sentences import split_sentences

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'-]+")


def content_stems(text: str) -> frozenset[str]:
    """The stems of the words of ``text`` that are not stop words."""
    return frozenset(stem(w) for w in _WORD.findall(text) if w.lower() not in STOPWORDS)


@lru_cache(maxsize=8192)  # a few MB: the papers of one knowledge base are read again and again
def _sentences(text: str) -> tuple[tuple[str, int, frozenset[str]], ...]:
    """Each sentence of ``text`` with its word count and content stems (memoised per paper)."""
    spans = split_sentences(text, paragraph_breaks=False)
    return tuple((text[a:b], len(text[a:b].split()), content_stems(text[a:b])) for a, b in spans)


def focus_paper_text(claim: str, text: str, words: int) -> str:
    """``text`` (``title. abstract``) cut to ``words`` words around what ``claim`` speaks of."""
    if words <= 0 or len(text.split()) <= words:
        return text
    sentences = _sentences(text)
    if len(sentences) < 3:
        return text
    wanted = content_stems(claim)
    rest = sentences[1:]
    order = sorted(range(len(rest)), key=lambda i: (-len(wanted & rest[i][2]) - (0.5 if i == 0 else 0.0), i))
    budget = words - sentences[0][1]
    chosen: list[int] = []
    for i in order:
        if rest[i][1] <= budget:
            chosen.append(i)
            budget -= rest[i][1]
    if not chosen:  # even the best sentence is too long: it is read as far as the model reads
        chosen = [order[0]]
    return " ".join([sentences[0][0]] + [rest[i][0] for i in sorted(chosen)])
