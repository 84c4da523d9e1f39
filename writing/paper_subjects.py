"""A paper's title as the subject of its sentence ("Extending average precision to graded relevance
judgments is the subject of ..."), and which title subjects a sentence says."""

from __future__ import annotations

import re

from relatex.writing.contributions import Contribution
from relatex.writing.plan import PaperBrief
from relatex.writing.title_coverage import leaves_out_title, said_within
from relatex.writing.title_topics import lowered, title_subject


def title_as_subject(brief: PaperBrief, contribution: Contribution) -> tuple[str, bool]:
    """The title as the subject of the paper's sentence, and whether it names a work, where the
    phrase leaves out most of what the title names ("introduce a new measure of retrieval
    effectiveness" for "Extending Average Precision to Graded Relevance Judgments"): a title of at
    most 8 words without a comma, that the phrase adds to ("The PageRank citation ranking ...,
    who propose PageRank" says one thing twice). ("", True) where not."""
    if not leaves_out_title(contribution.phrase, brief.record.title):
        return "", True
    subject, work = title_subject(brief.record.title, brief.record.abstract or "")
    title = " ".join(brief.record.title.split()).rstrip(".")
    if not subject and re.match(r"[A-Z][a-z]+ing\s", title) and not re.search(r"[:?!]", title):
        subject, work = lowered(title), False  # a gerund phrase: "Extending average precision to ..."
    if not subject or len(subject.split()) > 8 or "," in subject or said_within(contribution.phrase, subject):
        return "", True
    return subject, work


def subjects_said(brief: PaperBrief, text: str) -> set[str]:
    """The paper's title subjects (as :func:`title_subject` and :func:`title_as_subject` read them)
    that ``text`` says."""
    subject = title_subject(brief.record.title, brief.record.abstract or "")[0]
    gerund = lowered(" ".join(brief.record.title.split()).rstrip("."))
    return {s.lower() for s in (subject, gerund) if s and s.lower() in text.lower()}
