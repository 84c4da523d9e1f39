"""The document core: one copy of each open text (pygls'), LSP line breaks, UTF-16 columns."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.workspace import Workspace

from relatex.server.documents import Documents, EditorDocument, EditorWorkspace
from relatex.server.positions import PositionMapper


def change(text: str, start: int, end: int, new_text: str) -> types.TextDocumentContentChangePartial:
    """The incremental change a client sends to replace ``text[start:end]``."""
    return types.TextDocumentContentChangePartial(range=PositionMapper(text).range(start, end), text=new_text)


def opened(tmp_path: Path, text: str, name: str = "main.tex") -> tuple[Documents, EditorWorkspace, str]:
    workspace = EditorWorkspace(None)
    documents = Documents(lambda: workspace)
    uri = (tmp_path / name).as_uri()
    documents.open(uri, 1, text, "latex")
    return documents, workspace, uri


def test_changes_use_lsp_line_breaks_and_utf16_columns(tmp_path: Path) -> None:
    text = "a\U0001d49c b\r\nsecond\u2028same line\rthird\x0cline\nend"
    documents, workspace, uri = opened(tmp_path, text)
    document = workspace.get_text_document(uri)
    assert isinstance(document, EditorDocument)
    expected = text
    for needle, replacement in (("b", "B"), ("same", "SAME"), ("line\n", "LINE\n"), ("end", "")):
        start = expected.index(needle)
        document.apply_change(change(expected, start, start + len(needle), replacement))
        expected = expected[:start] + replacement + expected[start + len(needle):]
        assert documents.text_of(tmp_path / "main.tex") == expected
    document.apply_change(types.TextDocumentContentChangeWholeDocument(text="new"))
    assert documents.get(uri) is not None and documents.get(uri).text == "new"  # type: ignore[union-attr]


def test_the_text_is_pygls_own_string_and_the_mapper_is_cached_per_text(tmp_path: Path) -> None:
    documents, workspace, uri = opened(tmp_path, "x" * 100_000)
    doc = documents.get(uri)
    assert doc is not None
    assert doc.text is workspace.get_text_document(uri).source  # looked up, never copied
    assert doc.path == (tmp_path / "main.tex").resolve() and doc.version == 1 and doc.language_id == "latex"
    mapper = doc.mapper()
    assert doc.mapper() is mapper
    workspace.update_text_document(types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                                   change(doc.text, 0, 1, "y"))
    assert doc.version == 2 and doc.text.startswith("y")
    assert doc.mapper() is not mapper and doc.mapper().text is doc.text


def test_overlays_paths_and_close(tmp_path: Path) -> None:
    documents, workspace, uri = opened(tmp_path, "tex")
    bib_uri = (tmp_path / "refs.bib").as_uri()
    documents.open(bib_uri, 3, "@misc{a,}", "bibtex")
    assert documents.overlays() == {(tmp_path / "main.tex").resolve(): "tex", (tmp_path / "refs.bib").resolve(): "@misc{a,}"}
    assert documents.for_path((tmp_path / "refs.bib").resolve()) is documents.get(bib_uri)
    assert len(documents) == 2 and {d.uri for d in documents} == {uri, bib_uri}
    closed = documents.close(bib_uri)
    assert closed is not None and closed.uri == bib_uri
    assert documents.for_path((tmp_path / "refs.bib").resolve()) is None
    assert bib_uri not in workspace.text_documents
    (tmp_path / "refs.bib").write_text("@misc{b,}", encoding="utf-8")
    assert documents.text_of((tmp_path / "refs.bib").resolve()) == "@misc{b,}"  # the disk's once closed
    assert documents.text_of(tmp_path / "missing.tex") is None


def test_a_document_pygls_opened_is_followed(tmp_path: Path) -> None:
    workspace = EditorWorkspace(None)
    documents = Documents(lambda: workspace)
    uri = (tmp_path / "main.tex").as_uri()
    assert documents.opened(uri) is None  # pygls has not opened it
    workspace.put_text_document(types.TextDocumentItem(uri=uri, language_id="latex", version=7, text="hello"))
    doc = documents.opened(uri)
    assert doc is not None and doc.version == 7 and doc.text == "hello"
    workspace.remove_text_document(uri)
    assert documents.closed(uri) is doc and documents.get(uri) is None


def test_unchanged_and_versions_if_current(tmp_path: Path) -> None:
    documents, _, uri = opened(tmp_path, "open text")
    main = (tmp_path / "main.tex").resolve()
    other = tmp_path / "other.tex"
    other.write_text("disk text", encoding="utf-8")
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{a, title={A}}\n", encoding="utf-8")
    assert documents.unchanged(main, "open text") and not documents.unchanged(main, "disk text")
    assert documents.unchanged(other, "disk text") and not documents.unchanged(other, "old")
    assert documents.unchanged(bib, "@misc{a, title={A}}\n")
    texts = {main: "open text", other: "disk text"}
    assert documents.versions_if_current(texts, [main, other]) == {main: 1, other: None}
    assert documents.versions_if_current({main: "older"}, [main]) is None


def test_adopting_a_plain_workspace_keeps_its_folders_and_documents(tmp_path: Path) -> None:
    folder = types.WorkspaceFolder(uri=tmp_path.as_uri(), name="project")
    plain = Workspace(tmp_path.as_uri(), workspace_folders=[folder])
    uri = (tmp_path / "main.tex").as_uri()
    plain.put_text_document(types.TextDocumentItem(uri=uri, language_id="latex", version=2, text="kept"))
    adopted = EditorWorkspace.adopt(plain)
    assert adopted.root_uri == tmp_path.as_uri() and list(adopted.folders.values()) == [folder]
    document = adopted.get_text_document(uri)
    assert isinstance(document, EditorDocument) and document.source == "kept" and document.version == 2


def test_the_server_speaks_utf16_and_keeps_editor_documents() -> None:
    from relatex.server.lsp_server import create_server

    server = create_server()
    try:
        params = types.InitializeParams(capabilities=types.ClientCapabilities(
            general=types.GeneralClientCapabilities(position_encodings=[
                types.PositionEncodingKind.Utf8, types.PositionEncodingKind.Utf16])))
        steps = server.protocol.lsp_initialize(params)
        handler, args, _ = next(steps)  # the server's own initialize handler runs in between
        handler(*args)
        try:
            steps.send(None)
            raise AssertionError("initialize did not finish")
        except StopIteration as done:
            result = done.value
        assert result.capabilities.position_encoding == types.PositionEncodingKind.Utf16
        assert isinstance(server.workspace, EditorWorkspace)
    finally:
        server.state.shutdown()


def test_a_file_changed_on_disk_during_a_first_analysis_reruns_it(tmp_path: Path) -> None:
    from relatex.server.features.sync import _watched_roots
    from relatex.server.lsp_server import create_server

    server = create_server()
    try:
        root = (tmp_path / "main.tex").resolve()
        chapter = (tmp_path / "chapter.tex").resolve()
        server.state.roots.bump(root)  # the first analysis of main.tex is running: no snapshot yet
        event = types.FileEvent(uri=chapter.as_uri(), type=types.FileChangeType.Changed)
        # which project includes chapter.tex is known only once it ends: the root is analysed again
        assert _watched_roots(server, [event]) == {root}
    finally:
        server.state.shutdown()
