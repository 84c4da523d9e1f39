"""Language-server latency on a thesis-size project with the 113k-entry ACM DL bibliography.

``python bench/lsp_latency.py [--quick] [--skip-peer]``

Generates the project (20 chapters, 500 citations, ``acm-dl.bib.gz`` decompressed) into a
temporary directory, then measures, on distinct citations drawn from five chapters and only
after the warm server really answers (each reply must be a card, items or a location; empty
replies are counted, not timed), with the load average recorded, relatex's hover, completion and
definition latencies (p50/p95) twice, on two disjoint sets of citations: just after the chapters
are opened (their claims are being checked in the background) and once the server is idle (the
like-for-like comparison with the peer, on the same citations); then diagnostics-after-edit
latencies, its start time (cold and with a warm parse cache),
and hover latency while a related-work generation runs; ``citation-langserver`` (installed into
``.venv-peers`` by this script) is measured on the same citations, in turns with relatex.
Prints a table and writes ``bench/results/lsp_latency.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.lsp_client import (  # noqa: E402
    answered,
    position,
    server_cpu_seconds,
    start_client,
    stop_client,
    summary,
    timed,
    wait_until_busy,
    wait_until_settled,
)
from bench.make_thesis import make_thesis  # noqa: E402

ACM_BIB = REPO.parent / "shared" / "data" / "acm-cr" / "acm-dl.bib.gz"
PEERS = REPO / ".venv-peers"
RESULTS = REPO / "bench" / "results" / "lsp_latency.json"
CITE = re.compile(r"\\cite\{([^}]+)\}")


def ensure_peer() -> Path | None:
    """citation-langserver in its own venv (it pins an old pygls/pydantic)."""
    exe = PEERS / "bin" / "citation-langserver"
    if exe.exists():
        return exe
    try:
        subprocess.run([sys.executable, "-m", "venv", str(PEERS)], check=True)
        subprocess.run([str(PEERS / "bin" / "pip"), "install", "-q", "citation-langserver"], check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"citation-langserver unavailable: {exc}", file=sys.stderr)
        return None
    return exe if exe.exists() else None


Spot = tuple[str, str, int, int]  # (document uri, its text, offset inside a key, offset right after '{')


async def measure_requests(client: LanguageClient, spots: list[Spot], features: tuple[str, ...],
                           counts_out: dict[str, int] | None = None) -> dict[str, list[float]]:
    """Latencies per feature, of real answers only; ``counts_out`` counts them (the rest are not timed)."""
    result: dict[str, list[float]] = {f: [] for f in features}
    counts = counts_out if counts_out is not None else {}
    for uri, text, inside, after_brace in spots:
        doc = types.TextDocumentIdentifier(uri=uri)
        for feature in features:
            t0 = time.perf_counter()
            if feature == "hover":
                pending: Awaitable[Any] = client.text_document_hover_async(
                    types.HoverParams(text_document=doc, position=position(text, inside)))
            elif feature == "completion":
                pending = client.text_document_completion_async(
                    types.CompletionParams(text_document=doc, position=position(text, after_brace)))
            else:
                pending = client.text_document_definition_async(
                    types.DefinitionParams(text_document=doc, position=position(text, inside)))
            ms, answer = await timed(pending, t0)
            counts.setdefault(feature, 0)
            if answered(answer):
                counts[feature] += 1
                result[feature].append(ms)
    return result


async def wait_for_answers(client: LanguageClient, spot: Spot, timeout: float) -> float:
    """Milliseconds until hover and completion at ``spot`` both give a real answer (caches warm)."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        answers: dict[str, int] = {}
        await measure_requests(client, [spot], ("hover", "completion"), answers)
        if all(answers.get(f) for f in ("hover", "completion")):
            return (time.perf_counter() - start) * 1000.0
        await asyncio.sleep(0.1)
    raise TimeoutError("the server gave no real hover and completion answer in time")


def distinct_spots(chapters: list[Path], limit: int, rng: random.Random) -> list[Spot]:
    """Up to ``limit`` citations with distinct keys, drawn from several chapters."""
    spots: list[Spot] = []
    seen: set[str] = set()
    for chapter in chapters:
        text = chapter.read_text(encoding="utf-8")
        for match in CITE.finditer(text):
            key = match.group(1).split(",")[0].strip()
            if key in seen:
                continue
            seen.add(key)
            spots.append((chapter.resolve().as_uri(), text, match.start(1) + min(3, len(key) - 1), match.start(1)))
    rng.shuffle(spots)
    return spots[:limit]


def open_documents(client: LanguageClient, spots: list[Spot], already_open: frozenset[str] = frozenset()) -> None:
    for uri in dict.fromkeys(uri for uri, *_ in spots if uri not in already_open):
        text = next(t for u, t, *_ in spots if u == uri)
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri, language_id="latex", version=1, text=text)))


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


