"""BibTeX loading benchmark: full load, streaming, warm reloads, and bibtexparser alone.

Usage: python bench/bib_load.py [--files F.bib.gz ...] [--baseline-entries N]
Defaults to the two large real files of ../shared/data. Each measurement runs in a fresh
subprocess so that peak memory (ru_maxrss) belongs to that measurement alone.
Wall time depends on the machine's load; CPU time (process time) is reported next to it.
Prints a table and writes bench/results/bib_load.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
DEFAULT_FILES = [DATA / "acm-cr" / "acm-dl.bib.gz", DATA / "acl-anthology" / "anthology+abstracts.bib.gz"]
RESULTS = ROOT / "bench" / "results" / "bib_load.json"


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def measure(mode: str, path: Path, cache_dir: str | None, limit: int) -> dict[str, Any]:
    """One measurement, run inside a child process."""
    from relatex.analysis.bib import bibtex
    result: dict[str, Any] = {"mode": mode, "file": path.name}
    cpu_start = time.process_time()
    if mode == "stream":
        start = time.perf_counter()
        entries = findings = 0
        for item in bibtex.iter_bib_blocks(path):
            if hasattr(item, "key"):
                entries += 1
            else:
                findings += 1
        result.update(seconds=time.perf_counter() - start, entries=entries, findings=findings,
                      cpu_seconds=time.process_time() - cpu_start)
    elif mode == "full":
        start = time.perf_counter()
        text = bibtex.read_bib_text(path)
        read_s = time.perf_counter() - start
        bib = bibtex.load_bib_file(path, text)
        total = time.perf_counter() - start
        result["cpu_seconds"] = time.process_time() - cpu_start
        result["peak_rss_mib_after_load"] = _peak_mib()
        # warm, as the server sees it: the same content again, as a new but equal string
        fresh = bibtex.read_bib_text(path)
        t0 = time.perf_counter()
        again = bibtex.load_bib_file(path, fresh)
        warm_text = time.perf_counter() - t0
        del fresh
        # warm from the path: unchanged file (mtime and size) after a load from the path
        bibtex.load_bib_file(path)
        t0 = time.perf_counter()
        from_path = bibtex.load_bib_file(path)
        warm_path = time.perf_counter() - t0
        result.update(seconds=total, read_seconds=read_s, entries=len(bib.entries), findings=len(bib.findings),
                      warm_seconds=warm_text, warm_from_path_seconds=warm_path,
                      warm_is_cached=again is bib and from_path is bib)
        if cache_dir:
            t0 = time.perf_counter()
            bibtex.clear_cache()
            bibtex.load_bib_file(path, text, cache_dir=Path(cache_dir))
            result["disk_cache_write_seconds"] = time.perf_counter() - t0
    elif mode == "disk-warm":
        text = bibtex.read_bib_text(path)
        t0, c0 = time.perf_counter(), time.process_time()
        bib = bibtex.load_bib_file(path, text, cache_dir=Path(cache_dir or "."))
        result.update(seconds=time.perf_counter() - t0, entries=len(bib.entries),
                      cpu_seconds=time.process_time() - c0)
    elif mode in ("subset-fast", "subset-bibtexparser"):
        text = _first_entries(path, limit)
        start, c0 = time.perf_counter(), time.process_time()
        if mode == "subset-fast":
            entries = len(bibtex.parse_bib_text(text, path).entries)
        else:
            import bibtexparser

            entries = len(bibtexparser.parse_string(text).entries)
        result.update(seconds=time.perf_counter() - start, entries=entries, chars=len(text),
                      cpu_seconds=time.process_time() - c0)
    result["peak_rss_mib"] = _peak_mib()
    if result.get("entries") and result.get("seconds"):
        result["entries_per_second"] = result["entries"] / result["seconds"]
    if result.get("entries") and result.get("cpu_seconds"):
        result["entries_per_cpu_second"] = result["entries"] / result["cpu_seconds"]
    return result


def _first_entries(path: Path, limit: int) -> str:
    """The text of the first ``limit`` entries of a file (cut before the next '@' line)."""
    from relatex.analysis.bib import bibtex
    lines: list[str] = []
    count = 0
    with bibtex._open_text(path) as handle:
        for line in handle:
            if line.startswith("@") and line[1:2].isalpha():
                count += 1
                if count > limit:
                    break
            lines.append(line)
    return "".join(lines)


def _child(mode: str, path: Path, cache_dir: str | None, limit: int) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", mode, "--file", str(path), "--limit", str(limit)]
    if cache_dir:
        command += ["--cache-dir", cache_dir]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"mode": mode, "file": path.name, "error": done.stderr.strip()[-500:]}
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", nargs="*", type=Path, default=DEFAULT_FILES)
    parser.add_argument("--baseline-entries", type=int, default=10000,
                        help="entries of each file parsed by both parsers for the comparison")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--file", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--limit", type=int, default=10000, help=argparse.SUPPRESS)
    parser.add_argument("--cache-dir", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.file, args.cache_dir, args.limit)))
        return 0

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="relatex-bib-bench-") as cache_dir:
        for path in args.files:
            if not path.exists():
                print(f"skipping {path}: not found", file=sys.stderr)
                continue
            for mode in ("stream", "full", "disk-warm", "subset-fast", "subset-bibtexparser"):
                print(f"{path.name}: {mode} ...", file=sys.stderr, flush=True)
                rows.append(_child(mode, path, cache_dir, args.baseline_entries))

    header = (f"{'file':<28} {'mode':<20} {'entries':>8} {'wall s':>7} {'CPU s':>6} {'entries/s':>10} "
              f"{'peak MiB':>9}  notes")
    print(header)
    print("-" * len(header))
    for row in rows:
        notes = ""
        if row.get("mode") == "full":
            notes = (f"peak after load {row['peak_rss_mib_after_load']:.0f} MiB; "
                     f"incl. read {row['read_seconds']:.2f}s; warm reload {row['warm_seconds'] * 1000:.0f} ms "
                     f"(same text), {row['warm_from_path_seconds'] * 1000:.1f} ms (unchanged file)")
        elif row.get("mode", "").startswith("subset"):
            notes = f"first {row.get('entries', 0)} entries"
        elif row.get("mode") == "disk-warm":
            notes = "new process, parsed file from the disk cache"
        if "error" in row:
            notes = "ERROR " + row["error"][-80:]
        print(f"{row.get('file', ''):<28} {row.get('mode', ''):<20} {row.get('entries', 0):>8} "
              f"{row.get('seconds', 0.0):>7.2f} {row.get('cpu_seconds', 0.0):>6.2f} "
              f"{row.get('entries_per_second', 0.0):>10.0f} "
              f"{row.get('peak_rss_mib', 0.0):>9.0f}  {notes}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({
        "benchmark": "bib_load",
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count()},
        "rows": rows,
    }, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
