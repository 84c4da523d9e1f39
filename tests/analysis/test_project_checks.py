"""Citation and bibliography checks of a project."""

from __future__ import annotations

from pathlib import Path

from relatex.analysis.bib.bib_identity import matches_identifiers, same_work
from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.analysis.bib.bibtex_model import BibFile
from relatex.analysis.findings import Code, Severity
from relatex.analysis.latex.project_model import (
    BibItem,
    BibResource,
    CitationKey,
    CitationSite,
    LatexProject,
    SourceFile,
)
from relatex.analysis.verification.project_checks import (
    check_bib_files,
    check_project,
    load_bibliographies,
    missing_fields,
)

TEX = Path("/draft/main.tex")
BIB = Path("/draft/refs.bib")
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "analysis"


def _project(tex: str, *, bib_items: tuple[BibItem, ...] = (), bib: bool = True) -> LatexProject:
    """A project whose citations are the ``\\cite{..}``/``\\nocite{..}`` commands of ``tex``."""
    import re

    sites = []
    for match in re.finditer(r"\\(cite|nocite)\{([^}]*)\}", tex):
        keys = []
        offset = match.start(2)
        for part in match.group(2).split(","):
            key = part.strip()
            start = offset + part.index(key) if key else offset
            keys.append(CitationKey(key, TEX, start, start + len(key)))
            offset += len(part) + 1
        sites.append(CitationSite(match.group(1), tuple(keys), TEX, match.start(), match.end()))
    resources = (BibResource("bibliography", BIB, TEX, 0, 0),) if bib else ()
    return LatexProject(root=TEX, root_dir=TEX.parent, files={TEX: SourceFile(TEX, tex)}, file_order=(TEX,),
                        citations=tuple(sites), bib_resources=resources, bib_items=bib_items)


def _bibs(text: str, path: Path = BIB) -> dict[Path, BibFile]:
    return {path: parse_bib_text(text, path)}


REFS = """
@article{a2020, author = {Smith, Ann}, title = {A Study of Things}, journal = {J}, year = {2020}}
@inproceedings{b2021, author = {Jones, Bob}, title = {Another Study}, booktitle = {Proc}, year = {2021}}
@misc{c2022, title = {Unused Note}}
"""


def test_undefined_keys_are_errors_on_the_key_range_with_suggestions() -> None:
    tex = r"See \cite{a2020, b2012} and \cite{zzz}."
    findings = check_project(_project(tex), _bibs(REFS))
    undefined = [f for f in findings if f.code is Code.UNDEFINED_CITATION]
    assert [(tex[f.start:f.end], f.severity) for f in undefined] == [("b2012", Severity.ERROR), ("zzz", Severity.ERROR)]
    assert undefined[0].data["suggestions"] == ["b2021"]
    assert "did you mean 'b2021'" in undefined[0].message
    assert undefined[1].data["suggestions"] == []


def test_unused_entries_are_information_and_capped_with_a_summary() -> None:
    findings = check_project(_project(r"\cite{a2020}"), _bibs(REFS))
    unused = [f for f in findings if f.code is Code.UNUSED_ENTRY]
    assert [f.data["key"] for f in unused] == ["b2021", "c2022"]
    assert all(f.severity is Severity.INFORMATION for f in unused)
    capped = [f for f in check_project(_project(r"\cite{a2020}"), _bibs(REFS), max_unused=1)
              if f.code is Code.UNUSED_ENTRY]
    assert len(capped) == 2
    assert capped[0].data == {"summary": True, "hidden": 1, "shown": 1}
    assert capped[1].data["key"] == "b2021"


def test_nocite_star_marks_everything_used_and_checks_all_required_fields() -> None:
    findings = check_project(_project(r"\nocite{*}"), _bibs(REFS))
    assert not [f for f in findings if f.code is Code.UNUSED_ENTRY]
    # misc has no required fields; the others are complete
    assert not [f for f in findings if f.code is Code.MISSING_FIELD]


def test_thebibliography_items_count_as_defined() -> None:
    item = BibItem("knuth84", "D. Knuth. The TeXbook.", TEX, 0, 10)
    findings = check_project(_project(r"\cite{knuth84}", bib_items=(item,), bib=False), {})
    assert findings == []


def test_no_bibliography_at_all_says_so() -> None:
    (finding,) = check_project(_project(r"\cite{x}", bib=False), {})
    assert finding.code is Code.UNDEFINED_CITATION and "no bibliography" in finding.message


def test_duplicate_keys_warn_once_per_key_across_files() -> None:
    other = Path("/draft/more.bib")
    bibs = {**_bibs(REFS), **_bibs("@misc{a2020, title = {Something else entirely}}", other)}
    findings = [f for f in check_project(_project(r"\cite{a2020}"), bibs) if f.code is Code.DUPLICATE_KEY]
    assert [(str(f.path), f.severity) for f in findings] == [(str(other), Severity.WARNING)]
    assert findings[0].data["key"] == "a2020" and [o["path"] for o in findings[0].data["others"]] == [str(BIB)]


