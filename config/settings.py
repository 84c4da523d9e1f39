"""relatex's configuration: one typed object built from editor settings, init options and env.

Sources, later wins: defaults < environment (``RELATEX_*``) < initialization options <
``workspace/configuration`` section ``relatex``. Invalid values produce a warning and the
default; they never stop the server or the CLI.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, get_args, get_type_hints

from platformdirs import user_cache_dir, user_data_dir

DEFAULT_EMBEDDING_MODEL = "relatex/all-MiniLM-L6-v2-int8"
DEFAULT_LLM_MODEL = "claude-sonnet-5-5"  # from the anthropic SDK model list; 4-5 reaches end of life 2026-11-30


@dataclass(frozen=True)
class KnowledgeBaseSettings:
    data_dir: str = ""  # empty: the per-user data directory
    name: str = "default"
    qdrant_url: str = ""  # set: use a Qdrant server/cluster instead of the embedded store
    qdrant_api_key: str = ""
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    sources: tuple[str, ...] = ()  # files/directories the server indexes on "Rebuild index"

    def resolved_data_dir(self) -> Path:
        base = Path(self.data_dir).expanduser() if self.data_dir else Path(user_data_dir("relatex"))
        return base / self.name


@dataclass(frozen=True)
class OnlineSettings:
    enabled: bool = False
    timeout: float = 10.0
    mailto: str = ""  # OpenAlex / Crossref polite pool
    cache_dir: str = ""

    def resolved_cache_dir(self) -> Path:
        return Path(self.cache_dir).expanduser() if self.cache_dir else Path(user_cache_dir("relatex"))


@dataclass(frozen=True)
class LLMSettings:
    provider: str = "none"  # "none" (offline writer) | "anthropic"
    model: str = DEFAULT_LLM_MODEL
    max_tokens: int = 4096
    temperature: float = 0.3
    timeout: float = 120.0
    base_url: str = ""  # Anthropic-compatible endpoint (Ollama, llama.cpp server, vLLM)


@dataclass(frozen=True)
class GraphSettings:
    breadth: int = 30  # papers kept for writing
    depth: int = 3  # abstract sentences read per paper
    diversity: float = 0.3  # MMR weight w (0: relevance only, 1: diversity only)
    hops: int = 1
    landmark_year: int = 0  # 0: derive from the data
    alpha: float = 0.3  # blend: alpha * relevance + (1 - alpha) * personalised PageRank
    # the blend where the candidates have no citation edges between them (most .bib collections): the
    # PageRank is then only the seeds' search-rank weights; 0.7 is the best mean precision over both
    # ACM-CR development halves, the corpus without citation edges (bench/citation_free_alpha.py)
    alpha_without_citations: float = 0.7
    # a paper is cited only with at least this share of the best candidate's relevance (0: always
    # ``breadth`` papers): the lowest floor reaching precision 0.55 with recall at least hybrid
    # search's on both ACM-CR development halves (seeded and unseeded; bench/section_quality.py --floors)
    relevance_floor: float = 0.85
    # share of the citation cross-encoder's fit of the draft with each paper in its relevance (0: off;
    # retrieval/paper_fit.py): it lifts the selection above hybrid search (bench/section_quality.py)
    paper_fit_weight: float = 0.3
    # ... except a paper that cites or is cited by at least this many seeds (the draft's cited papers
    # and top search hits) by citation edges (0: no exemption): 2 adds ACL recall at no precision
    # cost on the development drafts, and nothing changes without citation edges (bench/floor_variants.py)
    floor_exempt_links: int = 2
    citation_edges: tuple[str, ...] = ()  # extra citation-edge files (ACL citations.jsonl.gz format)


@dataclass(frozen=True)
class JudgeSettings:
    kind: str = "offline"  # "offline" (citation model) | "features" | "onnx" | "llm"
    onnx_model: str = ""  # local directory or hub id of an ONNX NLI model
    threshold: float = 0.5


@dataclass(frozen=True)
class WritingSettings:
    placement: str = "after-introduction"  # | "before-conclusion" | "end"
    section_title: str = "Related Work"
    memory_tokens: int = 4096


@dataclass(frozen=True)
class Settings:
    knowledge_base: KnowledgeBaseSettings = field(default_factory=KnowledgeBaseSettings)
    online: OnlineSettings = field(default_factory=OnlineSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    graph: GraphSettings = field(default_factory=GraphSettings)
    judge: JudgeSettings = field(default_factory=JudgeSettings)
    writing: WritingSettings = field(default_factory=WritingSettings)
    max_unused_hints: int = 200
    debounce_ms: int = 300
    max_document_bytes: int = 2_000_000  # larger .tex documents get sync and one notice, no analysis
    max_findings_per_file: int = 500  # diagnostics per file, then one summary

    def bib_cache_dir(self) -> Path:
        """Where parsed .bib files and their findings are kept across processes."""
        return self.online.resolved_cache_dir() / "bib"


CHOICES: dict[str, tuple[str, ...]] = {
    "llm.provider": ("none", "anthropic"),
    "judge.kind": ("offline", "features", "onnx", "llm"),
    "writing.placement": ("after-introduction", "before-conclusion", "end"),
}
RANGES: dict[str, tuple[float, float]] = {
    "graph.breadth": (1, 500),
    "graph.depth": (1, 50),
    "graph.diversity": (0.0, 1.0),
    "graph.hops": (0, 2),
    "graph.alpha": (0.0, 1.0),
    "graph.alpha_without_citations": (0.0, 1.0),
    "graph.relevance_floor": (0.0, 0.95),
    "graph.paper_fit_weight": (0.0, 1.0),
    "graph.floor_exempt_links": (0, 1000),
    "judge.threshold": (0.0, 1.0),
    "llm.temperature": (0.0, 1.0),
    "llm.max_tokens": (1, 64000),
    "writing.memory_tokens": (256, 100000),
    "max_unused_hints": (0, 100000),
    "debounce_ms": (0, 10000),
    "max_document_bytes": (10_000, 1_000_000_000),
    "max_findings_per_file": (10, 1_000_000),
}

# Settings that only the editor extension reads (e.g. ``server.path``); not an error here.
CLIENT_SETTINGS = frozenset({"server"})

ENV_VARS: dict[str, str] = {
    "RELATEX_DATA_DIR": "knowledge_base.data_dir",
    "RELATEX_KB_NAME": "knowledge_base.name",
    "RELATEX_QDRANT_URL": "knowledge_base.qdrant_url",
    "QDRANT_API_KEY": "knowledge_base.qdrant_api_key",
    "RELATEX_EMBEDDING_MODEL": "knowledge_base.embedding_model",
    "RELATEX_ONLINE": "online.enabled",
    "RELATEX_CACHE_DIR": "online.cache_dir",
    "RELATEX_LLM_PROVIDER": "llm.provider",
    "RELATEX_LLM_MODEL": "llm.model",
    "ANTHROPIC_BASE_URL": "llm.base_url",
    "RELATEX_JUDGE": "judge.kind",
}


def _camel_to_snake(name: str) -> str:
    out = []
    for ch in name:
        if ch.isupper():
            out.append("_" + ch.lower())
        else:
            out.append(ch)
    return "".join(out)


def _coerce(value: Any, target: Any) -> Any:
    """Convert a JSON/env value to the field's type, or raise ValueError."""
    if target is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in {"1", "true", "yes", "on", "0", "false", "no", "off"}:
            return value.lower() in {"1", "true", "yes", "on"}
        raise ValueError(f"expected true/false, got {value!r}")
    if target is int:
        if isinstance(value, bool):
            raise ValueError(f"expected an integer, got {value!r}")
        if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
            return int(value)
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
        raise ValueError(f"expected an integer, got {value!r}")
    if target is float:
        if isinstance(value, bool):
            raise ValueError(f"expected a number, got {value!r}")
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ValueError(f"expected a number, got {value!r}") from None
    if target is str:
        if isinstance(value, str):
            return value
        raise ValueError(f"expected a string, got {value!r}")
    if get_args(target) and tuple in (getattr(target, "__origin__", None),):
        if isinstance(value, str):
            return tuple(v for v in value.split(os.pathsep) if v)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(value)
        raise ValueError(f"expected a list of strings, got {value!r}")
    raise ValueError(f"unsupported setting type {target!r}")