async def wait_until(predicate: Callable[[], Any], timeout: float) -> float:
    start = time.perf_counter()
    while not predicate():
        if time.perf_counter() - start > timeout:
            raise TimeoutError("condition not met")
        await asyncio.sleep(0.005)
    return (time.perf_counter() - start) * 1000.0


async def bench_relatex(root: Path, chapter: Path, kb_dir: Path, cache_dir: Path, spots: list[Spot],
                        edits: int, peer: LanguageClient | None = None,
                        embedding_model: str = "hashing-256") -> dict[str, Any]:
    """relatex's figures; with ``peer`` (a started citation-langserver), the idle lookups are
    measured in turns with the peer's on the same citations, stored under ``"peer"``."""
    command = [sys.executable, "-m", "relatex.server.cli", "serve"]
    options = {"knowledgeBase": {"dataDir": str(kb_dir), "embeddingModel": embedding_model}, "debounceMs": 50,
               "online": {"cacheDir": str(cache_dir)}}
    caps = client_capabilities("visual-studio-code")
    out: dict[str, Any] = {}
    text = chapter.read_text(encoding="utf-8")
    uri = chapter.resolve().as_uri()
    bib_uri = (chapter.parent.parent / "references.bib").resolve().as_uri()
    for phase in ("cold", "warm"):
        client, init_ms = await start_client(command, caps, root, options, {"relatex": {}})
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri, language_id="latex", version=1, text=text)))
        first_ms = await wait_until(lambda client=client: uri in client.diagnostics, 600)
        out[f"start_{phase}"] = {"initialize_ms": round(init_ms, 1), "first_diagnostics_ms": round(first_ms + init_ms, 1)}
        if phase == "cold":
            # the draft's first diagnostics may come before the .bib is parsed: wait for the
            # full pass (it publishes the .bib's own diagnostics) and its on-disk caches
            bib_ms = await wait_until(lambda client=client: bib_uri in client.diagnostics, 600)
            out["start_cold"]["bibliography_diagnostics_ms"] = round(first_ms + bib_ms + init_ms, 1)
            await asyncio.sleep(8.0)  # the completion index is built and stored in the background
            await stop_client(client)
            continue
        open_documents(client, spots, frozenset({uri}))
        out["start_warm"]["first_real_answers_ms"] = round(await wait_for_answers(client, spots[0], 120), 1)
        busy, settled = split_spots(spots)
        # first while the opened chapters are checked in the background (they start once the
        # documents have been unchanged for a moment), then once the server is idle
        started_ms = await wait_until_busy(client)
        cpu_start, wall_start = server_cpu_seconds(client), time.perf_counter()
        out["just_opened"] = (await lookups({"relatex": client}, busy))["relatex"]
        out["just_opened"]["background_started_ms"] = None if started_ms is None else round(started_ms, 1)
        out["just_opened"]["server_cpu_share"] = round(
            (server_cpu_seconds(client) - cpu_start) / max(time.perf_counter() - wall_start, 1e-9), 2)
        out["settled_after_ms"] = round(await wait_until_settled(client), 1)
        out["load_average_before"] = load_average()
        idle = await lookups({"relatex": client, **({"peer": peer} if peer is not None else {})}, settled)
        out.update(idle.pop("relatex"))
        out.update(idle)  # the peer's, under "peer"
        out["load_average_after"] = load_average()
        # diagnostics after an edit (a new undefined key each time)
        latencies = []
        version = 1
        for number in range(edits):
            key = f"undefinedKey{number}"
            offset = text.index("\n\n", len(text) // 3)
            new_text = text[:offset] + f" \\cite{{{key}}}" + text[offset:]
            version += 1
            start = time.perf_counter()
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangePartial(
                    range=types.Range(start=position(text, offset), end=position(text, offset)),
                    text=f" \\cite{{{key}}}")]))
            await wait_until(lambda key=key, client=client: any(
                key in d.message for d in client.diagnostics.get(uri, [])), 120)
            latencies.append((time.perf_counter() - start) * 1000.0)
            text = new_text
        out["diagnostics_after_edit"] = summary(latencies)
        out["diagnostics_after_edit"]["debounce_ms"] = 50
        # hover while a related-work generation runs
        generation = asyncio.ensure_future(client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="relatex.generateRelatedWork", arguments=[uri])))
        during: list[float] = []
        started = time.perf_counter()
        index = 0
        while not generation.done() and time.perf_counter() - started < 120:
            spot = spots[index % len(spots)]
            index += 1
            during.extend((await measure_requests(client, [spot], ("hover",)))["hover"])
            await asyncio.sleep(0.01)
        generation_ms = (time.perf_counter() - started) * 1000.0
        outcome = await generation
        out["hover_during_generation"] = summary(during)
        out["hover_during_generation"]["generation_ms"] = round(generation_ms, 1)
        out["hover_during_generation"]["generation_outcome"] = {k: v for k, v in outcome.items() if k != "cited_keys"}
        await stop_client(client)
    return out


