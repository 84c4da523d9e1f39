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
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from relatex.analysis.bib.bib_edits import format_entry
from relatex.analysis.bib.bib_matching import title_key, title_similarity
from relatex.analysis.bib.bibtex import iter_bib_entries, parse_bib_text
from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.analysis.verification.bib_verification import AuthorityRecord, BibVerdict, verify_entry
from relatex.retrieval.authorities import KnowledgeBaseAuthority, to_authority_record
from relatex.retrieval.records import PaperRecord

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("RELATEX_SHARED_DATA", REPO.parent / "shared" / "data"))
CORPORA = {"acl": DATA / "acl-anthology" / "anthology+abstracts.bib.gz", "acm": DATA / "acm-cr" / "acm-dl.bib.gz"}
KINDS = ("wrong_year", "dropped_author", "swapped_authors", "altered_title", "wrong_doi", "fabricated", "arxiv_version")
EXPECTED = {  # the verdict (and field) that names the corruption exactly
    "wrong_year": ("mismatch", "year"),
    "dropped_author": ("mismatch", "authors"),
    "swapped_authors": ("mismatch", "authors"),
    "altered_title": ("mismatch", "title"),
    "wrong_doi": ("mismatch", "doi"),
    "fabricated": ("not_found", None),
    "arxiv_version": ("preprint", None),
}
KEEP_FIELDS = ("author", "title", "booktitle", "journal", "year", "pages", "doi", "publisher", "volume", "number")
FILLER_WORDS = ("robust", "neural", "efficient", "adaptive", "semantic", "scalable", "interactive", "latent",
                "multilingual", "contextual", "probabilistic", "hierarchical", "sparse", "unsupervised")


@dataclass
class Case:
    key: str
    corpus: str
    kind: str  # "clean" or a corruption kind
    text: str
    original: dict[str, str]


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _eligible(entry: BibEntry) -> bool:
    return bool(entry.title_plain and entry.authors and entry.year and entry.entry_type in ("inproceedings", "article"))


def sample_entries(seed: int, per_corpus: int) -> tuple[dict[str, list[BibEntry]], dict[str, Any]]:
    """Reservoir samples of eligible entries per corpus, plus pools for corruptions."""
    rng = random.Random(seed)
    samples: dict[str, list[BibEntry]] = {}
    dois: list[str] = []
    surnames: list[str] = []
    titles: list[str] = []
    for corpus, path in CORPORA.items():
        reservoir: list[BibEntry] = []
        seen = 0
        for entry in iter_bib_entries(path):
            if not _eligible(entry):
                continue
            seen += 1
            if len(reservoir) < per_corpus:
                reservoir.append(entry)
            elif (j := rng.randrange(seen)) < per_corpus:
                reservoir[j] = entry
            if entry.doi and rng.random() < 0.02:
                dois.append(entry.doi)
            if rng.random() < 0.01:
                surnames.extend(a for a in entry.authors[:2])
                titles.append(entry.title_plain)
        samples[corpus] = reservoir
        log(f"{corpus}: sampled {len(reservoir)} of {seen} eligible entries")
    return samples, {"dois": dois, "authors": surnames, "titles": titles}


def _fields(entry: BibEntry) -> dict[str, str]:
    return {name: entry.fields[name] for name in KEEP_FIELDS if entry.fields.get(name)}


def _authors(names: list[str]) -> str:
    return " and ".join(names)


