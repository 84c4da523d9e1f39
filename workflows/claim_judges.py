"""The claim-support judge named by the settings, built the same way for the CLI and the server.

``judge.kind``: "offline" (default) is relatex's citation model, which needs the knowledge base's
default embedder for paper vectors and falls back to the feature scorer ("features") with one log
line when the model or that embedder is missing; "onnx" an ONNX NLI model; "llm" the configured
language model. A judge that cannot be built falls back to the offline one with a warning.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import numpy as np

from relatex.analysis.claims.claim_support import SupportJudge
from relatex.config.settings import Settings
from relatex.workflows.language_models import make_llm
from relatex.writing.llm import LLM

log = logging.getLogger(__name__)

EmbedFn = Callable[[Sequence[str]], np.ndarray]
_MISMATCH_LOGGED: set[str] = set()


def make_claim_judge(settings: Settings, embed: EmbedFn | None, embed_id: str,
                     llm: Callable[[], LLM | None] | None = None) -> SupportJudge:
    """The judge of ``settings.judge.kind``; ``embed``/``embed_id``: the knowledge base's embedder;
    ``llm``: the configured language model (for ``judge.kind`` "llm"; built from the settings
    when not given)."""
    kind = settings.judge.kind
    if kind == "onnx":
        from relatex.analysis.claims.onnx_judge import JudgeUnavailable, OnnxNliJudge

        try:
            return OnnxNliJudge.from_setting(
                settings.judge.onnx_model, allow_download=settings.online.enabled,
                cache_dir=settings.online.resolved_cache_dir() / "models", threshold=settings.judge.threshold,
            )
        except JudgeUnavailable as exc:
            log.warning("ONNX claim judge unavailable (%s); using the offline judge", exc)
    elif kind == "llm":
        from relatex.analysis.claims.llm_judge import LlmSupportJudge

        try:
            model: LLM | None = llm() if llm is not None else make_llm(settings)
        except Exception as exc:  # a missing key or provider must not stop the check
            log.warning("LLM claim judge unavailable (%s); using the offline judge", exc)
            model = None
        if model is not None:
            return LlmSupportJudge(model)
        log.warning("judge.kind is 'llm' but no language model is configured; using the offline judge")
    if kind != "features":
        shipped = citation_model_judge(embed, embed_id)
        if shipped is not None:
            return shipped
    return feature_judge(settings, embed, embed_id)


def citation_model_judge(embed: EmbedFn | None, embed_id: str) -> SupportJudge | None:
    """The shipped citation model over the knowledge base's vectors; None (logged) when unusable."""
    from relatex.analysis.claims.citation_model import (
        CitationModelJudge,
        shipped_cross_encoder,
        shipped_encoder,
    )

    encoder = shipped_encoder()
    if encoder is None:
        return None
    if embed is None or encoder.card.document_embedder.lower() not in embed_id.lower():
        if embed_id not in _MISMATCH_LOGGED:  # once per embedder: judges are built for every check
            _MISMATCH_LOGGED.add(embed_id)
            log.warning("citation model needs the %s embedder (knowledge base: %r); using the feature-based "
                        "offline judge", encoder.card.document_embedder, embed_id or "none")
        return None
    cross = shipped_cross_encoder() if encoder.card.cross_slope else None  # loaded only for a usable judge
    if encoder.card.cross_slope and cross is None:
        return None  # its calibration needs the cross-encoder (shipped_cross_encoder logged why)
    from relatex.analysis.claims.offline_judge import OfflineSupportJudge

    return CitationModelJudge(encoder, embed, OfflineSupportJudge(embed, embed_id=embed_id), cross)


def feature_judge(settings: Settings, embed: EmbedFn | None, embed_id: str) -> SupportJudge:
    """The feature-based offline scorer (embedding, lexical overlap and simple checks)."""
    from relatex.analysis.claims.offline_judge import OfflineSupportJudge

    return OfflineSupportJudge(embed, embed_id=embed_id, threshold=settings.judge.threshold)
