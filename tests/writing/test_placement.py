"""plan_insertion: targeted edits that put the section and its entries into a real draft."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.analysis.edits import apply_edits
from relatex.analysis.latex.latex_project import load_project
from relatex.analysis.verification.project_checks import load_bibliographies
from relatex.retrieval.records import PaperRecord
from relatex.writing.generate import generate_related_work
from relatex.writing.placement import BLOCK_END, describe_edits, plan_insertion
from tests.writing.conftest import BIB_TEXT, make_selection

PREAMBLE = "\\documentclass{article}\n\\usepackage{natbib}\n"
BODY = (
    "\\begin{document}\n\\begin{abstract}\nWe present a language server that writes related work.\n\\end{abstract}\n"
    "\\section{Introduction}\\label{sec:intro}\nRetrieval matters \\citep{robertson2009bm25}.\n\n"
    "\\section{Method}\nWe do things.\n\n"
    "\\section{Conclusion}\nDone.\n\n"
)


def write_draft(tmp: Path, text: str, bib: str | None = BIB_TEXT) -> Path:
    root = tmp / "main.tex"
    root.write_text(text, encoding="utf-8")
    if bib is not None:
        (tmp / "refs.bib").write_text(bib, encoding="utf-8")
    return root


def apply_all(edits: list) -> dict[Path, str]:  # type: ignore[type-arg]
    out: dict[Path, str] = {}
    for path in dict.fromkeys(e.path for e in edits):
        before = path.read_text(encoding="utf-8") if path.exists() else ""
        out[path] = apply_edits(before, [e for e in edits if e.path == path])
        path.write_text(out[path], encoding="utf-8")
    return out


def generate(root: Path, records: list[PaperRecord], placement: str = "after-introduction") -> tuple[list, object]:  # type: ignore[type-arg]
    project = load_project(root)
    bibs = load_bibliographies(project)
    section = generate_related_work(project, bibs, make_selection(records))
    return plan_insertion(project, bibs, section, placement=placement), section


def test_inserted_after_introduction_with_entries_appended(tmp_path: Path, records: list[PaperRecord]) -> None:
    root = write_draft(tmp_path, PREAMBLE + BODY + "\\bibliography{refs}\n\\end{document}\n")
    edits, section = generate(root, records)
    files = apply_all(edits)
    text = files[root]
    assert text.index("\\section{Introduction}") < text.index("\\section{Related Work}") < text.index("\\section{Method}")
    assert "\\label{sec:related-work}" in text and "Retrieval matters" in text
    project = load_project(root)
    assert [s.title for s in project.sections] == ["Introduction", "Related Work", "Method", "Conclusion"]
    bib = parse_bib_text(files[tmp_path / "refs.bib"], tmp_path / "refs.bib")
    keys = {e.key for e in bib.entries}
    assert {"robertson2009bm25", "reimers2019sentence"} <= keys
    assert {e.key for e in section.new_entries} <= keys  # type: ignore[attr-defined]
    assert len(bib.entries) == 2 + len(section.new_entries)  # type: ignore[attr-defined]
    assert not bib.findings
    assert files[tmp_path / "refs.bib"].startswith(BIB_TEXT)  # the user's entries untouched


def test_existing_related_work_is_kept_and_followed_by_a_marked_block(tmp_path: Path,
                                                                      records: list[PaperRecord]) -> None:
    old = "\\section*{Related work}\\label{sec:rw}\nOld text the author wrote.\n\n"
    text = PREAMBLE + BODY.replace("\\section{Method}", old + "\\section{Method}") + "\\bibliography{refs}\n\\end{document}\n"
    root = write_draft(tmp_path, text)
    edits, _ = generate(root, records)
    assert all(e.start == e.end for e in edits)  # insertions only
    out = apply_all(edits)[root]
    assert len(re.findall(r"\\section\*?\{Related [wW]ork\}", out)) == 1
    assert "Old text the author wrote.\n\n% relatex: generated related work begins" in out
    assert out.index(BLOCK_END) < out.index("\\section{Method}") and "\n\n\n" not in out


def test_replace_is_explicit_and_keeps_heading(tmp_path: Path, records: list[PaperRecord]) -> None:
    old = "\\section*{Related work}\\label{sec:rw}\nOld text to be replaced.\n\n"
    text = PREAMBLE + BODY.replace("\\section{Method}", old + "\\section{Method}") + "\\bibliography{refs}\n\\end{document}\n"
    root = write_draft(tmp_path, text)
    project = load_project(root)
    bibs = load_bibliographies(project)
    section = generate_related_work(project, bibs, make_selection(records))
    edits = plan_insertion(project, bibs, section, replace=True)
    described = describe_edits(edits, {root: text})
    assert any("replaced 1 lines" in line for line in described) and "- Old text to be replaced." in described
    out = apply_all(edits)[root]
    assert "\\section*{Related work}\\label{sec:rw}" in out and "Old text" not in out and "\n\n\n" not in out


def test_missing_bibliography_is_created_natbib(tmp_path: Path, records: list[PaperRecord]) -> None:
    root = write_draft(tmp_path, PREAMBLE + BODY.replace(" \\citep{robertson2009bm25}", "") + "\\end{document}\n",
                       bib=None)
    edits, section = generate(root, records, placement="end")
    files = apply_all(edits)
    text = files[root]
    assert "\\bibliographystyle{plainnat}\n\\bibliography{references}" in text
    assert text.index("\\section{Conclusion}") < text.index("\\section{Related Work}") < text.index("\\bibliography{")
    created = tmp_path / "references.bib"
    assert created.exists() and len(parse_bib_text(files[created], created).entries) == len(records)


def test_missing_bibliography_is_created_biblatex(tmp_path: Path, records: list[PaperRecord]) -> None:
    preamble = "\\documentclass{article}\n\\usepackage{biblatex}\n"
    root = write_draft(tmp_path, preamble + BODY.replace(" \\citep{robertson2009bm25}", "") + "\\end{document}\n",
                       bib=None)
    edits, _ = generate(root, records, placement="before-conclusion")
    text = apply_all(edits)[root]
    assert text.index("\\addbibresource{references.bib}") < text.index("\\begin{document}")
    assert "\\printbibliography" in text and "\\textcite{" in text
    assert text.index("\\section{Method}") < text.index("\\section{Related Work}") < text.index("\\section{Conclusion}")


def test_unknown_placement_is_refused(tmp_path: Path, records: list[PaperRecord]) -> None:
    root = write_draft(tmp_path, PREAMBLE + BODY + "\\bibliography{refs}\n\\end{document}\n")
    project = load_project(root)
    bibs = load_bibliographies(project)
    section = generate_related_work(project, bibs, make_selection(records))
    with pytest.raises(ValueError, match="unknown placement"):
        plan_insertion(project, bibs, section, placement="middle")
