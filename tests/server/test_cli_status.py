"""`relatex status`, `relatex index` with no argument (the project's bibliographies) and the
message every command gives when there is no knowledge base: one folder, one command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from relatex.server.cli import chosen_command, main

HASHING = {"knowledgeBase": {"embeddingModel": "hashing-256"}}


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(HASHING), encoding="utf-8")
    return path


def test_status_without_a_knowledge_base_names_the_folder_and_the_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    assert main(["status", "--data-dir", str(data)]) == 1
    out = capsys.readouterr().out
    assert f"no knowledge base at {data / 'default'}" in out
    assert f"relatex index --data-dir {data}" in out


def test_generate_without_a_knowledge_base_says_how_to_build_it(
        demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    assert main(["generate", str(demo / "main.tex"), "--data-dir", str(data)]) == 2
    err = capsys.readouterr().err
    assert f"no knowledge base at {data / 'default'}" in err
    assert f"`relatex index --data-dir {data}` run in the project folder" in err
    assert "Build knowledge base from this project" in err


def test_index_without_sources_indexes_the_project_bibliographies(
        demo: Path, tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    (demo / ".venv").mkdir()
    (demo / ".venv" / "ignored.bib").write_text("@misc{x, title={Ignored}}\n", encoding="utf-8")
    monkeypatch.chdir(demo)
    assert main(["index", "--data-dir", str(data), "--config", str(config), "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert "the project's bibliographies" in captured.err and "ignored.bib" not in captured.err
    assert str(demo / "library.bib") in captured.out and str(demo / "references.bib") in captured.out
    assert main(["status", "--data-dir", str(data), "--config", str(config), "--format", "json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["exists"] and status["records"] == 41 and status["model"] == "hashing-256"
    assert status["age_seconds"] < 60 and status["size_bytes"] > 0
    assert sorted(Path(s).name for s in status["sources"]) == ["library.bib", "references.bib"]


def test_index_without_sources_in_an_empty_folder_fails_clearly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["index", "--data-dir", str(tmp_path / "data")]) == 2
    assert "no .bib files in" in capsys.readouterr().err


def test_only_the_chosen_subcommand_is_loaded() -> None:
    assert chosen_command(["-v", "serve", "--tcp", "x:1"]) == "serve"
    assert chosen_command(["--help"]) is None and chosen_command(["nonsense"]) is None
