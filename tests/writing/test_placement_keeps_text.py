"""Generating never removes a byte of the author's text: every edit is an insertion, in LF and CRLF drafts."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from relatex.analysis.latex.latex_project import load_project
from relatex.analysis.text_files import write_edits
from relatex.analysis.verification.project_checks import load_bibliographies
from relatex.retrieval.records import PaperRecord
from relatex.writing.generate import generate_related_work
from relatex.writing.placement import BLOCK_BEGIN, find_related_section, plan_insertion
from tests.writing.conftest import BIB_TEXT, make_selection

HEADINGS = [
    "\\section{Related Work}", "\\section*{Background and Related Work}", "\\subsection{Related Work}",
    "\\chapter{Literature Review}", "\\addsec{Prior Work}", "\\section{Alternatives and Related Work}",
    "\\subsection*{Previous work}",
]


def assert_only_insertions(before: bytes, after: bytes) -> None:
    """Every byte of ``before`` is in ``after``, in order and in runs: nothing replaced or deleted."""
    ops = difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
    assert {op[0] for op in ops} <= {"equal", "insert"}, [op for op in ops if op[0] not in ("equal", "insert")]


def write_project(tmp: Path, heading: str, newline: str) -> dict[Path, bytes]:
    files = {
        tmp / "main.tex": ("\\documentclass{report}\n\\usepackage{natbib}\n\\begin{document}\n"
                           "\\begin{abstract}\nWe write related work for drafts with a language server.\n"
                           "\\end{abstract}\n\\chapter{Introduction}\nRetrieval matters \\citep{robertson2009bm25}.\n"
                           "\\input{related}\n\\chapter{Method}\nWe do things.\n\\bibliographystyle{plainnat}\n"
                           "\\bibliography{refs}\n\\end{document}\n"),
        tmp / "related.tex": f"{heading}\\label{{sec:rw}}\nThe author's own survey, line one.\n\n"
                             "Line two cites \\citet{reimers2019sentence}.   \n\n",
        tmp / "refs.bib": BIB_TEXT,
    }
    written = {}
    for path, text in files.items():
        data = text.replace("\n", newline).encode("utf-8")
        path.write_bytes(data)
        written[path] = data
    return written


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
@pytest.mark.parametrize("heading", HEADINGS)
def test_existing_related_work_is_kept_byte_for_byte(tmp_path: Path, records: list[PaperRecord], heading: str,
                                                       newline: str) -> None:
    before = write_project(tmp_path, heading, newline)
    project = load_project(tmp_path / "main.tex")
    existing = find_related_section(project)
    assert existing is not None and existing.path == tmp_path / "related.tex"
    bibs = load_bibliographies(project)
    section = generate_related_work(project, bibs, make_selection(records))
    edits = plan_insertion(project, bibs, section)
    expected = {p: f.text for p, f in project.files.items()} | {p: b.text for p, b in bibs.items()}
    changed = write_edits(edits, expected)
    assert tmp_path / "related.tex" in changed and tmp_path / "main.tex" not in changed
    for path, data in before.items():
        after = path.read_bytes()
        assert_only_insertions(data, after)
        if newline == "\r\n":
            assert b"\n" not in after.replace(b"\r\n", b""), path
    related = (tmp_path / "related.tex").read_bytes().decode()
    assert related.index("line one") < related.index(BLOCK_BEGIN)
    reloaded = load_project(tmp_path / "main.tex")
    assert {"robertson2009bm25", "reimers2019sentence"} <= set(reloaded.cited_keys())


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_new_section_is_an_insertion(tmp_path: Path, records: list[PaperRecord], newline: str) -> None:
    before = write_project(tmp_path, "\\section{Discussion}", newline)
    project = load_project(tmp_path / "main.tex")
    assert find_related_section(project) is None
    bibs = load_bibliographies(project)
    section = generate_related_work(project, bibs, make_selection(records))
    expected = {p: f.text for p, f in project.files.items()} | {p: b.text for p, b in bibs.items()}
    write_edits(plan_insertion(project, bibs, section), expected)
    for path, data in before.items():
        assert_only_insertions(data, path.read_bytes())
    assert "\\section{Related Work}" in (tmp_path / "main.tex").read_text(encoding="utf-8")