def corrupt(entry: BibEntry, kind: str, rng: random.Random, pools: dict[str, Any]) -> dict[str, str] | None:
    """The fields of a corrupted copy, or None when the corruption does not apply."""
    fields = _fields(entry)
    names = list(entry.authors)
    if kind == "wrong_year":
        assert entry.year is not None
        fields["year"] = str(entry.year + rng.choice((-2, -1, 1, 2)))
    elif kind == "dropped_author":
        if len(names) < 2:
            return None
        del names[rng.randrange(1, len(names))]
        fields["author"] = _authors(names)
    elif kind == "swapped_authors":
        if len(names) < 2:
            return None
        i = rng.randrange(len(names) - 1)
        names[i], names[i + 1] = names[i + 1], names[i]
        if [n.split(",")[0] for n in names] == [n.split(",")[0] for n in entry.authors]:
            return None  # two authors with the same surname
        fields["author"] = _authors(names)
    elif kind == "altered_title":
        words = entry.title_plain.split()
        content = [i for i, w in enumerate(words) if len(w) > 3 and w.isalpha()]
        if len(words) < 4 or not content:
            return None
        for i in rng.sample(content, min(len(content), 1 if len(words) < 8 else 2)):
            replacement = rng.choice([w for w in FILLER_WORDS if w != words[i].lower()])
            words[i] = replacement.capitalize() if words[i][0].isupper() else replacement
        fields["title"] = " ".join(words)
    elif kind == "wrong_doi":
        other = rng.choice([d for d in pools["dois"] if d != entry.doi])
        fields["doi"] = other
    elif kind == "fabricated":
        a, b = rng.sample(pools["titles"], 2)
        head = a.split(":")[0].split()[: rng.randint(3, 5)]
        tail = b.split()[-rng.randint(3, 4):]
        fields = {
            "title": " ".join(head + ["for"] + tail),
            "author": _authors(rng.sample(pools["authors"], rng.randint(1, 4))),
            "year": str(rng.randint(2005, 2022)),
        }
        venue_field = "booktitle" if entry.entry_type == "inproceedings" else "journal"
        if entry.fields.get(venue_field):
            fields[venue_field] = entry.fields[venue_field]
        fields["pages"] = f"{(p := rng.randint(1, 400))}--{p + rng.randint(5, 12)}"
    elif kind == "arxiv_version":
        assert entry.year is not None
        year = entry.year - rng.choice((0, 1))
        arxiv = f"{year % 100:02d}{rng.randint(1, 12):02d}.{rng.randint(1, 19999):05d}"
        fields = {"title": fields["title"], "author": fields["author"], "year": str(year)}
        if rng.random() < 0.5:
            fields["journal"] = f"arXiv preprint arXiv:{arxiv}"
        else:
            fields.update({"eprint": arxiv, "archiveprefix": "arXiv", "howpublished": "arXiv"})
    else:
        raise ValueError(kind)
    return fields


_ACCENT_TEX = {"é": "{\\'e}", "è": "{\\`e}", "á": "{\\'a}", "ó": "{\\'o}", "í": "{\\'i}", "ü": '{\\"u}',
               "ö": '{\\"o}', "ä": '{\\"a}', "ç": "{\\c{c}}", "ñ": "{\\~n}", "ø": "{\\o}", "ß": "{\\ss}"}


def _tex_accents(text: str) -> str:
    return "".join(_ACCENT_TEX.get(ch, ch) for ch in text)


def restyle(entry: BibEntry, rng: random.Random) -> dict[str, str]:
    """The same facts written the way people write BibTeX by hand: initials, 'First Last',
    'and others', LaTeX accents, sentence-case or braced titles, abbreviated venues, single
    hyphens in pages, no DOI. A correct entry: any flag on it is a false alarm."""
    fields = _fields(entry)
    names = []
    for name in entry.authors:
        last, _, first = name.partition(", ")
        style = rng.choice(("initials", "first-last", "same"))
        if style == "initials" and first:
            first = " ".join(f"{part[0]}." for part in first.replace("-", " ").split() if part[:1].isalpha())
        names.append(f"{first} {last}".strip() if style == "first-last" else (f"{last}, {first}" if first else last))
    if len(names) > 4 and rng.random() < 0.5:
        names = names[:3] + ["others"]
    fields["author"] = _tex_accents(" and ".join(names))
    title = entry.title_plain
    choice = rng.choice(("sentence", "braced", "same"))
    if choice == "sentence":
        title = title[:1] + title[1:].lower()
    elif choice == "braced":
        title = "{" + title + "}"
    fields["title"] = _tex_accents(title.replace("&", "\\&"))
    venue_field = "booktitle" if fields.get("booktitle") else "journal"
    if fields.get(venue_field) and rng.random() < 0.6:
        venue = entry.fields.get("series") or "".join(w[0] for w in fields[venue_field].split() if w[:1].isupper())
        fields[venue_field] = f"Proc. of {venue}" if venue_field == "booktitle" else venue
    if fields.get("pages") and rng.random() < 0.5:
        fields["pages"] = re.sub(r"\s*(--|–|—)\s*", "-", fields["pages"])
    if rng.random() < 0.5:
        fields.pop("doi", None)
    for name in ("publisher", "volume", "number"):
        fields.pop(name, None)
    return fields


