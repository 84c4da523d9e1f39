"""`relatex related`: text and JSON output, knobs from the command line, clear errors."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from relatex.server.cli import main
from tests.fixtures.graph.graph_kb import DRAFT, build_kb


@pytest.fixture(scope="module")
def kb_options(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    base = tmp_path_factory.mktemp("related-cli")
    build_kb(base / "kbs" / "default").close()
    config = base / "settings.json"
    config.write_text(json.dumps({"knowledgeBase": {"embeddingModel": "hashing-256"}}), encoding="utf-8")
    return ["--data-dir", str(base / "kbs"), "--config", str(config), "--offline"]


def test_json_output_honours_the_knobs(kb_options: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["related", str(DRAFT), *kb_options, "--format", "json", "--breadth", "6", "--depth", "1",
                 "--diversity", "0.5", "--hops", "2", "--relevance-floor", "0"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert len([p for p in data["papers"] if not p["draft_key"]]) == 6  # cited papers come on top
    assert all(len(p["read_sentences"]) <= 1 for p in data["papers"])
    assert {p["layer"] for p in data["papers"]} <= {"foundation", "development", "frontier"}
    assert sorted(data["reading_order"]) == sorted(p["id"] for p in data["papers"])
    assert [t["order"] for t in data["themes"]] == sorted(t["order"] for t in data["themes"])
    cited = [p for p in data["papers"] if p["draft_key"]]
    assert cited and all(p["reasons"][0] == f"seed: cited in the draft as \\cite{{{p['draft_key']}}}" for p in cited)
    assert data["stats"]["graph_nodes"] > len(data["papers"])


def test_the_relevance_floor_keeps_only_papers_close_to_the_draft(
        kb_options: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    def new_papers(*floor: str) -> list[dict[str, Any]]:
        assert main(["related", str(DRAFT), *kb_options, "--format", "json", "--breadth", "12", *floor]) == 0
        return [p for p in json.loads(capsys.readouterr().out)["papers"] if not p["draft_key"]]

    everything = new_papers("--relevance-floor", "0")
    assert len(everything) == 12
    best = max(p["relevance"] for p in everything)
    floored = new_papers("--relevance-floor", "0.9", "--floor-exempt-links", "0")
    assert 0 < len(floored) < 12
    # at least 5 papers are kept in all (the cited ones count); beyond them, only those near the best
    assert sum(p["relevance"] < 0.9 * best - 1e-3 for p in floored) <= 5
    # by default a paper joined to two seeds by citations is kept too (this corpus's papers cite a lot)
    linked = new_papers("--relevance-floor", "0.9")
    assert {p["id"] for p in floored} < {p["id"] for p in linked}
    assert len(new_papers()) <= 12  # the default floor (settings graph.relevance_floor) applies too


def test_text_output_groups_by_theme_and_layer(kb_options: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["related", str(DRAFT), *kb_options, "--breadth", "8"]) == 0
    out = capsys.readouterr().out
    assert re.match(r"Related work for main.tex: \d+ papers in ", out)  # 8 new papers plus the cited ones
    assert "Theme 1: " in out and "why: seed" in out
    assert any(f"  {layer}:" in out for layer in ("foundation", "development", "frontier"))


def test_errors_are_reported_not_raised(kb_options: list[str], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["related", str(tmp_path / "missing.tex"), *kb_options]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert main(["related", str(DRAFT), *kb_options, "--diversity", "2"]) == 2
    assert "diversity" in capsys.readouterr().err
    empty = ["--data-dir", str(tmp_path / "nothing"), *kb_options[2:]]
    assert main(["related", str(DRAFT), *empty]) == 1
    assert "knowledge base" in capsys.readouterr().err
