"""Other rules for the relevance floor, on the development halves of the section bench.

The floor (``relatex.retrieval.selection.earned``) keeps a candidate whose text relevance is at
least ``relevance_floor`` times the best candidate's (and never fewer than ``min_breadth``). The
variants, each on the plain floor (``floor_exempt_links`` 0):

- ``score``: the floor on the blended ranking score (relevance and personalised PageRank) instead;
- ``centrality>=C``: a candidate whose normalised PageRank is at least C is kept whatever its
  relevance (papers the citation graph ranks high);
- ``linked>=M``: the product's rule with ``floor_exempt_links`` M: a candidate that cites or is
  cited by at least M seeds (the draft's cited papers and the top search hits) is kept whatever its
  relevance; ``linked>=0`` is the plain floor;
- ``min_breadth=B``: the plain floor with another minimum number of papers (the product keeps 5
  whatever the floor): a smaller one gives narrower, more precise sections and lower recall.

The shipped ``graph.floor_exempt_links`` is the M that keeps development precision at least the plain
floor's on all four sets with the highest mean recall.

Each is measured with the knowledge bases, drafts and selection settings of
``bench/section_quality.py`` (MiniLM vectors, development halves only), on ACM-CR and ACL, unseeded
and seeded: selection precision / recall / size against hybrid search at the same size.

    python bench/floor_variants.py [--floors 0 0.5 0.6 0.7 0.8 0.9] [--centrality 0.1 0.3 0.5] [--linked 0 1 2 3]
        [--min-breadths 2 3 4]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import section_quality  # noqa: E402
from bench_embedders import CachedEmbedder, make_embedder  # noqa: E402

from relatex.retrieval import selection  # noqa: E402
from relatex.retrieval.selection import SelectionParams  # noqa: E402

RESULTS = REPO / "bench" / "results" / "floor_variants.json"
Rule = Callable[[Sequence[Any], Mapping[str, str], Any], list[Any]]
Variant = tuple[Rule, Sequence[float], SelectionParams]
PLAIN = replace(section_quality.PRODUCT, floor_exempt_links=0)


def on_score(pool: Sequence[Any], cited: Mapping[str, str], params: Any) -> list[Any]:
    """The floor on the blended score (relevance and PageRank)."""
    if params.relevance_floor <= 0 or not pool:
        return list(pool)
    floor = params.relevance_floor * max(c.score for c in pool)
    return [c for i, c in enumerate(pool) if c.id in cited or c.score >= floor or i < params.min_breadth]


def with_central(minimum: float) -> Rule:
    """The floor, with candidates of normalised PageRank >= ``minimum`` exempt."""
    def rule(pool: Sequence[Any], cited: Mapping[str, str], params: Any) -> list[Any]:
        kept = {c.id for c in SHIPPED(pool, cited, params)}
        return [c for c in pool if c.id in kept or c.centrality >= minimum]
    return rule


SHIPPED: Rule = selection.earned


def measure(dataset: str, seeded: bool, rules: dict[str, Variant],
            embedder: CachedEmbedder) -> dict[str, Any]:
    args = argparse.Namespace(dataset=dataset, distractors=3000, acl_drafts=40, acl_abstracts=False,
                              authors_papers=False)
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, \
            section_quality.corpus(args, Path(tmp), embedder) as (kb, tasks, _, sources_for):
        dev = [t for t in tasks if t.half == "dev"]
        for name, (rule, floors, base) in rules.items():
            selection.earned = rule  # type: ignore[assignment]
            try:
                print(f"{dataset} seeded={seeded} {name}", file=sys.stderr)
                out[name] = section_quality.calibrate(dev, kb, sources_for, floors, seeded, base)
            finally:
                selection.earned = SHIPPED  # type: ignore[assignment]
    return out


def exempt_choice(result: dict[str, Any], sets: Sequence[str], floor: float) -> dict[str, Any]:
    """The ``linked>=M`` whose development precision is at least the plain floor's (M = 0) on every
    set, with the highest mean recall over the sets (ties: the larger M, the fewer exemptions)."""
    def row(name: str, data: str) -> dict[str, float]:
        return result[data][name][str(floor)]

    names = [n for n in result[sets[0]] if n.startswith("linked>=")]
    safe = [n for n in names if all(row(n, d)["precision"] >= row("linked>=0", d)["precision"] for d in sets)]
    recall = {n: round(sum(row(n, d)["recall"] for d in sets) / len(sets), 4) for n in safe}
    best = max(safe, key=lambda n: (recall[n], int(n.split(">=")[1])))
    return {"rule": exempt_choice.__doc__, "mean_recall": recall, "chosen": int(best.split(">=")[1])}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--floors", type=float, nargs="+", default=[0.0, 0.5, 0.6, 0.7, 0.8, 0.9])
    parser.add_argument("--centrality", type=float, nargs="+", default=[0.1, 0.3, 0.5])
    parser.add_argument("--linked", type=int, nargs="+", default=[0, 1, 2, 3])
    parser.add_argument("--min-breadths", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--embed-cache", type=Path, default=REPO / ".cache" / "section-quality-embed.pkl")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    inner, embedder_name = make_embedder()
    embedder = CachedEmbedder(inner, args.embed_cache)
    shipped_floor = section_quality.PRODUCT.relevance_floor
    rules: dict[str, Variant] = {"score": (on_score, args.floors, PLAIN)}
    rules.update({f"centrality>={c}": (with_central(c), [shipped_floor], PLAIN) for c in args.centrality})
    rules.update({f"linked>={m}": (SHIPPED, [shipped_floor], replace(PLAIN, floor_exempt_links=m))
                  for m in args.linked})
    rules.update({f"min_breadth={b}": (SHIPPED, [shipped_floor, 0.9], replace(PLAIN, min_breadth=b))
                  for b in args.min_breadths})
    result: dict[str, Any] = {"embedder": embedder_name, "shipped_floor": shipped_floor,
                              "shipped_floor_exempt_links": section_quality.PRODUCT.floor_exempt_links,
                              "split": "development halves"}
    for dataset in ("acm", "acl"):
        for seeded in (False, True):
            result[f"{dataset}{'_seeded' if seeded else ''}"] = measure(dataset, seeded, rules, embedder)
    embedder.save()
    if "linked>=0" in result["acm"]:
        result["exempt_choice"] = exempt_choice(result, ("acm", "acm_seeded", "acl", "acl_seeded"), shipped_floor)
    print(json.dumps(result, indent=1))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
