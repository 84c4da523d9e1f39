"""The .bib reader follows biber: % lines inside entries, repeated fields, duplicate keys once, case-only keys."""

from __future__ import annotations

from pathlib import Path

from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.analysis.findings import Code, Severity
from relatex.analysis.latex.latex_project import load_project
from relatex.analysis.verification.project_checks import check_project, load_bibliographies

ZOTERO = """@article{lee2020dense,
\ttitle = {Dense {Retrieval} for Open Questions},
\t% language = {en},
\tjournal = {Journal of Retrieval},
\tauthor = {Lee, Kim and Park, Jo},
\t%file = {Full Text:/home/x/Zotero/storage/ABC/lee.pdf:application/pdf},
\tyear = {2020},
}

@inproceedings{kim2021,
  title = {Sparse Is Fine},  % a note after a field
  author = {Kim, A.},
  title = {Sparse Is Fine Again},
  booktitle = {Proceedings},
  year = 2021,
}
"""


def test_comment_lines_inside_entries_are_fine_and_ranges_exact(tmp_path: Path) -> None:
    bib = parse_bib_text(ZOTERO, tmp_path / "refs.bib")
    assert [e.key for e in bib.entries] == ["lee2020dense", "kim2021"]
    lee = bib.entries[0]
    assert lee.fields["journal"] == "Journal of Retrieval" and lee.fields["year"] == "2020"
    assert "language" not in lee.fields and "file" not in lee.fields
    assert ZOTERO[lee.start:lee.end].startswith("@article{") and ZOTERO[lee.start:lee.end].endswith("}")
    assert ZOTERO[lee.key_start:lee.key_end] == "lee2020dense"
    assert not [f for f in bib.findings if f.severity is Severity.ERROR]
    repeated = [f for f in bib.findings if f.code is Code.DUPLICATE_FIELD]
    assert len(repeated) == 1 and ZOTERO[repeated[0].start:repeated[0].end] == "title"
    assert bib.entries[1].fields["title"] == "Sparse Is Fine"


def _project(tmp: Path, package: str, cite: str, bib: str) -> tuple[object, object]:
    (tmp / "refs.bib").write_text(bib, encoding="utf-8")
    use = "\\usepackage{biblatex}\n\\addbibresource{refs.bib}\n" if package == "biblatex" else "\\usepackage{natbib}\n"
    end = "\\printbibliography\n" if package == "biblatex" else "\\bibliography{refs}\n"
    (tmp / "main.tex").write_text(f"\\documentclass{{article}}\n{use}\\begin{{document}}\n{cite}\n{end}"
                                  "\\end{document}\n", encoding="utf-8")
    project = load_project(tmp / "main.tex")
    return project, load_bibliographies(project)


def test_case_only_key_difference_is_a_warning_with_bibtex_and_an_error_with_biber(tmp_path: Path) -> None:
    bib = "@misc{Smith2020, title = {T}, author = {Smith, A.}, year = {2020}, howpublished = {x}}\n"
    for package, severity in (("natbib", Severity.WARNING), ("biblatex", Severity.ERROR)):
        project, bibs = _project(tmp_path, package, "\\cite{smith2020}", bib)
        found = [f for f in check_project(project, bibs) if f.code is Code.UNDEFINED_CITATION]  # type: ignore[arg-type]
        assert [(f.severity, f.data["suggestions"]) for f in found] == [(severity, ["Smith2020"])]
        assert "differs only in case" in found[0].message


def test_duplicate_key_reported_once_with_every_location(tmp_path: Path) -> None:
    entry = "@misc{dup, title = {T}, author = {A, B}, year = {2020}}\n"
    project, bibs = _project(tmp_path, "natbib", "\\cite{dup}", entry * 3)
    found = [f for f in check_project(project, bibs) if f.code is Code.DUPLICATE_KEY]  # type: ignore[arg-type]
    assert len(found) == 1 and len(found[0].data["others"]) == 2
    assert "line 1" in found[0].message and "line 3" in found[0].message


def test_string_loops_are_flagged_and_chains_still_expand(tmp_path: Path) -> None:
    text = ('@string{a = b # "x"}\n@string{b = a}\n@string{c = c}\n'
            '@string{ok = "fine"}\n@string{ok2 = ok # " too"}\n@misc{k, title = ok2}\n')
    bib = parse_bib_text(text, tmp_path / "refs.bib")
    loops = [f for f in bib.findings if f.code is Code.STRING_LOOP]
    assert [f.severity for f in loops] == [Severity.WARNING, Severity.WARNING]
    assert "b -> a -> b" in loops[0].message and "c -> c" in loops[1].message
    assert text[loops[1].start:loops[1].end] == "@string{c = c}"
    assert bib.entries[0].fields["title"] == "fine too"
