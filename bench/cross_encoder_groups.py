"""The cross-encoder's training data in memory: documents and their base vectors, training groups
(a claim, its cited paper and 11 negatives) and development pairs, from ``cross_data.json.gz``
(``bench/cross_encoder_data.py``). Used by ``bench/train_cross_encoder.py``; needs only numpy,
torch, transformers and tokenizers, so that it runs on a training machine without relatex."""

from __future__ import annotations

import gzip
import json
import logging
import random
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger("train_cross_encoder")
GROUP = 12
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


def paper_text(title: str, abstract: str) -> str:
    """What the cross-encoder reads of a paper (the knowledge base's ``title. abstract``)."""
    return f"{title}. {abstract}" if abstract else title


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
