"""Opening a shipped int8 ONNX model with its tokenizer, on the CPU, with a bounded thread count."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def open_onnx_model(model_path: Path, tokenizer_path: Path, threads: int) -> tuple[Any, Any]:
    """(onnxruntime session, tokenizers Tokenizer); raises whatever loading raises."""
    import onnxruntime as ort
    from tokenizers import Tokenizer

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
    return session, Tokenizer.from_file(str(tokenizer_path))
