"""Diagnostics end to end: every kind, with source "relatex", a stable code and quick-fix data."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from tests.server.conftest import StartEditor

HOANG = "@inproceedings{hoang2010towards,"


def of(diagnostics: list[types.Diagnostic], code: str) -> list[types.Diagnostic]:
    return [d for d in diagnostics if d.code == code]


def covered(editor_text: str, d: types.Diagnostic) -> str:
    line = editor_text.splitlines()[d.range.start.line]
    return line[d.range.start.character:d.range.end.character]


@pytest.mark.parametrize("profile", ["visual-studio-code", "neovim"])
async def test_undefined_citation_is_an_error_on_the_key(start_editor: StartEditor, demo: Path, profile: str) -> None:
    editor = await start_editor(demo, profile)
    uri = editor.open(demo / "main.tex")
    editor.insert(uri, "datasets of scientific papers \\citep{lu2020multixscience}", " See \\citet{smith2099missing}.")
    diagnostics = await editor.diagnostics(uri, lambda ds: bool(of(ds, "undefined-citation")))
    [undefined] = of(diagnostics, "undefined-citation")
    assert undefined.source == "relatex"
    assert undefined.severity == types.DiagnosticSeverity.Error
    assert isinstance(undefined.data, dict) and undefined.data["code"] == "undefined-citation"
    assert undefined.data["key"] == "smith2099missing"
    assert covered(editor.text(uri), undefined) == "smith2099missing"
    # removing the citation clears the diagnostic
    start = editor.text(uri).index(" See \\citet{smith2099missing}.")
    editor.change(uri, start, start + len(" See \\citet{smith2099missing}."), "")
    await editor.diagnostics(uri, lambda ds: not of(ds, "undefined-citation"))


async def test_bib_problems_are_reported_in_the_bib_file(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo, "neovim")
    tex = editor.open(demo / "main.tex")
    bib = editor.open(demo / "references.bib")
    text = editor.text(bib)
    start = text.index(HOANG)
    end = text.index("\n}\n", start) + 3
    hoang = text[start:end]
    extra = (
        "\n" + hoang  # duplicate key
        + "\n" + hoang.replace("hoang2010towards", "HoangKan2010")  # duplicate work
        + "\n@misc{neverCited2020, title = {A Paper Nobody Cites}, author = {Doe, Jane}, year = {2020}}\n"
        + "\n@article{broken2021, title = {Unclosed\n"
    )
    editor.change(bib, len(text), len(text), extra)
    diagnostics = await editor.diagnostics(
        bib, lambda ds: all(of(ds, c) for c in ("duplicate-key", "duplicate-work", "unused-entry", "bib-parse-error")))
    duplicate_keys = of(diagnostics, "duplicate-key")
    assert len(duplicate_keys) == 1  # once per key, on the repeat, the first definition as related information
    assert all(d.severity == types.DiagnosticSeverity.Warning for d in duplicate_keys)
    assert duplicate_keys[0].range.start.line == editor.text(bib)[: editor.text(bib).rindex(HOANG)].count("\n")
    related = duplicate_keys[0].related_information or []
    assert [r.location.range.start.line for r in related] == [
        editor.text(bib)[: editor.text(bib).index(HOANG)].count("\n")]
    works = of(diagnostics, "duplicate-work")
    assert {covered(editor.text(bib), d) for d in works} >= {"HoangKan2010"}
    assert all(isinstance(d.data, dict) and d.data["code"] == "duplicate-work" for d in works)
    unused = [d for d in of(diagnostics, "unused-entry") if covered(editor.text(bib), d).startswith("neverCited")
              or "neverCited2020" in d.message]
    assert unused and unused[0].severity == types.DiagnosticSeverity.Hint
    assert list(unused[0].tags or []) == [types.DiagnosticTag.Unnecessary]
    assert of(diagnostics, "bib-parse-error")[0].severity in (types.DiagnosticSeverity.Error,
                                                            types.DiagnosticSeverity.Warning)
    # nothing of this belongs to the .tex file
    assert not [d for d in editor.client.diagnostics.get(tex, []) if d.code in ("duplicate-key", "bib-parse-error")]


async def test_unused_hints_are_capped(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo, init={"maxUnusedHints": 2})
    bib = editor.open(demo / "references.bib")
    editor.open(demo / "main.tex")
    extra = "".join(f"\n@misc{{spare{i}, title = {{Spare {i}}}, author = {{Doe, J.}}, year = {{2020}}}}\n"
                    for i in range(6))
    editor.change(bib, len(editor.text(bib)), len(editor.text(bib)), extra)
    diagnostics = await editor.diagnostics(bib, lambda ds: bool(of(ds, "unused-entry")))
    assert len([d for d in of(diagnostics, "unused-entry") if "spare" in d.message]) <= 2


async def test_claim_support_verdicts_on_the_citation(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo)
    uri = editor.open(demo / "main.tex")
    diagnostics = await editor.diagnostics(
        uri, lambda ds: any(d.code == "claim-not-supported" and "Graph neural" in str((d.data or {}).get("claim"))
                            for d in ds))
    [flagged] = [d for d in of(diagnostics, "claim-not-supported") if "Graph neural" in str((d.data or {}).get("claim"))]
    assert flagged.source == "relatex"
    assert flagged.severity == types.DiagnosticSeverity.Warning
    # the finding sits on the citation command, with the CLI's message (workflows.claim_findings)
    assert "(robertson2009probabilistic) does not appear to support" in flagged.message
    assert "closest evidence in robertson2009probabilistic" in flagged.message
    assert isinstance(flagged.data, dict) and flagged.data["keys"] == ["robertson2009probabilistic"]
    assert covered(editor.text(uri), flagged).startswith("\\cite")
    assert covered(editor.text(uri), flagged).endswith("{robertson2009probabilistic}")
