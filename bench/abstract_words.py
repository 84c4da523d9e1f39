"""How the offline writer reads two kinds of word in real records, over every title and abstract
of the ACM-CR collection, the ACL Anthology and ScisummNet in ``../shared/data``:

- names a title writes in Title Case that the writer restores in a sentence ("... with
  Wasserstein-based sequence matching"; ``relatex.writing.title_topics``): how many words of the
  titles' noun phrases get their capital back, the most frequent ones, and a random sample of
  the rarer ones to read (``--sample``, seeded);
- words that lost their end with their line and were glued to the next ("translamodel";
  ``relatex.writing.broken_words.truncated_words``): every one found;
- words split in two by a space ("ap proach"; ``split_word``): the abstracts holding one, the most
  frequent pairs and a random sample of them;
- abstracts that are a PDF's debris, not prose (a table, a bibliography page, a page begun
  mid-sentence; ``relatex.retrieval.abstract_text.debris_reason``), which the writer does not read:
  how many in each collection, and every one found.

    python bench/abstract_words.py [--sample 70] [--out bench/results/abstract_words.json]

Prints a table and writes JSON; reading the sample is left to a person.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

from build_term_statistics import bib_documents  # noqa: E402

from relatex.retrieval.abstract_text import debris_reason  # noqa: E402
from relatex.writing import title_topics  # noqa: E402
from relatex.writing.broken_words import split_word, truncated_words  # noqa: E402

DATA = REPO.parent / "shared" / "data"


def records(data: Path) -> Iterator[tuple[str, str, str]]:
    """(collection, title, abstract) of every record with both, from ScisummNet and the BibTeX files."""
    with gzip.open(data / "scisummnet" / "reference_papers.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            paper = json.loads(line)
            if paper.get("abstract"):
                yield "scisummnet", paper["title"], paper["abstract"]
    for name, path in (("acm", data / "acm-cr" / "acm-dl.bib.gz"),
                       ("acl", data / "acl-anthology" / "anthology+abstracts.bib.gz")):
        yield from ((name, title, abstract) for _, title, abstract in bib_documents(path) if title)


def restored_names(title: str, abstract: str) -> list[tuple[str, str]]:
    """(word, the title's noun phrase) for each word whose capital the abstract gives back."""
    plain = title_topics._names_owned(title_topics.paper_topic(" ".join(title.split()).rstrip(".")), abstract)
    named = title_topics.names_written(plain, abstract)
    pairs = zip(plain.split(), named.split(), strict=True)
    return [(after, named) for before, after in pairs if before != after]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--sample", type=int, default=70)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "abstract_words.json")
    args = parser.parse_args()
    names: Counter[str] = Counter()
    example: dict[str, str] = {}
    truncated: dict[str, str] = {}
    splits: Counter[str] = Counter()
    collections: Counter[str] = Counter()
    debris: list[list[str]] = []
    count = 0
    for collection, title, abstract in records(args.data):
        count += 1
        collections[collection] += 1
        if reason := debris_reason(abstract):
            debris.append([collection, reason, title[:80], " ".join(abstract.split())[:120]])
        for word, phrase in restored_names(title, abstract):
            names[word] += 1
            example.setdefault(word, phrase)
        for word in truncated_words(f"{title}. {abstract}"):
            truncated.setdefault(word, title)
        if split := split_word(abstract):
            splits[split] += 1
    rare = sorted(w for w, n in names.items() if n <= 2)
    sample = random.Random(args.seed).sample(rare, min(args.sample, len(rare)))
    result = {
        "records": count, "names_restored": sum(names.values()), "distinct_names": len(names),
        "most_common": [[w, n, example[w]] for w, n in names.most_common(40)],
        "sample_of_rare": [[w, example[w]] for w in sample],
        "truncated_words": [[w, t] for w, t in sorted(truncated.items())],
        "abstracts_with_a_split_word": sum(splits.values()),
        "split_words_most_common": splits.most_common(20),
        "split_words_sample": random.Random(args.seed).sample(sorted(splits), min(args.sample, len(splits))),
        "debris_abstracts": {name: [n, sum(1 for d in debris if d[0] == name)]
                             for name, n in collections.items()},
        "debris": debris,
    }
    print(f"records with a title and an abstract: {count}")
    print("| names restored | distinct | glued truncated words | abstracts with a split word |")
    print("|---:|---:|---:|---:|")
    print(f"| {result['names_restored']} | {result['distinct_names']} | {len(truncated)} "
          f"| {result['abstracts_with_a_split_word']} |")
    for word, phrase in result["sample_of_rare"]:
        print(f"  sample: {word:24} {phrase[:80]}")
    for word, title in result["truncated_words"]:
        print(f"  truncated: {word:24} {title[:80]}")
    print("  split:", ", ".join(result["split_words_sample"]))
    print("| collection | abstracts | debris, not read |")
    print("|---|---:|---:|")
    for name, (total, found) in result["debris_abstracts"].items():
        print(f"| {name} | {total} | {found} |")
    for name, reason, title, text in debris:
        print(f"  debris ({name}, {reason}): {title[:50]} :: {text[:70]}")
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