def split_spots(spots: list[Spot]) -> tuple[list[Spot], list[Spot]]:
    """Two disjoint sets of citations: one measured while the server is busy, one once it is idle."""
    half = len(spots) // 2
    return spots[:half], spots[half:]


LOOKUPS = ("hover", "completion", "definition")


async def lookups(clients: dict[str, LanguageClient], spots: list[Spot]) -> dict[str, dict[str, Any]]:
    """Hover, completion and definition at each spot, per server: p50/p95 of the real answers and
    their count. Several servers are asked spot by spot in turns (the first one alternating), so
    that each meets the same moments of the machine's load."""
    latencies: dict[str, dict[str, list[float]]] = {name: {f: [] for f in LOOKUPS} for name in clients}
    answered: dict[str, dict[str, int]] = {name: {} for name in clients}
    names = list(clients)
    for number, spot in enumerate(spots):
        for name in names[number % len(names):] + names[:number % len(names)]:
            for feature, values in (await measure_requests(clients[name], [spot], LOOKUPS, answered[name])).items():
                latencies[name][feature].extend(values)
    out: dict[str, dict[str, Any]] = {}
    for name in clients:
        out[name] = {k: summary(v) for k, v in latencies[name].items()}
        for feature, count in answered[name].items():
            out[name][feature].update(answered=count, asked=len(spots))
    return out


async def start_peer(exe: Path, root: Path, bib: Path, spots: list[Spot]) -> tuple[LanguageClient | None,
                                                                                  dict[str, Any]]:
    """citation-langserver started on the project, its bibliography loaded (or an error)."""
    caps = types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(configuration=True))
    client, init_ms = await start_client([str(exe)], caps, root, None,
                                         {"citation": {"bibliographies": [str(bib)]}})
    open_documents(client, spots)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"citation": {"bibliographies": [str(bib)]}}))
    loaded = time.perf_counter()
    while True:
        probe: dict[str, int] = {}
        await measure_requests(client, spots[:1], ("hover",), probe)
        if probe["hover"]:
            break
        if time.perf_counter() - loaded > 60:
            await stop_client(client)
            return None, {"error": "the bibliography did not load within 60 s (its parser rejects the file; see stderr)"}
        await asyncio.sleep(0.5)
    return client, {"start": {"initialize_ms": round(init_ms, 1),
                              "bibliography_loaded_ms": round((time.perf_counter() - loaded) * 1000.0, 1)}}


def build_kb(kb_dir: Path, embedding_model: str) -> None:
    from relatex.config.settings import KnowledgeBaseSettings, Settings
    from relatex.retrieval.knowledge_base import KnowledgeBase
    from relatex.retrieval.sources import open_source
    from relatex.workflows.knowledge_bases import make_embedder

    embedder = make_embedder(Settings(knowledge_base=KnowledgeBaseSettings(embedding_model=embedding_model)))
    with KnowledgeBase.open(kb_dir / "default", embedder=embedder) as kb:
        kb.index(open_source(REPO / "examples" / "demo" / "library.bib"))


async def run_case(base: Path, name: str, bib: Path | None, args: argparse.Namespace) -> dict[str, Any]:
    """One project (ACM DL bibliography or a synthetic one): relatex, and the peer started beside it
    (idle until its lookups, measured in turns with relatex's once relatex is idle)."""
    rng = random.Random(0)
    started = time.perf_counter()
    root = make_thesis(base / name, bib, chapters=20, citations=500)
    print(f"{name}: project generated in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    chapter = root.parent / "chapters" / "ch05.tex"
    chapters = [chapter] + [root.parent / "chapters" / f"ch{n:02d}.tex" for n in (6, 7, 8, 9)]
    spots = distinct_spots([c for c in chapters if c.exists()], 2 * args.samples, rng)
    results: dict[str, Any] = {
        "project": {"chapters": 20, "citations": 500, "bib": bib.name if bib else "synthetic",
                    "bib_bytes": (root.parent / "references.bib").stat().st_size},
    }
    exe = None if args.skip_peer else ensure_peer()
    peer: LanguageClient | None = None
    if exe is not None:
        try:
            peer, results["citation-langserver"] = await start_peer(exe, root.parent, root.parent / "references.bib",
                                                                    spots)
        except Exception as exc:
            results["citation-langserver"] = {"error": str(exc)}
    try:
        results["relatex"] = await bench_relatex(root.parent, chapter, base / "kb", base / f"cache-{name}", spots,
                                                 args.edits, peer, args.embedding_model)
    finally:
        if peer is not None:
            await stop_client(peer)
    results.get("citation-langserver", {}).update(results["relatex"].pop("peer", {}))
    print(f"{name}: done", file=sys.stderr)
    return results


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="relatex-lsp-bench-") as tmp:
        base = Path(tmp)
        build_kb(base / "kb", args.embedding_model)
        results: dict[str, Any] = {"machine": {"cpus": os.cpu_count()}, "embedding_model": args.embedding_model}
        results["machine"]["load_average_at_start"] = load_average()
        if ACM_BIB.exists() and "acm" in args.cases:
            results["acm_dl"] = await run_case(base, "acm", ACM_BIB, args)
            write(results, args.out)
        if "synthetic" in args.cases:
            results["synthetic"] = await run_case(base, "synthetic", None, args)
        results["machine"]["load_average_at_end"] = load_average()
        return results


