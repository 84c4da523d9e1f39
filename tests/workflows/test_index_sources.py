"""The index use case: sources named or found in the project, progress, cancellation, status."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from relatex.workflows.engines import Engines
from relatex.workflows.failures import BAD_REQUEST, UseCaseFailed
from relatex.workflows.index_sources import IndexRequest, index_sources, plan_index
from tests.workflows.kb_fixture import EXAMPLE, settings_for


@pytest.fixture
def project(tmp_path: Path) -> Path:
    target = tmp_path / "demo"
    shutil.copytree(EXAMPLE, target)
    return target


def test_the_project_bibliographies_are_indexed_by_path(project: Path, tmp_path: Path) -> None:
    engines = Engines(settings_for(tmp_path / "data"))
    plan = plan_index(IndexRequest(project_folder=project), engines.settings)
    assert plan.from_project and sorted(p.name for p in plan.paths) == ["library.bib", "references.bib"]
    assert {s.name for s in plan.sources} == {str(p) for p in plan.paths}
    reports: list[tuple[str, float | None]] = []
    summaries: list[object] = []
    result = index_sources(plan, engines, progress=lambda m, f: reports.append((m, f)), on_summary=summaries.append)
    assert result.completed and result.records == 41 and len(summaries) == 2
    assert result.status.exists and result.status.records == 41 and result.status.model == "hashing-256"
    assert any("library.bib" in message for message, _ in reports)
    fractions = [f for _, f in reports if f is not None]
    assert fractions == sorted(fractions)
    assert engines.knowledge_base() is not None and len(engines.knowledge_base() or []) == 41  # reopened
    engines.close()


def test_named_sources_and_their_errors(project: Path, tmp_path: Path) -> None:
    settings = settings_for(tmp_path / "data")
    plan = plan_index(IndexRequest(sources=(project / "library.bib",), source_name="lib", limit=5), settings)
    assert not plan.from_project and [s.name for s in plan.sources] == ["lib"]
    for request in (IndexRequest(sources=(tmp_path / "missing.bib",)),
                    IndexRequest(sources=(project / "library.bib", project / "references.bib"), source_name="x"),
                    IndexRequest(project_folder=tmp_path / "empty")):
        with pytest.raises(UseCaseFailed) as caught:
            plan_index(request, settings)
        assert caught.value.kind == BAD_REQUEST


def test_a_cancelled_run_keeps_nothing_half_done(project: Path, tmp_path: Path) -> None:
    engines = Engines(settings_for(tmp_path / "data"))
    cancel = threading.Event()
    cancel.set()
    result = index_sources(plan_index(IndexRequest(project_folder=project), engines.settings), engines, cancel)
    assert not result.completed and result.summaries == ()
    engines.close()


def test_a_name_too_long_for_a_file_is_a_missing_file_not_a_crash(tmp_path: Path) -> None:
    from relatex.workflows.kb_sources import project_bibliographies

    folder, name = tmp_path / "draft", "x" * 300  # longer than a file name may be
    folder.mkdir()
    (folder / "main.tex").write_text(f"\\documentclass{{article}}\n\\usepackage{{{name}}}\n\\begin{{document}}\n"
                                     f"\\bibliography{{{name}}}\n\\end{{document}}\n", encoding="utf-8")
    (folder / "refs.bib").write_text("@article{a, title={A}}\n", encoding="utf-8")
    assert [p.name for p in project_bibliographies(folder)] == ["refs.bib"]
