"""Claim support by a natural-language-inference model exported to ONNX.

Any Hugging Face sequence-classification NLI model works: a directory with ``model.onnx`` (or
``onnx/model.onnx``), ``tokenizer.json`` and ``config.json`` whose ``id2label`` names
entailment / neutral / contradiction in any order or case. Premise = an evidence sentence (or a
window of two consecutive sentences of the same paper), hypothesis = the claim; the verdict takes
the maximum entailment and the maximum contradiction over all premises.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from relatex.analysis.claims.claim_support import (
    CONTRADICTED,
    NOT_ADDRESSED,
    PARTIALLY_SUPPORTED,
    SUPPORTED,
    SupportVerdict,
)
from relatex.analysis.claims.evidence import Evidence

log = logging.getLogger(__name__)


class JudgeUnavailable(RuntimeError):
    """The judge cannot be built (model missing, offline, broken files); the message says why."""


def _label_kind(name: str) -> str | None:
    lowered = name.lower()
    if lowered.startswith(("not", "non")):
        return "not_entailment" if "entail" in lowered else None
    if "entail" in lowered:
        return "entailment"
    if "contradict" in lowered:
        return "contradiction"
    if "neutral" in lowered:
        return "neutral"
    return None


def read_labels(config: dict[str, Any]) -> dict[str, int]:
    """Map "entailment"/"neutral"/"contradiction" to output indices from a config's ``id2label``."""
    raw = config.get("id2label")
    if not isinstance(raw, dict) or not raw:
        raise JudgeUnavailable("config.json has no id2label mapping")
    labels: dict[str, int] = {}
    for index, name in raw.items():
        kind = _label_kind(str(name))
        if kind is not None:
            labels.setdefault(kind, int(index))
    if "entailment" not in labels:
        raise JudgeUnavailable(f"config.json id2label has no entailment label: {raw}")
    return labels


def _find_model_file(directory: Path) -> Path:
    for candidate in ("model.onnx", "onnx/model.onnx", "model_quantized.onnx", "onnx/model_quantized.onnx"):
        if (directory / candidate).is_file():
            return directory / candidate
    found = sorted(directory.rglob("*.onnx"))
    if found:
        return found[0]
    raise JudgeUnavailable(f"no .onnx model file in {directory}")


def resolve_model_dir(name_or_dir: str, *, allow_download: bool, cache_dir: Path | None = None) -> Path:
    """A local directory holding the model: the path itself, or a hub snapshot (cached once).

    Downloading needs ``huggingface_hub`` and ``allow_download`` (online mode); otherwise only an
    already cached snapshot is used and a clear :class:`JudgeUnavailable` says what to do.
    """
    path = Path(name_or_dir).expanduser()
    if path.is_dir():
        return path
    if not name_or_dir or path.is_absolute() or name_or_dir.startswith((".", "~")) or name_or_dir.count("/") != 1:
        raise JudgeUnavailable(f"ONNX NLI model directory not found: {name_or_dir!r}")
    try:
        import huggingface_hub as hub
    except ImportError:
        raise JudgeUnavailable(
            f"{name_or_dir!r} is not a local directory and huggingface_hub is not installed; "
            "download the model (model.onnx, tokenizer.json, config.json) and set judge.onnxModel to its directory"
        ) from None
    patterns = ["*.json", "*.onnx", "onnx/*.onnx", "onnx/*.json"]
    kwargs: dict[str, Any] = {"repo_id": name_or_dir, "allow_patterns": patterns}
    if cache_dir is not None:
        kwargs["cache_dir"] = str(cache_dir)
    try:
        return Path(hub.snapshot_download(local_files_only=True, **kwargs))
    except Exception as exc:  # not cached yet: download when allowed
        if not allow_download or os.environ.get("HF_HUB_OFFLINE") == "1":
            raise JudgeUnavailable(
                f"ONNX NLI model {name_or_dir!r} is not cached and relatex is offline; run once with --online "
                "or set judge.onnxModel to a local directory"
            ) from exc
    try:
        return Path(hub.snapshot_download(**kwargs))
    except Exception as exc:
        raise JudgeUnavailable(f"cannot download ONNX NLI model {name_or_dir!r}: {exc}") from exc


