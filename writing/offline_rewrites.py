"""Other sentences the writer can say about one paper, for the support gate's rewrites.

When the judge finds a sentence about a paper unsupported by its abstract, the gate tries these
instead, best first: the paper's objective and method sentences, each compressed into "X
proposes Y" by the same rules as the first sentence; its result sentences ("X report that
...")); and its title when the title is a plain noun phrase ("X study dense passage
retrieval"). Each candidate copies no run of the guard's length and reads as a whole sentence.
"""

from __future__ import annotations

from collections.abc import Callable

from relatex.analysis.claims.rhetorical_roles import METHOD, OBJECTIVE, RESULT, roled_sentences
from relatex.writing.contribution_extract import (
    contribution_of_sentence,
    mask_inner_periods,
    result_of_sentence,
)
from relatex.writing.copy_guard import CopyGuard
from relatex.writing.latex_validator import escape_prose
from relatex.writing.offline_templates import VERBS
from relatex.writing.plan import PaperBrief, WritingPlan
from relatex.writing.sentence_checks import well_formed
from relatex.writing.title_topics import paper_topic, title_cut_short


def _say(brief: PaperBrief, verb_class: str, phrase: str, avoid: str = "") -> str:
    options = [v for v in VERBS.get(verb_class, VERBS["study"]) if v[0] != avoid] or list(VERBS["study"])
    base, third = options[0]
    if verb_class == "show" and not phrase.lower().startswith("that "):
        phrase = f"that {phrase}"
    return f"\\citet{{{brief.key}}} {third if brief.single_author else base} {phrase}."


def paper_sentences(brief: PaperBrief) -> list[str]:
    """Sentences about one paper read from each non-background sentence of its abstract."""
    out: list[str] = []
    title = brief.record.title or ""
    for item in roled_sentences(brief.record.abstract or ""):
        sentence = mask_inner_periods(item.text)
        if item.role in (OBJECTIVE, METHOD):
            found = contribution_of_sentence(sentence, title)
            if found is not None:
                out.append(_say(brief, found.verb, found.phrase, found.source_verb))
        elif item.role == RESULT:
            result = result_of_sentence(sentence)
            if result:
                out.append(f"\\citet{{{brief.key}}} report that {result}.")
    topic = paper_topic(title)
    if topic and not title_cut_short(title, brief.record.abstract or ""):
        out.append(f"\\citet{{{brief.key}}} study {topic}.")
    return out


def rewrite_candidates(plan: WritingPlan, guard: CopyGuard) -> Callable[[str], list[str]]:
    """The gate's rewrites: key -> candidate sentences, best first."""

    def candidates(key: str) -> list[str]:
        brief = plan.papers.get(key)
        if brief is None:
            return []
        return [escape_prose(s) for s in dict.fromkeys(paper_sentences(brief)) if guard.ok(s) and well_formed(s)]

    return candidates
