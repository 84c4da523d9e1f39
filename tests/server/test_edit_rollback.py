"""The inverse of a planned multi-edit restores the text exactly, whatever the edits."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from relatex.analysis.edits import TextEdit, apply_edits
from relatex.server.features.edit_rollback import inverse_edits

PATH = Path("/p/main.tex")
EXAMPLES = 1000


@st.composite
def text_and_edits(draw: st.DrawFn) -> tuple[str, list[TextEdit]]:
    text = draw(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=8)))
    edits = []
    for start, end in zip(cuts[::2], cuts[1::2], strict=False):
        edits.append(TextEdit(PATH, start, end, draw(st.text(max_size=30))))
    return text, draw(st.permutations(edits))


@settings(max_examples=EXAMPLES, deadline=None)
@given(text_and_edits())
def test_inverse_edits_restore_the_original(case: tuple[str, list[TextEdit]]) -> None:
    text, edits = case
    edited = apply_edits(text, edits)
    assert apply_edits(edited, inverse_edits(PATH, text, edits)) == text
