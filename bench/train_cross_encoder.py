"""Train relatex's citation cross-encoder: (claim, paper) -> one support / relevance logit.

Input: ``[CLS] claim [SEP] title. abstract [SEP]``, truncated longest-first to ``--max-tokens``.
Initialised from all-MiniLM-L6-v2 (``bench/cross_encoder_data.py`` packs it with the data); the
``L3`` variant keeps encoder layers 0, 2 and 4 for a model twice as fast on a CPU.

Training groups (``cross_encoder_groups.py``): a claim with its cited paper and 11 negatives. For a
citing sentence: 5 of the cited paper's 12 nearest ScisummNet training papers and 2 of its ranks
12-40 (base MiniLM vectors; never a paper the citing paper also cites, never a near-duplicate), 1
more random ScisummNet training paper, 3 of its nearest ACL pool papers; every training citing
sentence counts three times per epoch. For each pool paper, one inverse-cloze claim (a sentence of
its abstract against the rest of the paper) with 11 of its neighbours. Loss: cross-entropy over each
group's logits plus binary cross-entropy on each logit (one scale for every claim).
Model selection: near-neighbour AUROC on the development slice (each development claim's cited
paper against its 3 nearest training/development ScisummNet papers). The test half is not in the
packed file. Export: ONNX (opset 17) and dynamic int8 with onnxruntime, checked against torch.

    python bench/cross_encoder_data.py --workdir .devrun           # needs ../shared/data
    python bench/train_cross_encoder.py --workdir .devrun --out .devrun/out [--device cuda]

Runs on a CPU too (``--device cpu``), slowly; ``--steps`` and ``--limit`` make a smoke run.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cross_encoder_groups import (
    GROUP,
    Corpus,
    dev_pairs,
    load_packed,
    tokenizer_for,
    training_groups,
)
from judge_fitting import auroc as labelled_auroc

from relatex.analysis.claims.paper_focus import focus_paper_text

log = logging.getLogger("train_cross_encoder")
PARTS_MB = 15


def build_model(base: Path, layers: Sequence[int] | None) -> Any:
    import torch
    from transformers import AutoModelForSequenceClassification

    model = AutoModelForSequenceClassification.from_pretrained(str(base), num_labels=1, dtype=torch.float32)
    if layers:
        model.bert.encoder.layer = torch.nn.ModuleList(model.bert.encoder.layer[i] for i in layers)
        model.config.num_hidden_layers = len(layers)
    return model


def encode_pairs(tokenizer: Any, pairs: Sequence[tuple[str, str]], device: str) -> dict[str, Any]:
    import torch

    batch = tokenizer.encode_batch(list(pairs))
    return {"input_ids": torch.tensor([e.ids for e in batch], device=device),
            "attention_mask": torch.tensor([e.attention_mask for e in batch], device=device),
            "token_type_ids": torch.tensor([e.type_ids for e in batch], device=device)}


def score(model: Any, tokenizer: Any, pairs: Sequence[tuple[str, str]], device: str, batch: int = 512) -> np.ndarray:
    import torch

    model.eval()
    out = []
    with torch.no_grad(), torch.autocast(device, dtype=torch.bfloat16, enabled=device == "cuda"):
        for i in range(0, len(pairs), batch):
            out.append(model(**encode_pairs(tokenizer, pairs[i:i + batch], device)).logits[:, 0].float().cpu().numpy())
    model.train()
    return np.concatenate(out) if out else np.zeros(0)


def dev_auroc(scores: np.ndarray, kinds: Sequence[str]) -> dict[str, float]:
    kinds_a = np.array(kinds)
    pos = scores[kinds_a == "positive"]
    return {kind: round(_auroc(pos, scores[kinds_a == kind]), 4) for kind in ("near", "random")}


def _auroc(pos: np.ndarray, neg: np.ndarray) -> float:
    return labelled_auroc(list(np.concatenate([pos, neg])), [True] * len(pos) + [False] * len(neg))


def train_variant(name: str, layers: Sequence[int] | None, args: argparse.Namespace, groups: Sequence[Any],
                  dev: Sequence[tuple[str, str, str]], report: dict[str, Any]) -> Any:
    """Train one variant; returns the model holding its best development checkpoint."""
    import torch

    torch.manual_seed(args.seed)
    base = args.workdir / "base"
    tokenizer = tokenizer_for(base, args.max_tokens)
    model = build_model(base, layers).to(args.device).train()
    plan = {"steps": min(args.steps, len(groups) * args.epochs // args.batch)}
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warm = max(1, plan["steps"] // 20)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min((s + 1) / warm, max(0.0, (plan["steps"] - s) / max(1, plan["steps"] - warm))))
    dev_text = [(c, t) for c, t, _ in dev]
    kinds = [k for _, _, k in dev]
    history = [{"step": 0, **dev_auroc(score(model, tokenizer, dev_text, args.device), kinds)}]
    best = (history[0]["near"], {k: v.detach().cpu().clone() for k, v in model.state_dict().items()})
    log.info("%s step 0 dev %s", name, history[0])
    started = time.perf_counter()
    step = 0
    while step < plan["steps"]:
        step += 1
        chunk = [groups[(step * args.batch + i) % len(groups)] for i in range(args.batch)]
        pairs = [(claim, text) for claim, texts in chunk for text in texts]
        with torch.autocast(args.device, dtype=torch.bfloat16, enabled=args.device == "cuda"):
            logits = model(**encode_pairs(tokenizer, pairs, args.device)).logits[:, 0].float()
        grouped = logits.view(len(chunk), -1)
        target = torch.zeros_like(grouped)
        target[:, 0] = 1.0
        # listwise (the cited paper first within its group) plus pointwise (one scale for every claim)
        loss = (torch.nn.functional.cross_entropy(grouped, torch.zeros(len(chunk), dtype=torch.long,
                                                                       device=args.device))
                + torch.nn.functional.binary_cross_entropy_with_logits(
                    grouped, target, pos_weight=torch.tensor(GROUP - 1.0, device=args.device)))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimiser.step()
        schedule.step()
        optimiser.zero_grad(set_to_none=True)
        if step == 5:
            fifth = time.perf_counter()
        if step == 25:  # fit the schedule to the time budget: it decays to zero within it
            fits = int((args.budget_s * 0.9 - (fifth - started)) * 20 / (time.perf_counter() - fifth))
            if fits < plan["steps"]:
                log.info("%s: %d steps fit the %ss budget (planned %d)", name, fits, args.budget_s, plan["steps"])
                plan["steps"] = max(fits, 40)
        late = time.perf_counter() - started > args.budget_s
        if step % args.eval_every == 0 or step == plan["steps"] or late:
            row = {"step": step, "loss": round(float(loss.detach()), 4), "seconds": round(time.perf_counter() - started, 1),
                   **dev_auroc(score(model, tokenizer, dev_text, args.device), kinds)}
            history.append(row)
            log.info("%s %s", name, row)
            if row["near"] > best[0]:
                best = (row["near"], {k: v.detach().cpu().clone() for k, v in model.state_dict().items()})
        if late:
            log.info("%s: stopped at step %d of %d (time budget %ss)", name, step, plan["steps"], args.budget_s)
            break
    model.load_state_dict(best[1])
    report[name] = {"layers": list(layers) if layers else list(range(6)), "steps": plan["steps"], "last_step": step,
                    "history": history, "best_dev_near": best[0]}
    return model.eval()


def export(model: Any, name: str, args: argparse.Namespace, dev: Sequence[tuple[str, str, str]],
           report: dict[str, Any]) -> None:
    """ONNX float and int8 files of a variant, the int8 one checked on the development pairs and
    written to ``--out`` in parts of at most ``PARTS_MB`` MB."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    class Logit(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = model

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).logits[:, 0]

    module = Logit().float().cpu().eval()
    float_path = args.workdir / f"{name}.onnx"
    ids = torch.ones((2, 16), dtype=torch.long)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    torch.onnx.export(module, (ids, torch.ones_like(ids), torch.zeros_like(ids)), str(float_path),
                      input_names=names, output_names=["logit"], opset_version=17, dynamo=False,
                      dynamic_axes={n: {0: "batch", 1: "tokens"} for n in names} | {"logit": {0: "batch"}})
    tokenizer = tokenizer_for(args.workdir / "base", args.max_tokens)
    model.to(args.device)
    torch_scores = score(model, tokenizer, [(c, t) for c, t, _ in dev], args.device)
    chosen: tuple[float, Path] | None = None
    for per_channel in args.per_channel:  # keep the quantisation closer to the float model
        int8_path = args.workdir / f"{name}.int8{'.pc' if per_channel else ''}.onnx"
        quantize_dynamic(str(float_path), str(int8_path), weight_type=QuantType.QInt8, per_channel=per_channel)
        int8_scores = onnx_scores(int8_path, tokenizer, dev)
        correlation = round(float(np.corrcoef(int8_scores, torch_scores)[0, 1]), 4)
        report[name][f"int8{'_per_channel' if per_channel else ''}"] = {
            "mb": round(int8_path.stat().st_size / 1e6, 1), "dev": dev_auroc(int8_scores, [k for _, _, k in dev]),
            "correlation_with_torch": correlation}
        log.info("%s int8 per_channel=%s: %s", name, per_channel, report[name][f"int8{'_per_channel' if per_channel else ''}"])
        if chosen is None or correlation > chosen[0]:
            chosen = (correlation, int8_path)
    assert chosen is not None
    report[name]["shipped_quantisation"] = chosen[1].name
    data = chosen[1].read_bytes()
    size = PARTS_MB * 1_000_000
    for part, start in enumerate(range(0, len(data), size)):
        (args.out / f"{name}.int8.onnx.part{part}").write_bytes(data[start:start + size])


