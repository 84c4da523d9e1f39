"""The validator: foreign keys, dangerous commands and unbalanced braces never reach the draft."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from relatex.writing.latex_validator import balance_braces, cited_keys, remove_dangerous, validate_latex


def test_foreign_keys_are_dropped_and_empty_citations_removed() -> None:
    text = r"Dense retrieval \citep{karpukhin2020dense,smith2099fake} works. It was hyped~\citep{fake2}."
    result = validate_latex(text, {"karpukhin2020dense"})
    assert result.text == r"Dense retrieval \citep{karpukhin2020dense} works. It was hyped."
    assert result.dropped_keys == ("smith2099fake", "fake2")
    assert not result.ok and "outside the selected papers" in result.problems[0]


def test_options_and_biblatex_commands_are_understood() -> None:
    text = r"\textcite[see][p.~3]{a} and \parencite{b, c} and \cite*{d}."
    assert cited_keys(text) == ["a", "b", "c", "d"]
    assert validate_latex(text, {"a", "b", "c", "d"}).ok


def test_dangerous_commands_are_removed_with_their_arguments() -> None:
    text = (r"Intro. \immediate\write18{rm -rf ~} \input{/etc/passwd} \def\x#1{#1} "
            r"\renewcommand{\cite}[1]{} \catcode`\^=7 End \citep{a}.")
    cleaned, found = remove_dangerous(text)
    for bad in ("write18", "input", "passwd", "rm -rf", r"\def", "renewcommand", "catcode"):
        assert bad not in cleaned
    assert {r"\immediate", r"\input", r"\def", r"\renewcommand", r"\catcode"} <= set(found)
    assert "Intro." in cleaned and r"End \citep{a}." in cleaned
    # look-alike commands are not touched
    assert remove_dangerous(r"\left( x \right) \defined \inputs")[1] == []


def test_unbalanced_braces_are_repaired() -> None:
    fixed, count = balance_braces(r"A {\em b} c} d {e \{ f")
    assert count == 2 and fixed == r"A {\em b} c d e \{ f"
    assert validate_latex("x } y", set()).problems == ("1 unbalanced brace(s) removed",)


def test_markdown_fences_are_stripped() -> None:
    assert validate_latex("```latex\nText \\citep{a}.\n```", {"a"}).text.strip() == r"Text \citep{a}."


FRAGMENTS = ["Text ", "{", "}", r"\{", r"\citep{a}", r"\citet{b,zz}", r"\cite{evil}", r"\input{x}", r"\def\y{z}",
             r"\write18{ls}", r"\textbf{bold}", "$x_1$", "%", " and ", r"\\", "~", r"\newcommand{\q}{w}"]


@given(st.lists(st.sampled_from(FRAGMENTS), max_size=30))
@settings(max_examples=200, deadline=None)
def test_any_text_comes_out_safe(parts: list[str]) -> None:
    result = validate_latex("".join(parts), {"a", "b"})
    assert set(cited_keys(result.text)) <= {"a", "b"}
    assert balance_braces(result.text)[1] == 0
    assert remove_dangerous(result.text)[1] == []
    assert validate_latex(result.text, {"a", "b"}).ok  # repairing twice changes nothing more
