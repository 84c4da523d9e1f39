"""The generate-section use case with fake engines: the offline writer, the planned edits, the
fallback rule for a model that fails, and the reasons it refuses a request."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from relatex.analysis.edits import apply_edits
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.workflows.failures import BAD_REQUEST, MODEL_FAILED, UseCaseCancelled, UseCaseFailed
from relatex.workflows.generate_section import GenerateRequest, generate_section
from relatex.workflows.related_papers import Draft, SelectionKnobs
from relatex.writing.llm import LLMError
from tests.workflows.kb_fixture import build_demo_kb, demo_draft, fake_engines, settings_for


class BrokenModel:
    """A language model whose every call fails for good (the provider is unavailable)."""

    model = "broken-model"

    def __init__(self, kind: str = "unavailable") -> None:
        self.kind = kind
        self.calls = 0

    def complete(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        raise LLMError("the provider is unavailable", kind=self.kind)

    def stream(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        raise LLMError("the provider is unavailable", kind=self.kind)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeBase]:
    kb = build_demo_kb(tmp_path_factory.mktemp("generate") / "default")
    yield kb
    kb.close()


def test_the_offline_writer_section_and_its_edits(kb: KnowledgeBase, tmp_path: Path) -> None:
    draft = demo_draft()
    reports: list[float] = []
    result = generate_section(GenerateRequest(draft, SelectionKnobs(breadth=6)), fake_engines(kb, settings_for(tmp_path)),
                              progress=lambda message, fraction: reports.append(fraction or 0.0))
    assert result.writer == "offline writer" and not result.section.used_llm
    assert result.section.cited_keys and result.section_text().startswith("\\section{Related Work}\n")
    assert reports == sorted(reports) and reports[-1] == 0.96
    [section_edit, *bib_edits] = result.edits
    assert section_edit.path == draft.project.root
    new_text = apply_edits(draft.project.files[draft.project.root].text, [section_edit])
    assert result.section.latex.strip() in new_text
    assert new_text.index("\\section{Introduction}") < new_text.index("\\section{Related Work}")
    if result.section.new_entries:
        assert result.target_bib is not None and bib_edits and bib_edits[0].path == result.target_bib
        for entry in result.section.new_entries:
            assert f"{{{entry.key}," in bib_edits[0].new_text


def test_a_failing_model_falls_back_only_when_asked(kb: KnowledgeBase, tmp_path: Path) -> None:
    model = BrokenModel()
    engines = fake_engines(kb, settings_for(tmp_path), llm=model)
    request = GenerateRequest(demo_draft(), SelectionKnobs(breadth=4))
    with pytest.raises(UseCaseFailed, match="unavailable") as caught:
        generate_section(request, engines)
    assert caught.value.kind == MODEL_FAILED and model.calls
    result = generate_section(dataclasses.replace(request, fallback_offline=True), engines)
    assert not result.section.used_llm and any("offline writer was used" in w for w in result.section.warnings)
    configuration_error = fake_engines(kb, settings_for(tmp_path), llm=BrokenModel(kind="authentication"))
    with pytest.raises(UseCaseFailed) as caught:  # a wrong configuration is never papered over
        generate_section(dataclasses.replace(request, fallback_offline=True), configuration_error)
    assert caught.value.kind == MODEL_FAILED


def test_use_llm_off_never_calls_the_model(kb: KnowledgeBase, tmp_path: Path) -> None:
    model = BrokenModel()
    engines = fake_engines(kb, settings_for(tmp_path), llm=model)
    result = generate_section(GenerateRequest(demo_draft(), SelectionKnobs(breadth=4), use_llm=False), engines)
    assert model.calls == 0 and result.writer == "offline writer"


def test_a_draft_without_abstract_or_a_bad_placement_is_refused(kb: KnowledgeBase, tmp_path: Path) -> None:
    draft = demo_draft()
    engines = fake_engines(kb, settings_for(tmp_path))
    no_abstract = Draft(dataclasses.replace(draft.project, abstract=""), draft.bibs)
    with pytest.raises(UseCaseFailed, match="has no abstract") as caught:
        generate_section(GenerateRequest(no_abstract), engines)
    assert caught.value.kind == BAD_REQUEST
    with pytest.raises(UseCaseFailed, match="unknown placement"):
        generate_section(GenerateRequest(draft, placement="nowhere"), engines)


def test_cancellation_stops_before_anything_is_planned(kb: KnowledgeBase, tmp_path: Path) -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(UseCaseCancelled):
        generate_section(GenerateRequest(demo_draft()), fake_engines(kb, settings_for(tmp_path)), cancel=cancel)
