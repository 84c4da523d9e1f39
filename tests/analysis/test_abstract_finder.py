"""The abstract wherever the author wrote it: environments, included files, chapters, class macros."""

from __future__ import annotations

from pathlib import Path

import pytest

from relatex.analysis.latex.latex_project import load_project

WORDS = "We study how language servers can help authors cite related work."


def write(tmp: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp / "main.tex"


CASES = {
    "environment": ({"main.tex": f"\\documentclass{{article}}\n\\begin{{document}}\n\\begin{{abstract}}\n{WORDS}\n"
                                 "\\end{abstract}\n\\end{document}\n"}, "main.tex"),
    "environment-input": ({"main.tex": "\\documentclass{article}\n\\begin{document}\n\\begin{abstract}\n"
                                       "\\input{abstract}\n\\end{abstract}\n\\end{document}\n",
                           "abstract.tex": f"% the abstract\n{WORDS}\n"}, "abstract.tex"),
    "chapter-star": ({"main.tex": "\\documentclass{report}\n\\begin{document}\n\\chapter*{Abstract}\n"
                                  f"{WORDS}\n\\chapter{{Introduction}}\nText.\n\\end{{document}}\n"}, "main.tex"),
    "addchap-include": ({"main.tex": "\\documentclass{scrbook}\n\\begin{document}\n\\frontmatter\n"
                                     "\\addchap{Abstract}\n\\input{front/abstract}\n\\mainmatter\n"
                                     "\\chapter{Introduction}\nText.\n\\end{document}\n",
                         "front/abstract.tex": f"{WORDS}\n"}, "front/abstract.tex"),
    "front-matter-file": ({"main.tex": "\\documentclass{book}\n\\begin{document}\n\\include{abstract}\n"
                                       "\\chapter{Introduction}\nText.\n\\end{document}\n",
                           "abstract.tex": f"\\chapter*{{Abstract}}\n{WORDS}\n"}, "abstract.tex"),
    "class-macro": ({"main.tex": f"\\documentclass{{thesis}}\n\\abstract{{{WORDS}}}\n\\begin{{document}}\n"
                                 "\\maketitle\n\\end{document}\n"}, "main.tex"),
    "abstract-page": ({"main.tex": "\\documentclass{ucthesis}\n\\begin{document}\n"
                                   "\\startabstractpage{A Title}{An Author}{A Chair}\n"
                                   f"{WORDS}\n\\endabstractpage\n\\chapter{{Introduction}}\nText.\n"
                                   "\\end{document}\n"}, "main.tex"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_abstract_is_found_with_its_file_and_range(tmp_path: Path, case: str) -> None:
    files, where = CASES[case]
    project = load_project(write(tmp_path, files))
    assert project.abstract == WORDS
    assert project.abstract_range is not None
    path, start, end = project.abstract_range
    assert path == (tmp_path / where).resolve()
    assert WORDS in path.read_text(encoding="utf-8")[start:end]


def test_no_abstract_is_none(tmp_path: Path) -> None:
    project = load_project(write(tmp_path, {"main.tex": "\\documentclass{article}\n\\begin{document}\n"
                                                        "\\section{Introduction}\nText.\n\\end{document}\n"}))
    assert project.abstract is None and project.abstract_range is None
