"""`relatex check --claims`: print what :mod:`relatex.workflows.check_claims` found.

The workflow judges each cited sentence against its keys' evidence (the entry's abstract, else
its knowledge-base record) with ``engines.judge()``; the verdicts are cached on disk under the
cache directory, so re-checking an unchanged draft is free.
"""

from __future__ import annotations

import sys
from typing import Any

from relatex.analysis.claims.claim_support import SupportJudge
from relatex.analysis.findings import Finding
from relatex.config.settings import Settings
from relatex.workflows.check_claims import ClaimCache, ClaimCheckRequest, check_claims
from relatex.workflows.check_project import ProjectCheck
from relatex.workflows.engines import Engines


def make_judge(settings: Settings) -> SupportJudge:
    """The judge the engines of ``settings`` use (for callers that hold no engines)."""
    return Engines(settings).judge()


def _progress(message: str, fraction: float | None) -> None:
    if fraction is not None and fraction >= 1.0:
        print(f"relatex: {message}", file=sys.stderr)


def claim_findings(check: ProjectCheck, engines: Engines) -> tuple[list[Finding], dict[str, Any]]:
    """Claim-support findings of a checked draft and its summary (citation recall/precision)."""
    cache = ClaimCache.on_disk(engines.settings)
    try:
        result = check_claims(ClaimCheckRequest(check.project, check.bibs), engines, progress=_progress,
                              cache=cache)
    finally:
        cache.close()
    return list(result.findings), result.summary
