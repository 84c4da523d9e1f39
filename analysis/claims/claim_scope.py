"""The part of a sentence one citation speaks for.

In "Lexical retrieval with BM25 \\citep{a} and dense retrieval with sentence embeddings \\citep{b}
complement each other", ``b`` is cited for "and dense retrieval with sentence embeddings", not for
the whole sentence. A sentence that cites groups at two or more places gives each group the text
from the citation before it (or the sentence's start) to its own citation. :func:`check_claims`
judges such a group on the sentence and on this part, and keeps the better verdict, so that a
citation is not flagged for what the sentence says of the other papers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relatex.analysis.latex.project_model import Claim

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
MIN_WORDS = 3


def _citation_index(claim: Claim) -> int | None:
    """Where the claim's citation sits in ``claim.text`` (the index of the first character after it)."""
    if not claim.offsets:
        return None
    return next((i for i, offset in enumerate(claim.offsets) if offset >= claim.cite_end), len(claim.text))


def citation_scopes(claims: Sequence[Claim]) -> list[str | None]:
    """For each claim, the part of its sentence its citation speaks for; None where the sentence
    cites at only one place, or the part has fewer than ``MIN_WORDS`` words."""
    sentences: dict[tuple[object, ...], list[int]] = {}
    for i, claim in enumerate(claims):
        sentences.setdefault((claim.path, claim.start, claim.end, claim.text), []).append(i)
    scopes: list[str | None] = [None] * len(claims)
    for members in sentences.values():
        places = {i: _citation_index(claims[i]) for i in members}
        found = sorted({p for p in places.values() if p is not None})
        if len(found) < 2:
            continue
        for i, at in places.items():
            if at is None:
                continue
            before = max((p for p in found if p < at), default=0)
            part = claims[i].text[before:at].strip(" ,;:")
            if len(_WORD.findall(part)) >= MIN_WORDS and part != claims[i].text.strip():
                scopes[i] = part
    return scopes
