"""Go to definition (key -> .bib entry), find references (every citation of a key) and
document symbols (hierarchical sections in .tex, entries in .bib)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from relatex.analysis.latex.project_model import Section
from relatex.server.documents import path_to_uri, uri_to_path
from relatex.server.features.cite_scan import KeyAt
from relatex.server.features.hover import key_at_cursor, snapshot_for
from relatex.server.positions import PositionMapper, mapper_for_file
from relatex.workflows.check_project import ProjectSnapshot

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer

def mapper_for(snapshot: ProjectSnapshot, path: Path) -> PositionMapper:
    """A position mapper for the text the snapshot's offsets refer to (cached per text)."""
    return mapper_for_file(path, snapshot.texts.get(path, ""))


def key_under_cursor(server: RelatexServer, uri: str, position: types.Position) -> tuple[Path, KeyAt] | None:
    path = uri_to_path(uri)
    doc = server.state.document(uri)
    text = doc.text if doc is not None else server.state.text_of(path)
    if text is None:
        return None
    mapper = doc.mapper() if doc is not None else PositionMapper(text)
    offset = mapper.offset(position)
    found = key_at_cursor(snapshot_for(server, path), path, text, offset)
    return (path, found) if found is not None else None


def definition_locations(server: RelatexServer, uri: str, position: types.Position) -> list[types.Location]:
    found = key_under_cursor(server, uri, position)
    if found is None:
        return []
    path, key_at = found
    snapshot = snapshot_for(server, path)
    if snapshot is None:
        return []
    locations = []
    for entry in snapshot.key_entries.get(key_at.key, []):
        mapper = mapper_for(snapshot, entry.path)
        start, end = (entry.key_start, entry.key_end) if entry.key_end > entry.key_start else (entry.start, entry.end)
        locations.append(types.Location(uri=path_to_uri(entry.path), range=mapper.range(start, end)))
    if snapshot.project is not None:
        for item in snapshot.project.bib_items:
            if item.key == key_at.key:
                mapper = mapper_for(snapshot, item.path)
                locations.append(types.Location(uri=path_to_uri(item.path), range=mapper.range(item.start, item.end)))
    return locations


def reference_locations(server: RelatexServer, uri: str, position: types.Position,
                        include_declaration: bool) -> list[types.Location]:
    found = key_under_cursor(server, uri, position)
    if found is None:
        return []
    path, key_at = found
    snapshot = snapshot_for(server, path)
    if snapshot is None or snapshot.project is None:
        return []
    locations = []
    for site in snapshot.project.citations:
        for key in site.keys:
            if key.key == key_at.key:
                mapper = mapper_for(snapshot, key.path)
                locations.append(types.Location(uri=path_to_uri(key.path), range=mapper.range(key.start, key.end)))
    if include_declaration:
        locations.extend(definition_locations(server, uri, position))
    return locations


def _symbol(section: Section, mapper: PositionMapper, children: list[types.DocumentSymbol]) -> types.DocumentSymbol:
    full = mapper.range(section.start, section.end)
    title_range = mapper.range(section.title_start, section.title_end) if section.title_end > section.title_start else \
        mapper.range(section.start, section.start)
    if not (full.start.line, full.start.character) <= (title_range.start.line, title_range.start.character):
        title_range = types.Range(start=full.start, end=full.start)
    return types.DocumentSymbol(
        name=section.title or section.command,
        detail=section.command,
        kind=types.SymbolKind.Namespace if section.level <= 1 else types.SymbolKind.Module,
        range=full,
        selection_range=title_range,
        children=children or None,
    )


def section_symbols(sections: tuple[Section, ...], path: Path, mapper: PositionMapper) -> list[types.DocumentSymbol]:
    """Sections of ``path`` as a tree; sections of other files are skipped, their children kept."""
    result: list[types.DocumentSymbol] = []
    for section in sections:
        children = section_symbols(section.children, path, mapper)
        if section.path == path:
            result.append(_symbol(section, mapper, children))
        else:
            result.extend(children)
    return result


def document_symbols(server: RelatexServer, uri: str) -> list[types.DocumentSymbol]:
    path = uri_to_path(uri)
    snapshot = snapshot_for(server, path)
    if snapshot is None:
        return []
    mapper = mapper_for(snapshot, path)
    if path in snapshot.bibs:
        return [
            types.DocumentSymbol(
                name=entry.key, detail=entry.entry_type, kind=types.SymbolKind.Struct,
                range=mapper.range(entry.start, entry.end),
                selection_range=mapper.range(entry.key_start, entry.key_end) if entry.key_end > entry.key_start
                else mapper.range(entry.start, entry.start),
            )
            for entry in snapshot.bibs[path].entries
        ]
    if snapshot.project is None:
        return []
    return section_symbols(snapshot.project.sections, path, mapper)


def register(server: RelatexServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @server.guarded("go to definition", default=[])
    def definition(params: types.DefinitionParams) -> list[types.Location]:
        return definition_locations(server, params.text_document.uri, params.position)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @server.guarded("find references", default=[])
    def references(params: types.ReferenceParams) -> list[types.Location]:
        return reference_locations(server, params.text_document.uri, params.position,
                                   params.context.include_declaration)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @server.guarded("document symbols", default=[])
    def symbols(params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        return document_symbols(server, params.text_document.uri)
