"""`relatex check` on the bundled example, its broken copy and .bib files, text and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from relatex.server.cli import main
from relatex.server.commands import check_bib, check_claims

REPO = Path(__file__).resolve().parents[2]
BROKEN = REPO / "tests" / "fixtures" / "analysis" / "broken_demo"
B = "tests/fixtures/analysis/broken_demo"

EXPECTED_BROKEN = [
    (f"{B}/main.tex", 37, 42, "error", "undefined-citation"),
    (f"{B}/main.tex", 60, 1, "error", "include-not-found"),
    (f"{B}/main.tex", 61, 1, "warning", "include-outside-root"),
    (f"{B}/references.bib", 43, 10, "warning", "duplicate-work"),
    (f"{B}/references.bib", 155, 10, "warning", "duplicate-work"),
    (f"{B}/references.bib", 163, 16, "warning", "duplicate-key"),
    (f"{B}/references.bib", 172, 3, "error", "bib-parse-error"),
    (f"{B}/references.bib", 177, 10, "warning", "missing-field"),
    (f"{B}/references.bib", 183, 7, "information", "unused-entry"),
]


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


def test_bundled_example_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "examples/demo/main.tex"]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert "no findings" in err
    assert main(["check", "--format", "json", "examples/demo/main.tex"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_a_section_file_is_checked_through_its_root(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", f"{B}/sections/method.tex"]) == 1
    out = capsys.readouterr().out
    assert f"{B}/main.tex:37:42: error: Citation key 'smith2021missing' is not defined in references.bib" in out


def test_broken_copy_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", f"{B}/main.tex"]) == 1
    lines = capsys.readouterr().out.splitlines()
    parsed = []
    for line in lines:
        path, line_no, col, rest = line.split(":", 3)
        severity, message = rest.strip().split(": ", 1)
        assert message.endswith("]")
        code = message.rsplit("[", 1)[1].rstrip("]")
        parsed.append((path, int(line_no), int(col), severity, code))
    assert parsed == EXPECTED_BROKEN
    assert lines[0] == (f"{B}/main.tex:37:42: error: Citation key 'smith2021missing' is not defined in "
                        "references.bib [undefined-citation]")
    assert lines[5] == (f"{B}/references.bib:163:16: warning: Duplicate key 'lin2004rouge' "
                        "(also defined on line 143; the first definition is used) [duplicate-key]")
    assert lines[3] == (f"{B}/references.bib:43:10: warning: 'robertson2009probabilistic' is the same work as "
                        "'robertson2009bm25' (same DOI) [duplicate-work]")
    assert lines[7] == (f"{B}/references.bib:177:10: warning: @article 'nojournal2021hybrid' is missing "
                        "required field: journal/journaltitle [missing-field]")
    assert lines[8] == f"{B}/references.bib:183:7: information: Entry 'unused2022note' is never cited [unused-entry]"


def test_broken_copy_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--format", "json", f"{B}/main.tex"]) == 1
    rows = json.loads(capsys.readouterr().out)
    assert [(r["path"], r["line"], r["column"], r["severity"], r["code"]) for r in rows] == EXPECTED_BROKEN
    assert set(rows[0]) == {"path", "line", "column", "end_line", "end_column", "severity", "code", "message", "data"}
    undefined = rows[0]
    assert (undefined["end_line"], undefined["end_column"]) == (37, 58)
    assert undefined["data"]["key"] == "smith2021missing"
    duplicate = rows[3]
    assert duplicate["data"]["other_keys"] == ["robertson2009bm25"]
    parse_error = rows[6]
    assert parse_error["data"]["key"] == "cormack2009reciprocal" and parse_error["data"]["line"] == 172


def test_max_unused_caps_the_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--format", "json", "--max-unused", "0", f"{B}/main.tex"]) == 1
    rows = [r for r in json.loads(capsys.readouterr().out) if r["code"] == "unused-entry"]
    assert len(rows) == 1 and rows[0]["data"] == {"summary": True, "hidden": 1, "shown": 0}


def test_a_bib_file_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", f"{B}/references.bib"]) == 1
    codes = [line.rsplit("[", 1)[1].rstrip("]") for line in capsys.readouterr().out.splitlines()]
    # without a draft every entry counts as used: no unused entries, all missing fields
    assert sorted(set(codes)) == ["bib-parse-error", "duplicate-key", "duplicate-work", "missing-field"]
    assert main(["check", "examples/demo/library.bib"]) == 0
    assert capsys.readouterr().out == ""


def test_missing_file_and_directory_are_clear_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "no/such/file.tex"]) == 2
    assert "no such file: no/such/file.tex" in capsys.readouterr().err
    assert main(["check", "examples/demo"]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_model_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--model", "examples/demo/main.tex"]) == 0
    out = capsys.readouterr().out
    assert "Title: Grounded Related-Work Drafting for LaTeX Papers with Dense Retrieval over Citation Graphs" in out
    assert "Authors: Maria Lindqvist; Tomasz Okafor; Priya Raman" in out
    assert "- Method [section]  (examples/demo/sections/method.tex:1)" in out
    assert "Citations: 14 commands, 12 distinct keys (package: natbib)" in out
    assert "examples/demo/references.bib (\\bibliography, 12 entries)" in out
    assert main(["check", "--model", "--format", "json", "examples/demo/main.tex"]) == 0
    model = json.loads(capsys.readouterr().out)
    assert [s["title"] for s in model["sections"]] == ["Introduction", "Method", "Experiments", "Conclusion"]
    assert model["sections"][1]["path"] == "examples/demo/sections/method.tex"
    assert len(model["cited_keys"]) == 12
    assert model["bibliography"] == [{"kind": "bibliography", "path": "examples/demo/references.bib", "entries": 12}]
    assert model["abstract_at"]["path"] == "examples/demo/main.tex" and model["abstract_at"]["line"] > 1
    assert model["nocite_keys"] == []


def test_bib_and_claims_results_are_merged(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from relatex.analysis.findings import Code, Finding, Severity

    calls: list[tuple[str, object]] = []

    def bib_findings(check, engines, fix):  # type: ignore[no-untyped-def]
        calls.append(("bib", fix))
        entry = next(iter(check.bibs.values())).entries[0]
        return [Finding(Code.BIB_MISMATCH, Severity.WARNING, "year differs", entry.path,
                        entry.key_start, entry.key_end, {"key": entry.key})]

    def claim_findings(check, engines):  # type: ignore[no-untyped-def]
        calls.append(("claims", None))
        claim = check.project.claims[0]
        finding = Finding(Code.CLAIM_NOT_SUPPORTED, Severity.WARNING, "not supported", claim.path,
                          claim.cite_start, claim.cite_end, {"keys": list(claim.keys)})
        return [finding], {"citation_recall": 0.75, "citation_precision": 0.5}

    monkeypatch.setattr(check_bib, "bib_findings", bib_findings)
    monkeypatch.setattr(check_claims, "claim_findings", claim_findings)
    assert main(["check", "--fix", "--claims", "examples/demo/main.tex"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert calls == [("bib", True), ("claims", None)]
    assert any(line.endswith("year differs [bib-mismatch]") and "references.bib:5:" in line for line in out)
    assert any(line.endswith("not supported [claim-not-supported]") for line in out)
    assert out[-2:] == ["citation_recall: 0.750", "citation_precision: 0.500"]
    assert main(["check", "--format", "json", "--claims", "examples/demo/main.tex"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["claims"] == {"citation_recall": 0.75, "citation_precision": 0.5}
    assert [r["code"] for r in payload["findings"]] == ["claim-not-supported"]
