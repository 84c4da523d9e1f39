"""The knowledge base in the editor, from a clean data folder: the "Build knowledge base from this
project" code action and command (with progress), the status command and notification, the
background load, and a generation without a knowledge base that says what to do."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from lsprotocol import types

from tests.server.conftest import Editor, StartEditor
from tests.server.test_lsp_code_actions import source_actions

BUILD = "relatex.buildKnowledgeBase"
STATUS = "relatex.knowledgeBaseStatus"


def clean_options(data_dir: Path) -> dict[str, Any]:
    return {"knowledgeBase": {"dataDir": str(data_dir), "embeddingModel": "hashing-256"}}


async def ended(editor: Editor, title: str, timeout: float = 30.0) -> types.WorkDoneProgressEnd:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        values = editor.progress(title)
        if values and isinstance(values[-1], types.WorkDoneProgressEnd):
            return values[-1]
        await asyncio.sleep(0.05)
    raise AssertionError(f"the progress bar {title!r} never ended: {editor.progress(title)}")


async def execute(editor: Editor, command: str, *arguments: Any) -> Any:
    return await editor.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=list(arguments)))


async def source_action_titles(editor: Editor, uri: str) -> list[str]:
    result = await editor.client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.Source])))
    return [action["title"] for action in source_actions(result)]


async def test_build_knowledge_base_from_a_clean_data_folder(start_editor: StartEditor, demo: Path,
                                                             tmp_path: Path) -> None:
    data_dir = tmp_path / "fresh-data"
    editor = await start_editor(demo, init=clean_options(data_dir))
    uri = editor.open(demo / "main.tex")
    # the draft's own diagnostics come although there is no knowledge base
    await editor.diagnostics(uri, lambda ds: True, timeout=10)
    end = await ended(editor, "loading the knowledge base")
    assert end.message == "no knowledge base"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 15
    while not any(str(data_dir / "default") in m.message and "relatex index --data-dir" in m.message
                  for m in editor.client.messages):
        assert loop.time() < deadline, [m.message for m in editor.client.messages]
        await asyncio.sleep(0.05)

    # without a knowledge base, generation fails and its progress says so
    outcome = await execute(editor, "relatex.generateRelatedWork", uri)
    assert outcome["applied"] is False and str(data_dir / "default") in outcome["error"]
    assert (await ended(editor, "generating")).message.startswith("failed: no knowledge base at")

    assert "Build knowledge base from this project" in await source_action_titles(editor, uri)
    status = await execute(editor, STATUS)
    assert status["exists"] is False and status["build_command"] == f"relatex index --data-dir {data_dir}"

    result = await execute(editor, BUILD, uri)
    assert result["completed"] is True and result["records"] == 41
    assert sorted(Path(p).name for p in result["sources"]) == ["library.bib", "references.bib"]
    values = editor.progress("building the knowledge base")
    assert any(isinstance(v, types.WorkDoneProgressReport) and "library.bib" in (v.message or "") for v in values)
    assert isinstance(values[-1], types.WorkDoneProgressEnd) and values[-1].message == "done"

    # the knowledge base is loaded again in the background, and the offer disappears
    deadline = loop.time() + 30
    status = await execute(editor, STATUS)
    while not status["loaded"] and loop.time() < deadline:
        await asyncio.sleep(0.1)
        status = await execute(editor, STATUS)
    assert status["loaded"] and status["exists"] and status["records"] == 41
    assert status["model"] == "hashing-256" and status["age_seconds"] < 60
    assert "41 records" in status["text"]
    assert "Build knowledge base from this project" not in await source_action_titles(editor, uri)

    outcome = await execute(editor, "relatex.generateRelatedWork", uri)
    assert outcome["applied"] is True
    assert (await ended(editor, "generating")).message == "done"


async def test_existing_knowledge_base_loads_in_the_background(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo)
    uri = editor.open(demo / "main.tex")
    end = await ended(editor, "loading the knowledge base")
    assert end.message == "done"
    begin = editor.progress("loading the knowledge base")[0]
    assert isinstance(begin, types.WorkDoneProgressBegin) and begin.cancellable
    status = await execute(editor, STATUS)
    assert status["loaded"] is True and status["records"] == 41
    assert "Build knowledge base from this project" not in await source_action_titles(editor, uri)


async def test_building_can_be_cancelled_and_resumed(start_editor: StartEditor, demo: Path, tmp_path: Path) -> None:
    entries = "".join(f"@article{{synthetic{i},\n  title = {{Synthetic paper number {i} on topic {i % 97}}},\n"
                      f"  author = {{Author{i}, Ann}},\n  year = {{{1990 + i % 30}}},\n"
                      f"  abstract = {{We study question {i} and find answer {i * 7}.}}\n}}\n\n"
                      for i in range(6000))
    (demo / "large.bib").write_text(entries, encoding="utf-8")
    editor = await start_editor(demo, init=clean_options(tmp_path / "data"))
    uri = editor.open(demo / "main.tex")
    pending = asyncio.ensure_future(execute(editor, BUILD, uri))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while not any(isinstance(v, types.WorkDoneProgressReport) for v in editor.progress("building")):
        assert loop.time() < deadline and not pending.done()
        await asyncio.sleep(0.01)
    token = next(t for t, values in editor.client.progress_reports.items()
                 if values and "building" in getattr(values[0], "title", ""))
    editor.client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    result = await asyncio.wait_for(pending, 60)
    assert result["completed"] is False
    assert editor.progress("building")[-1].message == "cancelled"
    resumed = await execute(editor, BUILD, uri)
    assert resumed["completed"] is True and resumed["records"] == 41 + 6000