def test_duplicate_works_by_doi_arxiv_or_title_and_author() -> None:
    text = """
@article{x1, author = {Lee, K.}, title = {Dense Retrieval}, journal = {J}, year = 2020, doi = {10.1/ABC}}
@article{x2, author = {Other, O.}, title = {Different title}, journal = {J}, year = 2020, doi = {https://doi.org/10.1/abc}}
@misc{y1, author = {Kim, A.}, title = {Preprint version}, eprint = {2101.00001}, archivePrefix = {arXiv}}
@article{y2, author = {Kim, A.}, title = {Published version}, journal = {J}, year = 2021, url = {https://arxiv.org/abs/2101.00001v3}}
@inproceedings{z1, author = {M{\\"u}ller, Hans}, title = {{Graph} Methods for Citations}, booktitle = {P}, year = 2019}
@inproceedings{z2, author = {Hans Muller}, title = {Graph methods for citations.}, booktitle = {Q}, year = 2019}
@inproceedings{w1, author = {Muller, Hans}, title = {Graph methods for citations}, booktitle = {Q}, year = 2019, doi = {10.5/one}}
@inproceedings{w2, author = {Muller, Hans}, title = {Graph methods for citations}, booktitle = {Q}, year = 2019, doi = {10.5/two}}
"""
    bibs = _bibs(text)
    entries = bibs[BIB].by_key()
    assert same_work(entries["x1"], entries["x2"])
    assert same_work(entries["y1"], entries["y2"])
    assert same_work(entries["z1"], entries["z2"])
    assert not same_work(entries["w1"], entries["w2"])  # two different DOIs
    assert not same_work(entries["x1"], entries["y1"])
    assert matches_identifiers(entries["z2"], title="Graph Methods for Citations", first_author="Müller, H.")
    assert matches_identifiers(entries["y2"], arxiv_id="arXiv:2101.00001")
    findings = [f for f in check_bib_files(bibs) if f.code is Code.DUPLICATE_WORK]
    by_key = {f.data["key"]: f for f in findings}
    assert {"x1", "x2", "y1", "y2", "z1", "z2"} <= set(by_key)
    assert by_key["x1"].data["other_keys"] == ["x2"] and by_key["x1"].data["basis"] == "DOI"
    assert by_key["y2"].data["basis"] == "arXiv id"
    assert by_key["z1"].data["basis"] == "title and first author"


def test_missing_required_fields_per_type() -> None:
    text = """
@article{art, author = {A}, title = {T}, year = 2000}
@book{bk, editor = {E}, title = {T}, publisher = {P}, year = 2000}
@book{bk2, title = {T}, year = 2000}
@inproceedings{inp, author = {A}, title = {T}, booktitle = {B}, date = {2020-01-01}}
@techreport{tr, author = {A}, title = {T}, year = 2000}
@phdthesis{th, author = {A}, title = {T}, school = {S}, year = {  }}
@misc{m}
@customtype{c}
"""
    entries = parse_bib_text(text, BIB).by_key()
    assert missing_fields(entries["art"]) == ["journal/journaltitle"]
    assert missing_fields(entries["bk"]) == []
    assert missing_fields(entries["bk2"]) == ["author/editor", "publisher"]
    assert missing_fields(entries["inp"]) == []
    assert missing_fields(entries["tr"]) == ["institution/school"]
    assert missing_fields(entries["th"]) == ["year/date"]
    assert missing_fields(entries["m"]) == missing_fields(entries["c"]) == []
    # in a project, only cited entries are checked (as BibTeX does)
    findings = check_project(_project(r"\cite{art}"), _bibs(text))
    missing = [f for f in findings if f.code is Code.MISSING_FIELD]
    assert [(f.data["key"], f.data["missing"]) for f in missing] == [("art", ["journal/journaltitle"])]
    assert text[missing[0].start:missing[0].end] == "art"


def test_parse_errors_are_reported_and_not_doubled_as_missing_fields() -> None:
    text = "@article{bad, author = {A} title = {T}, journal = {J}, year = 2000}\n@misc{ok, title={x}}\n"
    findings = check_project(_project(r"\cite{bad,ok}"), _bibs(text))
    assert [f.code for f in findings] == [Code.BIB_PARSE_ERROR]
    assert findings[0].data["key"] == "bad"


def test_project_findings_are_kept_and_missing_bib_files_reported() -> None:
    project = _project(r"\cite{a}")
    findings = check_project(project, {})
    codes = sorted(f.code.value for f in findings)
    assert codes == ["bib-file-not-found", "undefined-citation"]


def test_load_bibliographies_reads_files_and_prefers_overlays(tmp_path: Path) -> None:
    bib_path = tmp_path / "refs.bib"
    bib_path.write_text("@misc{disk, title = {On disk}}\n", encoding="utf-8")
    missing = tmp_path / "missing.bib"
    tex = tmp_path / "main.tex"
    project = LatexProject(
        root=tex, root_dir=tmp_path, files={}, file_order=(),
        bib_resources=(BibResource("bibliography", bib_path, tex, 0, 0),
                       BibResource("addbibresource", missing, tex, 5, 9, exists=False)),
    )
    bibs = load_bibliographies(project)
    assert list(bibs) == [bib_path] and [e.key for e in bibs[bib_path].entries] == ["disk"]
    overlaid = load_bibliographies(project, {bib_path: "@misc{editor, title = {Unsaved}}"})
    assert [e.key for e in overlaid[bib_path].entries] == ["editor"]


def test_broken_demo_has_every_kind_of_problem() -> None:
    from relatex.analysis.latex.latex_project import load_project

    project = load_project(FIXTURES / "broken_demo" / "main.tex")
    findings = check_project(project, load_bibliographies(project))
    codes = {f.code for f in findings}
    assert {Code.UNDEFINED_CITATION, Code.DUPLICATE_KEY, Code.DUPLICATE_WORK, Code.BIB_PARSE_ERROR,
            Code.MISSING_FIELD, Code.UNUSED_ENTRY, Code.INCLUDE_NOT_FOUND, Code.INCLUDE_OUTSIDE_ROOT} <= codes
