"""Pick the right loader for a path by looking at it (extension, then the first JSON line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from relatex.retrieval.sources.arxiv_source import ArxivSnapshotSource
from relatex.retrieval.sources.base import RecordSource, open_text
from relatex.retrieval.sources.bibtex_source import BibSource, bib_files
from relatex.retrieval.sources.openalex_source import OpenAlexWorksSource
from relatex.retrieval.sources.s2_source import SemanticScholarSource

_JSON_SUFFIXES = (".jsonl", ".json", ".ndjson", ".jsonl.gz", ".json.gz", ".ndjson.gz")


def _first_object(path: Path, max_lines: int = 50) -> dict[str, Any] | None:
    with open_text(path) as handle:
        for i, line in enumerate(handle):
            if i >= max_lines:
                break
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict):
                return value
    return None


def json_kind(obj: dict[str, Any]) -> str | None:
    """"openalex", "s2" or "arxiv" from the keys of one object; None if unrecognised."""
    ident = obj.get("id")
    if "abstract_inverted_index" in obj or "referenced_works" in obj or (
        isinstance(ident, str) and "openalex.org/" in ident
    ):
        return "openalex"
    if "paperId" in obj or "externalIds" in obj or "paperid" in obj:
        return "s2"
    if "authors_parsed" in obj or ("categories" in obj and "id" in obj) or "versions" in obj:
        return "arxiv"
    return None


def open_source(path: Path, name: str | None = None, kind: str | None = None) -> RecordSource:
    """A record source for a .bib/.bib.gz file or directory, or arXiv / OpenAlex / Semantic
    Scholar JSON lines. ``kind`` ("bibtex", "arxiv", "openalex", "s2") overrides detection.

    Raises FileNotFoundError for a missing path and ValueError for an unrecognised format.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no such file or directory: {path}")
    classes: dict[str, type[RecordSource]] = {
        "bibtex": BibSource,
        "arxiv": ArxivSnapshotSource,
        "openalex": OpenAlexWorksSource,
        "s2": SemanticScholarSource,
    }
    if kind is not None:
        if kind not in classes:
            raise ValueError(f"unknown source kind {kind!r} (one of {', '.join(classes)})")
        return classes[kind](path, name)
    if path.is_dir():
        if bib_files(path):
            return BibSource(path, name)
        raise ValueError(f"{path} holds no .bib or .bib.gz files")
    lower = path.name.lower()
    if lower.endswith(".bib") or lower.endswith(".bib.gz"):
        return BibSource(path, name)
    if lower.endswith(_JSON_SUFFIXES):
        obj = _first_object(path)
        if obj is None:
            raise ValueError(f"{path}: no JSON object in its first lines")
        detected = json_kind(obj)
        if detected is None:
            raise ValueError(
                f"{path}: JSON lines not recognised as arXiv metadata, OpenAlex works or Semantic Scholar "
                f"papers (first object has keys {sorted(obj)[:8]})"
            )
        return classes[detected](path, name)
    raise ValueError(f"{path}: unsupported file type (expected .bib, .bib.gz, or JSON lines)")
