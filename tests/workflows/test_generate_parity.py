"""The CLI and the editor write the same section: `relatex generate` (in-process) and the language
server's "Generate related work" code action, on two copies of examples/demo, with one knowledge
base built from its library.bib and the same settings, produce the same text and the same entries."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from lsprotocol import types

from relatex.retrieval.embedding import HashingEmbedder
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.sources import open_source
from relatex.server.cli import main
from tests.server.conftest import EXAMPLE, StartEditor, kb_data_dir, start_editor  # noqa: F401 (fixtures)
from tests.server.test_lsp_code_actions import source_actions

ENTRIES_MARK = re.compile(r"^% ---- \d+ new BibTeX entr(?:y|ies) for \S+ ----$", re.MULTILINE)
ENTRY_KEY = re.compile(r"^@\w+\{([^,\s]+),", re.MULTILINE)


def knowledge_base(folder: Path) -> Path:
    """A knowledge base of examples/demo/library.bib (model-free embedder); returns its data dir."""
    with KnowledgeBase.open(folder / "default", embedder=HashingEmbedder(256)) as kb:
        kb.index(open_source(EXAMPLE / "library.bib"))
    return folder


def cli_generation(project: Path, data_dir: Path, settings: dict[str, object],
                   capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """`relatex generate main.tex`: the printed section and the printed new entries."""
    config = project.parent / "cli-settings.json"
    config.write_text(json.dumps(settings), encoding="utf-8")
    code = main(["generate", str(project / "main.tex"), "--data-dir", str(data_dir), "--config", str(config)])
    out, err = capsys.readouterr()
    assert code == 0, err
    mark = ENTRIES_MARK.search(out)
    section, entries = (out[:mark.start()], out[mark.end():]) if mark else (out, "")
    return section.strip(), entries.strip()


async def editor_generation(start_editor: StartEditor, project: Path,  # noqa: F811
                            settings: dict[str, object]) -> tuple[str, str, dict[str, object]]:
    """The "Generate related work" code action's command: the new main.tex and references.bib."""
    editor = await start_editor(project, init=settings)
    uri = editor.open(project / "main.tex")
    bib = editor.open(project / "references.bib")
    result = await editor.client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.Source])))
    [action] = [a for a in source_actions(result) if a["title"] == "Generate related work"]
    outcome = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=action["command"]["command"], arguments=action["command"]["arguments"]))
    assert outcome["applied"] is True, outcome
    return editor.text(uri), editor.text(bib), outcome


async def test_cli_and_editor_generate_the_same_section(start_editor: StartEditor, tmp_path: Path,  # noqa: F811
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    data_dir = knowledge_base(tmp_path / "kb")
    settings: dict[str, object] = {"knowledgeBase": {"dataDir": str(data_dir), "embeddingModel": "hashing-256"},
                                   "graph": {"breadth": 12, "alpha": 0.6}}
    cli_project, lsp_project = tmp_path / "cli" / "demo", tmp_path / "editor" / "demo"
    shutil.copytree(EXAMPLE, cli_project)
    shutil.copytree(EXAMPLE, lsp_project)
    original_bib = (lsp_project / "references.bib").read_text(encoding="utf-8")

    section, entries = cli_generation(cli_project, data_dir, settings, capsys)
    main_text, bib_text, outcome = await editor_generation(start_editor, lsp_project, settings)

    assert section.startswith("\\section{Related Work}\n\\label{sec:related-work}\n\n")
    assert section in main_text  # the same heading and body, word for word
    assert bib_text.startswith(original_bib)
    added = bib_text[len(original_bib):]
    assert ENTRY_KEY.findall(entries) == ENTRY_KEY.findall(added) == outcome["new_entries"]
    assert [e.strip() for e in entries.split("\n\n@")] == [e.strip() for e in added.strip().split("\n\n@")]
    cited = set(re.findall(r"\\cite[tp]?\{([^}]*)\}", section))
    assert {k.strip() for group in cited for k in group.split(",")} == set(outcome["cited_keys"])
