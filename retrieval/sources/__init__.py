"""Record sources: BibTeX, arXiv metadata snapshot, OpenAlex works and Semantic Scholar papers."""

from __future__ import annotations

from relatex.retrieval.sources.base import RecordSource, SourceItem
from relatex.retrieval.sources.detect import open_source

__all__ = ["RecordSource", "SourceItem", "open_source"]
