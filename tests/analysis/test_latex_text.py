"""Plain text of LaTeX with a source offset for every output character."""

from __future__ import annotations

import pytest

from relatex.analysis.latex.latex_scan import mask_text, read_group
from relatex.analysis.latex.latex_text import MATH_PLACEHOLDER, REF_PLACEHOLDER, plain_text


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (r"\emph{de facto} and \textbf{bold}", "de facto and bold"),
        (r"See Fig.~\ref{fig:a} and \cref{sec:b}.", f"See Fig. {REF_PLACEHOLDER} and {REF_PLACEHOLDER}."),
        (r"G\"{o}del, Erd\H{o}s, \'etude, \c{c}a, na\"{\i}ve, \ss", "Gödel, Erdős, étude, ça, naïve, ß"),
        (r"We use $O(n^2)$ memory and $\alpha$.", "We use O(n^2) memory and α."),
        (r"Before \[ x = \sum_i y_i \] after", f"Before {MATH_PLACEHOLDER} after"),
        ("A \\begin{equation}\\label{e} x = 1 \\end{equation} B", f"A {MATH_PLACEHOLDER} B"),
        ("Transformers~\\citep[see][p.~3]{a,b} work.", "Transformers work."),
        (r"pages 1--3, em---dash, ``quoted''", "pages 1–3, em—dash, “quoted”"),
        ("50\\% done % a comment\nnext", "50% done next"),
        ("one\n\n\ntwo", "one\n\ntwo"),
        ("\\section{Intro}\\label{s}Text.", "Intro\n\nText."),
        ("\\begin{itemize}\\item first \\item second\\end{itemize}", "first\n\nsecond"),
        ("Note\\footnote{hidden} here \\url{http://x.org/a_b}", "Note here http://x.org/a_b"),
        ("\\begin{tabular}{ll} a & b \\\\ \\end{tabular}Kept", "Kept"),
        ("\\verb|\\x%y| and \\textcolor{red}{red}", "\\x%y and red"),
        ("\\LaTeX{} and \\ldots", "LaTeX and …"),
    ],
)
def test_plain_text(source: str, expected: str) -> None:
    text, offsets = plain_text(source)
    assert text == expected
    assert len(offsets) == len(text)
    assert all(0 <= off < len(source) for off in offsets)
    assert list(offsets) == sorted(offsets)


def test_offsets_point_at_the_source_characters() -> None:
    source = r"A \emph{claim} with G\"{o}del~\cite{k} and $x$."
    text, offsets = plain_text(source)
    assert text == "A claim with Gödel and x."
    for index, ch in enumerate(text):
        if ch.isascii() and ch.isalpha():
            assert source[offsets[index]] == ch
    assert source[offsets[text.index("ö")]:].startswith('\\"{o}')


def test_range_and_textual_citation_placeholder() -> None:
    source = "Intro. \\citet{a} show that X holds \\citep{b}. Outro."
    start = source.index("\\citet")
    end = source.index(" Outro")
    text, offsets = plain_text(source, start, end, textual_citation="this work")
    assert text == "this work show that X holds."
    assert offsets[0] == start
    assert min(offsets) >= start and max(offsets) < end


def test_mask_text_keeps_length_and_hides_comments_and_verbatim() -> None:
    source = "a % c1\n\\% b \\\\% c2\n\\begin{verbatim}\n\\cite{v}\n\\end{verbatim}\\verb|%x| e"
    masked = mask_text(source)
    assert len(masked) == len(source)
    assert "c1" not in masked and "c2" not in masked and "\\cite{v}" not in masked and "%x" not in masked
    assert "\\% b" in masked and masked.endswith(" e")
    assert masked.count("\n") == source.count("\n")


def test_read_group_nesting_and_unterminated() -> None:
    text = "{a{b}c}[x{]}y]{open"
    group = read_group(text, 0)
    assert group is not None and text[group.content_start:group.content_end] == "a{b}c"
    bracket = read_group(text, 7, "[", "]")
    assert bracket is not None and text[bracket.content_start:bracket.content_end] == "x{]}y"
    tail = read_group(text, 14)
    assert tail is not None and not tail.closed and tail.end == len(text)
    assert read_group(text, 1) is None
