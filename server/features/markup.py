"""Plain text for clients that cannot render Markdown (they advertise only ``plaintext``).

The hover card is written in a small Markdown subset (bold, links, quotes, inline code); this
turns it into readable plain text rather than showing the markup.
"""

from __future__ import annotations

import re
from typing import Any

from lsprotocol import types

_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")


def markdown_to_plain(markdown: str) -> str:
    """Bold and code marks removed, links as ``text <url>``, quotes indented."""
    lines = []
    for line in markdown.splitlines():
        quoted = line.startswith("> ")
        line = line[2:] if quoted else line
        line = _LINK.sub(r"\1 <\2>", line)
        line = _BOLD.sub(r"\1", line)
        line = _CODE.sub(r"\1", line)
        lines.append(f"  {line}" if quoted else line)
    return "\n".join(lines)


def client_renders_markdown(capabilities: Any) -> bool:
    """Whether the client's hover accepts Markdown (assumed when it does not say)."""
    text_document = getattr(capabilities, "text_document", None)
    hover = getattr(text_document, "hover", None)
    formats = getattr(hover, "content_format", None)
    return not formats or types.MarkupKind.Markdown in formats


def markup_for(capabilities: Any, markdown: str) -> types.MarkupContent:
    if client_renders_markdown(capabilities):
        return types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown)
    return types.MarkupContent(kind=types.MarkupKind.PlainText, value=markdown_to_plain(markdown))
