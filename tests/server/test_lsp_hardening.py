"""The language server against hostile projects: writes stay inside the project folder."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from tests.server.conftest import StartEditor


async def test_generation_refuses_a_bib_symlinked_outside_the_project(start_editor: StartEditor, demo: Path) -> None:
    outside = demo.parent / "shared-references.bib"
    (demo / "references.bib").rename(outside)
    (demo / "references.bib").symlink_to(outside)
    before = outside.read_text(encoding="utf-8")
    editor = await start_editor(demo)
    uri = editor.open(demo / "main.tex")
    outcome = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="relatex.generateRelatedWork", arguments=[uri]))
    assert outcome["applied"] is False and "outside the project folder" in outcome["error"]
    assert str(outside) in outcome["error"]
    assert editor.applied == [] and outside.read_text(encoding="utf-8") == before