def _apply(obj: Any, raw: Mapping[str, Any], prefix: str, warnings: list[str]) -> Any:
    hints = get_type_hints(type(obj))
    names = {f.name for f in fields(obj)}
    changes: dict[str, Any] = {}
    for raw_key, value in raw.items():
        name = _camel_to_snake(str(raw_key))
        dotted = f"{prefix}{name}"
        if name not in names:
            if not (prefix == "" and name in CLIENT_SETTINGS):
                warnings.append(f"relatex: unknown setting '{prefix}{raw_key}' ignored")
            continue
        current = getattr(obj, name)
        if is_dataclass(current):
            if isinstance(value, Mapping):
                changes[name] = _apply(current, value, f"{dotted}.", warnings)
            else:
                warnings.append(f"relatex: setting '{dotted}' must be an object; default kept")
            continue
        try:
            coerced = _coerce(value, hints[name])
        except ValueError as exc:
            warnings.append(f"relatex: invalid setting '{dotted}': {exc}; default {current!r} kept")
            continue
        if dotted in CHOICES and coerced not in CHOICES[dotted]:
            warnings.append(
                f"relatex: invalid setting '{dotted}': {coerced!r} is not one of "
                f"{', '.join(CHOICES[dotted])}; default {current!r} kept"
            )
            continue
        if dotted in RANGES:
            low, high = RANGES[dotted]
            if not low <= coerced <= high:
                warnings.append(
                    f"relatex: invalid setting '{dotted}': {coerced!r} is outside [{low}, {high}]; "
                    f"default {current!r} kept"
                )
                continue
        changes[name] = coerced
    return replace(obj, **changes) if changes else obj


def _nest(dotted: str, value: Any) -> dict[str, Any]:
    head, _, rest = dotted.partition(".")
    return {head: _nest(rest, value) if rest else value}


def load_settings(
    *layers: Mapping[str, Any] | None,
    env: Mapping[str, str] | None = None,
    base: Settings | None = None,
) -> tuple[Settings, list[str]]:
    """Merge env vars and then each layer (init options, workspace configuration) in order.

    Returns the settings and the warnings for invalid or unknown values.
    """
    settings = base or Settings()
    warnings: list[str] = []
    environ = os.environ if env is None else env
    for var, dotted in ENV_VARS.items():
        if environ.get(var):
            settings = _apply(settings, _nest(dotted, environ[var]), "", warnings)
    for layer in layers:
        if not layer:
            continue
        if not isinstance(layer, Mapping):
            warnings.append("relatex: settings must be an object; ignored")
            continue
        inner = layer.get("relatex", layer)
        if isinstance(inner, Mapping):
            settings = _apply(settings, inner, "", warnings)
    return settings, warnings
