"""Paragraphs that discuss no paper beyond their topic sentence, in the sections the section bench
wrote (``bench/results/section_quality*.json``): a topic sentence with lists and pointers only.

    python bench/thin_paragraphs.py [--results bench/results] [--out bench/results/thin_paragraphs.json]

A paragraph counts when no sentence after its first cites a paper outside a citation list ("Other
work on X includes ...") or a "See also" pointer (``relatex.writing.thin_themes.discusses``, the
writer's own test); the marker comment and the overview sentence are not paragraphs. Prints a
table and writes JSON.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from relatex.writing.thin_themes import discusses

REPO = Path(__file__).resolve().parent.parent
SETS = ("section_quality", "section_quality_seeded", "section_quality_acl", "section_quality_acl_seeded",
        "section_quality_acl_abstracts", "section_quality_acl_abstracts_seeded")


def paragraphs(latex: str) -> list[str]:
    """The paragraphs of a section that cite (the overview sentence and the marker cite nothing)."""
    return [p.strip() for p in latex.split("\n\n") if "\\cite" in p]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=REPO / "bench" / "results")
    parser.add_argument("--out", type=Path, default=None, help="default: <results>/thin_paragraphs.json")
    args = parser.parse_args()
    out: dict[str, dict[str, object]] = {}
    for name in SETS:
        path = args.results / f"{name}.json"
        if not path.exists():
            continue
        sections = json.loads(path.read_text(encoding="utf-8"))["sections"]
        found = [(s["doi"], p) for s in sections for p in paragraphs(s["latex"]) if not discusses(p)]
        total = sum(len(paragraphs(s["latex"])) for s in sections)
        out[name] = {"paragraphs": total, "discussing_no_paper": len(found),
                     "examples": [[doi, p[:200]] for doi, p in found]}
    print("| set | paragraphs | discussing no paper |")
    print("|---|---:|---:|")
    for name, row in out.items():
        print(f"| {name} | {row['paragraphs']} | {row['discussing_no_paper']} |")
    total = sum(int(str(r["paragraphs"])) for r in out.values())
    thin = sum(int(str(r["discussing_no_paper"])) for r in out.values())
    print(f"| all | {total} | {thin} |")
    target = args.out or args.results / "thin_paragraphs.json"
    target.write_text(json.dumps({"sets": out, "paragraphs": total, "discussing_no_paper": thin}, indent=1) + "\n",
                      encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
