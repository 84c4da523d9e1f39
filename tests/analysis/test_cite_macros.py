"""The author's own citation commands are citations: keys, ranges, claims and checks."""

from __future__ import annotations

from pathlib import Path

from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.analysis.findings import Code
from relatex.analysis.latex.cite_macros import CiteMacro, find_cite_macros
from relatex.analysis.latex.latex_project import load_project
from relatex.analysis.latex.latex_scan import mask_text
from relatex.analysis.verification.project_checks import check_project

PREAMBLE = r"""\documentclass{article}
\usepackage{natbib}
\newcommand{\mycite}[1]{\citep{#1}}
\newcommand*\seeref[2][see]{(#1 \citealp{#2})}
\def\pc#1{\cite{#1}}
\NewDocumentCommand{\withnote}{om}{\citep[#1]{#2}}
\newcommand{\notcite}[1]{\textbf{#1}}
\newcommand{\fixed}{\cite{always}}
% \newcommand{\commented}[1]{\cite{#1}}
"""


def test_definitions_that_cite_an_argument_are_found() -> None:
    macros = {m.name: m for m in find_cite_macros(mask_text(PREAMBLE))}
    assert macros == {
        "mycite": CiteMacro("mycite", ("m",), 0, "citep"),
        "seeref": CiteMacro("seeref", ("o", "m"), 1, "citealp"),
        "pc": CiteMacro("pc", ("m",), 0, "cite"),
        "withnote": CiteMacro("withnote", ("o", "m"), 1, "citep"),
    }


def test_macro_citations_across_files_with_exact_key_ranges(tmp_path: Path) -> None:
    (tmp_path / "macros.tex").write_text(PREAMBLE.split("\n", 2)[2], encoding="utf-8")
    chapter = ("Dense retrieval maps text to vectors \\mycite{smith2020, jones2021}.\n"
               "Sparse models remain strong \\seeref[e.g.]{robertson2009}.\n"
               "Hashing is cheap \\pc{lee2019} and fast \\withnote{kim2022}.\n")
    (tmp_path / "chapter.tex").write_text(chapter, encoding="utf-8")
    root = tmp_path / "main.tex"
    root.write_text("\\documentclass{article}\n\\input{macros}\n\\begin{document}\n"
                    "We cite \\mycite{root2018} here.\n\\input{chapter}\n"
                    "\\bibliography{refs}\n\\end{document}\n", encoding="utf-8")
    (tmp_path / "refs.bib").write_text(
        "".join(f"@misc{{{k}, title={{T {k}}}, year={{2020}}}}\n"
                for k in ("smith2020", "jones2021", "robertson2009", "lee2019", "root2018", "always")),
        encoding="utf-8")
    project = load_project(root)
    by_key = {key.key: (site, key) for site in project.citations for key in site.keys}
    # (a macro citing fixed keys cites them where it is defined, as before)
    assert set(by_key) == {"root2018", "smith2020", "jones2021", "robertson2009", "lee2019", "kim2022", "always"}
    for key, (_site, ckey) in by_key.items():
        assert project.files[ckey.path].text[ckey.start:ckey.end] == key
    assert by_key["smith2020"][0].command == "citep"
    assert by_key["robertson2009"][0].command == "citealp"
    # the sentences with macro citations are claims, and their text does not contain the keys
    claims = [c for c in project.claims if "kim2022" in c.keys or "smith2020" in c.keys]
    assert claims and all("smith2020" not in c.text and "kim2022" not in c.text for c in claims)
    # the checks see them: one undefined key, used entries are not "unused"
    bibs = {tmp_path / "refs.bib": parse_bib_text((tmp_path / "refs.bib").read_text(), tmp_path / "refs.bib")}
    findings = check_project(project, bibs)
    assert [f.data["key"] for f in findings if f.code is Code.UNDEFINED_CITATION] == ["kim2022"]
    assert not [f for f in findings if f.code is Code.UNUSED_ENTRY]


def test_projects_without_macros_are_read_once(tmp_path: Path) -> None:
    root = tmp_path / "main.tex"
    root.write_text("\\documentclass{article}\n\\begin{document}\nText \\cite{a}.\n\\end{document}\n",
                    encoding="utf-8")
    project = load_project(root)
    assert [k.key for s in project.citations for k in s.keys] == ["a"]


def test_the_project_names_its_citation_macros(tmp_path: Path) -> None:
    root = tmp_path / "main.tex"
    root.write_text(PREAMBLE + "\\begin{document}\nText \\pc{a}.\n\\end{document}\n", encoding="utf-8")
    project = load_project(root)
    assert dict(project.cite_macros) == {"mycite": 0, "seeref": 0, "pc": 0, "withnote": 0}
