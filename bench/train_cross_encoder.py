"""Train relatex's citation cross-encoder: (claim, paper) -> one support / relevance logit.

Input: ``[CLS] claim [SEP] title. abstract [SEP]``, truncated longest-first to ``--max-tokens``.
Initialised from all-MiniLM-L6-v2 (``bench/cross_encoder_data.py`` packs it with the data); the
``L3`` variant keeps encoder layers 0, 2 and 4 for a model twice as fast on a CPU.

Training groups: a claim with its cited paper and 11 negatives: 7 of the cited paper's nearest
documents (base MiniLM vectors, training papers and the ACL pool only, never a paper the citing
paper also cites, never a near-duplicate), 2 from ranks 12-40, 2 random. Claims: every training
citing sentence (three times per epoch) and one inverse-cloze claim per pool paper (a sentence of
its abstract against the rest of the paper). Loss: cross-entropy over each group's logits.
Model selection: near-neighbour AUROC on the development slice (each development claim's cited
paper against its 3 nearest training/development ScisummNet papers). The test half is not in the
packed file. Export: ONNX (opset 17) and dynamic int8 with onnxruntime, checked against torch.

    python bench/cross_encoder_data.py --workdir .devrun           # needs ../shared/data
    python bench/train_cross_encoder.py --workdir .devrun --out .devrun/out [--device cuda]

Runs on a CPU too (``--device cpu``), slowly; ``--steps`` and ``--limit`` make a smoke run.
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import random
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger("train_cross_encoder")
GROUP = 12
PARTS_MB = 15
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


def paper_text(title: str, abstract: str) -> str:
    """What the cross-encoder reads of a paper (the knowledge base's ``title. abstract``)."""
    return f"{title}. {abstract}" if abstract else title


def auroc(pos: Sequence[float], neg: Sequence[float]) -> float:
    scores = np.concatenate([np.asarray(pos, float), np.asarray(neg, float)])
    ranks = scores.argsort().argsort() + 1.0
    n_pos, n_neg = len(pos), len(neg)
    return float((ranks[:n_pos].sum() - n_pos * (n_pos + 1) / 2) / max(1, n_pos * n_neg))


def load_packed(workdir: Path, limit: int) -> dict[str, Any]:
    with gzip.open(workdir / "cross_data.json.gz", "rt", encoding="utf-8") as fh:
        packed: dict[str, Any] = json.load(fh)
    if limit:
        packed["pool"] = dict(list(packed["pool"].items())[:limit])
        packed["claims"] = packed["claims"][: limit * 2]
    return packed


def tokenizer_for(base: Path, max_tokens: int) -> Any:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(base / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=max_tokens, strategy="longest_first")
    tokenizer.enable_padding()
    return tokenizer


def embed(base: Path, texts: Sequence[str], device: str) -> np.ndarray:
    """Base MiniLM sentence vectors (mean pooling, unit length), for choosing negatives."""
    import torch
    from transformers import AutoModel

    model = AutoModel.from_pretrained(str(base), dtype=torch.float32).to(device).eval()
    tokenizer = tokenizer_for(base, 256)
    out = []
    with torch.no_grad(), torch.autocast(device, dtype=torch.bfloat16, enabled=device == "cuda"):
        for i in range(0, len(texts), 512):
            batch = tokenizer.encode_batch(list(texts[i:i + 512]))
            ids = torch.tensor([e.ids for e in batch], device=device)
            mask = torch.tensor([e.attention_mask for e in batch], device=device)
            hidden = model(input_ids=ids, attention_mask=mask).last_hidden_state.float()
            mean = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
            out.append(torch.nn.functional.normalize(mean, dim=-1).cpu().numpy())
    return np.vstack(out)


def nearest(vectors: np.ndarray, rows: Sequence[int], columns: np.ndarray, k: int,
            device: str) -> tuple[np.ndarray, np.ndarray]:
    """For each row, the indices (into ``columns``) of its k most similar columns, and the cosines."""
    import torch

    matrix = torch.tensor(vectors[columns], device=device)
    found, cosines = [], []
    for i in range(0, len(rows), 2048):
        query = torch.tensor(vectors[list(rows[i:i + 2048])], device=device)
        top = (query @ matrix.T).topk(min(k, len(columns)), dim=1)
        found.append(top.indices.cpu().numpy())
        cosines.append(top.values.float().cpu().numpy())
    return np.vstack(found), np.vstack(cosines)


class Corpus:
    """Documents (training papers + pool, then development papers), their vectors and neighbours."""

    def __init__(self, packed: dict[str, Any], base: Path, device: str) -> None:
        papers = packed["papers"]
        self.train_ids = [p for p, v in papers.items() if v[2] == "train"] + list(packed["pool"])
        self.dev_ids = [p for p, v in papers.items() if v[2] == "dev"]
        self.ids = self.train_ids + self.dev_ids
        texts = {p: paper_text(v[0], v[1]) for p, v in papers.items()}
        texts.update({p: paper_text(v[0], v[1]) for p, v in packed["pool"].items()})
        self.text = texts
        self.index = {p: i for i, p in enumerate(self.ids)}
        started = time.perf_counter()
        self.vectors = embed(base, [texts[p] for p in self.ids], device)
        log.info("embedded %d documents in %.1fs", len(self.ids), time.perf_counter() - started)
        self.device = device

    def neighbours(self, pids: Sequence[str], among: Sequence[str], k: int) -> dict[str, list[str]]:
        columns = np.array([self.index[p] for p in among])
        found, cosines = nearest(self.vectors, [self.index[p] for p in pids], columns, k + 1, self.device)
        return {pid: [among[j] for j, c in zip(row, sims, strict=True) if among[j] != pid and c < 0.97][:k]
                for pid, row, sims in zip(pids, found, cosines, strict=True)}


def negatives(pid: str, near: list[str], exclude: set[str], pool: Sequence[str], rng: random.Random,
              hard: int = 7, mid: int = 2) -> list[str]:
    """``hard`` of the 12 nearest, ``mid`` of ranks 12-40, the rest of ``GROUP - 1`` random from
    ``pool``; never ``pid`` or ``exclude``."""
    allowed = [n for n in near if n not in exclude and n != pid]
    chosen = rng.sample(allowed[:12], min(hard, len(allowed[:12])))
    chosen += rng.sample(allowed[12:40], min(mid, len(allowed[12:40])))
    for _ in range(50 * GROUP):  # bounded: a small pool may not hold enough papers
        if len(chosen) >= GROUP - 1:
            break
        other = rng.choice(pool)
        if other != pid and other not in exclude and other not in chosen:
            chosen.append(other)
    return chosen


def inverse_cloze(title: str, abstract: str, rng: random.Random) -> tuple[str, str] | None:
    """An abstract sentence (not the first) and the rest of the paper, or None."""
    sentences = _SENTENCE.split(abstract)
    choices = [i for i, s in enumerate(sentences) if i > 0 and 8 <= len(s.split()) <= 50]
    if len(sentences) < 3 or not choices:
        return None
    i = rng.choice(choices)
    return sentences[i], paper_text(title, " ".join(sentences[:i] + sentences[i + 1:]))


def training_groups(packed: dict[str, Any], corpus: Corpus, rng: random.Random,
                    real_repeats: int) -> list[tuple[str, list[str]]]:
    """(claim, [positive text, negative texts...]) for one epoch, shuffled."""
    cited = sorted({c[1] for c in packed["claims"] if c[3] == "train"})
    near = corpus.neighbours(cited + list(packed["pool"]), corpus.train_ids, 40)
    # negatives of a real claim are mostly ScisummNet training papers, whose abstracts (PDF text)
    # look like the cited paper's: otherwise the style of the text would tell the positive apart
    scisummnet = [p for p, v in packed["papers"].items() if v[2] == "train"]
    near_same = corpus.neighbours(cited, scisummnet, 40)
    cites = {k: set(v) for k, v in packed["cites"].items()}
    groups: list[tuple[str, list[str]]] = []
    for _ in range(real_repeats):
        for claim, pid, citing, split in packed["claims"]:
            if split == "train":
                exclude = cites.get(citing, set())
                negs = negatives(pid, near_same[pid], exclude, scisummnet, rng, hard=5, mid=2)[:8]
                negs += [n for n in negatives(pid, near[pid], exclude | set(negs), corpus.train_ids, rng, 3, 0)
                         if n not in negs][:GROUP - 1 - len(negs)]
                groups.append((claim, [corpus.text[pid]] + [corpus.text[n] for n in negs]))
    for pid, (title, abstract) in packed["pool"].items():
        cloze = inverse_cloze(title, abstract, rng)
        if cloze:
            negs = negatives(pid, near[pid], set(), corpus.train_ids, rng)
            groups.append((cloze[0], [cloze[1]] + [corpus.text[n] for n in negs]))
    groups = [g for g in groups if len(g[1]) == GROUP]  # a tiny corpus may not fill every group
    rng.shuffle(groups)
    return groups


def dev_pairs(packed: dict[str, Any], corpus: Corpus, rng: random.Random, n: int) -> list[tuple[str, str, str]]:
    """(claim, paper text, 'positive' | 'near' | 'random') for development claims."""
    scisummnet = list(packed["papers"])
    claims = [c for c in packed["claims"] if c[3] == "dev"]
    rng.shuffle(claims)
    near = corpus.neighbours(sorted({c[1] for c in claims}), scisummnet, 3)
    cites = {k: set(v) for k, v in packed["cites"].items()}
    out = []
    for claim, pid, citing, _ in claims[:n]:
        choices = [p for p in near[pid] if p not in cites.get(citing, set())]
        if choices:
            out += [(claim, corpus.text[pid], "positive"), (claim, corpus.text[rng.choice(choices)], "near"),
                    (claim, corpus.text[rng.choice([p for p in scisummnet if p != pid])], "random")]
    return out


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
    return {"near": round(auroc(pos, scores[kinds_a == "near"]), 4),
            "random": round(auroc(pos, scores[kinds_a == "random"]), 4)}


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
