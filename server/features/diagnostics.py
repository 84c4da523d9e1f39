"""Diagnostics: the syntax pass (fast) and the publishing of every finding as an LSP diagnostic.

Each diagnostic has source ``relatex``, the finding's stable code and, in ``data``, what its
quick fix needs (the code, the file and the finding's own data).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.analysis.finding_limits import cap_per_file, oversized_document, utf8_size
from relatex.analysis.findings import Code, Finding, Severity, finding_text, json_safe
from relatex.analysis.text_files import read_text
from relatex.server.documents import path_to_uri
from relatex.server.features.checks import carry_over, start_background_checks
from relatex.server.positions import mapper_for_file
from relatex.workflows.check_project import ProjectSnapshot, analyse_root, preview_root

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer
    from relatex.server.roots import BackgroundResults

log = logging.getLogger(__name__)

SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFORMATION: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}
UNNECESSARY = {Code.UNUSED_ENTRY}


def to_diagnostic(finding: Finding, rng: types.Range) -> types.Diagnostic:
    data = {"code": finding.code.value, "path": str(finding.path), "start": finding.start,
            "end": finding.end, **json_safe(dict(finding.data))}
    tags = [types.DiagnosticTag.Unnecessary] if finding.code in UNNECESSARY else None
    return types.Diagnostic(
        range=rng,
        message=finding.message,
        severity=types.DiagnosticSeverity.Hint if finding.code == Code.UNUSED_ENTRY
        else SEVERITY.get(finding.severity, types.DiagnosticSeverity.Warning),
        code=finding.code.value,
        source="relatex",
        data=data,
        tags=tags,
    )


# (path, start, end, code, message) -> (finding, text, diagnostic): findings of an unchanged
# .bib (and the verdicts re-found for unchanged entries) are converted once, not per pass.
ConversionKey = tuple[Path, int, int, str, str]
_converted: dict[ConversionKey, tuple[Finding, str, types.Diagnostic]] = {}
_converted_lock = threading.Lock()


def _conversion_key(finding: Finding) -> ConversionKey:
    return finding.path, finding.start, finding.end, finding.code.value, finding.message


def _text_of(path: Path, texts: Mapping[Path, str]) -> str:
    if path in texts:
        return texts[path]
    try:
        return read_text(path)[0]
    except OSError:
        return ""


def related_locations(finding: Finding, texts: Mapping[Path, str],
                      file_texts: dict[Path, str]) -> list[types.DiagnosticRelatedInformation]:
    """The other places a finding names in ``data["others"]`` (every definition of a duplicate key)."""
    others = finding.data.get("others") if isinstance(finding.data, Mapping) else None
    related: list[types.DiagnosticRelatedInformation] = []
    for other in others if isinstance(others, list) else ():
        if not isinstance(other, Mapping) or not isinstance(other.get("start"), int):
            continue
        path = Path(str(other.get("path", "")))
        if path not in file_texts:
            file_texts[path] = _text_of(path, texts)
        mapper = mapper_for_file(path, file_texts[path])
        start = min(int(other["start"]), len(file_texts[path]))
        end = min(max(start, int(other.get("end", start))), len(file_texts[path]))
        related.append(types.DiagnosticRelatedInformation(
            location=types.Location(uri=path_to_uri(path), range=mapper.range(start, end)),
            message=(f"'{finding.data['key']}' is also defined here" if "key" in finding.data else "also here")))
    return related


def _same(known: str, text: str, compared: dict[tuple[int, int], bool]) -> bool:
    """Whether two texts are equal, comparing each pair of distinct objects once (an equal .bib
    loaded again would otherwise be compared in full once per finding)."""
    if known is text:
        return True
    pair = (id(known), id(text))
    if pair not in compared:
        compared[pair] = known == text
    return compared[pair]


def diagnostics_by_file(findings: Iterable[Finding], texts: Mapping[Path, str],
                        files: Iterable[Path]) -> dict[Path, list[types.Diagnostic]]:
    """Group findings per file as diagnostics; every file of ``files`` gets a (maybe empty) list.

    Safe to run in the executor: it reads immutable inputs and caches conversions by content.
    """
    result: dict[Path, list[types.Diagnostic]] = {path: [] for path in files}
    pending: dict[Path, list[Finding]] = {}
    converted: dict[ConversionKey, tuple[Finding, str, types.Diagnostic]] = {}
    ordered = sorted(findings, key=Finding.sort_key)
    file_texts: dict[Path, str] = {}
    same_text: dict[tuple[int, int], bool] = {}  # each pair of text objects compared once
    for finding in ordered:
        text = file_texts.get(finding.path)
        if text is None:
            text = file_texts[finding.path] = finding_text(finding, texts) or ""
        key = _conversion_key(finding)
        cached = _converted.get(key)
        if (cached is None or not _same(cached[1], text, same_text)
                or (cached[0] is not finding and cached[0] != finding)):
            pending.setdefault(finding.path, []).append(finding)
        else:  # kept with the current text object: the next pass compares by identity
            converted[key] = (finding, text, cached[2])
    for path, todo in pending.items():
        text = file_texts[path]
        mapper = mapper_for_file(path, text)
        positions = mapper.positions([f.start for f in todo] + [max(f.start, f.end) for f in todo])
        for finding in todo:
            rng = types.Range(start=positions[min(max(0, finding.start), len(text))],
                              end=positions[min(max(0, max(finding.start, finding.end)), len(text))])
            diagnostic = to_diagnostic(finding, rng)
            diagnostic.related_information = related_locations(finding, texts, file_texts) or None
            converted[_conversion_key(finding)] = (finding, text, diagnostic)
    for finding in ordered:
        result.setdefault(finding.path, []).append(converted[_conversion_key(finding)][2])
    with _converted_lock:  # the executor and the event loop both convert
        _converted.update(converted)
        if len(_converted) > 4 * max(len(converted), 1000):
            live = {key: value for key, value in _converted.items() if key in converted}
            _converted.clear()
            _converted.update(live)
    return result


def publish(server: RelatexServer, root: Path, per_file: Mapping[Path, list[types.Diagnostic]]) -> None:
    """Replace the diagnostics ``root`` contributes to each file and publish the union."""
    state = server.state
    touched: set[str] = set()
    for uri, per_root in state.diagnostics.items():
        if root in per_root:
            per_root.pop(root)
            touched.add(uri)
    for path, diagnostics in per_file.items():
        uri = path_to_uri(path)
        state.diagnostics.setdefault(uri, {})[root] = diagnostics
        touched.add(uri)
    for uri in sorted(touched):
        merged = [d for per_root in state.diagnostics.get(uri, {}).values() for d in per_root]
        if state.last_published.get(uri) == merged:
            continue  # unchanged (e.g. a large .bib while typing in a chapter): nothing to send
        state.last_published[uri] = merged
        doc = state.document(uri)
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=merged, version=doc.version if doc else None)
        )


def published_findings(server: RelatexServer, snapshot: ProjectSnapshot,
                       background: BackgroundResults | None) -> list[Finding]:
    """A root's findings as published: its snapshot's plus ``background``'s when of the same generation."""
    findings: list[Finding] = list(snapshot.findings)
    if background is not None and background.generation == snapshot.generation:
        findings.extend(background.findings)
    return cap_per_file(findings, server.settings.max_findings_per_file)