def onnx_scores(path: Path, tokenizer: Any, dev: Sequence[tuple[str, str, str]]) -> np.ndarray:
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    scores = []
    for i in range(0, len(dev), 256):
        feed = encode_pairs(tokenizer, [(c, t) for c, t, _ in dev[i:i + 256]], "cpu")
        scores.append(session.run(None, {k: v.numpy() for k, v in feed.items()})[0])
    return np.concatenate(scores)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=Path(".devrun"))
    parser.add_argument("--out", type=Path, default=Path(".devrun/out"))
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--variants", default="L6,L3", help="L6 (all layers) and/or L3 (layers 0, 2, 4)")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=32, help="claims per step (each with 12 papers)")
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--max-tokens", type=int, default=160)
    parser.add_argument("--focus-words", type=int, default=0,
                        help="read a paper longer than this many words as its title and the abstract "
                             "sentences nearest the claim (relatex.analysis.claims.paper_focus); 0: whole")
    parser.add_argument("--eval-every", type=int, default=500)
    parser.add_argument("--budget-s", type=float, default=170.0, help="training seconds per variant at most")
    parser.add_argument("--dev-claims", type=int, default=1200)
    parser.add_argument("--per-channel", type=lambda v: [x == "1" for x in v.split(",")], default=[True],
                        help="int8 quantisations to try: 1 per channel, 0 per tensor (e.g. 1,0)")
    parser.add_argument("--limit", type=int, default=0, help="smoke run: this many pool papers")
    parser.add_argument("--seed", type=int, default=12)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    log.setLevel(logging.INFO)
    log.propagate = False
    for handler in (logging.StreamHandler(sys.stderr), logging.FileHandler(args.out / "train.log")):
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        log.addHandler(handler)
    logging.getLogger().setLevel(logging.WARNING)
    if args.device == "cuda":
        import torch

        torch.backends.cuda.matmul.allow_tf32 = True
    random.seed(args.seed)
    np.random.seed(args.seed)
    started = time.perf_counter()
    packed = load_packed(args.workdir, args.limit)
    corpus = Corpus(packed, args.workdir / "base", args.device)
    rng = random.Random(args.seed)
    dev = dev_pairs(packed, corpus, rng, args.dev_claims)
    groups = training_groups(packed, corpus, rng, real_repeats=3)
    if args.focus_words:
        dev = [(c, focus_paper_text(c, t, args.focus_words), k) for c, t, k in dev]
        groups = [(c, [focus_paper_text(c, t, args.focus_words) for t in texts]) for c, texts in groups]
    report: dict[str, Any] = {"args": {k: str(v) for k, v in vars(args).items()}, "split_rule": packed["split_rule"],
                              "groups_per_epoch": len(groups), "dev_pairs": len(dev),
                              "documents": len(corpus.ids)}
    log.info("%d groups per epoch, %d development pairs", len(groups), len(dev))
    layer_sets = {"L6": None, "L3": (0, 2, 4)}
    for name in args.variants.split(","):
        model = train_variant(name, layer_sets[name], args, groups, dev, report)
        export(model, name, args, dev, report)
        (args.out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    report["seconds"] = round(time.perf_counter() - started, 1)
    (args.out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    log.info("done in %.0fs", report["seconds"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
