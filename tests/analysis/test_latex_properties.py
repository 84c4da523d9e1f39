"""Property tests: no input makes the LaTeX analysis raise, and every range it returns is valid."""

from __future__ import annotations

import json
import logging
import re
import tarfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relatex.analysis.latex.claim_extraction import source_sentences
from relatex.analysis.latex.latex_project import find_root, iter_sections, load_project
from relatex.analysis.latex.latex_scan import mask_text
from relatex.analysis.latex.latex_text import plain_text
from relatex.analysis.latex.project_model import LatexProject
from relatex.analysis.sentences import split_sentences

THESIS = Path(__file__).resolve().parent.parent / "fixtures" / "analysis" / "latex" / "thesis"
STYLES = THESIS.parent / "styles"
ROOT = (THESIS / "main.tex").resolve()
INTRO = (THESIS / "chapters" / "intro.tex").resolve()

TOKENS = [
    "\\", "{", "}", "[", "]", "(", ")", "%", "$", "~", " ", "\n", "\n\n", ".", ",", "?", "a", "B",
    "3.5", "\\cite{", "\\citep[", "\\citet{", "\\cites(", "\\nocite{*}", "k1", ",k2", "}{",
    "\\section{", "\\section*[", "\\chapter{", "\\label{", "\\begin{verbatim}", "\\end{verbatim}",
    "\\verb|", "\\verb", "|", "\\input{", "\\include{", "\\import{", "chapters/intro", "../",
    "et al. ", "e.g. ", "Fig.~", "\\begin{document}", "\\end{document}", "\\\\", "\\%",
    "\\begin{abstract}", "\\end{abstract}", "\\abstract{", "\\author{", "\\and ", "\\title{",
    "\\bibliography{", "refs", "\\addbibresource{", "\\bibitem[", "\\begin{thebibliography}",
    "\\end{thebibliography}", "\\footnote{", "\\caption{", "\\'", "\\\"", "\\c", "$$", "\\[", "\\]",
    "\\(", "\\)", "\\emph{", "\\ref{", "\\item ", "\\begin{itemize}", "\\end{itemize}",
    "\\begin{equation}", "\\end{equation}", "\\usepackage{natbib}", "% !TeX root = main.tex\n",
    "\\begin{comment}", "\\end{comment}", "\\lstinline", "\\mintinline{x}", "\\IEEEauthorblockN{",
    "\u00e9", "\ufffd", "\r\n", "\t", "--", "``", "''",
]
PROSE = [
    "Models", " work", " well", ". ", "et al.", " e.g. ", "~\\cite{a}", " \\citet{b}", "\\citep[p.~2]{c,d}",
    " (\\citeyear{e})", "% note\n", "\n\n", "\\footnote{See \\cite{f}.}", " Fig.~\\ref{x}", "$x$",
    "\\section{S}", "\\item ", "? ", "! ", "\\emph{", "}", " 3.5", " Dr. ", "J. ", "\\verb|\\cite{v}|",
]
latex_like = st.lists(st.sampled_from(TOKENS), max_size=80).map("".join)
prose_like = st.lists(st.sampled_from(PROSE + TOKENS[:12]), max_size=60).map("".join)
any_text = st.one_of(st.text(max_size=300), latex_like, prose_like)
PROPERTY_SETTINGS = settings(max_examples=120, deadline=None,
                             suppress_health_check=[HealthCheck.too_slow])


