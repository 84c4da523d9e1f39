"""A small knowledge base of examples/demo/library.bib (model-free embedder) and engines around
it, for the workflow tests."""

from __future__ import annotations

from pathlib import Path

from relatex.config.settings import Settings, load_settings
from relatex.retrieval.embedding import HashingEmbedder
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.sources import open_source
from relatex.workflows.engines import EngineOverrides, Engines
from relatex.workflows.related_papers import Draft, load_draft

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "demo"


def build_demo_kb(folder: Path) -> KnowledgeBase:
    """The demo library indexed into ``folder`` (left open for writing)."""
    kb = KnowledgeBase.open(folder, embedder=HashingEmbedder(256))
    kb.index(open_source(EXAMPLE / "library.bib"))
    return kb


def settings_for(data_dir: Path, **graph: object) -> Settings:
    settings, warnings = load_settings({"knowledgeBase": {"dataDir": str(data_dir), "embeddingModel": "hashing-256"},
                                        "graph": dict(graph)}, env={})
    assert warnings == []
    return settings


def fake_engines(kb: object, settings: Settings | None = None, llm: object = None) -> Engines:
    """Engines over a given knowledge base and model, no online authorities."""
    return Engines(settings or Settings(), EngineOverrides(knowledge_base=kb, llm=llm, authorities=[]))


def demo_draft() -> Draft:
    return load_draft(EXAMPLE / "main.tex")
