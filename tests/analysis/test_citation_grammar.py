"""One citation grammar: template commands, the author's macros with several key arguments,
unknown ``...cite...`` commands with key-like arguments, and definitions that are not citations."""

from __future__ import annotations

from pathlib import Path

import pytest

from relatex.analysis.latex.cite_commands import is_cite_command, keys_look_like_keys
from relatex.analysis.latex.latex_project import load_project
from relatex.server.features.cite_scan import cite_key_at
from relatex.writing.latex_validator import cited_keys

PREAMBLE = ("\\documentclass{article}\n\\usepackage{natbib}\n\\renewcommand\\cite{\\citep}\n"
            "\\newcommand{\\condcite}[2]{\\citep{#1}\\citep{#2}}\n\\newcommand{\\both}[2]{\\cite{#1,#2}}\n"
            "\\setcitestyle{authoryear,round}\n")


def load(tmp: Path, body: str) -> tuple[tuple[str, ...], list[str], tuple[str, ...]]:
    path = tmp / "main.tex"
    path.write_text(PREAMBLE + "\\begin{document}\n" + body + "\n\\end{document}\n", encoding="utf-8")
    project = load_project(path)
    return project.cited_keys(nocite=False), [f.message for f in project.findings], project.nocite_keys()


@pytest.mark.parametrize(("body", "keys"), [
    ("\\newcite{acl1} and \\yrcite{icml1} and \\possessivecite{acl2}", ("acl1", "icml1", "acl2")),
    ("\\condcite{a}{b}", ("a", "b")),
    ("\\both{c}{d}", ("c", "d")),
    ("\\parenciteseveral{e1, e2}", ("e1", "e2")),
    ("\\citep[see][p.~3]{f}", ("f",)),
])
def test_cited_keys(tmp_path: Path, body: str, keys: tuple[str, ...]) -> None:
    found, messages, _ = load(tmp_path, body)
    assert found == keys
    assert not any("\\citep" in m for m in messages)


def test_definitions_and_settings_are_not_citations(tmp_path: Path) -> None:
    found, messages, _ = load(tmp_path, "No citation here.")
    assert found == () and not any("not defined" in m for m in messages)


def test_nocite_keys_are_reported_apart(tmp_path: Path) -> None:
    found, _, listed = load(tmp_path, "\\citep{a}\\nocite{a,b}")
    assert found == ("a",) and listed == ("b",)


def test_the_other_readers_use_the_same_names() -> None:
    assert is_cite_command("parenciteseveral") and not is_cite_command("setcitestyle")
    assert not is_cite_command("defcitealias")
    assert keys_look_like_keys("a, b:c-2") and not keys_look_like_keys("\\citep") and not keys_look_like_keys("a b")
    assert cited_keys("\\newcite{x} and \\parenciteseveral{y,z}") == ["x", "y", "z"]
    text = "as \\yrcite{icml1} shows"
    found = cite_key_at(text, text.index("icml1") + 1)
    assert found is not None and found.key == "icml1"


def test_completion_inside_every_key_argument_of_a_macro(tmp_path: Path) -> None:
    from relatex.server.features.cite_scan import cite_context

    path = tmp_path / "main.tex"
    path.write_text(PREAMBLE + "\\begin{document}\n\\condcite{a}{b}\n\\end{document}\n", encoding="utf-8")
    macros = load_project(path).cite_macros
    assert ("condcite", 0) in macros and ("condcite", 1) in macros
    text = "see \\condcite{lee}{pa"
    found = cite_context(text, len(text), macros)
    assert found is not None and found.prefix == "pa"


def test_english_words_containing_cite_are_not_citations() -> None:
    assert not is_cite_command("excitedly") and not is_cite_command("recited") and not is_cite_command("incitement")
    assert is_cite_command("footcitetexts") and is_cite_command("supercitesome") and is_cite_command("explicitcite")
