"""Configuration (init options, workspace/configuration, changes), file watching, robustness."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types

from tests.server.conftest import StartEditor

SPARE = "\n@misc{spareEntry, title = {Spare}, author = {Doe, Jane}, year = {2020}}\n"


async def test_invalid_setting_warns_and_keeps_the_default(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo, settings={"graph": {"breadth": "many"}, "writing": {"placement": "nowhere"}})
    uri = editor.open(demo / "main.tex")
    await editor.diagnostics(uri, lambda ds: True)
    for _ in range(100):
        if len(editor.client.messages) >= 2:
            break
        await asyncio.sleep(0.05)
    warnings = [m for m in editor.client.messages if m.type == types.MessageType.Warning]
    assert any("graph.breadth" in m.message and "default 30 kept" in m.message for m in warnings)
    assert any("writing.placement" in m.message for m in warnings)


async def test_configuration_change_is_applied(start_editor: StartEditor, demo: Path) -> None:
    (demo / "references.bib").write_text((demo / "references.bib").read_text(encoding="utf-8") + SPARE,
                                         encoding="utf-8")
    editor = await start_editor(demo)
    bib_uri = (demo / "references.bib").resolve().as_uri()
    editor.open(demo / "main.tex")
    await editor.diagnostics(bib_uri, lambda ds: any(d.code == "unused-entry" for d in ds))
    editor.client.set_configuration({"relatex": {"maxUnusedHints": 0}})
    editor.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    # only the summary "N more entries are never cited" remains
    await editor.diagnostics(bib_uri, lambda ds: not any(d.code == "unused-entry" and "spareEntry" in d.message
                                                         for d in ds))


async def test_watched_file_changes_refresh_the_project(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo, "visual-studio-code")
    uri = editor.open(demo / "main.tex")
    await editor.diagnostics(uri, lambda ds: True)
    for _ in range(100):
        if getattr(editor, "registrations", None):
            break
        await asyncio.sleep(0.05)
    registrations = getattr(editor, "registrations", [])
    assert any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in registrations)
    experiments = demo / "sections" / "experiments.tex"
    experiments.write_text(experiments.read_text(encoding="utf-8") + "\nSee \\cite{ghost2024}.\n", encoding="utf-8")
    editor.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=experiments.resolve().as_uri(), type=types.FileChangeType.Changed)]))
    diagnostics = await editor.diagnostics(experiments.resolve().as_uri(),
                                           lambda ds: any(d.code == "undefined-citation" for d in ds))
    assert any("ghost2024" in d.message for d in diagnostics)


async def test_bad_requests_do_not_take_the_server_down(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo, "neovim")
    uri = editor.open(demo / "main.tex")
    # a command with wrong arguments fails alone, reported once in the client's log (not a popup)
    outcome = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="relatex.addEntry", arguments=[1]))
    assert outcome == {"applied": False}
    # a hover beyond the end of the document is simply empty
    hover = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=10_000, character=3)))
    assert hover is None
    # and the server still answers
    symbols = await editor.client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert symbols is not None
    assert sum("add entry failed" in m.message for m in editor.client.log_messages) == 1
    assert not any("failed" in m.message for m in editor.client.messages)


async def test_verify_and_check_claims_commands_report_progress(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo)
    uri = editor.open(demo / "main.tex")
    await editor.diagnostics(uri, lambda ds: any(str(d.code).startswith("claim-") for d in ds))
    verified = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="relatex.verifyBibliography", arguments=[uri]))
    # every cited entry got a verdict; the demo's entries are in the knowledge base
    import re

    cited = {key.strip() for path in demo.rglob("*.tex")
             for keys in re.findall(r"\\cite[tp]?\{([^}]*)\}", path.read_text(encoding="utf-8"))
             for key in keys.split(",")}
    assert sum(verified["verdicts"].values()) == len(cited) and verified["verdicts"].get("verified", 0) >= 1
    claims = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="relatex.checkClaims", arguments=[uri]))
    assert sum(claims["claims"].values()) >= 10 and claims["claims"].get("not_addressed", 0) >= 1
    ends = [bar[-1] for bar in (editor.progress("verifying"), editor.progress("checking claims"))
            if bar and isinstance(bar[-1], types.WorkDoneProgressEnd)]
    assert len(ends) == 2 and all(r.message == "done" for r in ends)


async def test_reindex_builds_the_configured_knowledge_base(start_editor: StartEditor, demo: Path,
                                                            tmp_path: Path) -> None:
    data_dir = tmp_path / "fresh-kb"
    library = demo / "library.bib"
    editor = await start_editor(demo, init={"knowledgeBase": {"dataDir": str(data_dir), "embeddingModel": "hashing-256",
                                                              "sources": [str(library)]}})
    editor.open(demo / "main.tex")
    outcome = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="relatex.reindex", arguments=[]))
    entries = library.read_text(encoding="utf-8").count("\n@")
    assert outcome == {"indexed": entries}
    assert (data_dir / "default" / "records.sqlite").exists()
    reports = editor.progress("indexing")
    assert isinstance(reports[-1], types.WorkDoneProgressEnd) and reports[-1].message == "done"
