"""Citation-model benchmark: claim support on held-out papers, today's offline judge vs. the model.

Pairs: a real citing sentence (markers and cited surnames removed) with its cited paper (positive),
with a near neighbour of that paper (one of its 3 nearest papers of the same collection by the
product embedder, never a paper the citing paper also cites) and with a random paper of the collection.
- ScisummNet/ACL: split by cited paper (``citation_data.SPLIT_RULE``); the development slice fits
  the calibration and thresholds, the test half is reported; neither was used for training.
- ACM-CR (IR/HCI, never trained on): related-work sentences citing in-collection papers, split by
  query paper (md5(query DOI) % 2: 0 dev, 1 test); the dev half joins the calibration.
Calibration: logistic fit of support over the dev pairs, on the model's cosines (paper, closest
sentence), alone or with the logit of today's feature scorer; the variant with the better dev
near-neighbour AUROC is shipped (the test halves are not looked at to choose). Thresholds: "not supported"
(a warning) below the 5th percentile of dev true citations' probability, so that at most 5% of
true dev citations are flagged; a "partially supported" band only where at least half of the
dev pairs falling into it are wrong citations (it carries information), otherwise none.

    python bench/citation_model.py [--claims 500] [--embed-cache .cache/bench-embed.pkl] [--write-card]

Prints a table and writes bench/results/citation_model.json; ``--write-card`` stores calibration,
thresholds and test figures in analysis/claims/citation_model_card.md.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_embedders import CachedEmbedder, make_embedder
from citation_data import DEFAULT_DATA, ROOT, SPLIT_RULE, Doc, cited_by_citing, load_scisummnet
from claim_data import evidence_of, load_acm, neighbours, strip_author_year
from judge_fitting import auroc, fit_logistic
from splits import half_of

from relatex.analysis.claims.citation_model import CARD_FILE, CitationModelJudge, ClaimEncoder
from relatex.analysis.claims.claim_support import NOT_ADDRESSED, PARTIALLY_SUPPORTED
from relatex.analysis.claims.cross_encoder import CrossEncoder
from relatex.analysis.claims.offline_judge import OfflineSupportJudge

ACM_SPLIT_RULE = "ACM-CR by query paper: md5(lower-cased query DOI) % 2 == 0 dev, 1 test (bench/splits.py)"


@dataclass
class Pair:
    dataset: str
    split: str
    claim: str
    paper: Doc
    kind: str  # "positive", "near" or "random"


def _pairs_for(dataset: str, items: Sequence[tuple[str, str, str, set[str]]], papers: dict[str, Doc],
               near: dict[str, list[str]], rng: random.Random) -> list[Pair]:
    """Positive, near and random pairs for (claim, cited id, split, papers the citing paper cites)."""
    ids = sorted(papers)
    out: list[Pair] = []
    for claim, pid, split, cited_too in items:
        choices = [n for n in near[pid] if n not in cited_too]
        if not choices:
            continue
        other = rng.choice(ids)
        while other == pid or other in cited_too:
            other = rng.choice(ids)
        out += [Pair(dataset, split, claim, papers[pid], "positive"),
                Pair(dataset, split, claim, papers[rng.choice(choices)], "near"),
                Pair(dataset, split, claim, papers[other], "random")]
    return out


def build_pairs(data: Path, embedder: object, n_claims: int, seed: int) -> list[Pair]:
    rng = random.Random(seed)
    docs, citations = load_scisummnet(data)
    cites = cited_by_citing(data)
    pairs: list[Pair] = []
    near = neighbours(docs, embedder)  # type: ignore[arg-type]
    for split, n in (("dev", n_claims), ("test", n_claims)):
        chosen = [c for c in citations if c.split == split]
        rng.shuffle(chosen)
        items = [(c.claim, c.cited, split, cites.get(c.citing, set())) for c in chosen[:n]]
        pairs += _pairs_for("scisummnet", items, docs, near, rng)
    acm_papers, _, queries = load_acm(data)
    acm_docs = {pid: Doc(p.pid, p.title, p.abstract, p.authors) for pid, p in acm_papers.items()}
    acm_near = neighbours(acm_docs, embedder)  # type: ignore[arg-type]
    acm_items: list[tuple[str, str, str, set[str]]] = []
    for q in queries:
        refs = {r["target"].lower() for r in q["references"].values()}
        for context in q["contexts"]:
            if "related" not in context["section"].lower():
                continue
            for s in context["sentences"]:
                for marker in s["cites"]:
                    target = q["references"].get(marker, {}).get("target", "").lower()
                    if target in acm_docs:
                        claim = " ".join(strip_author_year(s["text"], acm_docs[target].authors).split())
                        acm_items.append((claim, target, half_of(q["doi"]), refs))
    pairs += _pairs_for("acm-cr", acm_items, acm_docs, acm_near, rng)
    return pairs


def thresholds(dev_prob: np.ndarray, dev_positive: np.ndarray) -> tuple[float, float]:
    """(warn_below, partial_below) from development probabilities (see the module docstring)."""
    warn = float(np.quantile(dev_prob[dev_positive], 0.05))
    partial = warn
    for q in (0.25, 0.2, 0.15, 0.1):  # the widest band in which wrong citations are the majority
        candidate = float(np.quantile(dev_prob[dev_positive], q))
        band = (dev_prob >= warn) & (dev_prob < candidate)
        if band.sum() >= 20 and (~dev_positive[band]).mean() >= 0.5:
            partial = candidate
            break
    return round(warn, 4), round(partial, 4)


def calibrate(x: np.ndarray, positive: np.ndarray, dev: np.ndarray, pairs: Sequence[Pair]) -> dict:
    """Logistic weights and thresholds fit on the development pairs; probabilities and labels for all."""
    w = fit_logistic(x[dev], positive[dev].astype(np.float64))
    prob = 1 / (1 + np.exp(-(w[0] + x @ w[1:])))
    warn, partial = thresholds(prob[dev], positive[dev])
    labels = np.where(prob < warn, NOT_ADDRESSED, np.where(prob < partial, PARTIALLY_SUPPORTED, "supported"))
    near = dev & np.array([p.kind in ("positive", "near") for p in pairs])
    return {"weights": [round(float(v), 4) for v in w], "prob": prob, "labels": labels,
            "thresholds": {"warn_below": warn, "partial_below": partial},
            "dev_near_auroc": auroc(list(prob[near]), list(positive[near]))}


def failures(pairs: Sequence[Pair], prob: np.ndarray, warn: float, n: int = 20) -> dict[str, list[dict]]:
    """Test failures to read: true citations warned, and near neighbours scored above the cited paper."""
    def row(i: int) -> dict:
        return {"dataset": pairs[i].dataset, "claim": pairs[i].claim, "paper": pairs[i].paper.title,
                "probability": round(float(prob[i]), 4)}

    test = [i for i, p in enumerate(pairs) if p.split == "test"]
    warned = sorted((i for i in test if pairs[i].kind == "positive" and prob[i] < warn), key=lambda i: prob[i])
    inverted = []
    for i in test:  # pairs come in (positive, near, random) triples
        if pairs[i].kind == "near" and prob[i] > prob[i - 1]:
            inverted.append({**row(i), "cited_paper": pairs[i - 1].paper.title,
                             "cited_probability": round(float(prob[i - 1]), 4)})
    return {"true_citations_warned": [row(i) for i in warned[:n]], "near_above_cited": inverted[:n]}


def measure_cost(encoder: ClaimEncoder, claims: Sequence[str], cross: CrossEncoder,
                 pairs: Sequence[Pair], repeats: int = 5) -> dict[str, float]:
    """Seconds to score 100 candidates for one claim (claim encoder on stored vectors; cross-encoder
    on the papers' texts, memo bypassed) and to encode 100 claims."""
    rng = np.random.default_rng(0)
    docs = rng.standard_normal((100, 384)).astype(np.float32)
    from relatex.analysis.claims.citation_model import CitationReranker

    reranker = CitationReranker(encoder)
    reranker.scores(claims[0], docs)
    one: list[float] = []
    for i in range(repeats):
        started = time.perf_counter()
        reranker.scores(claims[i % len(claims)], docs)
        one.append(time.perf_counter() - started)
    started = time.perf_counter()
    encoder.encode(list(claims[:100]))
    batch = time.perf_counter() - started
    texts = list(dict.fromkeys(p.paper.text for p in pairs))[:100]
    crossed: list[float] = []
    for i in range(3):
        started = time.perf_counter()
        cross.logits(f"{claims[i]} ({i})", texts)  # a claim not scored before: nothing memoised
        crossed.append(time.perf_counter() - started)
    return {"rerank_100_candidates_s": round(float(np.median(one)), 4),
            "encode_100_claims_s": round(batch, 4),
            "cross_encoder_100_candidates_s": round(float(np.median(crossed)), 4)}


def demo_check(workdir: Path) -> dict:
    """Claim diagnostics on the example draft, before and after relatex writes its related work.

    Indexes examples/demo/library.bib into a temporary knowledge base, runs ``relatex check
    --claims`` on a copy of the example, then ``relatex generate --write`` and checks again; the
    second count covers the sentences relatex's own writer produced.
    """
    import shutil
    import subprocess

    relatex = str(Path(sys.executable).with_name("relatex"))
    draft = workdir / "demo"
    shutil.rmtree(draft, ignore_errors=True)
    shutil.copytree(ROOT / "examples/demo", draft)
    data = ["--data-dir", str(workdir / "kb"), "--offline"]
    subprocess.run([relatex, "index", str(draft / "library.bib"), *data], check=True, capture_output=True)

    def claims() -> dict:
        run = subprocess.run([relatex, "check", str(draft / "main.tex"), "--claims", "--format", "json", *data],
                             capture_output=True, text=True)
        findings = json.loads(run.stdout or "{}").get("findings", [])
        return {"warnings": sum(f.get("severity") == "warning" and "claim" in f.get("code", "") for f in findings),
                "information": sum(f.get("severity") == "information" and "claim" in f.get("code", "")
                                   for f in findings),
                "claim_findings": [f"{f.get('line')}: {f.get('message')}" for f in findings
                                   if "claim" in f.get("code", "")]}

    def generate(*extra: str) -> tuple[float | None, int]:
        """The time `relatex generate` reports (selection, writing, the support gate) and the papers
        its section cites (distinct keys)."""
        run = subprocess.run([relatex, "generate", str(draft / "main.tex"), *data, *extra], check=True,
                             capture_output=True, text=True)
        reported = re.search(r"([0-9.]+)s\s*$", run.stderr.strip())
        cited = {k.strip() for keys in re.findall(r"\\cite[tp]?\{([^}]*)\}", run.stdout) for k in keys.split(",")}
        return (float(reported.group(1)) if reported else None), len(cited)

    before = claims()
    for cached in (workdir / "kb").glob("*/text-vectors.sqlite*"):
        cached.unlink()  # cold: no sentence embedded yet
    cold, shipped = generate()
    seconds = [generate()[0] for _ in range(5)]  # warm: the text vectors of the first run are reused
    # the whole breadth (30 new papers when the knowledge base has them): no relevance floor
    full = [generate("--relevance-floor", "0") for _ in range(3)]
    full_seconds = [s for s, _ in full]
    papers = {"default": shipped, "relevance_floor_0": full[0][1]}
    subprocess.run([relatex, "generate", str(draft / "main.tex"), "--write", *data], check=True, capture_output=True)
    return {"example_as_shipped": before, "generate_seconds_cold": cold, "generate_seconds": seconds,
            "generate_seconds_relevance_floor_0": full_seconds, "papers_cited": papers,
            "after_generate": claims()}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--claims", type=int, default=500, help="ScisummNet claims per split (dev, test)")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--embed-cache", type=Path, default=None)
    parser.add_argument("--model", type=Path, default=None, help="int8 ONNX claim encoder (default: shipped)")
    parser.add_argument("--cross", type=Path, default=None, help="int8 ONNX cross-encoder (default: shipped)")
    parser.add_argument("--cross-focus-words", type=int, default=None,
                        help="the cross-encoder's focus length (default: the card's)")
    parser.add_argument("--write-card", action="store_true")
    parser.add_argument("--demo", action="store_true", help="also check the example draft (examples/demo)")
    parser.add_argument("--demo-only", action="store_true",
                        help="only the example check (and generate timing), stored in the existing results file")
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/citation_model.json")
    return parser.parse_args(argv)


