"""Hover cards for clients without Markdown (eglot without markdown-mode) are plain text."""

from __future__ import annotations

from lsprotocol import types

from relatex.server.features.markup import markdown_to_plain, markup_for

CARD = ("**Dense Passage Retrieval**\n\nV. Karpukhin · 2020\n\n"
        "[doi:10.18653/v1/x](https://doi.org/10.18653/v1/x)\n\n> We show that retrieval...\n\n`karpukhin2020dense`")


def test_markdown_becomes_readable_plain_text() -> None:
    plain = markdown_to_plain(CARD)
    assert "**" not in plain and "`" not in plain and "](" not in plain
    assert plain.splitlines()[0] == "Dense Passage Retrieval"
    assert "doi:10.18653/v1/x <https://doi.org/10.18653/v1/x>" in plain
    assert "  We show that retrieval..." in plain and plain.endswith("karpukhin2020dense")


def test_the_clients_hover_formats_decide() -> None:
    plain_only = types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(
        hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.PlainText])))
    markdown = types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(
        hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText])))
    assert markup_for(plain_only, CARD).kind == types.MarkupKind.PlainText
    assert markup_for(markdown, CARD) == types.MarkupContent(kind=types.MarkupKind.Markdown, value=CARD)
    assert markup_for(types.ClientCapabilities(), CARD).kind == types.MarkupKind.Markdown
