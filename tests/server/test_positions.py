"""Offsets <-> LSP positions in UTF-16 code units, and incremental changes, against pygls."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.workspace import TextDocument

from relatex.server.positions import PositionMapper, apply_change, end_position

ALPHABET = st.sampled_from(list("ab \\{}é") + ["\n", "\r\n", "\r", "😀", "𝔸", "中"])
TEXTS = st.lists(ALPHABET, max_size=60).map("".join)


def test_astral_characters_count_two_utf16_units() -> None:
    text = "x😀y\nz"
    mapper = PositionMapper(text)
    assert mapper.position(2) == types.Position(line=0, character=3)  # after the emoji
    assert mapper.offset(types.Position(line=0, character=3)) == 2
    assert mapper.position(4) == types.Position(line=1, character=0)


def test_positions_clamp_to_line_and_text() -> None:
    mapper = PositionMapper("ab\ncd")
    assert mapper.offset(types.Position(line=0, character=99)) == 2
    assert mapper.offset(types.Position(line=9, character=0)) == 5
    assert end_position("ab\ncd") == types.Position(line=1, character=2)


def test_crlf_line_ends() -> None:
    mapper = PositionMapper("a\r\nb\rc")
    assert mapper.position(3) == types.Position(line=1, character=0)
    assert mapper.position(5) == types.Position(line=2, character=0)
    assert mapper.offset(types.Position(line=2, character=1)) == 6


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.data())
def test_round_trip_on_character_boundaries(text: str, data: st.DataObject) -> None:
    mapper = PositionMapper(text)
    offset = data.draw(st.integers(0, len(text)))
    if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
        return  # inside a CRLF: not a position an editor can address
    position = mapper.position(offset)
    assert mapper.offset(position) == offset
    line_start = text.rfind("\n", 0, offset)
    line_start = max(line_start, text.rfind("\r", 0, offset)) + 1
    assert position.character == len(text[line_start:offset].encode("utf-16-le")) // 2


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.data())
def test_incremental_change_matches_pygls(text: str, data: st.DataObject) -> None:
    mapper = PositionMapper(text)
    a = data.draw(st.integers(0, len(text)))
    b = data.draw(st.integers(a, len(text)))
    for offset in (a, b):
        if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
            return
    new_text = data.draw(TEXTS)
    change = types.TextDocumentContentChangePartial(range=mapper.range(a, b), text=new_text)
    expected = TextDocument("file:///t.tex", text)
    expected.apply_change(change)
    assert apply_change(text, change) == expected.source == text[:a] + new_text + text[b:]


def test_full_change_replaces_text() -> None:
    assert apply_change("old", types.TextDocumentContentChangeWholeDocument(text="new")) == "new"


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_batch_positions_of_a_large_text_equal_single_lookups(newline: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    from relatex.server import positions

    rng = random.Random(7)
    lines = ["".join(rng.choice("ab c\u00e9\U0001d400") for _ in range(rng.randrange(0, 30))) for _ in range(300)]
    text = newline.join(lines)
    offsets = [rng.randrange(0, len(text) + 1) for _ in range(200)] + [0, len(text), len(text) + 5, -3]
    monkeypatch.setattr(positions, "LAZY_INDEX_CHARS", 0)
    monkeypatch.setattr(positions, "CHECKPOINT_CHARS", 37)
    lazy = positions.PositionMapper(text)
    batch = lazy.positions(offsets[:60])  # walks part of the text, leaving checkpoints
    batch.update(lazy.positions(offsets))  # then lookups before, between and beyond them
    eager = positions.PositionMapper.__new__(positions.PositionMapper)
    eager.text = text
    eager._index = positions.line_index(text)
    for offset in offsets:
        clamped = min(max(0, offset), len(text))
        assert batch[clamped] == eager.position(clamped)
