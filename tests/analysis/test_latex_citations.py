"""Citation commands: natbib, biblatex, multicite, notes, comments and verbatim."""

from __future__ import annotations

from pathlib import Path

import pytest

from relatex.analysis.findings import Code
from relatex.analysis.latex.citations import detect_citation_package, find_citations
from relatex.analysis.latex.latex_project import load_project
from relatex.analysis.latex.latex_scan import mask_text

STYLES = Path(__file__).resolve().parent.parent / "fixtures" / "analysis" / "latex" / "styles"


def _sites(path: Path) -> list[tuple[str, list[str], str | None, str | None]]:
    project = load_project(path)
    text = project.files[path.resolve()].text
    for site in project.citations:
        for key in site.keys:
            assert text[key.start:key.end] == key.key
        assert site.start <= site.keys[0].start and site.keys[-1].end < site.end
    return [(s.command, [k.key for k in s.keys], s.prenote, s.postnote) for s in project.citations]


def test_natbib_forms() -> None:
    assert _sites(STYLES / "natbib.tex") == [
        ("citep", ["alpha"], None, None),
        ("citet", ["beta"], None, None),
        ("citep", ["gamma", "delta"], "see", "chap.~2"),
        ("citep", ["epsilon"], None, "p.~7"),
        ("citealp", ["zeta"], None, None),
        ("citealt", ["eta"], None, None),
        ("citeauthor", ["theta"], None, None),
        ("citeyear", ["iota"], None, None),
        ("citeyearpar", ["kappa"], None, None),
        ("citep*", ["lambda"], None, None),
        ("Citet", ["mu"], None, None),
        ("citep", ["nu", "xi", "omicron"], None, None),
        ("nocite", ["pi"], None, None),
        ("nocite", ["*"], None, None),
    ]
    project = load_project(STYLES / "natbib.tex")
    assert project.citation_package == "natbib"
    assert [s.is_nocite for s in project.citations][-2:] == [True, True]
    assert "*" not in project.cited_keys()


def test_biblatex_forms_and_multicite() -> None:
    assert _sites(STYLES / "biblatex.tex") == [
        ("parencite", ["alpha"], None, None),
        ("textcite", ["beta"], None, "12"),
        ("Textcite", ["gamma"], None, None),
        ("autocite", ["delta"], "see", None),
        ("footcite", ["epsilon"], None, None),
        ("smartcite", ["zeta"], None, None),
        ("supercite", ["eta"], None, None),
        ("Parencite*", ["theta"], None, None),
        ("Autocite", ["iota"], None, None),
        ("cites", ["kappa", "lambda", "mu"], "global pre", "global post"),
    ]
    project = load_project(STYLES / "biblatex.tex")
    assert project.citation_package == "biblatex"
    # the remote resource is skipped; the local one is missing in the fixture folder
    assert [(r.kind, r.path.name if r.path else None) for r in project.bib_resources] == [
        ("addbibresource", "refs.bib")
    ]
    assert [f.code for f in project.findings] == [Code.BIB_FILE_NOT_FOUND]


def test_comments_and_verbatim_hide_citations() -> None:
    project = load_project(STYLES / "comments.tex")
    assert project.cited_keys() == ("real1", "real2", "real3")
    text = project.files[(STYLES / "comments.tex").resolve()].text
    real2 = project.citations[1]
    assert (real2.keys[0].start, real2.keys[0].end) == (text.index("real2"), text.index("real2") + 5)
    assert text[real2.start:real2.end] == "\\cite{real2% key split by a comment\n}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (r"\cite{a}", ["a"]),
        (r"\citep [see] [p.~2] {a , b}", ["a", "b"]),
        ("\\cite{a,\n  b % c\n}", ["a", "b"]),
        (r"\cite{a}\cite{b}", ["a"]),  # second site separate
        (r"\cite", []),
        (r"\cite{unterminated", []),
        (r"\citestyle{plain} \citeindextrue", []),
        (r"\% \cite{x}", ["x"]),
        (r"\\% \cite{x}", []),
        (r"\cites{a}{b}[p.~1]{c}", ["a", "b", "c"]),
        (r"\footcites(see)()[1]{a}{b}", ["a", "b"]),
    ],
)
def test_single_command_variants(source: str, expected: list[str]) -> None:
    sites = find_citations(Path("x.tex"), source, mask_text(source))
    first = [k.key for k in sites[0].keys] if sites else []
    assert first == expected
    for site in sites:
        for key in site.keys:
            assert source[key.start:key.end] == key.key


@pytest.mark.parametrize(
    ("preamble", "package"),
    [
        (r"\usepackage[numbers]{natbib}", "natbib"),
        (r"\usepackage{amsmath,natbib}", "natbib"),
        (r"\usepackage[backend=biber,natbib=true]{biblatex}", "biblatex"),
        (r"\usepackage{biblatex-chicago}", "biblatex"),
        (r"\documentclass[sigconf]{acmart}", "natbib"),
        (r"\documentclass[sigconf,natbib=false]{acmart}", "none"),
        (r"\documentclass{article}", "none"),
        (r"% \usepackage{natbib}", "none"),
    ],
)
def test_citation_package_detection(preamble: str, package: str) -> None:
    assert detect_citation_package([mask_text(preamble)]) == package


def test_url_percent_and_macro_definitions(tmp_path: Path) -> None:
    root = tmp_path / "paper.tex"
    root.write_text(
        "\\newcommand{\\mycite}[1]{\\citep{#1}}\n\\newcommand{\\mysec}[1]{\\section{#1}}\n"
        "See \\url{http://example.org/a%20b} and \\href{http://x.org/%7E}{here}~\\cite{after-url}.\n"
        "\\footnote{Text~\\cite{a, % old}\n b}.}\n"
    )
    project = load_project(root)
    assert project.cited_keys() == ("after-url", "a", "b")
    assert project.sections == ()
    texts = [c.text for c in project.claims]
    assert texts[0] == "See http://example.org/a%20b and here."
    assert texts[1] == "Text."


def test_a_package_name_too_long_for_a_file_is_no_local_package(tmp_path: Path) -> None:
    # a name longer than the system allows for a file, typed by accident or half-edited, is not looked up as one
    masked = mask_text(f"\\usepackage{{{'x' * 300}}}\\usepackage{{natbib}}\n")
    assert detect_citation_package([masked], tmp_path) == "natbib"
