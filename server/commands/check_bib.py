"""`relatex check --bib` / `--fix`: print what :mod:`relatex.workflows.verify_bibliography` found.

The workflow verifies the draft's entries against ``engines.authorities`` (the knowledge base,
then, when online sources are enabled, Crossref, arXiv, OpenAlex and DBLP) and, with ``--fix``,
writes the corrections; this module says on stderr what changed and how many entries got each
verdict.
"""

from __future__ import annotations

import sys
from typing import TextIO

from relatex.analysis.findings import Finding
from relatex.workflows.check_project import ProjectCheck
from relatex.workflows.engines import Engines
from relatex.workflows.kb_status import index_command
from relatex.workflows.verify_bibliography import VerifyRequest, VerifyResult, verify_bibliography

#: How the summary line names a status (others: the status with spaces).
STATUS_LABELS = {"absent": "not in the knowledge base (not checked online)"}


def summary_line(result: VerifyResult) -> str:
    """``bibliography verification: 1 mismatch, 3 verified``"""
    summary = ", ".join(f"{n} {STATUS_LABELS.get(status, status.replace('_', ' '))}"
                        for status, n in sorted(result.counts.items()))
    return f"relatex: bibliography verification: {summary or 'no entries'}"


def bib_findings(check: ProjectCheck, engines: Engines, fix: bool, err: TextIO | None = None) -> list[Finding]:
    """Verify the bibliography of a checked project; report on ``err`` (stderr); the findings."""
    out = err or sys.stderr

    def progress(message: str, fraction: float | None) -> None:
        print(f"relatex: {message}", file=out)

    result = verify_bibliography(VerifyRequest(check.project, check.bibs, fix, check.texts), engines,
                                 progress=progress)
    if not result.had_authorities:
        print("relatex: no knowledge base and online sources are off: the bibliography was not verified "
              f"(build a knowledge base with `{index_command(engines.settings)}` in the project folder, "
              "or use --online)", file=out)
        return []
    for note in result.notes:
        print(f"relatex: {note}", file=out)
    for fixed in result.fixed:
        print(f"relatex: {fixed.description}", file=out)
    print(summary_line(result), file=out)
    return list(result.findings)
