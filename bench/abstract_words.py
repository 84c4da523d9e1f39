"""How the offline writer reads two kinds of word in real records, over every title and abstract
of the ACM-CR collection, the ACL Anthology and ScisummNet in ``../shared/data``:

- names a title writes in Title Case that the writer restores in a sentence ("... with
  Wasserstein-based sequence matching"; ``relatex.writing.title_topics``): how many words of the
  titles' noun phrases get their capital back, the most frequent ones, and a random sample of
  the rarer ones to read (``--sample``, seeded);
- words that lost their end with their line and were glued to the next ("translamodel";
  ``relatex.writing.broken_words.truncated_words``): every one found.

    python bench/abstract_words.py [--sample 70] [--out bench/results/abstract_words.json]

Prints a table and writes JSON; reading the sample is left to a person.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from relatex.writing import title_topics
from relatex.writing.broken_words import truncated_words

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"
_TITLE = re.compile(r"\btitle\s*=\s*[{\"](.*?)[}\"],?\n")
_ABSTRACT = re.compile(r"\babstract\s*=\s*[{\"](.*?)[}\"],?\n", re.S)


def records(data: Path) -> Iterator[tuple[str, str]]:
    """(title, abstract) of every record with both, from the BibTeX files and ScisummNet."""
    with gzip.open(data / "scisummnet" / "reference_papers.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            paper = json.loads(line)
            if paper.get("abstract"):
                yield paper["title"], paper["abstract"]
    for path in (data / "acm-cr" / "acm-dl.bib.gz", data / "acl-anthology" / "anthology+abstracts.bib.gz"):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            text = fh.read()
        for entry in re.split(r"\n@", text):
            title, abstract = _TITLE.search(entry), _ABSTRACT.search(entry)
            if title and abstract:
                yield re.sub(r"[{}]", "", title.group(1)), abstract.group(1)


def restored_names(title: str, abstract: str) -> list[tuple[str, str]]:
    """(word, the title's noun phrase) for each word whose capital the abstract gives back."""
    plain = title_topics._names_owned(title_topics.paper_topic(" ".join(title.split()).rstrip(".")), abstract)
    named = title_topics._names_written(plain, abstract)
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
    count = 0
    for title, abstract in records(args.data):
        count += 1
        for word, phrase in restored_names(title, abstract):
            names[word] += 1
            example.setdefault(word, phrase)
        for word in truncated_words(f"{title}. {abstract}"):
            truncated.setdefault(word, title)
    rare = sorted(w for w, n in names.items() if n <= 2)
    sample = random.Random(args.seed).sample(rare, min(args.sample, len(rare)))
    result = {
        "records": count, "names_restored": sum(names.values()), "distinct_names": len(names),
        "most_common": [[w, n, example[w]] for w, n in names.most_common(40)],
        "sample_of_rare": [[w, example[w]] for w in sample],
        "truncated_words": [[w, t] for w, t in sorted(truncated.items())],
    }
    print(f"records with a title and an abstract: {count}")
    print(f"| names restored | distinct | glued truncated words |\n|---:|---:|---:|\n"
          f"| {result['names_restored']} | {result['distinct_names']} | {len(truncated)} |")
    for word, phrase in result["sample_of_rare"]:
        print(f"  sample: {word:24} {phrase[:80]}")
    for word, title in result["truncated_words"]:
        print(f"  truncated: {word:24} {title[:80]}")
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
