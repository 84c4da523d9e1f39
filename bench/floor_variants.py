"""Other rules for the relevance floor, on the development halves of the section bench.

The shipped rule (``relatex.retrieval.selection.earned``) keeps a candidate whose text relevance is at
least ``relevance_floor`` times the best candidate's (and never fewer than ``min_breadth``). Two
alternatives are measured here by replacing that function for the run:

- ``score``: the floor on the blended ranking score (relevance and personalised PageRank) instead;
- ``centrality>=C``: the shipped rule, but a candidate whose normalised PageRank is at least C is
  kept whatever its relevance (papers the citation graph ranks high).

Each is measured with the knowledge bases, drafts and selection settings of
``bench/section_quality.py`` (MiniLM vectors, development halves only), on ACM-CR and ACL, unseeded
and seeded: selection precision / recall / size against hybrid search at the same size.

    python bench/floor_variants.py [--floors 0 0.5 0.6 0.7 0.8 0.9] [--centrality 0.1 0.3 0.5]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import section_quality  # noqa: E402
from bench_embedders import CachedEmbedder, make_embedder  # noqa: E402

from relatex.retrieval import selection  # noqa: E402

RESULTS = REPO / "bench" / "results" / "floor_variants.json"
Rule = Callable[[Sequence[Any], Mapping[str, str], Any], list[Any]]


def on_score(pool: Sequence[Any], cited: Mapping[str, str], params: Any) -> list[Any]:
    """The floor on the blended score (relevance and PageRank)."""
    if params.relevance_floor <= 0 or not pool:
        return list(pool)
    floor = params.relevance_floor * max(c.score for c in pool)
    return [c for i, c in enumerate(pool) if c.id in cited or c.score >= floor or i < params.min_breadth]


def with_central(minimum: float) -> Rule:
    """The shipped floor, with candidates of normalised PageRank >= ``minimum`` exempt."""
    def rule(pool: Sequence[Any], cited: Mapping[str, str], params: Any) -> list[Any]:
        kept = {c.id for c in SHIPPED(pool, cited, params)}
        return [c for c in pool if c.id in kept or c.centrality >= minimum]
    return rule


SHIPPED: Rule = selection.earned


def measure(dataset: str, seeded: bool, rules: dict[str, tuple[Rule, Sequence[float]]],
            embedder: CachedEmbedder) -> dict[str, Any]:
    args = argparse.Namespace(dataset=dataset, distractors=3000, acl_drafts=40)
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, \
            section_quality.corpus(args, Path(tmp), embedder) as (kb, tasks, _, sources_for):
        dev = [t for t in tasks if t.half == "dev"]
        for name, (rule, floors) in rules.items():
            selection.earned = rule  # type: ignore[assignment]
            try:
                print(f"{dataset} seeded={seeded} {name}", file=sys.stderr)
                out[name] = section_quality.calibrate(dev, kb, sources_for, floors, seeded)
            finally:
                selection.earned = SHIPPED  # type: ignore[assignment]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--floors", type=float, nargs="+", default=[0.0, 0.5, 0.6, 0.7, 0.8, 0.9])
    parser.add_argument("--centrality", type=float, nargs="+", default=[0.1, 0.3, 0.5])
    parser.add_argument("--embed-cache", type=Path, default=REPO / ".cache" / "section-quality-embed.pkl")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    inner, embedder_name = make_embedder()
    embedder = CachedEmbedder(inner, args.embed_cache)
    shipped_floor = section_quality.PRODUCT.relevance_floor
    rules: dict[str, tuple[Rule, Sequence[float]]] = {"score": (on_score, args.floors)}
    rules.update({f"centrality>={c}": (with_central(c), [shipped_floor]) for c in args.centrality})
    result: dict[str, Any] = {"embedder": embedder_name, "shipped_floor": shipped_floor, "split": "development halves"}
    for dataset in ("acm", "acl"):
        for seeded in (False, True):
            result[f"{dataset}{'_seeded' if seeded else ''}"] = measure(dataset, seeded, rules, embedder)
    embedder.save()
    print(json.dumps(result, indent=1))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
