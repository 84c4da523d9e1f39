"""Small projects shaped like real ones (tests/fixtures/projects/*, each with expected.json):
exact cited keys, no false undefined key, no error on files BibTeX/biber accept, the abstract
found, the citation package detected, and generation that only adds, in LF and CRLF copies."""

from __future__ import annotations

import difflib
import json
import shutil
from pathlib import Path

import pytest

from relatex.analysis.findings import Code, Severity
from relatex.analysis.latex.latex_project import load_project
from relatex.analysis.text_files import read_text, write_edits
from relatex.analysis.verification.project_checks import check_project, load_bibliographies
from relatex.retrieval.records import PaperRecord
from relatex.writing.generate import generate_related_work
from relatex.writing.placement import BLOCK_BEGIN, find_related_section, plan_insertion
from tests.writing.conftest import make_selection

PROJECTS = Path(__file__).resolve().parent.parent / "fixtures" / "projects"
NAMES = sorted(p.name for p in PROJECTS.iterdir() if (p / "expected.json").is_file())


def test_there_are_enough_projects() -> None:
    assert len(NAMES) >= 20


def copy_project(name: str, dest: Path, newline: str) -> Path:
    """A copy of fixture project ``name`` with every LaTeX/BibTeX file's line ends made ``newline``."""
    shutil.copytree(PROJECTS / name, dest)
    if newline == "\r\n":
        for path in dest.rglob("*"):
            if path.suffix in (".tex", ".bib", ".sty", ".cls"):
                text, fmt = read_text(path)
                data = text.replace("\r\n", "\n").replace("\n", "\r\n").encode(fmt.encoding)
                path.write_bytes((b"\xef\xbb\xbf" if fmt.bom else b"") + data)
    return dest / "main.tex"


def only_insertions(before: bytes, after: bytes) -> bool:
    """Whether ``after`` is ``before`` with bytes inserted and none removed or replaced."""
    ops = difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
    return all(op[0] in ("equal", "insert") for op in ops)


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
@pytest.mark.parametrize("name", NAMES)
def test_real_project(tmp_path: Path, records: list[PaperRecord], name: str, newline: str) -> None:
    expected = json.loads((PROJECTS / name / "expected.json").read_text(encoding="utf-8"))
    root = copy_project(name, tmp_path / name, newline)
    project = load_project(root)
    assert set(project.cited_keys(nocite=False)) == set(expected["cited"])
    assert set(project.nocite_keys()) == set(expected["nocite"])
    assert project.citation_package == expected["package"]
    assert project.abstract == expected["abstract"] and project.abstract_range is not None
    bibs = load_bibliographies(project)
    findings = check_project(project, bibs)
    assert not [f.message for f in findings if f.code is Code.UNDEFINED_CITATION]
    assert not [f.message for f in findings if f.severity is Severity.ERROR]
    related = find_related_section(project)
    assert (related.title if related else None) == expected["related"]

    before = {p: p.read_bytes() for p in root.parent.rglob("*") if p.is_file()}
    section = generate_related_work(project, bibs, make_selection(records))
    edits = plan_insertion(project, bibs, section)
    assert all(e.start == e.end for e in edits)
    texts = {p: f.text for p, f in project.files.items()} | {p: b.text for p, b in bibs.items()}
    write_edits(edits, texts)
    assert {p.name for p in root.parent.rglob("*.bib")} - {p.name for p in before} <= {"references.bib"}
    for path, data in before.items():
        after = path.read_bytes()
        assert only_insertions(data, after), path
        if newline == "\r\n" and path.suffix in (".tex", ".bib"):
            assert b"\n" not in after.replace(b"\r\n", b""), path
    if related is not None:
        assert BLOCK_BEGIN in related.path.read_text(encoding="utf-8", errors="replace")
    reloaded = load_project(root)
    assert set(expected["cited"]) <= set(reloaded.cited_keys())
    assert not [f.message for f in check_project(reloaded, load_bibliographies(reloaded))
                if f.code is Code.UNDEFINED_CITATION]