class OnnxNliJudge:
    """Entailment / contradiction from an ONNX NLI model on (evidence, claim) pairs.

    ``threshold``: entailment (or contradiction) probability for "supported" ("contradicted");
    entailment from ``partial_ratio * threshold`` gives "partially_supported".
    """

    def __init__(
        self,
        model_dir: Path | str,
        *,
        threshold: float = 0.5,
        partial_ratio: float = 0.5,
        window: int = 2,
        batch_size: int = 16,
        max_length: int = 512,
        threads: int | None = None,
    ) -> None:
        directory = Path(model_dir)
        if not directory.is_dir():
            raise JudgeUnavailable(f"ONNX NLI model directory not found: {directory}")
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer

            config = json.loads((directory / "config.json").read_text(encoding="utf-8"))
            self.labels = read_labels(config)
            self.tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
            limit = int(config.get("max_position_embeddings", max_length) or max_length)
            self.tokenizer.enable_truncation(max_length=min(max_length, limit))
            self.tokenizer.no_padding()
            options = ort.SessionOptions()
            if threads:
                options.intra_op_num_threads = threads
            self.session = ort.InferenceSession(str(_find_model_file(directory)), options,
                                                providers=["CPUExecutionProvider"])
        except JudgeUnavailable:
            raise
        except (OSError, ValueError, RuntimeError, Exception) as exc:
            raise JudgeUnavailable(f"cannot load ONNX NLI model from {directory}: {exc}") from exc
        self.input_names = {i.name for i in self.session.get_inputs()}
        self.pad_id = int(config.get("pad_token_id") or 0)
        self.threshold = threshold
        self.partial_threshold = threshold * partial_ratio
        self.window = max(1, window)
        self.batch_size = batch_size
        self.judge_id = f"onnx/{directory.name}/w{self.window}/t{threshold:g}"

    @classmethod
    def from_setting(
        cls, name_or_dir: str, *, allow_download: bool = False, cache_dir: Path | None = None, **kwargs: Any
    ) -> OnnxNliJudge:
        return cls(resolve_model_dir(name_or_dir, allow_download=allow_download, cache_dir=cache_dir), **kwargs)

    def probabilities(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """Softmax class probabilities, shape (len(pairs), n_labels), for (premise, hypothesis) pairs."""
        rows: list[np.ndarray] = []
        for i in range(0, len(pairs), self.batch_size):
            batch = pairs[i:i + self.batch_size]
            encodings = self.tokenizer.encode_batch([(p, h) for p, h in batch])
            width = max(len(e.ids) for e in encodings)
            ids = np.full((len(batch), width), self.pad_id, dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            types = np.zeros((len(batch), width), dtype=np.int64)
            for row, enc in enumerate(encodings):
                ids[row, : len(enc.ids)] = enc.ids
                mask[row, : len(enc.ids)] = 1
                types[row, : len(enc.type_ids)] = enc.type_ids
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
            logits = np.asarray(self.session.run(None, {k: v for k, v in feeds.items() if k in self.input_names})[0],
                                dtype=np.float64)
            logits -= logits.max(axis=1, keepdims=True)
            exp = np.exp(logits)
            rows.append(exp / exp.sum(axis=1, keepdims=True))
        return np.vstack(rows) if rows else np.zeros((0, 3))

    def premises(self, evidence: Sequence[Evidence]) -> list[tuple[str, str]]:
        """(premise text, paper key): each sentence and each window of consecutive sentences."""
        result: list[tuple[str, str]] = [(item.sentence, item.paper_key) for item in evidence]
        if self.window > 1:
            for start in range(len(evidence) - 1):
                group = evidence[start:start + self.window]
                if len(group) == self.window and len({g.paper_key for g in group}) == 1:
                    result.append((" ".join(g.sentence for g in group), group[0].paper_key))
        return result

    def judge(self, claim: str, evidence: Sequence[Evidence]) -> SupportVerdict:
        premises = self.premises(evidence)
        probs = self.probabilities([(p, claim) for p, _ in premises])
        entail = probs[:, self.labels["entailment"]]
        contra = probs[:, self.labels["contradiction"]] if "contradiction" in self.labels else np.zeros(len(probs))
        best_e, best_c = int(np.argmax(entail)), int(np.argmax(contra))
        e_max, c_max = float(entail[best_e]), float(contra[best_c])
        if e_max >= self.threshold and e_max >= c_max:
            label, best, score = SUPPORTED, best_e, e_max
        elif c_max >= self.threshold:
            label, best, score = CONTRADICTED, best_c, e_max
        elif e_max >= self.partial_threshold:
            label, best, score = PARTIALLY_SUPPORTED, best_e, e_max
        else:
            label, best, score = NOT_ADDRESSED, best_e, e_max
        text, key = premises[best]
        return SupportVerdict(label, round(score, 4), text, key, self.judge_id,
                              f"entailment {e_max:.2f}, contradiction {c_max:.2f}")
