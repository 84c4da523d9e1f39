"""Code actions applied to a copy of the bundled example: generation and every quick fix."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from relatex.config.settings import load_settings
from tests.server.conftest import Editor, StartEditor


def doc_id(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def actions_for(editor: Editor, uri: str, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
    result = await editor.client.text_document_code_action_async(types.CodeActionParams(
        text_document=doc_id(uri), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic], only=[types.CodeActionKind.QuickFix])))
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


def source_actions(result: Any) -> list[dict[str, Any]]:
    """Code actions carrying a command, as sent by the server.

    lsprotocol's client-side hook structures any object with a "command" member as a Command,
    stringifying the CodeAction's nested command; the JSON the server sent is recovered here.
    """
    import ast

    actions = []
    for item in result or []:
        if isinstance(item, types.Command) and item.command.startswith("{"):
            actions.append({"title": item.title, "kind": "source.relatex.generateRelatedWork",
                            "command": ast.literal_eval(item.command)})
        elif isinstance(item, types.CodeAction) and item.command is not None:
            actions.append({"title": item.title, "kind": str(item.kind),
                            "command": {"command": item.command.command, "arguments": item.command.arguments}})
    return actions


def expected_generation(demo: Path, kb_data_dir: Path) -> dict[Path, str]:
    """The same pipeline in-process on the same files: the texts the server must produce exactly."""
    from relatex.analysis.edits import apply_edits
    from relatex.analysis.latex.latex_project import load_project
    from relatex.analysis.verification.bib_verification import verify_entry
    from relatex.analysis.verification.project_checks import load_bibliographies
    from relatex.retrieval.authorities import KnowledgeBaseAuthority
    from relatex.retrieval.draft import draft_context
    from relatex.retrieval.selection import select_papers
    from relatex.server.commands.check_claims import make_judge
    from relatex.workflows.engines import Engines
    from relatex.workflows.knowledge_bases import open_knowledge_base
    from relatex.workflows.related_papers import selection_params
    from relatex.writing.generate import generate_related_work
    from relatex.writing.placement import plan_insertion

    settings, _ = load_settings({"knowledgeBase": {"dataDir": str(kb_data_dir), "embeddingModel": "hashing-256"}})
    project = load_project(demo / "main.tex")
    bibs = load_bibliographies(project)
    with open_knowledge_base(settings, read_only=True) as kb:
        selection = select_papers(draft_context(project, bibs, kb), kb, selection_params(settings),
                                  paper_fit=Engines(settings).paper_fit())  # the server's cross-encoder
        # the server's judge, and its verification of the draft's entries the section cites
        draft_keys = {p.draft_key for p in selection.papers if p.draft_key}
        verdicts = {k: verify_entry(e, [KnowledgeBaseAuthority(kb)])
                    for bib in bibs.values() for k, e in bib.by_key().items() if k in draft_keys}
        generated = generate_related_work(project, bibs, selection, judge=make_judge(settings), bib_verdicts=verdicts)
    edits = plan_insertion(project, bibs, generated, placement=settings.writing.placement,
                           section_title=settings.writing.section_title)
    texts: dict[Path, str] = {}
    for edit in edits:
        path = Path(edit.path)
        texts.setdefault(path, path.read_text(encoding="utf-8") if path.exists() else "")
    return {path: apply_edits(text, [e for e in edits if Path(e.path) == path]) for path, text in texts.items()}


@pytest.mark.parametrize("profile", ["visual-studio-code", "neovim"])
async def test_generate_related_work_applies_one_exact_edit(start_editor: StartEditor, demo: Path, kb_data_dir: Path,
                                                            tmp_path: Path, profile: str) -> None:
    reference = tmp_path / "reference"
    import shutil

    shutil.copytree(demo, reference)
    expected = expected_generation(reference.resolve(), kb_data_dir)
    editor = await start_editor(demo, profile)
    uri = editor.open(demo / "main.tex")
    bib = editor.open(demo / "references.bib")
    result = await editor.client.text_document_code_action_async(types.CodeActionParams(
        text_document=doc_id(uri), range=types.Range(start=types.Position(line=0, character=0),
                                                     end=types.Position(line=0, character=0)),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.Source])))
    [action] = [a for a in source_actions(result) if a["title"] == "Generate related work"]
    assert action["kind"].startswith("source") and action["command"]["command"] == "relatex.generateRelatedWork"
    outcome = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=action["command"]["command"], arguments=action["command"]["arguments"]))
    assert outcome["applied"] is True and outcome["cited_keys"]
    assert len(editor.applied) == 1  # ONE workspace edit
    edit = editor.applied[0]
    if profile == "visual-studio-code" or edit.document_changes:
        assert edit.document_changes and all(
            isinstance(c, types.TextDocumentEdit) and c.text_document.version is not None
            for c in edit.document_changes)
    assert editor.text(uri) == expected[(reference / "main.tex").resolve()]
    assert editor.text(bib) == expected[(reference / "references.bib").resolve()]
    assert "\\section{Related Work}" in editor.text(uri)
    # the section sits after the introduction, before the method
    text = editor.text(uri)
    assert text.index("\\section{Introduction}") < text.index("\\section{Related Work}") < text.index(
        "\\input{sections/method}")
    # progress was reported with stages and percentages, then ended
    reports = editor.progress("generating")
    assert isinstance(reports[0], types.WorkDoneProgressBegin) and isinstance(reports[-1], types.WorkDoneProgressEnd)
    percentages = [r.percentage for r in reports if isinstance(r, types.WorkDoneProgressReport) and r.percentage]
    assert percentages and percentages == sorted(percentages)


async def test_generation_creates_references_bib_when_there_is_none(start_editor: StartEditor, demo: Path) -> None:
    main = demo / "main.tex"
    main.write_text(main.read_text(encoding="utf-8").replace("\\bibliography{references}\n", ""), encoding="utf-8")
    (demo / "references.bib").unlink()
    for section in ("method", "experiments"):
        (demo / "sections" / f"{section}.tex").write_text(f"\\section{{{section.title()}}}\nText.\n", encoding="utf-8")
    text = main.read_text(encoding="utf-8")
    import re

    main.write_text(re.sub(r"\\cite[pt]?\{[^}]*\}", "", text), encoding="utf-8")
    editor = await start_editor(demo)
    uri = editor.open(main)
    outcome = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="relatex.generateRelatedWork", arguments=[uri]))
    assert outcome["applied"] is True
    [edit] = editor.applied
    assert any(isinstance(c, types.CreateFile) and c.uri.endswith("/references.bib") for c in edit.document_changes or [])
    created = (demo / "references.bib").read_text(encoding="utf-8")
    for key in outcome["cited_keys"]:
        assert f"{{{key}," in created
    assert "\\bibliography{references}" in editor.text(uri) or "\\addbibresource{references.bib}" in editor.text(uri)


async def test_edit_during_generation_is_rebased(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo)
    uri = editor.open(demo / "main.tex")
    editor.open(demo / "references.bib")
    task = asyncio.ensure_future(editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="relatex.generateRelatedWork", arguments=[uri])))
    # the user keeps typing in the conclusion while the section is being written
    typed = "in a given field."
    for word in (" Further", " work", " remains."):
        await asyncio.sleep(0.05)
        editor.insert(uri, typed, word)
        typed += word
    outcome = await task
    assert outcome["applied"] is True
    text = editor.text(uri)
    assert "in a given field. Further work remains." in text and "\\section{Related Work}" in text
    assert editor.refused == []


async def test_generation_can_be_cancelled_through_progress(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo, settings={"graph": {"hops": 2, "breadth": 60}})
    uri = editor.open(demo / "main.tex")
    original = editor.text(uri)

    task = asyncio.ensure_future(editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="relatex.generateRelatedWork", arguments=[uri])))
    def generating() -> list[Any]:
        return [token for token, values in editor.client.progress_reports.items()
                if values and isinstance(values[0], types.WorkDoneProgressBegin) and "generating" in values[0].title]

    for _ in range(2000):
        if generating():
            break
        await asyncio.sleep(0.01)
    [token] = generating()
    editor.client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    outcome = await task
    assert outcome == {"applied": False, "cancelled": True}
    assert editor.applied == [] and editor.text(uri) == original
    assert any("cancelled" in m.message for m in editor.client.messages)


async def test_quick_fix_adds_an_undefined_key_from_the_knowledge_base(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo)
    uri = editor.open(demo / "main.tex")
    bib = editor.open(demo / "references.bib")
    editor.insert(uri, "form the basis of our expansion step.", " Transformers \\citep{Vaswani2017Attention} help.")
    diagnostics = await editor.diagnostics(uri, lambda ds: any(d.code == "undefined-citation" for d in ds))
    [undefined] = [d for d in diagnostics if d.code == "undefined-citation"]
    actions = await actions_for(editor, uri, undefined)
    [fix] = [a for a in actions if "Attention Is All You Need" in a.title]
    assert fix.kind == types.CodeActionKind.QuickFix and fix.edit is not None
    before = editor.text(bib)
    assert editor.apply(fix.edit).applied
    added = editor.text(bib)[len(before):]
    assert editor.text(bib).startswith(before) and "@inproceedings{Vaswani2017Attention," in added
    await editor.diagnostics(uri, lambda ds: not any(d.code == "undefined-citation" for d in ds))


async def test_quick_fix_merges_a_duplicate_work_and_renames_citations(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo)
    uri = editor.open(demo / "main.tex")
    bib = editor.open(demo / "references.bib")
    text = editor.text(bib)
    start = text.index("@inproceedings{hoang2010towards,")
    end = text.index("\n}\n", start) + 3
    copy = text[start:end].replace("hoang2010towards", "HoangKan2010")
    editor.change(bib, len(text), len(text), "\n" + copy)
    editor.insert(uri, "form the basis of our expansion step.", " Topic trees help \\citep{HoangKan2010}.")
    diagnostics = await editor.diagnostics(bib, lambda ds: any(d.code == "duplicate-work" for d in ds))
    [duplicate] = [d for d in diagnostics if d.code == "duplicate-work" and "'HoangKan2010' is" in d.message]
    actions = await actions_for(editor, bib, duplicate)
    [merge] = [a for a in actions if a.title.startswith("Merge")]
    assert merge.edit is not None and editor.apply(merge.edit).applied
    assert "HoangKan2010" not in editor.text(bib) and editor.text(bib).count("{hoang2010towards,") == 1
    assert "\\citep{hoang2010towards}." in editor.text(uri) and "HoangKan2010" not in editor.text(uri)


#: The miscitation is judged against the entry's own abstract; the judge calls it "not supported" or,
#: near the threshold, "partially supported"; either finding offers the replacement.
CLAIM_FLAGS = ("claim-not-supported", "claim-partially-supported")


async def test_quick_fix_replaces_an_unsupported_citation(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo)
    uri = editor.open(demo / "main.tex")
    bib = editor.open(demo / "references.bib")
    claim = (" Negative sampling is a simple alternative to the hierarchical softmax for learning word vectors"
             " \\citep{hoang2010towards}.")
    editor.insert(uri, "form the basis of our expansion step.", claim)
    diagnostics = await editor.diagnostics(uri, lambda ds: any(
        d.code in CLAIM_FLAGS and "Negative sampling" in str((d.data or {}).get("claim")) for d in ds))
    [flagged] = [d for d in diagnostics if d.code in CLAIM_FLAGS
                 and "Negative sampling" in str((d.data or {}).get("claim"))]
    actions = await actions_for(editor, uri, flagged)
    replace = [a for a in actions if a.title.startswith("Replace 'hoang2010towards'")]
    assert replace, [a.title for a in actions]
    assert "Distributed Representations of Words" in replace[0].title
    assert replace[0].edit is not None and editor.apply(replace[0].edit).applied
    new_key = replace[0].title.split("with '", 1)[1].split("'", 1)[0]
    assert f"word vectors \\citep{{{new_key}}}." in editor.text(uri)
    assert f"{{{new_key}," in editor.text(bib)


async def test_quick_fix_applies_the_authority_values_to_a_mismatched_entry(start_editor: StartEditor,
                                                                            demo: Path) -> None:
    editor = await start_editor(demo)
    uri = editor.open(demo / "main.tex")
    bib = editor.open(demo / "references.bib")
    text = editor.text(bib)
    start = text.index("@inproceedings{bhagavatula2018content,")
    year = text.index("year      = {2018}", start)
    editor.change(bib, year, year + len("year      = {2018}"), "year      = {2003}")
    diagnostics = await editor.diagnostics(bib, lambda ds: any(d.code == "bib-mismatch" for d in ds))
    [mismatch] = [d for d in diagnostics if d.code == "bib-mismatch"]
    cited: Any = editor.client.diagnostics.get(uri, [])
    assert any(d.code == "bib-mismatch" for d in cited)  # also on the citation in the .tex
    actions = await actions_for(editor, bib, mismatch)
    [fix] = [a for a in actions if a.title.startswith("Apply the verified values")]
    assert fix.edit is not None and editor.apply(fix.edit).applied
    entry = editor.text(bib)[start:editor.text(bib).index("\n}\n", start)]
    assert "2003" not in entry and "{2018}" in entry


async def test_generation_keeps_the_authors_related_work_in_a_crlf_draft(start_editor: StartEditor, demo: Path) -> None:
    import difflib

    main = demo / "main.tex"
    mine = "\\section{Related Work}\nThe author's own survey paragraph.\n\n"
    before = main.read_text(encoding="utf-8").replace("\\input{sections/method}", mine + "\\input{sections/method}")
    before = before.replace("\n", "\r\n")
    main.write_bytes(before.encode("utf-8"))
    editor = await start_editor(demo)
    uri = editor.open(main)
    titles: list[str] = []
    for _ in range(100):  # until the project has been analysed once
        result = await editor.client.text_document_code_action_async(types.CodeActionParams(
            text_document=doc_id(uri), range=types.Range(start=types.Position(line=0, character=0),
                                                         end=types.Position(line=0, character=0)),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.Source])))
        titles = [a["title"] for a in source_actions(result)]
        if len(titles) > 1:
            break
        await asyncio.sleep(0.1)
    assert "Generate related work" in titles, titles
    assert "Replace existing related work (\"Related Work\", main.tex: removes 1 lines)" in titles, titles
    outcome = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="relatex.generateRelatedWork", arguments=[uri]))
    assert outcome["applied"] is True
    after = editor.text(uri)
    ops = difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
    assert {op[0] for op in ops} == {"equal", "insert"}
    assert "% relatex: generated related work begins" in after and "\n" not in after.replace("\r\n", "")
    outcome = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="relatex.replaceRelatedWork", arguments=[uri]))
    assert outcome["applied"] is True
    replaced = editor.text(uri)
    assert "The author's own survey paragraph." not in replaced and replaced.count("\\section{Related Work}") == 1
    assert "\n" not in replaced.replace("\r\n", "")
