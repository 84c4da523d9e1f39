"""What each closing sentence of a generated section relates the theme to: an aspect of the
draft's abstract, the draft's title, a contrast with a focus phrase of the title, the theme as
background to such a phrase, or the theme as a concern the draft shares (read off the offline writer's
templates)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from relatex.writing.draft_focus import CLOSING_FOCUS, CLOSING_SHARED
from relatex.writing.offline_templates import CLOSING_GENERIC
from relatex.writing.title_topics import draft_topic


def _pattern(template: str) -> re.Pattern[str]:
    text = re.escape(" ".join(template.split()))
    return re.compile("^" + re.sub(r"\\\{\w+\\\}", ".+?", text) + "$")


_FOCUS = [_pattern(t) for t in CLOSING_FOCUS]
_GENERIC = [_pattern(t) for t in CLOSING_GENERIC]
_SHARED = [_pattern(t) for t in CLOSING_SHARED]


def closing_kinds(closings: Sequence[str], draft_title: str) -> dict[str, int]:
    """Counts of ``closings`` by kind: "aspect", "title", "focus contrast", "focus background", "shared"
    (the theme named as a concern the draft shares)."""
    topic = draft_topic(draft_title).lower()
    kinds: Counter[str] = Counter()
    for sentence in closings:
        if any(p.match(sentence) for p in _FOCUS):
            kinds["focus contrast"] += 1
        elif any(p.match(sentence) for p in _SHARED):
            kinds["shared"] += 1
        elif any(p.match(sentence) for p in _GENERIC):
            kinds["title" if topic and topic in sentence.lower() else "focus background"] += 1
        else:
            kinds["aspect"] += 1
    return dict(kinds)
