"""A paper's title as the subject of its sentence ("Extending average precision to graded relevance
judgments is the subject of ..."), and which title subjects a sentence says."""

from __future__ import annotations

import re

from relatex.writing.contributions import Contribution, keeps_case
from relatex.writing.plan import PaperBrief
from relatex.writing.title_coverage import leaves_out_title, said_within
from relatex.writing.title_topics import lowered, names_written, title_subject


def title_as_subject(brief: PaperBrief, contribution: Contribution) -> tuple[str, bool]:
    """The title as the subject of the paper's sentence, and whether it names a work, where the
    phrase leaves out most of what the title names ("introduce a new measure of retrieval
    effectiveness" for "Extending Average Precision to Graded Relevance Judgments"): a title of at
    most 8 words (12 beside a bare name: "who develop Conv-KNRM") without a comma, that the phrase
    adds to ("The PageRank citation ranking ..., who propose PageRank" says one thing twice); a
    name's subtitle ("LightGCN: Simplifying and Powering ..."). ("", True) where not."""
    if not leaves_out_title(contribution.phrase, brief.record.title):
        return "", True
    subject, work = title_subject(brief.record.title, brief.record.abstract or "")
    title = " ".join(brief.record.title.split()).rstrip(".")
    named = _bare_name(contribution.phrase)  # "LightGCN": only the title says what it is
    name, _, subtitle = title.partition(": ")
    gerund = "" if subject else gerund_title(title, brief.record.abstract or "")
    if gerund:
        subject, work = gerund, False  # a gerund phrase: "Extending average precision to ..."
    elif not subject and named and name == named.group("name") and _GERUND_START.match(subtitle):
        subject, work = lowered(subtitle), False  # "LightGCN: Simplifying and Powering ..."
    too_long = len(subject.split()) > (12 if named else 8)
    if not subject or too_long or "," in subject or said_within(contribution.phrase, subject):
        return "", True
    return subject, work


_GERUND_START = re.compile(r"[A-Z][a-z]+ing\s")  # "Simplifying and Powering ...", "Learning to ..."


def gerund_title(title: str, abstract: str = "") -> str:
    """A title that is one gerund phrase ("Extending Average Precision to Graded Relevance
    Judgments"), lower-cased as a sentence's subject but for the names its ``abstract`` writes
    ("... bundle recommendations on Steam"); "" for any other title."""
    title = " ".join(title.split()).rstrip(".")
    if not _GERUND_START.match(title) or re.search(r"[:?!]", title):
        return ""
    return names_written(lowered(title), abstract)


# a name and nothing that says what it is: "Conv-KNRM", "a new model named LightGCN"
_BARE_NAME = re.compile(r"(?:an?\s+(?:[a-z-]+\s+){0,3}(?:named|called|dubbed)\s+)?"
                        r"(?P<name>[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)")


def _bare_name(phrase: str) -> re.Match[str] | None:
    match = _BARE_NAME.fullmatch(phrase)
    return match if match and keeps_case(match.group("name")) else None


def subjects_said(brief: PaperBrief, text: str) -> set[str]:
    """The paper's title subjects (as :func:`title_subject` and :func:`title_as_subject` read them)
    that ``text`` says."""
    subject = title_subject(brief.record.title, brief.record.abstract or "")[0]
    gerund = lowered(" ".join(brief.record.title.split()).rstrip("."))
    return {s.lower() for s in (subject, gerund) if s and s.lower() in text.lower()}
