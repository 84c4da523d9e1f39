"""What the draft says its own work does, read from its abstract: the aspects the offline
writer relates each theme to ("our system retrieves candidate papers ...")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from relatex.writing.contributions import CONTRIBUTION, DANGLING, RELATIVE, keeps_case, sentences_of, shorten


@dataclass(frozen=True)
class DraftAspect:
    """One thing the draft says it does, for relating a theme to it.

    ``kind`` is ``"action"`` (``text`` is a verb phrase agreeing with ``subject``: "our system"
    + "retrieves candidate papers ...") or ``"clause"`` (a whole clause: "a checker flags ...").
    """

    kind: str
    subject: str
    text: str


_THIRD_PERSON_SPLIT = re.compile(r",\s+(?:and\s+)?(?=[a-z]+s\b)|\s+and\s+(?=[a-z]+s\s)")
_CLAUSE_SUBJECT = re.compile(r"^(?:a|an|the|our|its)\s+[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2}?\s+"
                             r"(?:(?:then|also|finally|first)\s+)?(?:[a-z]+s|is\s+\w+ed|are\s+\w+ed)\b", re.I)
_BARE_SUBJECT = re.compile(r"^[a-z][\w\-]*(?:\s[a-z][\w\-]*){0,3}\s[a-z]+s\s(?:the|a|an|all|most)\s", re.I)
_LEAD_IN = re.compile(r"^(?:on|in|for|with|across|using|through)\s[^,]{3,80},\s*", re.I)


def _cap_clause(text: str, max_words: int = 20) -> str:
    """A clause of the draft short enough to quote whole, else its part before the first comma,
    else nothing (a clause cut mid-way says something the draft does not)."""
    words = text.split()
    if len(words) > max_words:
        head = text.split(", ")[0].split()
        if not 5 <= len(head) <= max_words:
            return ""
        words = head
    while words and words[-1].lower().strip(",;:") in DANGLING:
        words.pop()
    return " ".join(words).strip(" ,;:")


def _complete(text: str) -> bool:
    """Not cut at an abbreviation ("unbiased w.") or inside brackets or dashes."""
    last = text.split()[-1] if text.split() else ""
    return (len(last) > 2 or last.lower() in {"it", "us", "ai", "ir", "ml"}) and text.count("(") == text.count(")") \
        and " - " not in text and "--" not in text


def draft_aspects(abstract: str) -> list[DraftAspect]:
    """What the draft's abstract says its work does, one aspect per coordinated action or clause:
    "We present a system that reads X, retrieves Y and selects Z" gives three actions of "our
    system"; "A checker flags citations ..." gives a clause."""
    text = re.sub(r"\\[a-zA-Z]+\*?(?:\{\})?", lambda m: m.group(0)[1:].replace("{}", ""), abstract or "")
    text = " ".join(text.replace("{", "").replace("}", "").split())
    out: list[DraftAspect] = []
    for sentence in sentences_of(text):
        sentence = sentence.strip().rstrip(".")
        match = CONTRIBUTION.search(sentence)
        if match:
            rest = re.sub(r"\s*\([^()]{0,60}\)", "", match.group("rest"))
            head = shorten(rest, 6)
            relative = RELATIVE.match(rest[len(head):]) if rest.lower().startswith(head.lower()) else None
            if relative and relative.group("rel").lower() in {"that", "which"}:
                noun = re.sub(r"^(?:a|an|the)\s+", "", head, flags=re.I)
                subject = f"our {noun}" if 0 < len(noun.split()) <= 3 else "our work"
                for part in _THIRD_PERSON_SPLIT.split(relative.group("body")):
                    part = _cap_clause(part)
                    if len(part.split()) >= 3 and _complete(part):
                        out.append(DraftAspect("action", subject, part))
                continue
            if match.group(0).lower().startswith("we "):
                verb = match.group("verb").lower()
                action = _cap_clause(f"{verb} {rest}")
                if len(action.split()) >= 3 and _complete(action):
                    out.append(DraftAspect("action", "we", action))
            continue
        sentence = _LEAD_IN.sub("", sentence)
        for part in re.split(r",\s+and\s+|;\s+", sentence):
            if _CLAUSE_SUBJECT.match(part) or _BARE_SUBJECT.match(part):
                part = re.sub(r"\s(?:then|also|finally)\s", " ", part)
                clause = _cap_clause(part[:1].lower() + part[1:] if not keeps_case(part.split()[0]) else part)
                if len(clause.split()) >= 4 and _complete(clause):
                    out.append(DraftAspect("clause", "", clause))
    return out
