"""The ONNX NLI judge, run for real on a tiny classification model built here.

The model: token embeddings (plus token-type embeddings) -> masked mean -> linear layer -> 3 logits,
with fixed weights: "yes" pushes entailment, "no" contradiction, "maybe" a little entailment, every
other word "neutral". Its labels come from config.json in a deliberately unusual order and case.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

from relatex.analysis.claims.claim_support import CONTRADICTED, NOT_ADDRESSED, PARTIALLY_SUPPORTED, SUPPORTED
from relatex.analysis.claims.evidence import Evidence
from relatex.analysis.claims.onnx_judge import JudgeUnavailable, OnnxNliJudge, read_labels, resolve_model_dir

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "yes", "no", "maybe", "cats", "sleep", "dogs", "bark", "the"]
ID2LABEL = {"0": "CONTRADICTION", "1": "Neutral", "2": "entailment"}


def _embeddings() -> np.ndarray:
    table = np.zeros((len(VOCAB), 3), dtype=np.float32)
    for index, word in enumerate(VOCAB):
        if word == "yes":
            table[index] = (0, 0, 30)
        elif word == "no":
            table[index] = (30, 0, 0)
        elif word == "maybe":
            table[index] = (0, 0, 7)
        elif not word.startswith("["):
            table[index] = (0, 2, 0)
    return table


def build_model(directory: Path, id2label: dict[str, str] = ID2LABEL) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    init = [
        numpy_helper.from_array(_embeddings(), "word_embeddings"),
        numpy_helper.from_array(np.zeros((2, 3), dtype=np.float32), "type_embeddings"),
        numpy_helper.from_array(np.eye(3, dtype=np.float32), "classifier_w"),
        numpy_helper.from_array(np.zeros(3, dtype=np.float32), "classifier_b"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "axis_1"),
        numpy_helper.from_array(np.array([2], dtype=np.int64), "axis_2"),
    ]
    nodes = [
        helper.make_node("Gather", ["word_embeddings", "input_ids"], ["words"]),
        helper.make_node("Gather", ["type_embeddings", "token_type_ids"], ["types"]),
        helper.make_node("Add", ["words", "types"], ["tokens"]),
        helper.make_node("Cast", ["attention_mask"], ["mask"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["mask", "axis_2"], ["mask3"]),
        helper.make_node("Mul", ["tokens", "mask3"], ["masked"]),
        helper.make_node("ReduceSum", ["masked", "axis_1"], ["summed"], keepdims=0),
        helper.make_node("ReduceSum", ["mask3", "axis_1"], ["count"], keepdims=0),
        helper.make_node("Div", ["summed", "count"], ["pooled"]),
        helper.make_node("MatMul", ["pooled", "classifier_w"], ["projected"]),
        helper.make_node("Add", ["projected", "classifier_b"], ["logits"]),
    ]
    inputs = [helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])
              for name in ("input_ids", "attention_mask", "token_type_ids")]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 3])]
    graph = helper.make_graph(nodes, "tiny-nli", inputs, outputs, init)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(directory / "model.onnx"))

    tokenizer = Tokenizer(models.WordLevel({w: i for i, w in enumerate(VOCAB)}, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.Lowercase()
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    tokenizer.save(str(directory / "tokenizer.json"))
    (directory / "config.json").write_text(json.dumps({"id2label": id2label, "pad_token_id": 0}), encoding="utf-8")
    return directory


def reference_probabilities(premise: str, hypothesis: str) -> np.ndarray:
    """The same model computed by hand with numpy."""
    index = {w: i for i, w in enumerate(VOCAB)}
    words = ["[CLS]", *premise.lower().split(), "[SEP]", *hypothesis.lower().split(), "[SEP]"]
    logits = _embeddings()[[index.get(w, 1) for w in words]].mean(axis=0).astype(np.float64)
    exp = np.exp(logits - logits.max())
    return exp / exp.sum()


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_model(tmp_path_factory.mktemp("tiny-nli"))


def evidence(*sentences: str, key: str = "p1") -> list[Evidence]:
    return [Evidence(key, None, s, i) for i, s in enumerate(sentences)]


def test_labels_are_read_from_config_in_any_order_and_case() -> None:
    assert read_labels({"id2label": ID2LABEL}) == {"contradiction": 0, "neutral": 1, "entailment": 2}
    assert read_labels({"id2label": {"0": "ENTAILMENT", "1": "not_entailment"}}) == {
        "entailment": 0, "not_entailment": 1}
    with pytest.raises(JudgeUnavailable):
        read_labels({"id2label": {"0": "positive", "1": "negative"}})


def test_inference_matches_the_reference_computation(model_dir: Path) -> None:
    judge = OnnxNliJudge(model_dir, batch_size=2)
    pairs = [("cats sleep yes", "cats sleep"), ("dogs bark", "cats sleep"), ("the no", "the dogs bark loudly"),
             ("maybe", "cats")]
    got = judge.probabilities(pairs)
    expected = np.vstack([reference_probabilities(p, h) for p, h in pairs])
    assert got.shape == (4, 3)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_verdicts(model_dir: Path) -> None:
    judge = OnnxNliJudge(model_dir, window=1)
    supported = judge.judge("cats sleep", evidence("dogs bark", "cats sleep yes"))
    assert (supported.label, supported.evidence, supported.evidence_paper) == (SUPPORTED, "cats sleep yes", "p1")
    assert supported.score == pytest.approx(float(reference_probabilities("cats sleep yes", "cats sleep")[2]), abs=1e-4)
    contradicted = judge.judge("cats sleep", evidence("dogs bark", "cats sleep no"))
    assert (contradicted.label, contradicted.evidence) == (CONTRADICTED, "cats sleep no")
    assert judge.judge("cats sleep", evidence("dogs bark", "the dogs")).label == NOT_ADDRESSED
    partial = judge.judge("cats sleep", evidence("dogs maybe"))
    assert 0.25 <= reference_probabilities("dogs maybe", "cats sleep")[2] < 0.5
    assert partial.label == PARTIALLY_SUPPORTED


def test_windows_join_consecutive_sentences_of_one_paper(model_dir: Path) -> None:
    judge = OnnxNliJudge(model_dir, window=2)
    items = evidence("cats", "sleep", key="a") + evidence("dogs", key="b")
    assert judge.premises(items) == [("cats", "a"), ("sleep", "a"), ("dogs", "b"), ("cats sleep", "a")]
    assert judge.judge_id.startswith(f"onnx/{model_dir.name}/w2")


def test_missing_or_broken_models_give_clear_errors(tmp_path: Path, model_dir: Path) -> None:
    with pytest.raises(JudgeUnavailable, match="not found"):
        OnnxNliJudge(tmp_path / "nowhere")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text(json.dumps({"id2label": ID2LABEL}), encoding="utf-8")
    with pytest.raises(JudgeUnavailable, match="cannot load"):
        OnnxNliJudge(broken)
    with pytest.raises(JudgeUnavailable, match="offline|not installed"):
        resolve_model_dir("someone/some-nli-model-onnx", allow_download=False, cache_dir=tmp_path / "hub")
    assert resolve_model_dir(str(model_dir), allow_download=False) == model_dir
    judge = OnnxNliJudge.from_setting(str(model_dir))
    assert judge.judge("cats", evidence("cats yes")).label == SUPPORTED


def test_hub_models_are_downloaded_once_when_online(tmp_path: Path, model_dir: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in for huggingface_hub: nothing cached at first, a download only when allowed."""
    import sys
    import types

    calls: list[dict] = []

    def snapshot_download(**kwargs: object) -> str:
        calls.append(dict(kwargs))
        if kwargs.get("local_files_only") and len(calls) == 1:
            raise FileNotFoundError("not in the local cache")
        return str(model_dir)

    monkeypatch.setitem(sys.modules, "huggingface_hub", types.SimpleNamespace(snapshot_download=snapshot_download))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with pytest.raises(JudgeUnavailable, match="not cached"):
        resolve_model_dir("org/tiny-nli", allow_download=False, cache_dir=tmp_path)
    calls.clear()
    assert resolve_model_dir("org/tiny-nli", allow_download=True, cache_dir=tmp_path) == model_dir
    assert [c.get("local_files_only", False) for c in calls] == [True, False]
    assert calls[1]["repo_id"] == "org/tiny-nli" and calls[1]["cache_dir"] == str(tmp_path)
    assert resolve_model_dir("org/tiny-nli", allow_download=False, cache_dir=tmp_path) == model_dir
