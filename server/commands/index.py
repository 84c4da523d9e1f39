"""`relatex index SOURCE...`: add papers to the knowledge base, incrementally and resumably.

Progress (records/s, ETA) goes to stderr. Ctrl-C finishes the current batch, keeps everything
committed and exits 130; running the same command again resumes where it stopped.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from collections import deque
from pathlib import Path
from types import FrameType

from relatex.retrieval.indexing import IndexProgress, IndexSummary
from relatex.workflows.engines import Engines
from relatex.workflows.failures import BAD_REQUEST, UseCaseFailed
from relatex.workflows.index_sources import IndexPlan, IndexRequest, IndexResult, index_sources, plan_index


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sources", nargs="*", metavar="SOURCE",
                        help=".bib/.bib.gz file or directory, or arXiv / OpenAlex / Semantic Scholar JSON lines "
                        "(default: the current project's .bib files plus knowledgeBase.sources)")
    parser.add_argument("--name", help="source name used to detect removed records (default: from the path); "
                        "only with a single SOURCE")
    parser.add_argument("--kind", choices=("bibtex", "arxiv", "openalex", "s2"), help="source format (default: detect)")
    parser.add_argument("--types", help="BibTeX entry types to keep, comma-separated (e.g. article,inproceedings)")
    parser.add_argument("--batch-size", type=int, default=256, help="records per batch (default 256)")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N records of each SOURCE "
                        "(note: a limited run removes nothing)")
    parser.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="summary format (stdout)")


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60:02d}:{rest % 60:02d}"


class ProgressLine:
    """A one-line progress display on stderr (records/s, ETA when the total is known).

    The rate is measured over the last ``window`` seconds, so a resumed run, which first skips
    the records it already indexed at thousands per second, soon shows the real pace and ETA.
    """

    def __init__(self, enabled: bool, window: float = 30.0) -> None:
        self.enabled = enabled
        self.window = window
        self._last = 0.0
        self._samples: deque[tuple[float, int]] = deque()

    def rate(self, elapsed: float, processed: int) -> float:
        """Records per second over the recent window (or since the start when shorter)."""
        samples = self._samples
        samples.append((elapsed, processed))
        while len(samples) > 2 and elapsed - samples[1][0] >= self.window:
            samples.popleft()
        if len(samples) < 2:
            return processed / elapsed if elapsed > 0 else 0.0
        (t0, n0), (t1, n1) = samples[0], samples[-1]
        return (n1 - n0) / (t1 - t0) if t1 > t0 else 0.0

    def __call__(self, p: IndexProgress) -> None:
        rate = self.rate(p.elapsed, p.processed)
        now = time.monotonic()
        if not self.enabled or now - self._last < 0.5:
            return
        self._last = now
        eta = (p.total - min(p.processed, p.total)) / rate if p.total and rate > 0 else None
        if p.total:
            share = f"{p.processed:,}/{p.total:,} ({100 * min(p.processed, p.total) / p.total:4.1f}%)"
        else:
            share = f"{p.processed:,}"
        end = "\r" if sys.stderr.isatty() else "\n"
        print(f"[{p.source}] {share}  {rate:7.1f} records/s  embedded {p.embedded:,}  "
              f"elapsed {_duration(p.elapsed)}  ETA {_duration(eta)}", end=end, file=sys.stderr, flush=True)

    def done(self) -> None:
        if self.enabled and sys.stderr.isatty():
            print(file=sys.stderr)


def summary_text(summary: IndexSummary) -> str:
    lines = [
        f"{summary.source}: read {summary.read:,}, added {summary.added:,}, updated {summary.updated:,}, "
        f"merged {summary.merged:,}, unchanged {summary.unchanged:,}, removed {summary.removed:,}, "
        f"skipped {sum(summary.skipped.values()):,}; embedded {summary.embedded:,} in {summary.seconds:.1f} s"
    ]
    for reason, count in summary.skipped.most_common():
        lines.append(f"  skipped {count:,}: {reason}")
    return "\n".join(lines)


def request_from(args: argparse.Namespace) -> IndexRequest:
    """The SOURCE arguments, or the current folder's project when none are given."""
    return IndexRequest(
        sources=tuple(Path(raw) for raw in args.sources), project_folder=Path.cwd(), source_name=args.name,
        kind=args.kind, entry_types=tuple((args.types or "").split(",")) if args.types else (), limit=args.limit,
    )


def _plan(args: argparse.Namespace, engines: Engines) -> IndexPlan:
    try:
        plan = plan_index(request_from(args), engines.settings)
    except UseCaseFailed as exc:
        if not args.sources:  # nothing found in the current folder
            raise UseCaseFailed(f"{exc}; give the files to index: relatex index FILE.bib ...", exc.kind) from exc
        raise
    if plan.from_project:
        print("relatex index: the project's bibliographies: " + ", ".join(str(p) for p in plan.paths),
              file=sys.stderr)
    return plan


def _index(args: argparse.Namespace, engines: Engines, plan: IndexPlan, cancel: threading.Event) -> IndexResult:
    lines = [ProgressLine(not args.no_progress)]  # one per source: its own rate and ETA

    def finished(summary: IndexSummary) -> None:
        lines[-1].done()
        lines.append(ProgressLine(not args.no_progress))
        if args.format == "text":
            print(summary_text(summary), flush=True)

    return index_sources(plan, engines, cancel, batch_size=args.batch_size,
                         on_batch=lambda batch: lines[-1](batch), on_summary=finished)


def run(args: argparse.Namespace, engines: Engines) -> int:
    try:
        plan = _plan(args, engines)
    except UseCaseFailed as exc:
        print(f"relatex index: {exc}", file=sys.stderr)
        return 2
    cancel = threading.Event()

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        if cancel.is_set():
            raise KeyboardInterrupt
        cancel.set()
        print("\nrelatex index: stopping after the current batch (Ctrl-C again to abort it)...",
              file=sys.stderr, flush=True)

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        result = _index(args, engines, plan, cancel)
    except UseCaseFailed as exc:
        print(f"relatex index: {exc}", file=sys.stderr)
        return 2 if exc.kind == BAD_REQUEST else 1
    except KeyboardInterrupt:
        print("relatex index: aborted; committed batches are kept, run the same command again to resume",
              file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGINT, previous)
    if args.format == "json":
        print(json.dumps({"sources": [s.as_dict() for s in result.summaries], "records": result.records}, indent=2))
    else:
        print(f"knowledge base {engines.settings.knowledge_base.resolved_data_dir()}: {result.records:,} records")
    if not result.completed:
        print("relatex index: interrupted; everything indexed so far is kept, run the same command again "
              "to resume", file=sys.stderr)
        return 130
    return 0
