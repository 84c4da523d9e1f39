"""Cursor scans of the current text: the completion context of citation commands and of the
author's own citation macros."""

from __future__ import annotations

from relatex.server.features.cite_scan import cite_context


def _at(text: str, marker: str = "|", macros: tuple[tuple[str, int], ...] = ()) -> tuple[str, object]:
    offset = text.index(marker)
    clean = text.replace(marker, "")
    return clean, cite_context(clean, offset, macros)


def test_inside_a_citation_command() -> None:
    _, ctx = _at(r"as shown \citep[see][p.~3]{smith2020, jo|}")
    assert ctx is not None and ctx.prefix == "jo" and ctx.existing == ("smith2020",)


def test_inside_the_keys_of_an_authors_macro_only() -> None:
    macros = (("pc", 0), ("seeref", 1))
    _, ctx = _at(r"as shown \pc{lee|", macros=macros)
    assert ctx is not None and ctx.command == "pc" and ctx.prefix == "lee"
    _, ctx = _at(r"as shown \seeref[e.g.]{note}{ki|}", macros=macros)
    assert ctx is not None and ctx.prefix == "ki"
    _, ctx = _at(r"as shown \seeref{no|", macros=macros)  # the first argument is not the keys
    assert ctx is None
    _, ctx = _at(r"as shown \pc{lee|", macros=())  # unknown macro: no completion
    assert ctx is None
    _, ctx = _at(r"as shown \pcx{lee|", macros=macros)  # another command with the same start
    assert ctx is None
