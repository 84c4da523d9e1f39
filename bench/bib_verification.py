"""How well does BibTeX verification catch corrupted entries, and how often does it cry wolf?

Takes real entries from the ACL Anthology and ACM DL corpora (../shared/data), corrupts a
labelled copy of each (wrong year, dropped author, swapped author order, altered title words,
a DOI of another paper, a fabricated but plausible entry, the arXiv version of a published
paper), verifies clean and corrupted entries against an authority built from the full
corpora's records, and reports per corruption type the detection rate (recall), the rate at
which the right verdict kind was given, the precision of each verdict kind, and the false-alarm
rate on the untouched entries. ``rebiber`` runs on the same entries as a peer (separate venv
``.venv-peers``, it pins an old bibtexparser).

    python bench/bib_verification.py [--per-corpus 300] [--authority kb|memory] [--no-rebiber]

The authority "kb" is a relatex KnowledgeBase over both corpora built with the model-free
HashingEmbedder (verification uses identifiers and titles, not vectors; BM25 over titles and
abstracts serves near-title lookups); "memory" is an in-memory index of the same records.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bib_cases import CORPORA, DATA, EXPECTED, KINDS, REPO, Case, build_cases, log, sample_entries

from relatex.analysis.bib.bib_edits import format_entry
from relatex.analysis.bib.bib_matching import title_key, title_similarity
from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.analysis.verification.bib_verification import AuthorityRecord, BibVerdict, verify_entry
from relatex.retrieval.authorities import KnowledgeBaseAuthority, to_authority_record
from relatex.retrieval.records import PaperRecord

# -- authorities ------------------------------------------------------------------------------


class MemoryIndexAuthority:
    """Records of both corpora in dictionaries: DOI, normalised title, title words (fuzzy)."""

    name = "memory index"

    def __init__(self, records: Iterator[PaperRecord]) -> None:
        self.by_doi_map: dict[str, list[AuthorityRecord]] = defaultdict(list)
        self.by_title_map: dict[str, list[AuthorityRecord]] = defaultdict(list)
        self.words: dict[str, list[AuthorityRecord]] = defaultdict(list)
        for record in records:
            auth = to_authority_record(record, self.name)
            if auth.doi:
                self.by_doi_map[auth.doi].append(auth)
            key = title_key(auth.title)
            self.by_title_map[key].append(auth)
            for word in set(key.split()):
                if len(word) > 3:
                    self.words[word].append(auth)

    def by_doi(self, doi: str) -> list[AuthorityRecord]:
        return self.by_doi_map.get(doi, [])[:1]

    def by_arxiv(self, arxiv_id: str) -> list[AuthorityRecord]:
        return []

    def by_title(self, title: str, limit: int = 5) -> list[AuthorityRecord]:
        exact = self.by_title_map.get(title_key(title), [])
        if exact:
            return exact[:limit]
        words = sorted({w for w in title_key(title).split() if len(w) > 3}, key=lambda w: len(self.words.get(w, ())))
        pool: dict[str, AuthorityRecord] = {}
        for word in words[:2]:
            for record in self.words.get(word, [])[:5000]:
                pool[record.record_id] = record
        ranked = sorted(pool.values(), key=lambda r: -title_similarity(title, r.title))
        return [r for r in ranked[:limit] if title_similarity(title, r.title) >= 0.6]


def corpus_records() -> Iterator[PaperRecord]:
    from relatex.retrieval.sources.detect import open_source

    for name, path in CORPORA.items():
        source = open_source(path, name)
        for item in source.items():
            yield item.record


def open_kb_authority(kb_dir: Path) -> tuple[Any, KnowledgeBaseAuthority, dict[str, Any]]:
    from relatex.retrieval.embedding import HashingEmbedder
    from relatex.retrieval.knowledge_base import KnowledgeBase
    from relatex.retrieval.sources.detect import open_source

    info: dict[str, Any] = {"kb_dir": str(kb_dir), "embedder": "hashing-32"}
    started = time.perf_counter()
    ready = (kb_dir / "bench-complete").exists()
    if not ready:
        shutil.rmtree(kb_dir, ignore_errors=True)
        with KnowledgeBase.open(kb_dir, embedder=HashingEmbedder(32)) as kb:
            for name, path in CORPORA.items():
                last = [0.0]

                def progress(update: Any, last: list[float] = last) -> None:
                    if time.perf_counter() - last[0] > 30:
                        last[0] = time.perf_counter()
                        log(f"  {update}")

                summary = kb.index(open_source(path, name), progress=progress)
                log(f"indexed {name}: {summary}")
        (kb_dir / "bench-complete").write_text(f"{time.perf_counter() - started:.1f}\n")
    info["build_seconds"] = float((kb_dir / "bench-complete").read_text().strip() or 0)
    info["reused_existing_kb"] = ready
    kb = KnowledgeBase.open(kb_dir, read_only=True)
    info["records"] = len(kb)
    return kb, KnowledgeBaseAuthority(kb, name="knowledge base"), info


# -- rebiber ------------------------------------------------------------------------------------


def rebiber_bin() -> Path | None:
    """``.venv-peers/bin/rebiber``, created on first use."""
    venv = REPO / ".venv-peers"
    binary = venv / "bin" / "rebiber"
    if binary.exists() and subprocess.run([str(binary), "-h"], capture_output=True).returncode == 0:
        return binary
    try:
        if not (venv / "bin" / "python").exists():
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "rebiber>=1.1.3,<2", "bibtexparser>=1.4,<2"], check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        log(f"rebiber not available: {exc}")
        return None
    return binary if binary.exists() else None


def run_rebiber(cases: list[Case]) -> dict[str, BibEntry] | None:
    binary = rebiber_bin()
    if binary is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        source, target = Path(tmp) / "in.bib", Path(tmp) / "out.bib"
        source.write_text("\n\n".join(c.text for c in cases) + "\n", encoding="utf-8")
        started = time.perf_counter()
        done = subprocess.run([str(binary), "-i", str(source), "-o", str(target)], capture_output=True, text=True,
                              timeout=1800)
        log(f"rebiber: exit {done.returncode} in {time.perf_counter() - started:.1f}s")
        if done.returncode != 0 or not target.exists():
            log(done.stderr[-2000:])
            return None
        parsed = parse_bib_text(target.read_text(encoding="utf-8"), target)
    return parsed.by_key()


def _norm(value: str | None) -> str:
    """Letters and digits of a LaTeX-decoded value (accents folded): encodings are not changes."""
    return re.sub(r"[^a-z0-9]", "", title_key(value or "").lower())


def rebiber_outcome(case: Case, before: BibEntry, after: BibEntry | None) -> dict[str, bool]:
    """Did rebiber change the entry, and did it restore the corrupted field / publish the preprint?"""
    if after is None:
        return {"changed": True, "restored": False, "dropped": True}
    compared = ("title", "author", "year", "doi", "booktitle", "journal", "pages")
    changed = any(_norm(before.fields.get(f)) != _norm(after.fields.get(f)) for f in compared) or (
        before.entry_type != after.entry_type)
    field = {"wrong_year": "year", "dropped_author": "author", "swapped_authors": "author",
             "altered_title": "title", "wrong_doi": "doi"}.get(case.kind)
    restored = False
    if field is not None:
        restored = _norm(after.fields.get(field)) == _norm(case.original.get(field))
        if field == "author":
            restored = [_norm(a.split(",")[0]) for a in after.authors] == [
                _norm(a.split(",")[0]) for a in parse_bib_text(format_entry("misc", "k", case.original), Path("x")).entries[0].authors]
    elif case.kind == "arxiv_version":
        restored = bool(after.fields.get("booktitle") or (after.fields.get("journal") and "arxiv" not in after.fields["journal"].lower()))
    return {"changed": changed, "restored": restored, "dropped": False}


# -- scoring ------------------------------------------------------------------------------------


def flagged(verdict: BibVerdict) -> bool:
    return verdict.status in ("mismatch", "not_found", "preprint", "ambiguous")


def exact_kind(case: Case, verdict: BibVerdict) -> bool:
    status, field = EXPECTED[case.kind]
    if verdict.status != status:
        return False
    return field is None or any(m.field == field for m in verdict.mismatches)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-corpus", type=int, default=300)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--authority", choices=("kb", "memory"), default="kb")
    parser.add_argument("--kb-dir", type=Path, default=Path(tempfile.gettempdir()) / "relatex-bench-verify-kb")
    parser.add_argument("--no-rebiber", action="store_true")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "bib_verification.json")
    return parser.parse_args()


def open_authority(args: argparse.Namespace) -> tuple[Any, Any, dict[str, Any]]:
    """(the knowledge base to close or None, the authority, what it holds)."""
    if args.authority == "kb":
        kb, authority, authority_info = open_kb_authority(args.kb_dir)
    else:
        kb = None
        memory = MemoryIndexAuthority(corpus_records())
        authority = memory  # type: ignore[assignment]
        authority_info = {"records": sum(len(v) for v in memory.by_title_map.values())}
    return kb, authority, authority_info


def kind_rows(cases: list[Case], verdicts: dict[str, BibVerdict], parsed: dict[str, BibEntry],
              rebiber: dict[str, BibEntry] | None) -> list[dict[str, Any]]:
    """Per kind of case: verdicts, false-alarm rate or recall, and what rebiber did."""
    rows: list[dict[str, Any]] = []
    by_kind: dict[str, list[Case]] = defaultdict(list)
    for case in cases:
        by_kind[case.kind].append(case)
    for kind in ("clean", "clean_restyled", *KINDS):
        group = by_kind.get(kind, [])
        if not group:
            continue
        statuses = Counter(verdicts[c.key].status for c in group)
        row: dict[str, Any] = {"kind": kind, "n": len(group), "statuses": dict(statuses)}
        if kind.startswith("clean"):
            row["false_alarm_rate"] = sum(flagged(verdicts[c.key]) for c in group) / len(group)
        else:
            row["recall_any_flag"] = sum(flagged(verdicts[c.key]) for c in group) / len(group)
            row["recall_exact_kind"] = sum(exact_kind(c, verdicts[c.key]) for c in group) / len(group)
        if rebiber is not None:
            outcomes = [rebiber_outcome(c, parsed[c.key], rebiber.get(c.key)) for c in group]
            row["rebiber_changed"] = sum(o["changed"] for o in outcomes) / len(group)
            row["rebiber_restored"] = sum(o["restored"] for o in outcomes) / len(group)
        rows.append(row)
    return rows


def verdict_precision(cases: list[Case], verdicts: dict[str, BibVerdict]) -> dict[str, dict[str, Any]]:
    # precision of each verdict kind: flagged entries whose truth is the corruption it names
    precision: dict[str, dict[str, Any]] = {}
    for kind in KINDS:
        status, field = EXPECTED[kind]
        predicted = [c for c in cases if verdicts[c.key].status == status and (
            field is None or any(m.field == field for m in verdicts[c.key].mismatches))]
        if kind in ("dropped_author", "swapped_authors"):
            correct = sum(c.kind in ("dropped_author", "swapped_authors") for c in predicted)
        else:
            correct = sum(c.kind == kind for c in predicted)
        precision[kind] = {"predicted": len(predicted), "precision": correct / len(predicted) if predicted else None}
    return precision


def overall_scores(cases: list[Case], verdicts: dict[str, BibVerdict],
                   verify_seconds: float) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    any_flag = [c for c in cases if flagged(verdicts[c.key])]
    clean = [c for c in cases if c.kind.startswith("clean")]
    corrupted = [c for c in cases if not c.kind.startswith("clean")]
    overall = {
        "flag_precision": sum(not c.kind.startswith("clean") for c in any_flag) / len(any_flag) if any_flag else None,
        "flag_recall": sum(flagged(verdicts[c.key]) for c in corrupted) / max(1, len(corrupted)),
        "false_alarm_rate": sum(flagged(verdicts[c.key]) for c in clean) / max(1, len(clean)),
        "ms_per_entry": 1000 * verify_seconds / len(cases),
    }
    false_alarms = [
        {"key": c.key, "status": verdicts[c.key].status,
         "mismatches": [(m.field, m.entry_value[:80], m.authority_value[:80], m.detail) for m in verdicts[c.key].mismatches]}
        for c in clean if flagged(verdicts[c.key])
    ]
    return overall, false_alarms


def print_table(rows: list[dict[str, Any]], precision: dict[str, dict[str, Any]], overall: dict[str, Any],
                with_rebiber: bool) -> None:
    print(f"{'kind':<16} {'n':>4} {'any flag':>9} {'exact kind':>11} {'precision':>10}"
          + (f" {'rebiber changed':>16} {'rebiber restored':>17}" if with_rebiber else ""))
    for row in rows:
        kind = row["kind"]
        rate = row.get("false_alarm_rate", row.get("recall_any_flag"))
        exact = row.get("recall_exact_kind")
        prec = precision.get(kind, {}).get("precision")
        line = (f"{kind:<16} {row['n']:>4} {rate:>9.3f} {'' if exact is None else f'{exact:.3f}':>11} "
                f"{'' if prec is None else f'{prec:.3f}':>10}")
        if with_rebiber:
            line += f" {row['rebiber_changed']:>16.3f} {row['rebiber_restored']:>17.3f}"
        print(line)
    print(f"clean rows: 'any flag' = false-alarm rate; overall false alarms {overall['false_alarm_rate']:.3f}, overall flag precision {overall['flag_precision']:.3f}, "
          f"recall {overall['flag_recall']:.3f}, {overall['ms_per_entry']:.1f} ms/entry")


def main() -> int:
    args = parse_args()
    if not all(p.exists() for p in CORPORA.values()):
        log(f"shared data not found under {DATA}")
        return 2

    samples, pools = sample_entries(args.seed, args.per_corpus)
    cases = build_cases(samples, pools, args.seed)
    log(f"{len(cases)} cases: {dict(Counter(c.kind for c in cases))}")

    started = time.perf_counter()
    kb, authority, authority_info = open_authority(args)
    authority_info["open_seconds"] = round(time.perf_counter() - started, 1)
    log(f"authority ready: {authority_info}")

    parsed = parse_bib_text("\n\n".join(c.text for c in cases), Path("bench.bib")).by_key()
    verdicts: dict[str, BibVerdict] = {}
    started = time.perf_counter()
    for case in cases:
        verdicts[case.key] = verify_entry(parsed[case.key], [authority])
    verify_seconds = time.perf_counter() - started
    if kb is not None:
        kb.close()

    rebiber = None if args.no_rebiber else run_rebiber(cases)

    rows = kind_rows(cases, verdicts, parsed, rebiber)
    precision = verdict_precision(cases, verdicts)
    overall, false_alarms = overall_scores(cases, verdicts, verify_seconds)

    print_table(rows, precision, overall, rebiber is not None)

    result = {
        "benchmark": "bib_verification",
        "machine": {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count()},
        "settings": {"per_corpus": args.per_corpus, "seed": args.seed, "authority": args.authority,
                     "authority_info": authority_info, "corpora": {k: str(v) for k, v in CORPORA.items()}},
        "rows": rows,
        "precision_by_verdict": precision,
        "overall": overall,
        "false_alarms": false_alarms,
        "rebiber": None if rebiber is None else "rebiber 1.1.x in .venv-peers, default options",
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
