"""How well a generated section's paragraphs hold together: the papers each paragraph cites whose
title and abstract name its label (on the label), and of the others, those the paragraph sets apart
(after its "Further afield," or "In a related direction," bridge, or only in its "See also" pointer list)."""

from __future__ import annotations

import re
from typing import Any

from relatex.writing.offline_templates import BRIDGE_AWAY, BRIDGE_NEAR, TOPIC_FIRST, TOPIC_NEXT, TOPIC_SECOND
from relatex.writing.paragraph_themes import regrouped, theme_terms
from relatex.writing.plan import WritingPlan
from relatex.writing.theme_names import fits_label

_BRIDGE = re.compile(re.escape(BRIDGE_AWAY) + "|" + re.escape(BRIDGE_NEAR))
_CITE = re.compile(r"\\cite[tp]?\{([^{}]*)\}")


def _topic_pattern(template: str) -> str:
    pattern = re.escape(template).replace(re.escape("{label}"), "(?P<label>.+?)")
    return pattern.replace(re.escape("{cites}"), r"(?: \\citep\{[^{}]*\})?")


_TOPICS = tuple(re.compile(_topic_pattern(t)) for t in (*TOPIC_FIRST, TOPIC_SECOND, *TOPIC_NEXT))


def paragraph_labels(latex: str) -> list[str]:
    """The label each paragraph's topic sentence names, as written ("" where its first sentence is
    no topic sentence)."""
    out = []
    for paragraph in (p.strip() for p in latex.split("\n\n") if "\\cite" in p):
        found = next((m for topic in _TOPICS if (m := topic.match(paragraph))), None)
        out.append(found.group("label") if found else "")
    return out


def _cited(text: str) -> list[str]:
    return [k.strip() for m in _CITE.finditer(text) for k in m.group(1).split(",")]


def label_fit(plan: WritingPlan, latex: str) -> dict[str, Any]:
    """Counts over the section's paragraphs: cited papers on / off their paragraph's label, and the
    off-label ones set apart; ``off_label_titles``: those not set apart, for reading."""
    themes = regrouped(plan, [t for t in plan.themes if any(k in plan.papers for k in t.keys)])
    terms = theme_terms(plan, themes)
    paragraphs = [p for p in latex.split("\n\n") if "\\cite" in p]
    on = off = apart = 0
    loose: list[str] = []
    for theme, label in zip(themes, terms, strict=True):
        members = set(theme.keys)
        paragraph = next((p for p in paragraphs if members & set(_cited(p))), "")
        found = _BRIDGE.search(paragraph)
        bridge = found.start() if found else -1
        after = set(_cited(paragraph[bridge:])) if bridge >= 0 else set()
        pointers = set(_cited(" ".join(re.findall(r"See also~\\citep\{[^{}]*\}", paragraph))))
        before = set(_cited(paragraph[:bridge] if bridge >= 0 else paragraph)) - pointers
        for key in dict.fromkeys(k for k in _cited(paragraph) if k in members):
            record = plan.papers[key].record
            if fits_label(record.title, record.abstract or "", label):
                on += 1
            elif key in after or (key in pointers and key not in before):
                off += 1
                apart += 1
            else:
                off += 1
                loose.append(record.title)
    return {"on_label": on, "off_label": off, "off_label_set_apart": apart, "off_label_titles": loose}
