"""Findings converted to LSP diagnostics: reused while their file's text is unchanged."""

from __future__ import annotations

from pathlib import Path

from relatex.analysis.findings import Code, Finding, Severity
from relatex.server.features.diagnostics import diagnostics_by_file

PATH = Path("/project/refs.bib")


class CountingText(str):
    """A text that counts how often it is compared."""

    comparisons = 0

    def __eq__(self, other: object) -> bool:
        CountingText.comparisons += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def findings(text: str) -> list[Finding]:
    starts = [i for i in range(len(text)) if text.startswith("@misc", i)]
    return [Finding(Code.MISSING_FIELD, Severity.WARNING, f"entry {n} lacks a title", PATH, start, start + 5)
            for n, start in enumerate(starts)]


def test_an_equal_text_loaded_again_is_compared_once_and_the_diagnostics_are_reused() -> None:
    content = "".join(f"@misc{{k{n},\n  year = {{2020}}\n}}\n" for n in range(40))
    first, again = CountingText(content), CountingText(content)
    found = findings(content)
    before = diagnostics_by_file(found, {PATH: first}, [PATH])[PATH]
    CountingText.comparisons = 0
    after = diagnostics_by_file(found, {PATH: again}, [PATH])[PATH]
    assert CountingText.comparisons == 1  # not once per finding
    assert [a is b for a, b in zip(after, before, strict=True)] == [True] * len(found)
    CountingText.comparisons = 0
    diagnostics_by_file(found, {PATH: again}, [PATH])
    assert CountingText.comparisons == 0  # the new text object is the one remembered


def test_a_changed_text_converts_again_with_its_own_positions() -> None:
    content = "".join(f"@misc{{k{n},\n  year = {{2020}}\n}}\n" for n in range(3))
    before = diagnostics_by_file(findings(content), {PATH: content}, [PATH])[PATH]
    changed = "\n\n" + content
    after = diagnostics_by_file(findings(changed), {PATH: changed}, [PATH])[PATH]
    assert [d.range.start.line for d in after] == [d.range.start.line + 2 for d in before]
