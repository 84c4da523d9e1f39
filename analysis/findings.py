"""Findings: what relatex reports about a draft, in plain character offsets.

The CLI prints them as ``file:line:col: severity: message [code]``; the language server turns
them into LSP diagnostics. Codes are stable: editors, quick fixes and tests rely on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from relatex.analysis.text_files import read_text


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFORMATION = "information"
    HINT = "hint"


class Code(StrEnum):
    """Stable finding codes."""

    # project structure
    INCLUDE_NOT_FOUND = "include-not-found"
    INCLUDE_OUTSIDE_ROOT = "include-outside-root"
    INCLUDE_CYCLE = "include-cycle"
    BIB_FILE_NOT_FOUND = "bib-file-not-found"
    DANGEROUS_LATEX = "dangerous-latex"
    # limits
    TOO_MANY_FINDINGS = "too-many-findings"
    DOCUMENT_TOO_LARGE = "document-too-large"
    # citations and bibliography
    UNDEFINED_CITATION = "undefined-citation"
    UNUSED_ENTRY = "unused-entry"
    DUPLICATE_KEY = "duplicate-key"
    DUPLICATE_WORK = "duplicate-work"
    DUPLICATE_FIELD = "duplicate-field"
    STRING_LOOP = "string-loop"
    BIB_PARSE_ERROR = "bib-parse-error"
    MISSING_FIELD = "missing-field"
    # verification against an authority
    BIB_MISMATCH = "bib-mismatch"
    BIB_UNKNOWN = "bib-not-found"
    BIB_NOT_IN_KB = "bib-not-in-kb"
    BIB_PREPRINT_PUBLISHED = "bib-preprint-published"
    BIB_AMBIGUOUS = "bib-ambiguous"
    # claim support
    CLAIM_NOT_SUPPORTED = "claim-not-supported"
    CLAIM_PARTIALLY_SUPPORTED = "claim-partially-supported"
    CLAIM_CONTRADICTED = "claim-contradicted"


@dataclass(frozen=True)
class Finding:
    """One problem at a character range ``[start, end)`` of a file's text."""

    code: Code
    severity: Severity
    message: str
    path: Path
    start: int
    end: int
    data: Mapping[str, Any] = field(default_factory=dict)

    def sort_key(self) -> tuple[str, int, int, str]:
        return (str(self.path), self.start, self.end, self.code.value)


def json_safe(value: Any) -> Any:
    """``value`` (a finding's ``data``, say) with paths, tuples, sets and other objects turned
    into what JSON holds: for the CLI's JSON output and the data of LSP diagnostics."""
    if isinstance(value, Mapping):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [json_safe(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def finding_text(finding: Finding, texts: Mapping[Path, str]) -> str | None:
    """The text a finding's offsets refer to: from ``texts`` (the checked versions), else the
    file on disk; None when it cannot be read."""
    text = texts.get(finding.path)
    if text is not None:
        return text
    try:
        return read_text(finding.path)[0]
    except OSError:
        return None
