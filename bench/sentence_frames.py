"""Sentence frames of the offline writer repeated within a paragraph.

A frame is a template of ``relatex.writing.offline_templates`` with at least two fixed words
("{Topic} is the subject of \\citet{key}."); a sentence is read as the frame with the most fixed
words that matches it whole, and frames that agree up to their first comma are one ("... is the
subject of \\citet{key}, who ..." reads as "... is the subject of \\citet{key}."). A paragraph that uses one frame three times or more reads as a list
("A is the subject of ... B is the subject of ... C is the subject of ...").
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from string import Formatter

from relatex.analysis.sentences import split_sentences
from relatex.writing import offline_templates


def _is_template(value: object) -> bool:
    try:
        return isinstance(value, str) and any(f is not None for _, f, _, _ in Formatter().parse(value))
    except ValueError:
        return False


def _pattern(template: str) -> tuple[re.Pattern[str], int]:
    """The template as a pattern that matches a sentence written in it, and its count of fixed words."""
    parsed = list(Formatter().parse(template.strip()))  # literal text before each placeholder
    body = "".join(re.escape(text) + ("(.+?)" if field is not None else "") for text, field, _, _ in parsed)
    fixed = re.findall(r"[A-Za-z]+", re.sub(r"\\cite[tp]?\{|\}", " ", "".join(t for t, *_ in parsed)))
    return re.compile(body, re.S), len(fixed)


@lru_cache(maxsize=1)
def frames() -> tuple[tuple[str, re.Pattern[str], int], ...]:
    """Every template with two fixed words or more, as (template, pattern, fixed words)."""
    found = []
    for name, value in vars(offline_templates).items():
        if name.startswith("_"):
            continue
        for template in value if isinstance(value, tuple) else (value,):
            if _is_template(template):
                pattern, fixed = _pattern(template)
                if fixed >= 2:
                    found.append((template.strip(), pattern, fixed))
    return tuple(dict((t, (t, p, n)) for t, p, n in found).values())


def frame_of(sentence: str) -> str:
    """The frame a sentence is written in ("" when none of two fixed words or more matches it)."""
    said = " ".join(sentence.split())
    matching = [(fixed, template) for template, pattern, fixed in frames() if pattern.fullmatch(said)]
    return max(matching)[1].split(",")[0].rstrip(".") if matching else ""


def repeated_frames(latex: str, times: int = 3) -> list[tuple[str, int]]:
    """Per paragraph, the frame it uses ``times`` times or more and how often (one entry per paragraph)."""
    body = "\n".join(line for line in latex.splitlines() if not line.lstrip().startswith("%"))
    out = []
    for paragraph in body.split("\n\n"):
        used = Counter(f for a, b in split_sentences(paragraph) if (f := frame_of(paragraph[a:b])))
        if used and (top := used.most_common(1)[0])[1] >= times:
            out.append(top)
    return out