def score_pairs(pairs: Sequence[Pair], model: CitationModelJudge,
                old: OfflineSupportJudge) -> tuple[list[float], list[float], list[float], list[str]]:
    """The citation model's cosines and the offline judge's score and label of every pair."""
    cosines, sentence_cosines, old_scores, old_labels = [], [], [], []
    for p in pairs:
        evidence = evidence_of(p.paper)  # type: ignore[arg-type]
        cosine, sentence_cosine, _ = model.score(p.claim, evidence)
        cosines.append(cosine)
        sentence_cosines.append(sentence_cosine)
        verdict = old.judge(p.claim, evidence)
        old_scores.append(verdict.score)
        old_labels.append(verdict.label)
    return cosines, sentence_cosines, old_scores, old_labels


def time_warm_judge(encoder: ClaimEncoder, embedder: CachedEmbedder, old: OfflineSupportJudge,
                    pairs: Sequence[Pair], calibration: dict[str, float], cross: CrossEncoder | None = None) -> float:
    """Seconds to judge 100 citations with document and sentence vectors already memoised, with the
    scorers ``calibration`` weighs (whatever the card in the package says)."""
    timed = CitationModelJudge(encoder, embedder.embed)
    timed.features = old
    timed.cross = cross if calibration.get("cross_slope") else None
    with_features = bool(calibration.get("features_slope"))
    sample = [(p.claim, evidence_of(p.paper)) for p in pairs[:300:3]]  # type: ignore[arg-type]
    for claim, evidence in sample:  # document and sentence vectors memoised first, as a warm editor has them
        timed.score(claim, evidence)
    judge_started = time.perf_counter()
    for claim, evidence in sample:
        timed.score(claim, evidence)
        timed.cross_logit(claim, evidence)
        if with_features:
            timed.features_logit(claim, evidence)
    return round(time.perf_counter() - judge_started, 3)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.demo_only:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            demo = demo_check(Path(tmp))
        print(json.dumps(demo, indent=1))
        stored = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
        args.out.write_text(json.dumps({**stored, "demo": demo}, indent=2) + "\n", encoding="utf-8")
        return 0
    if not (args.data / "scisummnet").is_dir():
        print(f"citation_model: no data under {args.data}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    inner, embedder_name = make_embedder()
    embedder = CachedEmbedder(inner, args.embed_cache)
    pairs = build_pairs(args.data, embedder, args.claims, args.seed)
    embedder.save()
    print(f"{len(pairs)} pairs in {time.perf_counter() - started:.0f}s", file=sys.stderr)
    encoder = ClaimEncoder(args.model) if args.model else ClaimEncoder()
    model = CitationModelJudge(encoder, embedder.embed)
    old = OfflineSupportJudge(embedder.embed, embed_id=str(getattr(inner, "model_id", "minilm")))
    cosines, sentence_cosines, old_scores, old_labels = score_pairs(pairs, model, old)
    embedder.save()
    positive = np.array([p.kind == "positive" for p in pairs])
    dev = np.array([p.split == "dev" for p in pairs])
    # one thread, as the product runs it (shipped_cross_encoder)
    focus = encoder.card.cross_focus_words if args.cross_focus_words is None else args.cross_focus_words
    cross = CrossEncoder(args.cross, max_tokens=encoder.card.cross_max_tokens, threads=1, focus_words=focus)
    clipped = np.clip(old_scores, 1e-4, 1 - 1e-4)
    columns = {"cosine": np.array(cosines), "sentence_cosine": np.array(sentence_cosines),
               "features_logit": np.log(clipped / (1 - clipped)),
               "cross_logit": np.array([cross.logits(p.claim, [p.paper.text])[0] for p in pairs])}
    variants = {"citation model": ("cosine", "sentence_cosine"),
                "citation model + features": ("cosine", "sentence_cosine", "features_logit"),
                "cross-encoder": ("cross_logit",),
                "cross-encoder + features": ("features_logit", "cross_logit"),
                "cross-encoder + citation model + features": ("cosine", "sentence_cosine", "features_logit",
                                                              "cross_logit")}
    fitted = {name: calibrate(np.column_stack([columns[c] for c in cols]), positive, dev, pairs)
              for name, cols in variants.items()}
    # the shipped variant is chosen on the development pairs only (near-neighbour AUROC)
    shipped = max(fitted, key=lambda name: fitted[name]["dev_near_auroc"])
    table = evaluate(pairs, {"offline judge (today)": (np.array(old_scores), np.array(old_labels)),
                             **{name: (f["prob"], f["labels"]) for name, f in fitted.items()}})
    weights = dict(zip(("intercept", *variants[shipped]), fitted[shipped]["weights"], strict=True))
    calibration = {"intercept": weights["intercept"], **{slope: weights.get(column, 0.0) for column, slope in (
        ("cosine", "slope"), ("sentence_cosine", "sentence_slope"), ("features_logit", "features_slope"),
        ("cross_logit", "cross_slope"))}}
    cost = measure_cost(encoder, [p.claim for p in pairs if p.kind == "positive"], cross, pairs)
    cost["judge_100_citations_warm_s"] = time_warm_judge(encoder, embedder, old, pairs, calibration, cross)
    print_table(table)
    print(f"shipped: {shipped} (dev near AUROC "
          + ", ".join(f"{n} {f['dev_near_auroc']:.3f}" for n, f in fitted.items()) + f"); {calibration}; "
          f"thresholds {fitted[shipped]['thresholds']}")
    print(f"cost: {cost}")
    result = {"embedder": embedder_name, "model": encoder.model_id, "pairs": len(pairs), "seed": args.seed,
              "split": {"scisummnet": SPLIT_RULE, "acm-cr": ACM_SPLIT_RULE}, "shipped": shipped,
              "variants": {n: {"features": list(variants[n]), "weights": f["weights"],
                               "thresholds": f["thresholds"], "dev_near_auroc": round(f["dev_near_auroc"], 4)}
                           for n, f in fitted.items()},
              "calibration": calibration, "thresholds": fitted[shipped]["thresholds"], "results": table,
              "cost": cost, "elapsed_seconds": round(time.perf_counter() - started, 1)}
    result["failures"] = failures(pairs, fitted[shipped]["prob"], fitted[shipped]["thresholds"]["warn_below"])
    if args.write_card:  # before the example check, which runs with the shipped card
        write_card(result)
    if args.demo:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            result["demo"] = demo_check(Path(tmp))
        print(f"example draft: {result['demo']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


def evaluate(pairs: Sequence[Pair], judges: dict[str, tuple[np.ndarray, np.ndarray]]) -> list[dict]:
    rows: list[dict] = []
    for name, (scores, labels) in judges.items():
        for dataset in ("scisummnet", "acm-cr"):
            for split in ("dev", "test"):
                base = np.array([p.dataset == dataset and p.split == split for p in pairs])
                pos = base & np.array([p.kind == "positive" for p in pairs])
                if not pos.any():
                    continue
                row: dict = {"judge": name, "dataset": dataset, "split": split, "claims": int(pos.sum())}
                for kind in ("near", "random"):
                    neg = base & np.array([p.kind == kind for p in pairs])
                    y = np.concatenate([np.ones(pos.sum(), bool), np.zeros(neg.sum(), bool)])
                    row[f"auroc_{kind}"] = round(auroc(list(np.concatenate([scores[pos], scores[neg]])), list(y)), 4)
                    row[f"{kind}_flagged"] = round(float(np.mean(labels[neg] == NOT_ADDRESSED)), 4)
                row["true_flagged_warning"] = round(float(np.mean(labels[pos] == NOT_ADDRESSED)), 4)
                row["true_partial"] = round(float(np.mean(labels[pos] == PARTIALLY_SUPPORTED)), 4)
                rows.append(row)
    return rows


def print_table(rows: Sequence[dict]) -> None:
    header = (f"{'judge':22} {'dataset':10} {'split':5} {'claims':>6} {'AUC near':>8} {'AUC rand':>8} "
              f"{'true warn':>9} {'true part':>9} {'near warn':>9} {'rand warn':>9}")
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r['judge']:22} {r['dataset']:10} {r['split']:5} {r['claims']:6d} {r['auroc_near']:8.3f} "
              f"{r['auroc_random']:8.3f} {r['true_flagged_warning']:9.3f} {r['true_partial']:9.3f} "
              f"{r['near_flagged']:9.3f} {r['random_flagged']:9.3f}")


_CARD_BLOCK = re.compile(r"```json\s*\n.*?\n```", re.DOTALL)


def write_card(result: dict) -> None:
    """Store calibration, thresholds and test figures in the card's JSON block."""
    text = CARD_FILE.read_text(encoding="utf-8")
    match = _CARD_BLOCK.search(text)
    current = json.loads(match.group(0)[7:-3]) if match else {}
    current.update({"calibration": result["calibration"], "thresholds": result["thresholds"],
                    "test": [r for r in result["results"] if r["split"] == "test"]})
    block = "```json\n" + json.dumps(current, indent=2) + "\n```"
    CARD_FILE.write_text(_CARD_BLOCK.sub(lambda _: block, text, count=1) if match else text + "\n" + block + "\n",
                         encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
