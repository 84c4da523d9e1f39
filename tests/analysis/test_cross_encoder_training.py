"""Smoke test of the cross-encoder's training script: a tiny corpus, two steps, export (needs the [train] extra)."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("all_minilm_l6_v2")
pytest.importorskip("safetensors")

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import cross_encoder_data  # noqa: E402
import cross_encoder_groups  # noqa: E402
import train_cross_encoder as training  # noqa: E402

TOPICS = ["parsing", "tagging", "translation", "summarisation", "sentiment", "coreference", "entailment",
          "segmentation", "alignment", "retrieval", "generation", "dialogue", "morphology", "semantics",
          "phonology", "lexicons", "grammars", "embeddings"]


def paper(topic: str, i: int) -> list[str]:
    return [f"A study of {topic} number {i}",
            f"We study {topic} in depth. Our {topic} model uses features of kind {i}. "
            f"It improves {topic} accuracy on a benchmark. The {topic} results hold across languages."]


def test_two_steps_train_export_and_report(tmp_path: Path) -> None:
    papers = {f"P{i:02d}-{t}": [*paper(t, i), "dev" if i < 4 else "train"] for i, t in enumerate(TOPICS)}
    claims = [[f"Earlier work on {t} used a model with features of kind {i}.", pid, f"C{i}", papers[pid][2]]
              for i, (t, pid) in enumerate(zip(TOPICS, papers, strict=True))]
    pool = {f"Q{i:02d}": paper(t, 100 + i) for i, t in enumerate(TOPICS)}
    packed = {"split_rule": "test", "papers": papers, "claims": claims * 2, "cites": {"C1": [list(papers)[2]]},
              "pool": pool}
    with gzip.open(tmp_path / "cross_data.json.gz", "wt", encoding="utf-8") as fh:
        json.dump(packed, fh)
    cross_encoder_data.pack_base_model(tmp_path / "base")
    out = tmp_path / "out"
    assert training.main(["--workdir", str(tmp_path), "--out", str(out), "--device", "cpu", "--variants", "L3",
                          "--steps", "2", "--batch", "2", "--eval-every", "1", "--dev-claims", "4",
                          "--max-tokens", "48", "--focus-words", "20"]) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["L3"]["last_step"] == 2 and len(report["L3"]["history"]) == 3
    assert report["L3"]["int8_per_channel"]["correlation_with_torch"] > 0.5
    parts = sorted(out.glob("L3.int8.onnx.part*"))
    assert parts and sum(p.stat().st_size for p in parts) > 1_000_000


def test_an_inverse_cloze_claim_leaves_its_sentence_out() -> None:
    import random

    title, abstract = paper("parsing", 1)
    claim, rest = cross_encoder_groups.inverse_cloze(title, abstract, random.Random(0)) or ("", "")
    assert claim and claim not in rest and rest.startswith(title)
    assert cross_encoder_groups.inverse_cloze("T", "One sentence only.", random.Random(0)) is None
