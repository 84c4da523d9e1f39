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
from typing import Any

from relatex.config.settings import Settings
from relatex.retrieval.index_lock import KnowledgeBaseBusy
from relatex.retrieval.knowledge_base import IndexProgress, IndexSummary
from relatex.retrieval.sources import open_source
from relatex.retrieval.sources.base import RecordSource
from relatex.workflows.engines import Engines
from relatex.workflows.kb_sources import build_sources
from relatex.workflows.knowledge_bases import open_knowledge_base


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


def _source_paths(args: argparse.Namespace, settings: Settings) -> list[str]:
    """The SOURCE arguments, or the current project's bibliographies when none are given."""
    if args.sources:
        return list(args.sources)
    found = [str(path) for path in build_sources(Path.cwd(), settings)]
    if not found:
        raise FileNotFoundError(f"no .bib files in {Path.cwd()} and no knowledgeBase.sources configured; "
                                "give the files to index: relatex index FILE.bib ...")
    print("relatex index: the project's bibliographies: " + ", ".join(found), file=sys.stderr)
    return found


def _sources(args: argparse.Namespace, settings: Settings) -> list[RecordSource]:
    paths = _source_paths(args, settings)
    if args.name and len(paths) > 1:
        raise ValueError("--name needs exactly one SOURCE")
    result = []
    for raw in paths:
        # a project's files are named by their path: another project's references.bib is another source
        name = args.name if args.sources else raw
        source = open_source(Path(raw).expanduser(), name=name, kind=args.kind)
        if args.types and hasattr(source, "entry_types"):
            source.entry_types = {t.strip().lower() for t in args.types.split(",") if t.strip()}
        result.append(source.limited(args.limit) if args.limit is not None else source)
    return result


def run(args: argparse.Namespace, engines: Engines) -> int:
    settings = engines.settings
    try:
        sources = _sources(args, settings)
    except (FileNotFoundError, ValueError) as exc:
        print(f"relatex index: {exc}", file=sys.stderr)
        return 2
    try:
        kb = open_knowledge_base(settings, read_only=False)
    except (KnowledgeBaseBusy, ValueError, RuntimeError) as exc:
        print(f"relatex index: {exc}", file=sys.stderr)
        return 1
    kb.batch_size = max(1, args.batch_size)
    cancel = threading.Event()

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        if cancel.is_set():
            raise KeyboardInterrupt
        cancel.set()
        print("\nrelatex index: stopping after the current batch (Ctrl-C again to abort it)...",
              file=sys.stderr, flush=True)

    previous = signal.signal(signal.SIGINT, on_sigint)
    summaries: list[dict[str, Any]] = []
    interrupted = False
    try:
        with kb:
            for source in sources:
                total = source.estimate_total()
                progress = ProgressLine(not args.no_progress)
                summary = kb.index(source, progress=progress, cancel=cancel, total=total)
                progress.done()
                summaries.append(summary.as_dict())
                if args.format == "text":
                    print(summary_text(summary), flush=True)
                if not summary.completed:
                    interrupted = True
                    break
            records = len(kb)
    except KeyboardInterrupt:
        print("relatex index: aborted; committed batches are kept, run the same command again to resume",
              file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGINT, previous)
    if args.format == "json":
        print(json.dumps({"sources": summaries, "records": records}, indent=2))
    else:
        print(f"knowledge base {settings.knowledge_base.resolved_data_dir()}: {records:,} records")
    if interrupted:
        print("relatex index: interrupted; everything indexed so far is kept, run the same command again "
              "to resume", file=sys.stderr)
        return 130
    return 0
