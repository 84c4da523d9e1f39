"""Fit the offline claim judge's logistic weights on the development split and compare feature sets.

Builds the same pairs as ``bench/claim_support.py`` (real citing sentences vs. their cited paper, vs.
a near neighbour of it and vs. a random paper), computes ``OfflineSupportJudge.features`` once, then
fits an L2-regularised logistic regression on the dev split for several feature sets and reports dev
and test AUROC and the probability of a claim sharing nothing with the evidence (p(0)). The shipped
weights are the "near2+random" fits: dev pairs with near negatives weighted twice random ones. Penalty features may only lower support (weights <= 0). The test
split is never used for fitting or for choosing features: choose on dev, read test once.

    python bench/fit_claim_judge.py [--pairs 1500] [--embed-cache FILE] [--features-cache FILE]

Prints the table and the weight tuples to paste into relatex/analysis/offline_judge.py.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_embedders import CachedEmbedder, make_embedder
from claim_support import DEFAULT_DATA, build_pairs, evidence_of
from judge_fitting import auroc, fit_constrained

from relatex.analysis.claims.offline_judge import DENSE_FEATURES, FEATURES, OfflineSupportJudge, logistic

BASE = ("dense_max", "dense_top2", "dense_paper", "lexical_best", "lexical_all", "names_covered", "has_names",
        "numbers_missing", "negation_mismatch", "comparison_unbacked")
FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "base (old features)": BASE,
    "base + idf": BASE + ("idf_all", "idf_best", "rare_mass"),
    "base + idf + title": BASE + ("idf_all", "idf_best", "rare_mass", "title_coverage"),
    "base + idf + title + contrast": BASE + ("idf_all", "idf_best", "rare_mass", "title_coverage",
                                             "dense_contrast", "claim_background", "idf_contrast"),
    "all": FEATURES,
    "lexical all": tuple(f for f in FEATURES if f not in DENSE_FEATURES),
}


def expand(weights: Sequence[float], names: Sequence[str]) -> list[float]:
    """Weights over ``names`` placed into a full FEATURES-length vector (others 0)."""
    full = [float(weights[0])] + [0.0] * len(FEATURES)
    for name, w in zip(names, weights[1:], strict=True):
        full[FEATURES.index(name) + 1] = float(w)
    return full


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--pairs", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--embed-cache", type=Path, default=None)
    parser.add_argument("--features-cache", type=Path, default=None, help="npz file memoising the feature matrix")
    args = parser.parse_args(argv)

    inner, embedder_name = make_embedder()
    embedder = CachedEmbedder(inner, args.embed_cache)
    pairs, _, _ = build_pairs(args.data, embedder, args.pairs, args.seed)
    y = np.array([p.positive for p in pairs], dtype=np.float64)
    if args.features_cache is not None and args.features_cache.exists():
        x = np.load(args.features_cache)["x"]
    else:
        judge = OfflineSupportJudge(embedder.embed, embed_id=str(getattr(inner, "model_id", "minilm")))
        x = np.array([judge.features(p.sentence, evidence_of(p.paper)).values for p in pairs], dtype=np.float64)
        embedder.save()
        if args.features_cache is not None:
            np.savez(args.features_cache, x=x)
    if x.shape[1] != len(FEATURES):
        print("feature cache is stale (feature count changed); delete it", file=sys.stderr)
        return 2
    split = np.array([p.split for p in pairs])
    negative = np.array([p.negative for p in pairs])
    near_dev = np.flatnonzero((split == "dev") & (negative != "random"))
    # shipped weights: every dev pair once plus the positive and near-negative pairs once more, so
    # that near negatives weigh twice random ones: ranking near papers is the aim, and random
    # papers keep unrelated citations scored low (a near-only fit leaves them near 0.5)
    mixed_dev = np.concatenate([np.flatnonzero(split == "dev"), near_dev])
    print(f"{len(pairs)} pairs ({embedder_name}); dev: {len(near_dev)} positive + near pairs, "
          f"{int(((split == 'dev') & (negative == 'random')).sum())} random pairs")
    print(f"{'feature set':30} {'training':12} {'dev near':>8} {'test near':>9} {'test rand':>9} {'p(0)':>5}")
    fitted: dict[str, list[float]] = {}
    runs = [(name, "near", near_dev) for name in FEATURE_SETS]
    runs += [("all", "near2+random", mixed_dev), ("lexical all", "near2+random", mixed_dev)]
    for name, training, rows in runs:
        names = FEATURE_SETS[name]
        columns = [FEATURES.index(f) for f in names]
        full = expand(fit_constrained(x[rows][:, columns], y[rows], names), names)
        fitted[f"{name}/{training}"] = full
        row = [f"{name[:30]:30} {training:12}"]
        for chosen_split, neg in (("dev", "near"), ("test", "near"), ("test", "random")):
            mask = (split == chosen_split) & np.isin(negative, ["", neg])
            scores = [logistic(full, v) for v in x[mask]]
            row.append(f"{auroc(scores, [bool(v) for v in y[mask]]):8.3f}")
        row.append(f"{logistic(full, [0.0] * len(FEATURES)):5.2f}")
        print(" ".join(row))
    print("single features (dev near AUROC):")
    for i, name in enumerate(FEATURES):
        print(f"  {name:20} {auroc(list(x[near_dev][:, i]), [bool(v) for v in y[near_dev]]):.3f}")
    print("WEIGHTS_DENSE =", tuple(round(v, 3) for v in fitted["all/near2+random"]))
    print("WEIGHTS_LEXICAL =", tuple(round(v, 3) for v in fitted["lexical all/near2+random"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
