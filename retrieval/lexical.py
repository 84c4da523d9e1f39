"""BM25 over title + abstract (+ keywords), persisted beside the vectors (bm25s).

The index is rebuilt from the record store after each indexing run and written to a new
generation directory; readers load the generation named in the record store, so they never see
a half-written index.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
from collections.abc import Callable, Collection, Iterable
from functools import lru_cache
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)
logging.getLogger("bm25s").setLevel(logging.WARNING)  # it logs every build at DEBUG

_WORD = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")
_WORD_V2 = re.compile(r"\b\w\w+\b")

# Version 2 (the default for new indexes): bm25s's word pattern and short English stop list with
# Snowball stemming and k1 1.5, chosen on ACM-CR's development half over version 1 (a long stop list
# with writing words) and over bm25s's defaults (bench/lexical_baselines.py). An index records the
# version it was built with, and its queries are tokenized the same way.
TOKENIZER_VERSION = 2
DEFAULT_K1 = 1.5
STOPWORDS_V2 = frozenset(
    """a an and are as at be but by for if in into is it no not of on or such that the their then there
    these they this to was will with""".split()
)

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i if in into is it its itself just me more most my
    myself no nor not now of off on once only or other our ours ourselves out over own same she should so
    some such than that the their theirs them themselves then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you your
    yours yourself yourselves also et al via using based use used paper propose proposed show""".split()
)


@lru_cache(maxsize=2)
def _stemmer(name: str = "snowball") -> Callable[[str], str]:
    if name == "none":
        return lambda word: word
    try:
        from nltk.stem.snowball import EnglishStemmer
    except ImportError:  # pragma: no cover - nltk is a declared dependency
        log.warning("nltk is not installed: BM25 runs without stemming")
        return lambda word: word
    return lru_cache(maxsize=500_000)(EnglishStemmer().stem)


def stemmer_name() -> str:
    """"snowball" when the Snowball stemmer is available, else "none" (recorded with the index)."""
    try:
        import nltk.stem.snowball  # noqa: F401
    except ImportError:  # pragma: no cover
        return "none"
    return "snowball"


def tokenize(text: str, stemmer: str = "snowball", version: int = TOKENIZER_VERSION) -> list[str]:
    """Lower-case words minus stop words, Snowball-stemmed (the same for documents and queries)."""
    stem = _stemmer(stemmer)
    pattern, stopwords = (_WORD_V2, STOPWORDS_V2) if version >= 2 else (_WORD, STOPWORDS)
    out = []
    for word in pattern.findall(text.lower()):
        if word in stopwords or len(word) < 2:
            continue
        out.append(stem(word))
    return out


class LexicalIndex:
    """A BM25 index over documents identified by record ids."""

    def __init__(self, ids: list[str], retriever: object | None, stemmer: str = "snowball",
                 version: int = TOKENIZER_VERSION) -> None:
        self.ids = ids
        self.stemmer = stemmer
        self.version = version
        self._retriever = retriever
        self._pos = {rid: i for i, rid in enumerate(ids)}

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, record_id: object) -> bool:
        return record_id in self._pos

    @classmethod
    def build(
        cls,
        documents: Iterable[tuple[str, str]],
        k1: float = DEFAULT_K1,
        b: float = 0.75,
        cancel: Callable[[], bool] | None = None,
    ) -> LexicalIndex:
        """Index (record id, text) pairs."""
        import bm25s

        stemmer = stemmer_name()
        ids: list[str] = []
        corpus: list[list[str]] = []
        for rid, text in documents:
            ids.append(rid)
            corpus.append(tokenize(text, stemmer, TOKENIZER_VERSION))
            if cancel is not None and len(ids) % 5000 == 0 and cancel():
                raise InterruptedError("lexical index build cancelled")
        if not ids:
            return cls([], None)
        logging.getLogger("bm25s").setLevel(logging.WARNING)
        retriever = bm25s.BM25(k1=k1, b=b)
        retriever.index(corpus, show_progress=False)
        return cls(ids, retriever, stemmer)

    def search(self, query: str, k: int, exclude: Collection[str] = ()) -> list[tuple[str, float]]:
        """The k best (record id, BM25 score) pairs with a positive score."""
        if self._retriever is None or k <= 0:
            return []
        tokens = tokenize(query, self.stemmer, self.version)
        if not tokens:
            return []
        want = min(len(self.ids), k + len(exclude))
        docs, scores = self._retriever.retrieve([tokens], k=want, show_progress=False, n_threads=1)  # type: ignore[attr-defined]
        hits: list[tuple[str, float]] = []
        for doc, score in zip(np.asarray(docs)[0], np.asarray(scores)[0], strict=True):
            if score <= 0:
                break
            rid = self.ids[int(doc)]
            if rid in exclude:
                continue
            hits.append((rid, float(score)))
            if len(hits) == k:
                break
        return hits

    def best(self, query: str, k: int) -> list[tuple[str, float]]:
        """The same BM25 scores as :meth:`search`, summed straight from the index's postings
        (a fraction of a millisecond on a bibliography, where bm25s' batch retrieval costs one);
        ties keep document order. For interactive lookups such as completion."""
        scores = getattr(self._retriever, "scores", None)
        vocab = getattr(self._retriever, "vocab_dict", None)
        if not isinstance(scores, dict) or not isinstance(vocab, dict) or "indptr" not in scores:
            return self.search(query, k)
        term_ids = [vocab[t] for t in tokenize(query, self.stemmer, self.version) if t in vocab]
        if not term_ids or k <= 0:
            return []
        data, indices, indptr = scores["data"], scores["indices"], scores["indptr"]
        total = np.zeros(len(self.ids), dtype=np.float32)
        for term in term_ids:
            lo, hi = indptr[term], indptr[term + 1]
            total[indices[lo:hi]] += data[lo:hi]
        k = min(k, len(self.ids))
        top = np.argpartition(-total, k - 1)[:k] if k < len(self.ids) else np.arange(len(self.ids))
        top = top[np.lexsort((top, -total[top]))]
        return [(self.ids[int(i)], float(total[i])) for i in top if total[i] > 0]

    def save(self, directory: Path) -> None:
        """Write to ``directory`` atomically (a temporary directory renamed into place)."""
        tmp = directory.with_name(directory.name + f".tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        (tmp / "ids.json").write_text(json.dumps(self.ids), encoding="utf-8")
        (tmp / "tokenizer.json").write_text(json.dumps({"stemmer": self.stemmer, "version": self.version}),
                                            encoding="utf-8")
        if self._retriever is not None:
            self._retriever.save(str(tmp / "bm25"))  # type: ignore[attr-defined]
        shutil.rmtree(directory, ignore_errors=True)
        os.replace(tmp, directory)

    @classmethod
    def load(cls, directory: Path) -> LexicalIndex:
        import bm25s

        ids = json.loads((directory / "ids.json").read_text(encoding="utf-8"))
        retriever = bm25s.BM25.load(str(directory / "bm25")) if ids else None
        try:
            recorded = json.loads((directory / "tokenizer.json").read_text(encoding="utf-8"))
            stemmer, version = str(recorded["stemmer"]), int(recorded.get("version", 1))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            stemmer, version = "snowball", 1
        return cls(ids, retriever, stemmer, version)
