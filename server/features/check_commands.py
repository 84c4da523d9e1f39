"""Commands that run a root's background checks now: verify the bibliography, check claims.

The results are accepted and published like those of the automatic background pass (through
the scheduler: kept only while the snapshot is current); the command answers with a summary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from relatex.server.documents import uri_to_path
from relatex.server.features.checks import background_pass
from relatex.server.features.progress import ProgressTask
from relatex.server.roots import BackgroundResults
from relatex.workflows.check_project import ProjectSnapshot

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer

VERIFY = "relatex.verifyBibliography"
CHECK_CLAIMS = "relatex.checkClaims"


def summary(result: BackgroundResults) -> dict[str, Any]:
    """How many entries got each verdict and claims each label, and the number of findings."""
    statuses: dict[str, int] = {}
    for verdict in result.verdicts.values():
        status = str(getattr(verdict, "status", "unchecked"))
        statuses[status] = statuses.get(status, 0) + 1
    labels: dict[str, int] = {}
    for claim in result.claims:
        labels[claim.verdict.label] = labels.get(claim.verdict.label, 0) + 1
    return {"verdicts": statuses, "claims": labels, "findings": len(result.findings)}


async def recheck(server: RelatexServer, uri: str | None, task: ProgressTask, claims: bool) -> dict[str, Any]:
    """Run the background checks of a root now (verification, optionally claims) and publish."""
    state = server.state
    snapshot: ProjectSnapshot | None = None
    if uri is not None:
        snapshot = state.roots.snapshot_for(uri_to_path(uri))
    if snapshot is None and state.roots.snapshots:
        snapshot = next(iter(state.roots.snapshots.values()))
    if snapshot is None:
        server.warn("relatex: open a .tex file of the draft first")
        return {"checked": 0}
    task.report("checking", 0.1)
    result: BackgroundResults = await state.run(background_pass, state, snapshot, task.cancelled, None, claims)
    state.scheduler.accept(snapshot, result)
    return summary(result)


def register(server: RelatexServer) -> None:
    @server.command(VERIFY)
    @server.guarded("verify bibliography", default={})
    async def verify_command(*args: Any) -> dict[str, Any]:
        uri = args[0] if args and isinstance(args[0], str) else None
        async with ProgressTask(server, "relatex: verifying the bibliography") as task:
            return await recheck(server, uri, task, claims=False)

    @server.command(CHECK_CLAIMS)
    @server.guarded("check claims", default={})
    async def claims_command(*args: Any) -> dict[str, Any]:
        uri = args[0] if args and isinstance(args[0], str) else None
        async with ProgressTask(server, "relatex: checking claims") as task:
            return await recheck(server, uri, task, claims=True)
