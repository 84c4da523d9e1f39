"""The language server against hostile projects: writes stay inside the project folder."""

from __future__ import annotations

import asyncio
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


async def test_a_client_that_refuses_the_second_file_gets_the_first_undone(start_editor: StartEditor,
                                                                        demo: Path) -> None:
    editor = await start_editor(demo, "emacs")
    uri = editor.open(demo / "main.tex")
    bib_uri = editor.open(demo / "references.bib")
    before = {uri: editor.text(uri), bib_uri: editor.text(bib_uri)}
    full_apply = editor.apply
    calls: list[types.WorkspaceEdit] = []

    def apply_first_file_only(edit: types.WorkspaceEdit) -> types.ApplyWorkspaceEditResult:
        calls.append(edit)
        if len(calls) > 1:  # the undo is applied like any edit
            return full_apply(edit)
        operations = [op for op in edit.document_changes or [] if isinstance(op, types.TextDocumentEdit)]
        assert len(operations) == 2  # the section and the new entries
        full_apply(types.WorkspaceEdit(document_changes=[operations[0]]))
        second = operations[1].text_document.uri.rsplit("/", 1)[-1]
        return types.ApplyWorkspaceEditResult(
            applied=False, failed_change=1,
            failure_reason=f"Edits on '{second}' require version 0, you have 1")

    editor.apply = apply_first_file_only  # type: ignore[method-assign]
    outcome = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="relatex.generateRelatedWork", arguments=[uri]))
    assert outcome["applied"] is False and "was undone" in outcome["error"], outcome
    assert len(calls) == 2
    assert editor.text(uri) == before[uri] and editor.text(bib_uri) == before[bib_uri]



async def test_a_client_that_rolls_back_a_refused_edit_itself_is_not_undone_twice(start_editor: StartEditor,
                                                                                  demo: Path) -> None:
    # VS Code declares failureHandling "textOnlyTransactional": it rolls a refused text edit back itself,
    # so the server must not send an undo of its own (it would be refused, or undo the text a second time)
    editor = await start_editor(demo, "visual-studio-code")
    uri = editor.open(demo / "main.tex")
    editor.open(demo / "references.bib")
    before = editor.text(uri)
    full_apply = editor.apply
    calls: list[types.WorkspaceEdit] = []

    def apply_then_roll_back(edit: types.WorkspaceEdit) -> types.ApplyWorkspaceEditResult:
        calls.append(edit)
        if len(calls) > 1:
            return full_apply(edit)
        operations = [op for op in edit.document_changes or [] if isinstance(op, types.TextDocumentEdit)]
        full_apply(types.WorkspaceEdit(document_changes=[operations[0]]))  # shown a moment, then rolled back
        roll_back = lambda: editor.change(uri, 0, len(editor.text(uri)), before)  # noqa: E731
        asyncio.get_running_loop().call_later(0.3, roll_back)
        return types.ApplyWorkspaceEditResult(applied=False, failed_change=1,
                                              failure_reason="version mismatch")

    editor.apply = apply_then_roll_back  # type: ignore[method-assign]
    outcome = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="relatex.generateRelatedWork", arguments=[uri]))
    assert outcome["applied"] is False and "keeps none" in outcome["error"], outcome
    await asyncio.sleep(0.5)
    assert len(calls) == 1 and editor.text(uri) == before  # no undo of the server's own
