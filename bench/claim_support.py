"""Claim-support benchmark: does the offline judge tell a cited paper from a topically close one?

Real citing sentences paired with their true cited paper's title + abstract (positives), with the
abstract of a near neighbour of that paper by embedding ("near" negatives, the main measure), and
with a random other paper of the same collection ("random" negatives, for context):
- ScisummNet citing sentences (scisummnet/reference_papers.jsonl.gz, cited paper's abstract);
- ACM-CR related-work sentences (acm-cr/queries.jsonl contexts) citing in-collection papers,
  abstracts from acm-cr/acm-dl.bib.gz.
Every sentence is judged as a LaTeX draft would present it: author-year markers ("Brants (2000)",
"(Brants, 2000; Collins et al. 2002)") and the cited paper's surnames are removed first
(``strip_author_year``), and the same text is paired with every paper, so author names favour no pair.
ScisummNet pairs are split by a hash of the cited paper id, ACM-CR pairs by query paper
(``bench/splits.py``), and every negative paper is drawn from the claim's own half, so no test
sentence or test negative is seen in development. The development half is used by ``--fit`` to
fit the logistic weights of relatex.analysis.claims.offline_judge; the test half is reported.
Also reports AutoSurvey's citation recall/precision of the human-written related work of ACM-CR's
test-half query papers.

    python bench/claim_support.py [--pairs 1500] [--fit] [--data ../shared/data] [--embed-cache FILE]

Prints a table and writes bench/results/claim_support.json.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from bench_embedders import CachedEmbedder, make_embedder
from claim_data import (
    Paper,
    acm_paper_halves,
    evidence_of,
    load_acm,
    load_scisummnet,
    neighbours,
    split_of,
    strip_author_year,
)
from judge_fitting import auroc, fit_constrained, precision_recall
from splits import half_of

from relatex.analysis.claims.claim_support import (
    SUPPORTED,
    ClaimResult,
    check_claims,
    citation_recall_precision,
)
from relatex.analysis.claims.evidence import Evidence
from relatex.analysis.claims.offline_judge import (
    DENSE_FEATURES,
    FEATURES,
    WEIGHTS_DENSE,
    WEIGHTS_LEXICAL,
    OfflineSupportJudge,
    logistic,
)
from relatex.analysis.latex.project_model import Claim

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"


@dataclass
class Pair:
    dataset: str
    sentence: str
    paper: Paper
    positive: bool
    split: str
    negative: str = ""  # "near" (a close neighbour of the cited paper) or "random"


def build_pairs(data: Path, embedder: object, n_pairs: int, seed: int) -> tuple[list[Pair], dict[str, Paper], list[dict]]:
    """Positive, near and random pairs. ScisummNet is split by cited paper, ACM-CR by query paper
    (``bench/splits.py``); every negative paper comes from the claim's own half."""
    rng = random.Random(seed)
    ss_papers, ss_sentences = load_scisummnet(data)
    acm_papers, acm_sentences, queries = load_acm(data)
    ss_half = {pid: split_of(pid) for pid in ss_papers}
    acm_half = acm_paper_halves(acm_sentences)
    ss_near = neighbours(ss_papers, embedder, ss_half)
    acm_near = neighbours(acm_papers, embedder, acm_half)
    rng.shuffle(ss_sentences)
    acm_items = [(text, t, half_of(query)) for text, targets, query in acm_sentences for t in targets
                 if t in acm_papers and t in acm_half]
    rng.shuffle(acm_items)
    n_acm = min(len(acm_items), n_pairs // 4)
    n_ss = max(n_pairs // 2 - n_acm, 0)
    ss_items = [(text, pid, ss_half[pid]) for text, pid in ss_sentences[:n_ss]]
    pairs: list[Pair] = []
    for dataset, items, papers, near, half in (("scisummnet", ss_items, ss_papers, ss_near, ss_half),
                                               ("acm-cr", acm_items[:n_acm], acm_papers, acm_near, acm_half)):
        pool = {h: sorted(pid for pid in papers if half.get(pid) == h) for h in ("dev", "test")}
        for raw, pid, split in items:
            # a draft's claim text has its citation commands removed, author names included: strip
            # author-year markers and the cited paper's names for every pair of the sentence, so
            # that they favour no pair (the same text is judged against every paper)
            text = strip_author_year(raw, papers[pid].authors)
            pairs.append(Pair(dataset, text, papers[pid], True, split))
            pairs.append(Pair(dataset, text, papers[rng.choice(near[pid])], False, split, "near"))
            other = rng.choice(pool[split])
            while other == pid:
                other = rng.choice(pool[split])
            pairs.append(Pair(dataset, text, papers[other], False, split, "random"))
    return pairs, acm_papers, queries


def acm_reference_point(queries: list[dict], acm_papers: dict[str, Paper], judge: OfflineSupportJudge) -> dict:
    """AutoSurvey citation recall/precision of the human-written related work of ACM-CR's test-half
    query papers (none of their sentences is among the development pairs)."""
    claims: list[Claim] = []
    evidence: dict[str, tuple[Evidence, ...]] = {}
    for q in queries:
        if half_of(q["doi"]) != "test":
            continue
        for context in q["contexts"]:
            if "related" not in context["section"].lower():
                continue
            for s in context["sentences"]:
                keys = []
                for marker in s["cites"]:
                    ref = q["references"].get(marker)
                    if ref is None:
                        continue
                    key = f"{q['doi']}#{marker}"
                    target = ref["target"].lower()
                    evidence[key] = evidence_of(acm_papers[target], key) if target in acm_papers else ()
                    keys.append(key)
                if keys:
                    claims.append(Claim(s["text"], tuple(keys), Path(q["doi"]), 0, len(s["text"]), 0, 0))
    results = check_claims(claims, lambda key: evidence.get(key, ()), judge, leave_one_out=True)
    recall, precision = citation_recall_precision(results)
    _, approximate = citation_recall_precision([ClaimResult(r.claim, r.verdict, r.per_key) for r in results])
    judged = [r for r in results if r.verdict.label != "unknown"]
    return {"claims": len(claims), "judged_claims": len(judged),
            "citations_judged": sum(v.label != "unknown" for r in judged for v in r.per_key.values()),
            "citation_recall": round(recall, 4), "citation_precision": round(precision, 4),
            "citation_precision_alone": round(approximate, 4),
            "supported_share": round(sum(r.verdict.label == SUPPORTED for r in judged) / max(len(judged), 1), 4)}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--pairs", type=int, default=1500,
                        help="positive + near-negative pairs in total, both splits (random negatives come on top)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--fit", action="store_true", help="fit the logistic weights on the dev split and print them")
    parser.add_argument("--embed-cache", type=Path, default=None, help="pickle file memoising embeddings")
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/claim_support.json")
    return parser.parse_args(argv)


def fit_weights(x: np.ndarray, y: np.ndarray, dev: np.ndarray) -> dict[str, list[float]]:
    """Logistic weights of the dense and the lexical judge, fitted on the dev pairs (printed)."""
    lexical_columns = [i for i, name in enumerate(FEATURES) if name not in DENSE_FEATURES]
    w_lex = fit_constrained(x[dev][:, lexical_columns], y[dev], [FEATURES[i] for i in lexical_columns])
    full_lexical = [w_lex[0]] + [0.0] * len(FEATURES)
    for i, w in zip(lexical_columns, w_lex[1:], strict=True):
        full_lexical[i + 1] = w
    weights = {"dense": fit_constrained(x[dev], y[dev], FEATURES), "lexical": full_lexical}
    print("fitted on", int(dev.sum()), "dev pairs; features:", ", ".join(FEATURES))
    print("WEIGHTS_DENSE =", tuple(weights["dense"]))
    print("WEIGHTS_LEXICAL =", tuple(weights["lexical"]))
    return weights


def judge_table(pairs: list[Pair], x: np.ndarray, y: np.ndarray, features: list, weights: dict[str, list[float]],
                dense: OfflineSupportJudge) -> list[dict]:
    """AUROC and precision/recall per judge, kind of negatives, dataset and split."""
    partial = dense.partial_threshold
    table: list[dict] = []
    for name, w in (("offline+MiniLM", weights["dense"]), ("offline lexical", weights["lexical"])):
        for negative in ("near", "random"):
            for dataset in ("scisummnet", "acm-cr", "all"):
                for split in ("dev", "test"):
                    if split == "dev" and negative == "random":
                        continue
                    mask = np.array([(dataset == "all" or p.dataset == dataset) and p.split == split
                                     and p.negative in ("", negative) for p in pairs])
                    if not mask.any():
                        continue
                    scores = [logistic(w, row) for row in x[mask]]
                    labels = [bool(v) for v in y[mask]]
                    chosen = [f for f, m in zip(features, mask, strict=True) if m]
                    supported = [dense.label_for(sc, f) == SUPPORTED for sc, f in zip(scores, chosen, strict=True)]
                    prec, rec = precision_recall(supported, labels)
                    prec_p, rec_p = precision_recall([sc >= partial for sc in scores], labels)
                    table.append({"judge": name, "negatives": negative, "dataset": dataset, "split": split,
                                  "pairs": int(mask.sum()),
                                  "auroc": round(auroc(scores, labels), 4),
                                  "precision@t": round(prec, 4), "recall@t": round(rec, 4),
                                  "precision@partial": round(prec_p, 4), "recall@partial": round(rec_p, 4)})
    return table


def threshold_sweep(pairs: list[Pair], x: np.ndarray, dense_weights: list[float]) -> list[dict]:
    """Share of true and wrong citations of the test split scored below each threshold."""
    sweep: list[dict] = []
    test_pos = np.array([p.split == "test" and p.positive for p in pairs])
    for t in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
        row: dict = {"threshold": t, "true_citations_below": 0.0}
        scores_pos = [logistic(dense_weights, r) for r in x[test_pos]]
        row["true_citations_below"] = round(float(np.mean([s < t for s in scores_pos])), 4)
        for negative in ("near", "random"):
            mask = np.array([p.split == "test" and p.negative == negative for p in pairs])
            scores_neg = [logistic(dense_weights, r) for r in x[mask]]
            row[f"{negative}_wrong_below"] = round(float(np.mean([s < t for s in scores_neg])), 4)
        sweep.append(row)
    return sweep


def print_report(table: list[dict], sweep: list[dict], reference: dict, threshold: float, partial: float) -> None:
    header = f"{'judge':16} {'negatives':9} {'dataset':11} {'split':5} {'pairs':>5} {'AUROC':>6} {'P@t':>6} {'R@t':>6} {'P@part':>6} {'R@part':>6}"
    print(header)
    print("-" * len(header))
    for r in table:
        print(f"{r['judge']:16} {r['negatives']:9} {r['dataset']:11} {r['split']:5} {r['pairs']:5d} {r['auroc']:6.3f} "
              f"{r['precision@t']:6.3f} {r['recall@t']:6.3f} {r['precision@partial']:6.3f} {r['recall@partial']:6.3f}")
    print(f"threshold t={threshold:g} (supported), partial={partial:g}")
    print("offline+MiniLM, test split: share of citations scored below a threshold (flagged)")
    print(f"{'threshold':>9} {'true':>6} {'near':>6} {'random':>6}")
    for row in sweep:
        print(f"{row['threshold']:9.2f} {row['true_citations_below']:6.3f} {row['near_wrong_below']:6.3f} "
              f"{row['random_wrong_below']:6.3f}")
    print(f"ACM-CR human related work: {reference['judged_claims']} judged claims, "
          f"citation recall {reference['citation_recall']:.3f}, citation precision {reference['citation_precision']:.3f} "
          f"(citations supporting alone: {reference['citation_precision_alone']:.3f})")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if not (args.data / "scisummnet").is_dir() or not (args.data / "acm-cr").is_dir():
        print(f"claim_support: no ScisummNet/ACM-CR data under {args.data} (use --data)", file=sys.stderr)
        return 2
    started = time.perf_counter()
    inner, embedder_name = make_embedder()
    embedder = CachedEmbedder(inner, args.embed_cache)
    pairs, acm_papers, queries = build_pairs(args.data, embedder, args.pairs, args.seed)
    embedder.save()
    print(f"{len(pairs)} pairs built in {time.perf_counter() - started:.0f}s with {embedder_name}", file=sys.stderr)

    model_id = str(getattr(inner, "model_id", "minilm"))  # the product's id selects the shipped background vectors
    dense = OfflineSupportJudge(embedder.embed, embed_id=model_id)
    lexical = OfflineSupportJudge(None)
    features = [dense.features(p.sentence, evidence_of(p.paper)) for p in pairs]
    embedder.save()
    x = np.array([f.values for f in features], dtype=np.float64)
    y = np.array([p.positive for p in pairs], dtype=np.float64)
    dev = np.array([p.split == "dev" and p.negative != "random" for p in pairs])
    weights = {"dense": list(WEIGHTS_DENSE), "lexical": list(WEIGHTS_LEXICAL)}
    if args.fit:
        weights = fit_weights(x, y, dev)

    threshold = dense.threshold
    partial = dense.partial_threshold
    table = judge_table(pairs, x, y, features, weights, dense)
    sweep = threshold_sweep(pairs, x, weights["dense"])
    dense_final = OfflineSupportJudge(embedder.embed, embed_id=model_id, weights=weights["dense"])
    reference = acm_reference_point(queries, acm_papers, dense_final)
    embedder.save()
    del lexical

    print_report(table, sweep, reference, threshold, partial)
    elapsed = time.perf_counter() - started
    print(f"elapsed {elapsed:.0f}s")
    result = {"embedder": embedder_name, "pairs": len(pairs), "seed": args.seed, "threshold": threshold,
              "partial_threshold": partial, "fitted": args.fit, "weights": weights, "features": list(FEATURES),
              "negatives": {"near": "a random one of the 3 nearest other papers (title+abstract embedding) of the cited paper",
                            "random": "a random other paper of the same collection"},
              "split": "ScisummNet: md5(cited ACL id) % 2, 0 dev, 1 test; ACM-CR: by query paper "
              "(bench/splits.py); negatives from the claim's own half; reference point: test-half query papers", "results": table, "threshold_sweep": sweep,
              "acm_cr_human_related_work": reference, "elapsed_seconds": round(elapsed, 1)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
