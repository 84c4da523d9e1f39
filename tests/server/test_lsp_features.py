"""Hover cards, completion inside \\cite{}, definition, references and document symbols."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types

from relatex.server.features.completion import INLINE_CARDS
from tests.server.conftest import Editor, StartEditor


async def ready(editor: Editor, uri: str) -> None:
    """Wait until the first analysis (and the background pass) has been published."""
    await editor.diagnostics(uri, lambda ds: any(str(d.code).startswith("claim-") for d in ds))


def doc_id(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


@pytest.mark.parametrize("profile", ["visual-studio-code", "neovim"])
async def test_hover_card_on_a_citation_key(start_editor: StartEditor, demo: Path, profile: str) -> None:
    editor = await start_editor(demo, profile)
    uri = editor.open(demo / "main.tex")
    await ready(editor, uri)
    position = editor.position(uri, "robertson2009probabilistic}", 3, occurrence=1)  # the \citet one
    hover = await editor.client.text_document_hover_async(types.HoverParams(text_document=doc_id(uri), position=position))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    card = hover.contents.value
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert "**The Probabilistic Relevance Framework: BM25 and Beyond**" in card
    assert "Stephen Robertson" in card and "2009" in card
    assert "https://doi.org/10.1561/1500000019" in card
    assert "> " in card  # the summary line
    assert "**This sentence:**" in card and "not addressed" in card  # the support verdict of this sentence
    line = editor.text(uri).splitlines()[hover.range.start.line] if hover.range else ""
    assert hover.range is not None
    assert line[hover.range.start.character:hover.range.end.character] == "robertson2009probabilistic"
    # outside a citation: no card
    nothing = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=doc_id(uri), position=editor.position(uri, "The number of papers")))
    assert nothing is None


async def test_hover_on_a_bib_entry_shows_the_same_card(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo)
    tex = editor.open(demo / "main.tex")
    bib = editor.open(demo / "references.bib")
    await ready(editor, tex)
    hover = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=doc_id(bib), position=editor.position(bib, "hoang2010towards,", 2)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "**Towards Automated Related Work Summarization**" in hover.contents.value
    assert "Cong Duy Vu Hoang" in hover.contents.value


@pytest.mark.parametrize("profile", ["visual-studio-code", "neovim"])
async def test_completion_inside_cite(start_editor: StartEditor, demo: Path, profile: str) -> None:
    editor = await start_editor(demo, profile)
    uri = editor.open(demo / "main.tex")
    await ready(editor, uri)
    sentence = "\n\nWord embeddings and sentence encoders map text to vectors \\citep{"
    anchor = "form the basis of our expansion step."
    editor.insert(uri, anchor, sentence + "}")
    cursor = editor.text(uri).index(sentence) + len(sentence)
    position = editor.position(uri, sentence, len(sentence))
    for _ in range(50):  # incomplete while the ranking index / knowledge-base search are being built
        result = await editor.client.text_document_completion_async(types.CompletionParams(
            text_document=doc_id(uri), position=position))
        assert isinstance(result, types.CompletionList)
        if not result.is_incomplete:
            break
        await asyncio.sleep(0.1)
    labels = [item.label for item in result.items]
    bib_items = [i for i in result.items if i.command is None]
    assert {"reimers2019sentencebert", "robertson2009probabilistic"} <= {i.label for i in bib_items}
    # ranked by relevance to the sentence: the sentence-embedding paper comes before BM25
    assert labels.index("reimers2019sentencebert") < labels.index("robertson2009probabilistic")
    defaults = result.item_defaults
    for item in bib_items:  # an empty range at the cursor: inserted there (said once when the editor reads defaults)
        assert item.text_edit is None
        if profile == "neovim":
            assert defaults is not None and defaults.edit_range == types.Range(start=position, end=position)
        else:
            assert defaults is None
    # the first items carry their card; the others get it from completionItem/resolve
    assert all(item.documentation is not None for item in bib_items[:INLINE_CARDS])
    later = bib_items[INLINE_CARDS:]
    assert later and all(item.documentation is None for item in later)
    for item in bib_items:
        if item.data is None and defaults is not None:
            item.data = defaults.data  # what an editor does before resolving an item of the list
        resolved = await editor.client.completion_item_resolve_async(item)
        assert isinstance(resolved.documentation, types.MarkupContent)
        assert f"`{item.label}`" in resolved.documentation.value
    # after a comma, with a typed prefix: only matching keys, replacing just the prefix
    editor.change(uri, cursor, cursor, "reimers2019sentencebert, ho")
    position = editor.position(uri, "reimers2019sentencebert, ho", len("reimers2019sentencebert, ho"))
    result = None
    for _ in range(20):  # the knowledge-base search may still be running: ask again like an editor
        result = await editor.client.text_document_completion_async(types.CompletionParams(
            text_document=doc_id(uri), position=position))
        assert isinstance(result, types.CompletionList)
        if any(i.command is not None for i in result.items):
            break
        await asyncio.sleep(0.1)
    assert isinstance(result, types.CompletionList)
    bib_labels = [i.label for i in result.items if i.command is None]
    assert bib_labels == ["hoang2010towards"]
    typed = types.Range(start=types.Position(position.line, position.character - 2), end=position)
    for item in result.items:  # the typed prefix is replaced, by each item or by the list's default
        edit_range = item.text_edit.range if isinstance(item.text_edit, types.TextEdit) else None
        assert (edit_range or (result.item_defaults and result.item_defaults.edit_range)) == typed
    kb_items = [i for i in result.items if i.command is not None]
    assert kb_items, "knowledge-base papers not in the .bib are offered"
    assert all(i.command and i.command.command == "relatex.addEntry" for i in kb_items)
    assert all(i.label not in {"hoang2010towards"} for i in kb_items)


async def test_completion_item_command_adds_the_entry(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo)
    uri = editor.open(demo / "main.tex")
    bib = editor.open(demo / "references.bib")
    await ready(editor, uri)
    sentence = "\n\nAttention-based sequence transduction without recurrence \\citep{"
    editor.insert(uri, "form the basis of our expansion step.", sentence + "}")
    position = editor.position(uri, sentence, len(sentence))
    item = None
    for _ in range(30):
        result = await editor.client.text_document_completion_async(types.CompletionParams(
            text_document=doc_id(uri), position=position))
        assert isinstance(result, types.CompletionList)
        item = next((i for i in result.items if i.command is not None and "Attention" in (i.detail or "")), None)
        if item is not None:
            break
        await asyncio.sleep(0.1)
    assert item is not None and item.command is not None
    before = editor.text(bib)
    outcome = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=item.command.command, arguments=item.command.arguments))
    assert outcome["applied"] is True
    added = editor.text(bib)[len(before):]
    assert editor.text(bib).startswith(before)
    assert f"{{{item.label}," in added and "Attention Is All You Need" in added


async def test_definition_references_and_symbols(start_editor: StartEditor, demo: Path) -> None:
    editor = await start_editor(demo)
    uri = editor.open(demo / "main.tex")
    await ready(editor, uri)
    position = editor.position(uri, "robertson2009probabilistic", 2)
    definition = await editor.client.text_document_definition_async(types.DefinitionParams(
        text_document=doc_id(uri), position=position))
    assert isinstance(definition, list) and len(definition) == 1
    location = definition[0]
    assert location.uri == (demo / "references.bib").resolve().as_uri()
    bib_text = (demo / "references.bib").read_text(encoding="utf-8")
    line = bib_text.splitlines()[location.range.start.line]
    assert line[location.range.start.character:location.range.end.character] == "robertson2009probabilistic"

    references = await editor.client.text_document_references_async(types.ReferenceParams(
        text_document=doc_id(uri), position=position, context=types.ReferenceContext(include_declaration=False)))
    assert references is not None
    uris = sorted({(r.uri.rsplit("/", 1)[-1], r.range.start.line) for r in references})
    # cited twice in main.tex and once in sections/method.tex
    assert [u for u, _ in uris].count("main.tex") == 2 and [u for u, _ in uris].count("method.tex") == 1

    symbols = await editor.client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=doc_id(uri)))
    assert symbols is not None
    names = [s.name for s in symbols if isinstance(s, types.DocumentSymbol)]
    assert names == ["Introduction", "Conclusion"]  # Method and Experiments live in other files
    method_uri = editor.open(demo / "sections" / "method.tex")
    await asyncio.sleep(0.3)
    method_symbols = await editor.client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=doc_id(method_uri)))
    assert method_symbols is not None
    [method] = [s for s in method_symbols if isinstance(s, types.DocumentSymbol)]
    assert method.name == "Method"
    assert [c.name for c in method.children or []][:2] == ["Query construction", "Candidate retrieval"]


async def test_the_authors_citation_macro_has_cards_definitions_and_checks(start_editor: StartEditor,
                                                                           demo: Path) -> None:
    main = demo / "main.tex"
    text = main.read_text(encoding="utf-8")
    text = text.replace("\\begin{document}", "\\newcommand{\\pc}[1]{\\citep{#1}}\n\\begin{document}", 1)
    text = text.replace("form the basis of our expansion step.",
                        "form the basis of our expansion step \\pc{hoang2010towards, missing2031key}.", 1)
    main.write_text(text, encoding="utf-8")
    editor = await start_editor(demo)
    uri = editor.open(main)
    diagnostics = await editor.diagnostics(uri, lambda ds: any("missing2031key" in d.message for d in ds))
    [undefined] = [d for d in diagnostics if "missing2031key" in d.message]
    assert undefined.code == "undefined-citation"
    position = editor.position(uri, "\\pc{hoang2010towards", len("\\pc{hoa"))
    hover = await editor.client.text_document_hover_async(types.HoverParams(text_document=doc_id(uri),
                                                                            position=position))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "**Towards Automated Related Work Summarization**" in hover.contents.value
    locations = await editor.client.text_document_definition_async(types.DefinitionParams(
        text_document=doc_id(uri), position=position))
    assert isinstance(locations, list) and locations
    assert locations[0].uri.endswith("references.bib")
    # completion opens inside the macro's key list too
    editor.insert(uri, "form the basis of our expansion step", " and \\pc{}")
    position = editor.position(uri, " and \\pc{", len(" and \\pc{"))
    result = await editor.client.text_document_completion_async(types.CompletionParams(
        text_document=doc_id(uri), position=position))
    assert isinstance(result, types.CompletionList)
    assert "hoang2010towards" in {item.label for item in result.items}
