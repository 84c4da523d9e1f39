"""Sentences of a written paragraph that copy a run of a source: removed whole, their papers kept
as pointers."""

from __future__ import annotations

from relatex.writing.contributions import sentences_of
from relatex.writing.copy_guard import CopyGuard
from relatex.writing.latex_validator import cited_keys
from relatex.writing.offline_templates import see_also, with_pointers


def without_copied_sentences(paragraph: str, guard: CopyGuard) -> str:
    """The paragraph without any sentence that holds, or starts, a copied run: a run can cross
    from the end of one sentence into the next ("... scoring functions. In ..."). A paper that only
    a removed sentence cited stays cited, in the paragraph's "See also" list."""
    text = " ".join(_kept_sentences(paragraph, guard))
    lost = [k for k in dict.fromkeys(cited_keys(paragraph)) if k not in set(cited_keys(text))]
    if not lost:
        return text
    return with_pointers(text, 0, lost) if text else see_also(lost)


def _kept_sentences(paragraph: str, guard: CopyGuard) -> list[str]:
    sentences = [s for s in sentences_of(paragraph) if guard.ok(s)]
    while sentences:
        hits = guard.copied(" ".join(sentences))
        if not hits:
            break
        start, counted = hits[0][0], 0
        for index, sentence in enumerate(sentences):
            counted += len(guard.words(sentence))
            if counted > start:
                del sentences[index]
                break
    return sentences


def section_without_copies(body: str, guard: CopyGuard) -> str:
    """``body`` with :func:`without_copied_sentences` applied to each paragraph that holds a copied
    run (others, the marker comment included, are kept byte for byte). Run again after the support
    gate: a rewritten sentence is checked on its own, not with the sentence that follows it."""
    return "\n\n".join(without_copied_sentences(p, guard) if guard.copied(p) else p
                       for p in body.split("\n\n"))
