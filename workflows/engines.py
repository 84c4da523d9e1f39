"""The engines of one configuration, built once from the settings and passed into every use case.

An :class:`Engines` holds the embedder, the knowledge base, the claim judge, the language model
and the authorities entries are verified against. Each is built lazily on first use and kept;
the front ends build one ``Engines`` per settings (the language server rebuilds it when the
settings change) and tests pass fakes through the constructor.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from relatex.config.settings import Settings

if TYPE_CHECKING:  # the engines' modules are imported on first use: a quick start for the server
    import numpy as np

    from relatex.analysis.claims.claim_support import SupportJudge
    from relatex.analysis.verification.bib_verification import Authority
    from relatex.retrieval.embedding import Embedder
    from relatex.retrieval.knowledge_base import KnowledgeBase
    from relatex.retrieval.online.http import OnlineStatus
    from relatex.retrieval.paper_fit import PaperFit
    from relatex.writing.llm import LLM

log = logging.getLogger(__name__)

EmbedFn = Callable[[Sequence[str]], "np.ndarray"]


class _Unset:
    """Marks an engine that was not passed in (None is a legitimate 'absent' value)."""


UNSET: Any = _Unset()


@dataclass(frozen=True)
class EngineOverrides:
    """Engines passed in instead of built from the settings (tests pass fakes here)."""

    knowledge_base: Any = UNSET  # KnowledgeBase | None
    embedder: Any = UNSET  # Embedder | None
    judge: Any = UNSET  # SupportJudge
    llm: Any = UNSET  # LLM | None
    authorities: Any = UNSET  # Sequence[Authority]
    paper_fit: Any = UNSET  # PaperFit | None


class Engines:
    """The engines of one :class:`Settings`: built on first use, shared by every use case.

    The knowledge base is opened read-only; a front end that writes to it (indexing) opens its
    own with :func:`relatex.workflows.knowledge_bases.open_knowledge_base` and calls
    :meth:`reset_knowledge_base` afterwards. ``kb_lock`` serialises use of the knowledge base
    between threads (its SQLite connection is not shared across threads safely otherwise).
    """

    def __init__(self, settings: Settings | None = None, overrides: EngineOverrides | None = None) -> None:
        self.settings = settings or Settings()
        self.overrides = overrides or EngineOverrides()
        self.kb_lock = threading.RLock()
        self._lock = threading.RLock()
        self._kb: KnowledgeBase | None = None
        self._kb_error: str | None = None
        self._kb_tried = False
        self._kb_mismatch = False  # built with another embedding model than the configured one
        self._records_kb: KnowledgeBase | None = None
        self._embedder: Embedder | None = None
        self._embedder_tried = False
        self._judge: SupportJudge | None = None
        self._llm: LLM | None = None
        self._llm_built = False

    # -- knowledge base ---------------------------------------------------------------------
    def knowledge_base(self) -> KnowledgeBase | None:
        """The knowledge base, opened read-only on first use; None when absent or unusable
        (the reason is :attr:`kb_error`)."""
        if self.overrides.knowledge_base is not UNSET:
            kb: KnowledgeBase | None = self.overrides.knowledge_base
            return kb
        with self.kb_lock:
            if self._kb_tried:
                return self._kb
            self._kb_tried = True
            from relatex.workflows.knowledge_bases import open_knowledge_base

            try:
                self._kb = open_knowledge_base(self.settings, read_only=True)
            except ValueError as exc:  # vectors of another model: its records still serve verification
                self._kb_error = str(exc)
                self._kb_mismatch = True
                log.warning("knowledge base unavailable for search: %s", exc)
            except Exception as exc:
                self._kb_error = str(exc)
                log.warning("knowledge base unavailable: %s", exc)
            return self._kb

    @property
    def kb_error(self) -> str | None:
        """Why :meth:`knowledge_base` returned None (None when it did not, or was not asked)."""
        return self._kb_error

    @property
    def kb_opened(self) -> bool:
        """Whether the knowledge base was opened already (no disk access)."""
        return self.overrides.knowledge_base is not UNSET or self._kb is not None

    def records_knowledge_base(self) -> KnowledgeBase | None:
        """The knowledge base for its records alone (verification needs no vectors): the one of
        :meth:`knowledge_base`, or, when that one could not be opened because it was built with
        another embedding model than the configured one, the same folder opened with its own
        model (loaded only if a search asks for it)."""
        kb = self.knowledge_base()
        if kb is not None or not self._kb_mismatch:
            return kb
        with self.kb_lock:
            if self._records_kb is None and self._kb_mismatch:
                from relatex.retrieval.knowledge_base import KnowledgeBase

                try:
                    self._records_kb = KnowledgeBase.open(self.settings.knowledge_base.resolved_data_dir(),
                                                          read_only=True)
                except Exception as exc:  # a broken or busy knowledge base must not stop a check
                    log.warning("knowledge base not used for verification: %s", exc)
                    self._kb_mismatch = False
            return self._records_kb

    def reset_knowledge_base(self) -> None:
        """Close the knowledge base so the next use reopens it (after indexing); the judge,
        which may use its embedder, is rebuilt too."""
        with self.kb_lock:
            if self._kb is not None:
                try:
                    self._kb.close()
                except Exception:
                    log.exception("closing the knowledge base failed")
            if self._records_kb is not None:
                self._records_kb.close()
            self._kb = self._records_kb = None
            self._kb_error = None
            self._kb_tried = self._kb_mismatch = False
        with self._lock:
            self._judge = None

    # -- embedder and judge ---------------------------------------------------------------------
    def embedder(self) -> Embedder | None:
        """The embedder of the knowledge base when one is open, else the configured one (None
        when the model cannot be loaded on this machine)."""
        if self.overrides.embedder is not UNSET:
            passed: Embedder | None = self.overrides.embedder
            return passed
        kb = self.knowledge_base()
        if kb is not None and getattr(kb, "embedder", None) is not None:
            kb_embedder: Embedder = kb.embedder
            return kb_embedder
        with self._lock:
            if not self._embedder_tried:
                self._embedder_tried = True
                from relatex.workflows.knowledge_bases import make_embedder

                try:
                    self._embedder = make_embedder(self.settings)
                except Exception as exc:  # the model may be missing on this machine
                    log.warning("no embedding model (%s); judging with lexical features only", exc)
            return self._embedder

    def judge(self) -> SupportJudge:
        """The claim-support judge of ``settings.judge`` (built once; see ``claim_judges``).

        Lock order: ``kb_lock`` before the engines' own lock, never the reverse (an indexing run
        holds ``kb_lock`` while it resets the engines), so the embedder, which may open the
        knowledge base, is looked up before the own lock is taken."""
        if self.overrides.judge is not UNSET:
            passed: SupportJudge = self.overrides.judge
            return passed
        if self._judge is not None:
            return self._judge
        from relatex.workflows.claim_judges import make_claim_judge

        embedder = self.embedder()
        embed = self._embed_function(embedder)
        with self._lock:
            if self._judge is None:
                self._judge = make_claim_judge(self.settings, embed, embedder.model_id if embedder else "",
                                               llm=self._llm_or_none)
            return self._judge

    def paper_fit(self) -> PaperFit | None:
        """The citation cross-encoder as the selection's paper fit (``settings.graph.paper_fit_weight``);
        None when the weight is 0 or the model cannot be loaded (logged once)."""
        if self.overrides.paper_fit is not UNSET:
            passed: PaperFit | None = self.overrides.paper_fit
            return passed
        if not self.settings.graph.paper_fit_weight:
            return None
        from relatex.analysis.claims.citation_model import shipped_cross_encoder

        cross = shipped_cross_encoder()
        # the draft's title and abstract are no single claim: each paper is read from its start
        return partial(cross.logits, focus=False) if cross is not None else None

    def _embed_function(self, embedder: Embedder | None) -> EmbedFn | None:
        if embedder is None:
            return None
        kb = self.knowledge_base()
        if kb is not None and getattr(kb, "embedder", None) is embedder:
            return kb.embed  # the knowledge base's cached query embeddings
        return embedder.embed

    # -- language model -----------------------------------------------------------------------
    def llm(self) -> LLM | None:
        """The configured language model; None for the offline writer. Raises
        :class:`relatex.writing.llm.LLMError` when the provider is set but unusable (no key)."""
        if self.overrides.llm is not UNSET:
            passed: LLM | None = self.overrides.llm
            return passed
        with self._lock:
            if not self._llm_built:
                from relatex.workflows.language_models import make_llm

                self._llm = make_llm(self.settings)
                self._llm_built = True
            return self._llm

    def _llm_or_none(self) -> LLM | None:
        try:
            return self.llm()
        except Exception as exc:  # a missing key or provider must not stop a check
            log.warning("language model unavailable (%s)", exc)
            return None

    # -- authorities ----------------------------------------------------------------------------
    def authorities(self, status: OnlineStatus | None = None) -> list[Authority]:
        """What entries are verified against: the knowledge base, then (when enabled) the online
        registries, asked through the on-disk HTTP cache."""
        if self.overrides.authorities is not UNSET:
            return list(self.overrides.authorities)
        from relatex.retrieval.authorities import KnowledgeBaseAuthority, online_authorities

        result: list[Authority] = []
        kb = self.records_knowledge_base()
        if kb is not None:
            result.append(KnowledgeBaseAuthority(kb))
        online = self.settings.online
        if online.enabled:
            try:
                result.extend(online_authorities(online.resolved_cache_dir() / "http", timeout=online.timeout,
                                                 mailto=online.mailto, status=status))
            except Exception as exc:
                log.warning("online authorities unavailable: %s", exc)
        return result

    def using_knowledge_base(self) -> AbstractContextManager[Any]:
        """``with engines.using_knowledge_base():`` around calls into the knowledge base."""
        return self.kb_lock

    def reconfigured(self, settings: Settings) -> Engines:
        """The engines of new settings: this object when nothing changed; otherwise new engines
        with the same overrides, keeping the open knowledge base when its settings are the same
        (the other engines are rebuilt on first use)."""
        if settings == self.settings:
            return self
        new = Engines(settings, self.overrides)
        if settings.knowledge_base == self.settings.knowledge_base:
            with self.kb_lock:
                new.kb_lock = self.kb_lock
                new._kb, new._kb_error, new._kb_tried = self._kb, self._kb_error, self._kb_tried
                new._embedder, new._embedder_tried = self._embedder, self._embedder_tried
                self._kb, self._kb_tried = None, False  # handed over: not closed with this object
        self.close()
        return new

    def close(self) -> None:
        """Release what was opened (the knowledge base, the language model's client)."""
        self.reset_knowledge_base()
        with self._lock:
            close = getattr(self._llm, "close", None)
            if callable(close):
                close()
            self._llm = None
            self._llm_built = False