class _Errors(logging.Handler):
    """Collects errors the loader logs when it survives an internal failure."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


ERRORS = _Errors()
logging.getLogger("relatex.analysis").addHandler(ERRORS)


def assert_valid(project: LatexProject) -> None:
    """Every range lies within its file, every key equals its source text, nothing failed inside."""
    assert ERRORS.records == [], [r.getMessage() for r in ERRORS.records]
    def text_of(path: Path) -> str:
        assert path in project.files
        return project.files[path].text

    for site in project.citations:
        text = text_of(site.path)
        assert 0 <= site.start <= site.end <= len(text)
        assert 0 <= site.sentence_start <= site.start and site.end <= site.sentence_end <= len(text)
        for key in site.keys:
            assert site.start <= key.start < key.end <= site.end
            assert text[key.start:key.end] == key.key
    for section in iter_sections(project.sections):
        text = text_of(section.path)
        assert 0 <= section.start <= section.title_start <= section.title_end <= section.end <= len(text)
    for claim in project.claims:
        text = text_of(claim.path)
        assert len(claim.offsets) == len(claim.text)
        assert 0 <= claim.start <= claim.cite_start <= claim.cite_end <= claim.end <= len(text)
        assert all(0 <= off < len(text) for off in claim.offsets)
    for finding in project.findings:
        assert 0 <= finding.start <= finding.end <= len(text_of(finding.path))
    for resource in project.bib_resources:
        assert 0 <= resource.start <= resource.end <= len(text_of(resource.declared_in))
    for item in project.bib_items:
        assert 0 <= item.start <= item.end <= len(text_of(item.path))
    if project.abstract_range is not None:
        path, start, end = project.abstract_range
        assert 0 <= start <= end <= len(text_of(path))


def assert_text_functions(text: str) -> None:
    masked = mask_text(text)
    assert len(masked) == len(text)
    plain, offsets = plain_text(text)
    assert len(plain) == len(offsets)
    assert all(0 <= off < len(text) for off in offsets)
    middle = len(text) // 3
    plain, offsets = plain_text(text, middle, 2 * middle)
    assert all(middle <= off < max(middle + 1, 2 * middle) for off in offsets)
    last = 0
    for start, end in split_sentences(text):
        assert last <= start < end <= len(text)
        last = end
    for start, end in source_sentences(text, masked):
        assert 0 <= start < end <= len(text)


@PROPERTY_SETTINGS
@given(any_text)
def test_random_text_never_raises(text: str) -> None:
    assert_text_functions(text)
    assert_valid(load_project(ROOT, overlays={ROOT: text}))
    assert find_root(INTRO, overlays={INTRO: text}).is_absolute()


@PROPERTY_SETTINGS
@given(st.binary(max_size=400))
def test_random_bytes_never_raise(data: bytes) -> None:
    text = data.decode("utf-8", errors="replace")
    assert_text_functions(text)
    assert_valid(load_project(ROOT, overlays={ROOT: text, INTRO: text[::-1]}))


FIXTURE_TEXTS = [p.read_text(encoding="utf-8") for p in sorted([*THESIS.rglob("*.tex"), *STYLES.glob("*.tex")])]


@PROPERTY_SETTINGS
@given(st.sampled_from(FIXTURE_TEXTS), st.integers(min_value=0, max_value=5000))
def test_truncated_fixtures_never_raise(text: str, cut: int) -> None:
    truncated = text[: cut % (len(text) + 1)]
    assert_text_functions(truncated)
    assert_valid(load_project(ROOT, overlays={ROOT: truncated}))
    assert_valid(load_project(ROOT, overlays={INTRO: truncated}))


@PROPERTY_SETTINGS
@given(
    st.sampled_from(FIXTURE_TEXTS),
    st.lists(st.tuples(st.integers(0, 5000), st.integers(0, 20), latex_like), min_size=1, max_size=6),
)
def test_randomly_edited_fixtures_never_raise(text: str, edits: list[tuple[int, int, str]]) -> None:
    for position, length, insert in edits:
        at = position % (len(text) + 1)
        text = text[:at] + insert + text[at + length:]
    assert_text_functions(text)
    assert_valid(load_project(ROOT, overlays={ROOT: text}))
    assert_valid(load_project(ROOT, overlays={INTRO: text}))


def _real_paragraphs(shared_data: Path, limit: int = 300) -> list[str]:
    """unarXive paragraphs with their citation markers written as \\cite commands."""
    archive = shared_data / "unarxive-sample" / "unarXive_data_sample.tar.gz"
    if not archive.is_file():
        pytest.skip("unarXive sample not present")
    paragraphs: list[str] = []
    with tarfile.open(archive) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith(".jsonl"))
        handle = tar.extractfile(member)
        assert handle is not None
        for line in handle:
            for block in json.loads(line)["body_text"]:
                text = re.sub(r"\{\{cite:([^}]*)\}\}", r"~\\cite{\1}", block["text"])
                paragraphs.append(re.sub(r"\{\{(?:formula|figure|table):[^}]*\}\}", "$x$", text))
                if len(paragraphs) >= limit:
                    return paragraphs
    return paragraphs


@pytest.fixture(scope="module")
def real_paragraphs(shared_data: Path) -> list[str]:
    return _real_paragraphs(shared_data)


@pytest.mark.shared_data
@PROPERTY_SETTINGS
@given(data=st.data())
def test_edited_real_paragraphs_never_raise(real_paragraphs: list[str], data: st.DataObject) -> None:
    text = data.draw(st.sampled_from(real_paragraphs))
    edits = data.draw(st.lists(st.tuples(st.integers(0, 5000), st.integers(0, 40), latex_like), max_size=4))
    for position, length, insert in edits:
        at = position % (len(text) + 1)
        text = text[:at] + insert + text[at + length:]
    cut = data.draw(st.integers(0, len(text)))
    for variant in (text, text[:cut]):
        assert_text_functions(variant)
        assert_valid(load_project(ROOT, overlays={ROOT: variant}))
