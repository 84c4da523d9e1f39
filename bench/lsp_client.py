"""Helpers of bench/lsp_latency.py: latency statistics and a pytest-lsp client for any language server."""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pytest_lsp import LanguageClient, make_test_lsp_client


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def summary(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "p50_ms": round(percentile(values, 0.5), 2), "p95_ms": round(percentile(values, 0.95), 2),
            "mean_ms": round(statistics.fmean(values), 2) if values else float("nan")}


async def timed(pending: Awaitable[Any], start: float) -> tuple[float, Any]:
    result = await pending
    return (time.perf_counter() - start) * 1000.0, result


def position(text: str, offset: int) -> types.Position:
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return types.Position(line=line, character=len(text[start:offset].encode("utf-16-le")) // 2)


async def start_client(command: list[str], capabilities: types.ClientCapabilities, root: Path,
                       options: dict[str, Any] | None, configuration: dict[str, Any]) -> tuple[LanguageClient, float]:
    client = make_test_lsp_client()
    client.set_configuration(configuration)

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        return types.ApplyWorkspaceEditResult(applied=False, failure_reason="benchmark: not applied")

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        return None

    start = time.perf_counter()
    await client.start_io(*command)
    await client.initialize_session(types.InitializeParams(
        capabilities=capabilities, root_uri=root.as_uri(), initialization_options=options))
    return client, (time.perf_counter() - start) * 1000.0


def server_cpu_seconds(client: LanguageClient) -> float:
    """CPU time the server process has used so far (Linux /proc; 0 where unreadable)."""
    process = client._server
    if process is None:
        return 0.0
    try:
        fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


async def wait_until_settled(client: LanguageClient, quiet_s: float = 1.0, busy_share: float = 0.05,
                             timeout: float = 300.0) -> float:
    """Milliseconds until the server has used under ``busy_share`` of a core for ``quiet_s``
    (its background checks are done); raises TimeoutError after ``timeout`` seconds."""
    start = time.perf_counter()
    window_start, cpu_start = start, server_cpu_seconds(client)
    while time.perf_counter() - start < timeout:
        await asyncio.sleep(0.1)
        now = time.perf_counter()
        if now - window_start < quiet_s:
            continue
        cpu = server_cpu_seconds(client)
        if cpu - cpu_start <= busy_share * (now - window_start):
            return (now - start) * 1000.0
        window_start, cpu_start = now, cpu
    raise TimeoutError("the server did not settle")


async def wait_until_busy(client: LanguageClient, busy_share: float = 0.5, window_s: float = 0.2,
                          timeout: float = 10.0) -> float | None:
    """Milliseconds until the server uses at least ``busy_share`` of a core over ``window_s`` (its
    background checks have started); None when that does not happen within ``timeout`` seconds."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        window_start, cpu_start = time.perf_counter(), server_cpu_seconds(client)
        await asyncio.sleep(window_s)
        if server_cpu_seconds(client) - cpu_start >= busy_share * (time.perf_counter() - window_start):
            return (time.perf_counter() - start) * 1000.0
    return None


async def stop_client(client: LanguageClient) -> None:
    try:
        await asyncio.wait_for(client.shutdown_session(), 30)
    except Exception:
        if client._server is not None and client._server.returncode is None:
            client._server.kill()
    await asyncio.wait_for(client.stop(), 30)


def answered(result: Any) -> bool:
    """A real answer: a hover card, completion items, a location (not None or empty)."""
    if result is None:
        return False
    if isinstance(result, types.CompletionList):
        return bool(result.items)
    if isinstance(result, list):
        return bool(result)
    return True