def build_cases(samples: dict[str, list[BibEntry]], pools: dict[str, Any], seed: int) -> list[Case]:
    rng = random.Random(seed + 1)
    cases: list[Case] = []
    for corpus, entries in samples.items():
        for index, entry in enumerate(entries):
            original = _fields(entry)
            key = f"{corpus}{index:04d}"
            cases.append(Case(key, corpus, "clean", format_entry(entry.entry_type, key, original), original))
            restyled = format_entry(entry.entry_type, f"{key}r", restyle(entry, rng))
            cases.append(Case(f"{key}r", corpus, "clean_restyled", restyled, original))
            for attempt in range(len(KINDS)):
                kind = KINDS[(index + attempt) % len(KINDS)]
                fields = corrupt(entry, kind, rng, pools)
                if fields is None:
                    continue
                entry_type = "misc" if kind == "arxiv_version" and "journal" not in fields else entry.entry_type
                entry_type = "article" if kind == "arxiv_version" and "journal" in fields else entry_type
                cases.append(Case(f"{key}x", corpus, kind, format_entry(entry_type, f"{key}x", fields), original))
                break
    return cases


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-corpus", type=int, default=300)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--authority", choices=("kb", "memory"), default="kb")
    parser.add_argument("--kb-dir", type=Path, default=Path(tempfile.gettempdir()) / "relatex-bench-verify-kb")
    parser.add_argument("--no-rebiber", action="store_true")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "bib_verification.json")
    args = parser.parse_args()
    if not all(p.exists() for p in CORPORA.values()):
        log(f"shared data not found under {DATA}")
        return 2

    samples, pools = sample_entries(args.seed, args.per_corpus)
    cases = build_cases(samples, pools, args.seed)
    log(f"{len(cases)} cases: {dict(Counter(c.kind for c in cases))}")

    started = time.perf_counter()
    if args.authority == "kb":
        kb, authority, authority_info = open_kb_authority(args.kb_dir)
    else:
        kb = None
        memory = MemoryIndexAuthority(corpus_records())
        authority = memory  # type: ignore[assignment]
        authority_info = {"records": sum(len(v) for v in memory.by_title_map.values())}
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

    print(f"{'kind':<16} {'n':>4} {'any flag':>9} {'exact kind':>11} {'precision':>10}"
          + (f" {'rebiber changed':>16} {'rebiber restored':>17}" if rebiber is not None else ""))
    for row in rows:
        kind = row["kind"]
        rate = row.get("false_alarm_rate", row.get("recall_any_flag"))
        exact = row.get("recall_exact_kind")
        prec = precision.get(kind, {}).get("precision")
        line = (f"{kind:<16} {row['n']:>4} {rate:>9.3f} {'' if exact is None else f'{exact:.3f}':>11} "
                f"{'' if prec is None else f'{prec:.3f}':>10}")
        if rebiber is not None:
            line += f" {row['rebiber_changed']:>16.3f} {row['rebiber_restored']:>17.3f}"
        print(line)
    print(f"clean rows: 'any flag' = false-alarm rate; overall false alarms {overall['false_alarm_rate']:.3f}, overall flag precision {overall['flag_precision']:.3f}, "
          f"recall {overall['flag_recall']:.3f}, {overall['ms_per_entry']:.1f} ms/entry")

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
