"""Background document frequencies of word stems, for weighting rare terms in claim checking.

A term shared by a citing sentence and a cited paper says more when it is rare in the field
("TnT", "trigram", "ensembl") than when it is common ("result", "model"). The shipped file
``term_df.json.gz`` holds a few hundred random abstracts of the same corpus (a reference for how
similar a claim is to papers in general) with their vectors under the default embedding model
(float16, so the judge need not embed them at start-up), and the document frequencies of the most frequent stems of the abstracts
of the ACL Anthology (anthology+abstracts.bib) and the ACM-CR document collection (acm-dl.bib),
built by ``bench/build_term_statistics.py``; stems below its cut-off count as rare (df = 0).
Loaded lazily, once per process.
"""

from __future__ import annotations

import base64
import gzip
import json
import logging
import math
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

DEFAULT_PATH = Path(__file__).with_name("term_df.json.gz")


@dataclass(frozen=True)
class TermStatistics:
    """Document frequencies of stems in a background corpus of ``documents`` abstracts."""

    documents: int
    df: Mapping[str, int]
    min_df: int = 0  # stems rarer than this were left out of ``df``
    source: str = ""
    background: tuple[str, ...] = ()  # random abstracts of the corpus, a reference for similarity levels
    background_model: str = ""  # the embedding model of ``background_vectors``
    background_vectors: np.ndarray | None = None  # (len(background), dim) float32, precomputed

    def vectors_for(self, model_id: str) -> np.ndarray | None:
        """The precomputed background vectors when they come from ``model_id``, else None."""
        if self.background_vectors is not None and model_id and model_id == self.background_model:
            return self.background_vectors
        return None

    def idf(self, term: str) -> float:
        """Smoothed inverse document frequency, log((N + 1) / (df + 1)); unknown stems count as rare."""
        count = self.df.get(term)
        if count is None:
            count = max(self.min_df - 1, 0) // 2
        return math.log((self.documents + 1) / (count + 1))

    @property
    def max_idf(self) -> float:
        return math.log(self.documents + 1)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"documents": self.documents, "min_df": self.min_df, "source": self.source,
                                   "df": dict(self.df), "background": list(self.background)}
        if self.background_vectors is not None:
            vectors = np.asarray(self.background_vectors, dtype="<f2")
            data["background_vectors"] = {"model": self.background_model, "shape": list(vectors.shape),
                                          "float16": base64.b64encode(vectors.tobytes()).decode("ascii")}
        return data


def uniform_statistics() -> TermStatistics:
    """Statistics that weight every stem alike (the fallback when no data file can be read)."""
    return TermStatistics(documents=1, df={}, min_df=0, source="uniform")


def load_term_statistics(path: Path) -> TermStatistics:
    """Read a statistics file written by ``bench/build_term_statistics.py``."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    background = tuple(str(t) for t in data.get("background", ()))
    model, vectors = "", None
    if isinstance(packed := data.get("background_vectors"), dict):
        shape = tuple(int(n) for n in packed["shape"])
        raw = np.frombuffer(base64.b64decode(packed["float16"]), dtype="<f2")
        if len(shape) != 2 or shape[0] != len(background) or raw.size != shape[0] * shape[1]:
            raise ValueError("background vectors do not match the background texts")
        model, vectors = str(packed["model"]), raw.reshape(shape).astype(np.float32)
    return TermStatistics(int(data["documents"]), {str(k): int(v) for k, v in data["df"].items()},
                          int(data.get("min_df", 0)), str(data.get("source", "")), background, model, vectors)


def save_term_statistics(statistics: TermStatistics, path: Path) -> None:
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as fh:
        json.dump(statistics.to_json(), fh, separators=(",", ":"), sort_keys=True)


_default: TermStatistics | None = None
_lock = threading.Lock()


def default_term_statistics() -> TermStatistics:
    """The shipped statistics, loaded on first use; uniform weights if the file is missing or broken."""
    global _default
    with _lock:
        if _default is None:
            try:
                _default = load_term_statistics(DEFAULT_PATH)
            except (OSError, ValueError, KeyError, TypeError) as exc:
                log.warning("term statistics unavailable (%s): rare terms are not weighted", exc)
                _default = uniform_statistics()
        return _default
