"""The CLI and the editor report the same findings on the example: code, severity, file, character
range, message and claim score (`relatex check --bib --claims` against the language server's
published diagnostics), with one knowledge base and the same settings."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from relatex.server.cli import main
from relatex.server.documents import uri_to_path
from relatex.server.positions import PositionMapper
from tests.server.conftest import StartEditor, demo, kb_data_dir, start_editor  # noqa: F401  (fixtures)

SEVERITY = {types.DiagnosticSeverity.Error: "error", types.DiagnosticSeverity.Warning: "warning",
            types.DiagnosticSeverity.Information: "information", types.DiagnosticSeverity.Hint: "hint"}
Row = tuple[str, int, int, str, str, str, float | None]


def shared_settings(data_dir: Path, cache: Path) -> dict[str, Any]:
    return {"knowledgeBase": {"dataDir": str(data_dir), "embeddingModel": "hashing-256"},
            "online": {"enabled": False, "cacheDir": str(cache)}}


def offset(text: str, line: int, column: int) -> int:
    """A 1-based (line, column in code points) of the CLI as a character offset."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    return starts[line - 1] + column - 1


def cli_rows(project: Path, settings: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> set[Row]:
    config = tmp_path / "settings.json"
    config.write_text(json.dumps(settings), encoding="utf-8")
    assert main(["check", str(project / "main.tex"), "--bib", "--claims", "--format", "json",
                 "--config", str(config)]) == 0
    payload = json.loads(capsys.readouterr().out)
    rows: set[Row] = set()
    for row in payload["findings"]:
        path = (Path(row["path"]) if Path(row["path"]).is_absolute() else Path.cwd() / row["path"]).resolve()
        text = path.read_text(encoding="utf-8")
        score = row["data"].get("score") if row["code"].startswith("claim-") else None
        rows.add((path.relative_to(project).as_posix(), offset(text, row["line"], row["column"]),
                  offset(text, row["end_line"], row["end_column"]), row["code"], row["severity"], row["message"],
                  score))
    return rows


def editor_rows(published: dict[str, list[types.Diagnostic]], project: Path) -> set[Row]:
    rows: set[Row] = set()
    for uri, diagnostics in published.items():
        path = uri_to_path(uri)
        mapper = PositionMapper(path.read_text(encoding="utf-8"))
        for d in diagnostics:
            start, end = mapper.offsets(d.range)
            data = d.data if isinstance(d.data, dict) else {}
            score = data.get("score") if str(d.code).startswith("claim-") else None
            rows.add((path.relative_to(project).as_posix(), start, end, str(d.code),
                      SEVERITY[types.DiagnosticSeverity(d.severity)], d.message, score))
    return rows


async def test_cli_and_editor_report_identical_findings(start_editor: StartEditor, demo: Path,  # noqa: F811
                                                        kb_data_dir: Path, tmp_path: Path,  # noqa: F811
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    bib = demo / "references.bib"  # one entry the knowledge base knows better: a verification finding
    text = bib.read_text(encoding="utf-8")
    start = text.index("@inproceedings{bhagavatula2018content,")
    year = text.index("year      = {2018}", start)
    bib.write_text(text[:year] + "year      = {2003}" + text[year + len("year      = {2018}"):], encoding="utf-8")
    settings = shared_settings(kb_data_dir, tmp_path / "cache")
    expected = cli_rows(demo, settings, tmp_path, capsys)
    codes = {row[3] for row in expected}
    assert {row[0] for row in expected if row[3] == "bib-mismatch"} == {"references.bib", "main.tex"}
    assert "claim-not-supported" in codes  # the deliberate miscitation of the example
    assert all(row[6] is not None for row in expected if row[3].startswith("claim-"))
    editor = await start_editor(demo, settings=settings)
    uri = editor.open(demo / "main.tex")
    try:
        await editor.diagnostics(uri, lambda ds: editor_rows(dict(editor.client.diagnostics), demo) == expected)
    except AssertionError:
        pass  # the comparison below shows the difference
    assert editor_rows(dict(editor.client.diagnostics), demo) == expected