def write(results: dict[str, Any], out: Path = RESULTS) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


def table(results: dict[str, Any]) -> str:
    rows = ["| bibliography | server | feature | asked (real answers, the only ones timed) | p50 ms | p95 ms | target |",
            "|---|---|---|---:|---:|---:|---|"]
    targets = {"hover": "p95 < 20", "completion": "< 50", "definition": "-",
               "diagnostics_after_edit": "p95 <= 150", "hover_during_generation": "< 50"}
    for case in ("acm_dl", "synthetic"):
        if case not in results:
            continue
        data_case = results[case]
        label = f"{data_case['project']['bib']} ({data_case['project']['bib_bytes'] / 1e6:.1f} MB)"
        for server in ("relatex", "citation-langserver"):
            data = data_case.get(server, {})
            if "error" in data:
                rows.append(f"| {label} | {server} | - | - | - | - | {data['error']} |")
                continue
            peer_hover = data_case.get("citation-langserver", {}).get("hover", {}).get("p95_ms")
            features = [(f, data.get(f), f"p95 <= {2 * peer_hover:.2f} (2x the peer's hover p95)"
                         if f == "completion" and server == "relatex" and peer_hover else t)
                        for f, t in targets.items()]
            share = data.get("just_opened", {}).get("server_cpu_share")
            busy = "background checks running" + (f", server CPU {share:.0%} of a core" if share is not None else "")
            features += [(f"{f} (just opened: {busy})", data.get("just_opened", {}).get(f), t)
                         for f, t in targets.items()]
            for feature, s, target in features:
                if s and "p50_ms" in s:
                    if s.get("asked") and not s.get("answered"):
                        rows.append(f"| {label} | {server} | {feature} | {s['asked']} (0) | no real answer | - | - |")
                        continue
                    n = f"{s['asked']} ({s['answered']})" if "asked" in s else str(s["n"])
                    rows.append(f"| {label} | {server} | {feature} | {n} | {s['p50_ms']} | {s['p95_ms']} | {target} |")
            for phase in ("start_cold", "start_warm"):
                if phase in data:
                    rows.append(f"| {label} | {server} | {phase}: initialize / first diagnostics | 1 | "
                                f"{data[phase]['initialize_ms']} | {data[phase]['first_diagnostics_ms']} | warm < 2000 |")
            if "bibliography_diagnostics_ms" in data.get("start_cold", {}):
                rows.append(f"| {label} | {server} | start_cold: the .bib's own diagnostics (parsed) | 1 | - | "
                            f"{data['start_cold']['bibliography_diagnostics_ms']} | - |")
            if "start" in data:
                rows.append(f"| {label} | {server} | start: initialize / bibliography loaded | 1 | "
                            f"{data['start']['initialize_ms']} | {data['start']['bibliography_loaded_ms']} | - |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=60, help="distinct citations measured per feature and state (busy, idle)")
    parser.add_argument("--edits", type=int, default=15, help="edits for diagnostics-after-edit")
    parser.add_argument("--skip-peer", action="store_true", help="do not run citation-langserver")
    parser.add_argument("--embedding-model", default="hashing-256",
                        help="the knowledge base's embedder: hashing-256 (quick, claims judged by the feature "
                             "scorer) or relatex/all-MiniLM-L6-v2-int8 (the default one: claims judged by the "
                             "citation model)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the JSON goes")
    parser.add_argument("--cases", default="acm,synthetic",
                        help="comma-separated: acm (the 113k-entry ACM DL .bib), synthetic (a small .bib)")
    args = parser.parse_args()
    args.cases = set(args.cases.split(","))
    results = asyncio.run(main_async(args))
    write(results, args.out)
    print(table(results))
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
