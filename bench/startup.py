"""Start-up of the language server on the bundled example, as an editor sees it.

``python bench/startup.py [--runs 5] [--kb DIR]``

Builds a knowledge base from ``examples/demo`` (its 41-paper library, with the default offline
embedding model, as ``relatex index`` does) unless ``--kb`` names one, then starts ``relatex
serve`` ``--runs`` times and measures, from the moment the process is spawned:

- ``initialize``: the answer to ``initialize``;
- ``first_diagnostics``: the first diagnostics of ``main.tex`` after ``didOpen``;
- ``claim_diagnostics``: the first diagnostics that include a claim-support finding;
- ``knowledge_base_loaded``: the end of the "loading the knowledge base" progress.

Also records the request-to-answer time of ``initialize`` alone, the CPU time the server process
had used at each milestone (``*_cpu``: on a busy machine the wall times wait for the CPU, the CPU
times do not), and the load average. Prints a table and writes ``bench/results/startup.json``. Goals (2 idle cores): initialize < 0.5 s, first
diagnostics < 1 s, claim diagnostics < 5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities, make_test_lsp_client

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "demo"
RESULTS = REPO / "bench" / "results" / "startup.json"
CLAIM_CODES = {"claim-not-supported", "claim-partially-supported", "claim-contradicted"}
GOALS_MS = {"initialize": 500, "first_diagnostics": 1000, "claim_diagnostics": 5000}
LOADING_TITLE = "loading the knowledge base"


def build_kb(data_dir: Path) -> float:
    """``relatex index`` of the example's library with the default model; seconds taken."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "relatex.server.cli", "index", str(EXAMPLE / "library.bib"),
                    "--data-dir", str(data_dir), "--no-progress"], check=True, capture_output=True, timeout=900)
    return time.perf_counter() - start


async def wait_for(predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.perf_counter() + timeout
    while not predicate():
        if time.perf_counter() > deadline:
            return False
        await asyncio.sleep(0.005)
    return True


def cpu_ms(client: LanguageClient) -> float | None:
    """CPU time (user + system) the server process has used so far, from /proc (Linux)."""
    process = getattr(client, "_server", None)
    try:
        fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()  # type: ignore[union-attr]
    except (OSError, AttributeError, IndexError):
        return None
    return round((int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK"), 1)


def loading_ended(client: LanguageClient) -> bool:
    for values in client.progress_reports.values():
        if values and isinstance(values[0], types.WorkDoneProgressBegin) and LOADING_TITLE in values[0].title:
            return isinstance(values[-1], types.WorkDoneProgressEnd)
    return False


async def one_start(project: Path, data_dir: Path, cache_dir: Path) -> dict[str, float | None]:
    """Spawn the server once and time each milestone from the spawn (milliseconds)."""
    client = make_test_lsp_client()
    client.set_configuration({"relatex": {}})
    main = project / "main.tex"
    uri = main.resolve().as_uri()
    options = {"knowledgeBase": {"dataDir": str(data_dir)}, "online": {"cacheDir": str(cache_dir)}}
    spawn = time.perf_counter()
    await client.start_io(sys.executable, "-m", "relatex.server.cli", "serve")
    sent = time.perf_counter()
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=project.as_uri(),
        initialization_options=options))
    answered = time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="latex", version=1, text=main.read_text(encoding="utf-8"))))

    def elapsed() -> float:
        return round((time.perf_counter() - spawn) * 1000.0, 1)

    marks: dict[str, float | None] = {"initialize": round((answered - spawn) * 1000.0, 1),
                                      "initialize_request": round((answered - sent) * 1000.0, 1),
                                      "initialize_cpu": cpu_ms(client)}
    if await wait_for(lambda: uri in client.diagnostics, 60):
        marks.update({"first_diagnostics": elapsed(), "first_diagnostics_cpu": cpu_ms(client)})
    else:
        marks.update({"first_diagnostics": None, "first_diagnostics_cpu": None})
    pending = {"claim_diagnostics": lambda: any(str(d.code) in CLAIM_CODES for d in client.diagnostics.get(uri, [])),
               "knowledge_base_loaded": lambda: loading_ended(client)}
    while pending:
        for name, predicate in list(pending.items()):
            if predicate():
                marks[name] = elapsed()
                marks[f"{name}_cpu"] = cpu_ms(client)
                del pending[name]
        if pending and time.perf_counter() - spawn > 120:
            marks.update({key: None for name in pending for key in (name, f"{name}_cpu")})
            break
        await asyncio.sleep(0.005)
    try:
        await asyncio.wait_for(client.shutdown_session(), 30)
    finally:
        await asyncio.wait_for(client.stop(), 30)
    return marks


def summarise(runs: list[dict[str, float | None]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in runs[0]:
        values = [r[name] for r in runs if r.get(name) is not None]
        out[name] = {"median_ms": round(statistics.median(values), 1) if values else None,
                     "min_ms": min(values) if values else None, "max_ms": max(values) if values else None,
                     "missing": len(runs) - len(values)}
    return out


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="relatex-startup-") as tmp:
        base = Path(tmp)
        project = base / "project"
        shutil.copytree(EXAMPLE, project)
        data_dir = Path(args.kb) if args.kb else base / "data"
        build_s = None if args.kb else build_kb(data_dir)
        load_before = os.getloadavg()
        runs = [await one_start(project, data_dir, base / "cache") for _ in range(args.runs)]
    return {"runs": runs, "summary": summarise(runs), "goals_ms": GOALS_MS,
            "knowledge_base": {"records": 41, "build_seconds": round(build_s, 1) if build_s else None},
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
            "cpus": os.cpu_count(), "python": platform.python_version()}


def table(results: dict[str, Any]) -> str:
    rows = ["| milestone (from spawning the server; *_cpu: server CPU time) | median ms | min | max | goal |", "|---|---:|---:|---:|---|"]
    for name, data in results["summary"].items():
        goal = GOALS_MS.get(name)
        rows.append(f"| {name} | {data['median_ms']} | {data['min_ms']} | {data['max_ms']} | "
                    f"{'< ' + str(goal) + ' (wall)' if goal else '-'} |")
    rows.append(f"\nload average before / after: {results['load_average_before']} / {results['load_average_after']}"
                f" on {results['cpus']} CPUs")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="server starts measured")
    parser.add_argument("--kb", help="an existing data folder to use instead of building the example's")
    args = parser.parse_args()
    results = asyncio.run(main_async(args))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(table(results))
    print(f"\nwritten to {RESULTS.relative_to(REPO)}")


if __name__ == "__main__":
    main()