def publish_snapshot(server: RelatexServer, snapshot: ProjectSnapshot) -> None:
    background = server.state.background.get(snapshot.root)
    publish(server, snapshot.root, diagnostics_by_file(published_findings(server, snapshot, background),
                                                       snapshot.texts, snapshot.files()))


async def analyse(server: RelatexServer, root: Path, generation: int) -> None:
    """Syntax pass of ``root`` in the executor, publish, then start the background checks."""
    state = server.state
    too_large = oversized_documents(server, root)
    if too_large:  # one notice, no analysis: a 50 MB draft must not cost minutes per keystroke
        state.snapshots.pop(root, None)
        publish(server, root, {finding.path: [to_diagnostic(finding, types.Range(
            start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)))]
            for finding in too_large})
        return
    if root not in state.snapshots:
        await _preview(server, root, generation)
    try:
        snapshot = await state.run(analyse_root, root, state.overlays(), server.settings, generation)
    except Exception as exc:
        server.report_once("analysis", exc)
        return
    if state.generation(root) != generation:
        return  # a newer change is pending: never publish stale results
    if snapshot.error is not None and snapshot.project is None:
        log.warning("relatex: cannot analyse %s: %s", root, snapshot.error)
        return
    # the diagnostics to publish, converted off the event loop
    previous = state.background.get(root)
    carried = carry_over(previous, state.snapshots.get(root), snapshot)
    try:
        per_file: Mapping[Path, list[types.Diagnostic]] | None = await state.run(
            diagnostics_by_file, published_findings(server, snapshot, carried), snapshot.texts, snapshot.files())
    except Exception as exc:
        server.report_once("analysis", exc)
        return
    if state.generation(root) != generation:
        return
    if state.background.get(root) is not previous:  # a background pass ended meanwhile: convert again
        carried = carry_over(state.background.get(root), state.snapshots.get(root), snapshot)
        per_file = None
    if carried is not None:
        state.background[root] = carried
    state.snapshots[root] = snapshot
    for path in snapshot.files():
        state.root_of[path] = root
    if per_file is not None:
        publish(server, root, per_file)
    else:
        publish_snapshot(server, snapshot)
    for hook in server.analysis_hooks:
        hook(snapshot)
    start_background_checks(server, snapshot)


def oversized_documents(server: RelatexServer, root: Path) -> list[Finding]:
    """The document-too-large findings of ``root`` and the open .tex documents of its project."""
    state, limit = server.state, server.settings.max_document_bytes
    paths = {root} | {d.path for d in state.documents.values()
                      if d.path.suffix.lower() == ".tex" and state.root_of.get(d.path, d.path) == root}
    found: list[Finding] = []
    for path in sorted(paths):
        doc = state.document_for_path(path)
        try:
            size = utf8_size(doc.text, limit) if doc is not None else path.stat().st_size
        except OSError:
            continue
        finding = oversized_document(path, size, limit)
        if finding is not None:
            found.append(finding)
    return found


async def _preview(server: RelatexServer, root: Path, generation: int) -> None:
    """First analysis of a root with a large, unchanged bibliography: publish the draft's own
    diagnostics from the .bib key summaries while the full pass loads the files."""
    state = server.state
    try:
        preview = await state.run(preview_root, root, state.overlays(), server.settings)
    except Exception:
        log.exception("the diagnostics preview of %s failed", root)
        return
    if preview is None or state.generation(root) != generation or root in state.snapshots:
        return
    findings, texts = preview
    publish(server, root, diagnostics_by_file(findings, texts, texts))


def publish_standalone_bib(server: RelatexServer, path: Path) -> None:
    """Parse findings of a .bib file that no open project uses."""
    text = server.state.text_of(path)
    if text is None:
        return
    bib = parse_bib_text(text, path)
    publish(server, path, diagnostics_by_file(bib.findings, {path: text}, [path]))


def register(server: RelatexServer) -> None:
    """Diagnostics are pushed; nothing to register beyond the analysis hooks."""
