"""Scale abuse: a huge document gets one notice, a file with thousands of problems a capped list."""

from __future__ import annotations

import time
from pathlib import Path

from lsprotocol import types

from relatex.analysis.finding_limits import cap_per_file
from relatex.analysis.findings import Code, Finding, Severity
from tests.server.conftest import StartEditor


async def test_a_document_over_the_size_limit_gets_one_notice(start_editor: StartEditor, demo: Path) -> None:
    main = demo / "main.tex"
    filler = "".join(f"Sentence {i} cites \\cite{{missing{i}}} and goes on for a while.\n" for i in range(45_000))
    main.write_text(main.read_text(encoding="utf-8").replace("\\end{document}", filler + "\\end{document}"),
                    encoding="utf-8")
    assert main.stat().st_size > 2_000_000
    editor = await start_editor(demo)
    started = time.monotonic()
    uri = editor.open(main)
    [notice] = await editor.diagnostics(uri, lambda ds: len(ds) > 0, timeout=30)
    assert notice.code == Code.DOCUMENT_TOO_LARGE.value and notice.severity == types.DiagnosticSeverity.Information
    assert time.monotonic() - started < 10
    hover = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=60, character=20)))
    assert hover is None
    outcome = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="relatex.generateRelatedWork", arguments=[uri]))
    assert outcome["applied"] is False and "maxDocumentBytes" in outcome["error"]


async def test_an_included_file_over_the_size_limit_is_not_read(start_editor: StartEditor,
                                                                 demo: Path) -> None:
    main = demo / "main.tex"
    dump = demo / "dump.tex"
    rows = (f"Row {i} cites \\cite{{missing{i}}}.\n" for i in range(110_000))
    dump.write_text("".join(rows), encoding="utf-8")
    assert 2_000_000 < dump.stat().st_size < 8_000_000  # over the default limit, under the loader's own
    text = main.read_text(encoding="utf-8")
    main.write_text(text.replace("\\end{document}", "\\input{dump}\n\\end{document}"), encoding="utf-8")
    editor = await start_editor(demo)
    uri = editor.open(main)
    diagnostics = await editor.diagnostics(
        uri, lambda ds: any(d.code == Code.DOCUMENT_TOO_LARGE.value for d in ds), timeout=30)
    [notice] = [d for d in diagnostics if d.code == Code.DOCUMENT_TOO_LARGE.value]
    assert "dump" in notice.message and notice.severity == types.DiagnosticSeverity.Information
    assert not any("missing" in d.message for d in diagnostics)


async def test_findings_per_file_are_capped_with_a_summary(start_editor: StartEditor, demo: Path) -> None:
    main = demo / "main.tex"
    filler = "".join(f"Claim {i} \\cite{{missing{i}}}.\n" for i in range(800))
    main.write_text(main.read_text(encoding="utf-8").replace("\\end{document}", filler + "\\end{document}"),
                    encoding="utf-8")
    editor = await start_editor(demo, init={"maxFindingsPerFile": 100})
    uri = editor.open(main)
    diagnostics = await editor.diagnostics(uri, lambda ds: any(d.code == "too-many-findings" for d in ds))
    assert len(diagnostics) == 101
    [summary] = [d for d in diagnostics if d.code == "too-many-findings"]
    assert "more findings in main.tex are not shown" in summary.message


def test_cap_keeps_the_most_severe_first() -> None:
    path = Path("/p/main.tex")
    findings = [Finding(Code.UNUSED_ENTRY, Severity.INFORMATION, "i", path, i, i + 1) for i in range(10)]
    findings += [Finding(Code.UNDEFINED_CITATION, Severity.ERROR, "e", path, 100 + i, 101 + i) for i in range(3)]
    kept = cap_per_file(findings, 5)
    assert len(kept) == 6 and sum(f.severity is Severity.ERROR for f in kept) == 3
    assert [f for f in kept if f.code is Code.TOO_MANY_FINDINGS][0].data["hidden"] == 8
    assert cap_per_file(findings[:4], 5) == sorted(findings[:4], key=Finding.sort_key)
