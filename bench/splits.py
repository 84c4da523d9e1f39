"""The development/test splits every benchmark uses, in one place.

- ACM-CR: by query paper. A query paper (its DOI) is in the development half when the MD5 of the
  lower-cased DOI is even. Paragraph and sentence topics belong to the paper whose title they
  carry (the topics' ``<title>``), the abstract task's queries are the papers themselves.
- ScisummNet / ACL: by cited paper, the MD5 of the ACL id as written (not lower-cased): odd = test,
  the same test half in ``bench/claim_support.py`` (``split_of``) and ``bench/citation_data.py``
  (which also carves a development slice out of the even half for the citation model).
- ACL drafts in ``bench/graph_expansion.py``: by citing paper (the draft), ``half_of`` of its ACL id
  (lower-cased, unlike the cited-paper split above; the two tasks split different papers).

Tuned choices (weights, thresholds, fusion, BM25 parameters) are chosen on the development half;
reported figures are on the test half.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path


def half_of(identifier: str) -> str:
    """"dev" or "test" for a paper identifier (a DOI or an ACL id)."""
    return "dev" if int(hashlib.md5(identifier.strip().lower().encode()).hexdigest(), 16) % 2 == 0 else "test"


def acm_topic_papers(topics_file: Path, titles_to_doi: dict[str, str]) -> dict[str, str]:
    """topic id -> DOI of the query paper it comes from (matched by the topic's title)."""
    from retrieval_quality import read_topic_field  # type: ignore[import-not-found]  # bench/ is on the path

    titles = read_topic_field(topics_file, "title")
    return {num: doi for num, title in titles.items() if (doi := titles_to_doi.get(_title_key(title)))}


def _title_key(title: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", title.lower()))


def title_index(papers: list[dict]) -> dict[str, str]:
    """normalised title -> DOI of the ACM-CR query papers (``queries.jsonl`` rows)."""
    return {_title_key(p["title"]): p["doi"].lower() for p in papers if p.get("title") and p.get("doi")}
