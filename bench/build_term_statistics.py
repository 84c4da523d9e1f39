"""Build analysis/claims/term_df.json.gz: document frequencies of stems in ACL + ACM abstracts.

Every abstract (with its title) of the ACL Anthology (acl-anthology/anthology+abstracts.bib.gz)
and of the ACM-CR collection (acm-cr/acm-dl.bib.gz) is one document; a document counts each
stem of ``relatex.analysis.claims.offline_judge.term_stems`` once. Stems seen in fewer than ``--min-df``
documents are left out (the judge treats them as rare), which keeps the file small (< 1 MB).

    python bench/build_term_statistics.py [--data ../shared/data] [--min-df 5]

The file also keeps ``--background`` random abstracts (title + abstract, truncated; papers the
claim-support benchmark judges are excluded) as a background for contrastive similarity: the judge
compares a claim's similarity to the cited paper with its similarity to these. Their vectors under
the default embedding model (FastEmbedEmbedder) are stored too, as float16.

Labels are not involved: the statistics describe the background corpus only.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from relatex.analysis.claims.offline_judge import term_stems
from relatex.analysis.claims.term_statistics import DEFAULT_PATH, TermStatistics, save_term_statistics

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"
_FIELD = re.compile(r"^\s*(title|abstract)\s*=\s*\{(.*)\},?\s*$", re.IGNORECASE)


def bib_documents(path: Path) -> Iterator[tuple[str, str, str]]:
    """(key, title, abstract) of every entry with an abstract (one field per line, as both files have it)."""
    key = title = abstract = ""
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if line.startswith("@"):
                if abstract:
                    yield key, title, abstract
                key = line.split("{", 1)[-1].split(",", 1)[0].strip().lower()
                title = abstract = ""
                continue
            match = _FIELD.match(line)
            if match:
                if match.group(1).lower() == "title":
                    title = match.group(2).replace("{", "").replace("}", "")
                else:
                    abstract = match.group(2)
    if abstract:
        yield key, title, abstract


def benchmark_papers(data: Path) -> tuple[set[str], set[str]]:
    """Keys and normalised titles of the papers bench/claim_support.py judges, kept out of the background."""
    titles: set[str] = set()
    keys: set[str] = set()
    with gzip.open(data / "scisummnet/reference_papers.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            titles.add(_norm(json.loads(line).get("title") or ""))
    for line in (data / "acm-cr/queries.jsonl").open(encoding="utf-8"):
        for ref in json.loads(line)["references"].values():
            keys.add(str(ref["target"]).lower())
    return keys, titles


def _norm(title: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", title.lower()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--min-df", type=int, default=5)
    parser.add_argument("--background", type=int, default=256, help="random abstracts kept as background texts")
    parser.add_argument("--background-chars", type=int, default=600)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-vectors", action="store_true",
                        help="do not store background vectors of the default embedding model")
    parser.add_argument("--out", type=Path, default=DEFAULT_PATH)
    args = parser.parse_args()
    sources = [args.data / "acl-anthology/anthology+abstracts.bib.gz", args.data / "acm-cr/acm-dl.bib.gz"]
    df: Counter[str] = Counter()
    documents = 0
    excluded_keys, excluded_titles = benchmark_papers(args.data)
    rng = random.Random(args.seed)
    background: list[str] = []  # reservoir sample of abstracts, for contrastive similarity
    seen = 0
    for source in sources:
        if not source.exists():
            print(f"missing {source}", file=sys.stderr)
            return 2
        for key, title, abstract in bib_documents(source):
            documents += 1
            df.update(term_stems(f"{title}. {abstract}"))
            if key in excluded_keys or _norm(title) in excluded_titles or len(abstract) < 200:
                continue
            seen += 1
            text = f"{title}. {abstract}"[: args.background_chars]
            if len(background) < args.background:
                background.append(text)
            elif (slot := rng.randrange(seen)) < args.background:
                background[slot] = text
        print(f"{source.name}: {documents} documents so far", file=sys.stderr)
    kept = {term: count for term, count in df.items() if count >= args.min_df}
    model, vectors = "", None
    if not args.no_vectors:
        from relatex.retrieval.embedding import FastEmbedEmbedder

        embedder = FastEmbedEmbedder()
        model, vectors = embedder.model_id, embedder.embed(background)
    statistics = TermStatistics(documents, kept, args.min_df,
                                "title+abstract of ACL Anthology (anthology+abstracts.bib) and ACM-CR (acm-dl.bib)",
                                tuple(background), model, vectors)
    save_term_statistics(statistics, args.out)
    print(f"{documents} documents, {len(df)} stems, {len(kept)} kept (df >= {args.min_df}); "
          f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
