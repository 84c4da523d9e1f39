"""relatex's citation cross-encoder: reads a claim and a paper together and scores their fit.

Input: ``[CLS] claim [SEP] title. abstract [SEP]``, truncated longest-first to the model card's
``max_tokens``; a paper longer than the card's ``focus_words`` is read as its title and the
abstract sentences nearest the claim (``paper_focus``), as in training; output: one logit
(higher: the paper is the one the sentence cites). Trained on ScisummNet citing sentences and ACL
abstracts (``bench/train_cross_encoder.py``; card: ``citation_model_card.md``). Runs on
onnxruntime and tokenizers, int8, no download, no torch.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from relatex.analysis.claims.onnx_models import open_onnx_model
from relatex.analysis.claims.paper_focus import focus_paper_text

log = logging.getLogger(__name__)

CROSS_MODEL_FILE = Path(__file__).with_name("citation_cross_encoder.int8.onnx")
TOKENIZER_FILE = Path(__file__).with_name("citation_claim_encoder.tokenizer.json")
DEFAULT_MAX_TOKENS = 160


class CrossEncoderUnavailable(RuntimeError):
    """The shipped cross-encoder is missing or cannot be loaded."""


class CrossEncoder:
    """The int8 ONNX cross-encoder; ``logits(claim, papers)`` scores one claim against many papers."""

    def __init__(self, model_path: Path | None = None, tokenizer_path: Path | None = None,
                 max_tokens: int = DEFAULT_MAX_TOKENS, threads: int = 2, memo_size: int = 4096,
                 focus_words: int = 0) -> None:
        model_path = model_path or CROSS_MODEL_FILE
        try:
            self._session, self._tokenizer = open_onnx_model(model_path, tokenizer_path or TOKENIZER_FILE, threads)
        except Exception as exc:
            raise CrossEncoderUnavailable(f"cross-encoder {model_path} cannot be loaded: {exc}") from exc
        self._tokenizer.enable_truncation(max_length=max_tokens, strategy="longest_first")
        self._tokenizer.enable_padding()
        self.max_tokens = max_tokens
        self.focus_words = focus_words
        self._lock = threading.Lock()
        self._memo: OrderedDict[tuple[str, str, int], float] = OrderedDict()
        self._memo_size = memo_size

    def logits(self, claim: str, papers: Sequence[str], batch_size: int = 1,
               focus: bool = True) -> np.ndarray:
        """One logit per paper text (``title. abstract``) for ``claim``; memoised per pair.

        One pair per run by default: the int8 model quantises activations with scales taken over
        the whole batch, so a pair scored beside others (and their padding) moves by up to 0.1.
        ``focus=False`` reads every paper from its start, cut at ``max_tokens`` (the paper fit of a
        whole draft, whose title and abstract are no single claim to focus on).
        """
        words = self.focus_words if focus else 0
        with self._lock:
            known = {p: self._memo[(claim, p, words)] for p in papers if (claim, p, words) in self._memo}
        missing = [p for p in dict.fromkeys(papers) if p not in known]
        for i in range(0, len(missing), batch_size):
            chunk = missing[i:i + batch_size]
            known.update(zip(chunk, self._run([(claim, focus_paper_text(claim, p, words)) for p in chunk]),
                             strict=True))
        with self._lock:
            for paper in missing:
                self._memo[(claim, paper, words)] = known[paper]
            while len(self._memo) > self._memo_size:
                self._memo.popitem(last=False)
        return np.array([known[p] for p in papers], dtype=np.float32)

    def _run(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        encodings = self._tokenizer.encode_batch(list(pairs))
        feed = {"input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64)}
        with self._lock:
            out = self._session.run(None, feed)[0]
        return [float(v) for v in np.asarray(out, dtype=np.float32).reshape(-1)]
