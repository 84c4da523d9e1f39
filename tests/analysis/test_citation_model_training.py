"""Smoke test of the citation model's training script: a handful of pairs, one step (needs the [train] extra)."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("all_minilm_l6_v2")

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import train_citation_model as training  # noqa: E402
from citation_data import Citation, paper_split  # noqa: E402


def test_the_split_rule_is_by_cited_paper_and_stable() -> None:
    splits = [paper_split(f"P{i:02d}-{i * 7:04d}") for i in range(400)]
    assert {"train", "dev", "test"} == set(splits)
    assert 0.4 < splits.count("test") / 400 < 0.6
    assert paper_split("A00-1031") == paper_split("A00-1031")


def test_one_training_step_updates_the_weights(tmp_path: Path) -> None:
    import torch

    rng = np.random.default_rng(0)
    ids = [f"D{i}" for i in range(12)]
    vectors = {pid: v / np.linalg.norm(v) for pid, v in zip(ids, rng.standard_normal((12, 384)).astype(np.float32),
                                                            strict=True)}
    claims = [Citation(f"claim number {i} about topic {i % 4}", "", ids[i % 4], f"C{i}", "train") for i in range(6)]
    prepared = {"hard": {ids[i]: ids[4:8] for i in range(4)}, "cites": {"C0": {ids[1]}}}
    args = argparse.Namespace(hard=2, random=4)
    model = training.ClaimEncoder(training.extract_base_model(tmp_path), freeze_layers=4)
    tokenizer = training.embedder_tokenizer()
    index = {pid: i for i, pid in enumerate(ids)}
    matrix = torch.tensor(np.vstack([vectors[p] for p in ids]))
    optimiser = torch.optim.AdamW(model.parameters(), lr=1e-4)
    before = [p.detach().clone() for p in model.parameters()]
    loss, scale = training.train_step(model, tokenizer, claims, prepared, index, matrix, random.Random(0), args)
    assert torch.isfinite(loss) and scale == pytest.approx(20.0, rel=1e-3)
    loss.backward()
    optimiser.step()
    assert any(not torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))
