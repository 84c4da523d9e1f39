"""Open-world bibliography verification: real papers the local knowledge base lacks are no suspects.

The closed-world benchmark (``bib_verification.py``) verifies entries against an authority built
from the very files they were sampled from, so every clean entry has an exact match and every
fabricated one is absent by construction. Real use is open-world: most of an author's entries are
not in the local knowledge base. This benchmark builds the local authority WITHOUT the probe
entries and measures, per scenario:

- ``absent real`` entries (sampled from both corpora, their records removed from the local base,
  each as written and restyled): the false-alarm rate, i.e. the share given a *warning*. Goal < 2%.
- ``fabricated`` entries (plausible titles and authors nobody published): recall as a warning.
  Goal >= 0.9 when online registries are asked.
- corruptions of entries the local base does hold (wrong year, dropped author, ...): recall.

Scenarios: ``offline`` asks the local knowledge base alone (not exhaustive); ``online`` also asks
a registry. The registry here is an in-memory index over the full corpora, marked exhaustive: it
stands in for Crossref/OpenAlex/DBLP, whose HTTP clients are tested separately against recorded
local servers; its coverage of these two corpora is complete by construction, which real
registries only approach.

    python bench/bib_verification_open.py [--per-corpus 300] [--seed 13]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bib_cases import CORPORA, DATA, REPO, Case, build_cases, log, sample_entries  # type: ignore[import-not-found]
from bib_verification import MemoryIndexAuthority, corpus_records  # type: ignore[import-not-found]

from relatex.analysis.bib.bib_matching import title_key
from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.analysis.findings import Severity
from relatex.analysis.verification.bib_verification import (
    Authority,
    BibVerdict,
    verdict_findings,
    verify_entry,
)
from relatex.retrieval.records import PaperRecord


class NamedAuthority(MemoryIndexAuthority):  # type: ignore[misc]
    """The memory index under a name, local (not exhaustive) or a registry (exhaustive)."""

    def __init__(self, records: Iterable[PaperRecord], name: str, exhaustive: bool) -> None:
        self.name = name
        self.exhaustive = exhaustive
        super().__init__(iter(records))


def split_probes(samples: dict[str, list[BibEntry]]) -> tuple[dict[str, list[BibEntry]], list[BibEntry]]:
    """Half of each corpus's sample stays in the local base (corruption probes), half is removed."""
    present: dict[str, list[BibEntry]] = {}
    absent: list[BibEntry] = []
    for corpus, entries in samples.items():
        half = len(entries) // 2
        present[corpus] = entries[:half]
        absent.extend(entries[half:])
    return present, absent


def build_authorities(absent: list[BibEntry]) -> tuple[NamedAuthority, NamedAuthority, dict[str, Any]]:
    removed_dois = {e.doi.lower() for e in absent if e.doi}
    removed_titles = {title_key(e.title_plain) for e in absent}
    everything = list(corpus_records())
    local = [r for r in everything
             if not ((r.doi and r.doi.lower() in removed_dois) or title_key(r.title) in removed_titles)]
    info = {"registry_records": len(everything), "local_records": len(local),
            "removed_from_local": len(everything) - len(local)}
    return (NamedAuthority(local, "knowledge base", exhaustive=False),
            NamedAuthority(everything, "registry", exhaustive=True), info)


def absent_cases(absent: list[BibEntry], seed: int) -> list[Case]:
    """The removed entries as written and restyled (the same shapes as the closed-world bench)."""
    from bib_cases import _fields, restyle  # type: ignore[import-not-found]

    from relatex.analysis.bib.bib_edits import format_entry

    rng = random.Random(seed + 7)
    cases: list[Case] = []
    for index, entry in enumerate(absent):
        original = _fields(entry)
        key = f"absent{index:04d}"
        cases.append(Case(key, "absent", "absent_real", format_entry(entry.entry_type, key, original), original))
        cases.append(Case(f"{key}r", "absent", "absent_real_restyled",
                          format_entry(entry.entry_type, f"{key}r", restyle(entry, rng)), original))
    return cases


def is_warning(verdict: BibVerdict, entry: BibEntry) -> bool:
    return any(f.severity in (Severity.WARNING, Severity.ERROR) for f in verdict_findings(verdict, entry))


def evaluate(cases: list[Case], parsed: dict[str, BibEntry], authorities: list[Authority]) -> dict[str, Any]:
    rows: dict[str, dict[str, Any]] = {}
    started = time.perf_counter()
    for case in cases:
        verdict = verify_entry(parsed[case.key], authorities)
        row = rows.setdefault(case.kind, {"n": 0, "warnings": 0, "statuses": Counter()})
        row["n"] += 1
        row["warnings"] += is_warning(verdict, parsed[case.key])
        row["statuses"][verdict.status] += 1
    seconds = time.perf_counter() - started
    for row in rows.values():
        row["warning_rate"] = row["warnings"] / row["n"]
        row["statuses"] = dict(row["statuses"])
    return {"rows": rows, "ms_per_entry": 1000 * seconds / max(1, len(cases))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-corpus", type=int, default=300)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "bib_verification_open.json")
    args = parser.parse_args()
    if not all(p.exists() for p in CORPORA.values()):
        log(f"shared data not found under {DATA}")
        return 2
    samples, pools = sample_entries(args.seed, args.per_corpus)
    present, absent = split_probes(samples)
    cases = [c for c in build_cases(present, pools, args.seed) if not c.kind.startswith("clean")]
    cases += absent_cases(absent, args.seed)
    log(f"{len(cases)} cases: {dict(Counter(c.kind for c in cases))}")
    started = time.perf_counter()
    local, registry, info = build_authorities(absent)
    info["build_seconds"] = round(time.perf_counter() - started, 1)
    log(f"authorities ready: {info}")
    parsed = parse_bib_text("\n\n".join(c.text for c in cases), Path("bench.bib")).by_key()
    scenarios = {"offline": evaluate(cases, parsed, [local]), "online": evaluate(cases, parsed, [local, registry])}

    kinds = sorted({c.kind for c in cases}, key=lambda k: (not k.startswith("absent"), k))
    print(f"{'kind':<22} {'n':>4} {'offline warn':>13} {'online warn':>12}")
    for kind in kinds:
        off, on = scenarios["offline"]["rows"][kind], scenarios["online"]["rows"][kind]
        print(f"{kind:<22} {off['n']:>4} {off['warning_rate']:>13.3f} {on['warning_rate']:>12.3f}")
    print("absent_real rows: warning rate = false alarms on real papers the local base lacks (goal < 0.02); "
          "fabricated: recall (goal >= 0.9 online)")
    result = {
        "benchmark": "bib_verification_open",
        "machine": {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count()},
        "settings": {"per_corpus": args.per_corpus, "seed": args.seed, "authorities": info,
                     "registry": "in-memory index over both full corpora, marked exhaustive (stands in for "
                                 "the online registries)"},
        "scenarios": scenarios,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
