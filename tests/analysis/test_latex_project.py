"""Loading a multi-file thesis-like project: includes, findings, sections, overlays, roots."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from relatex.analysis.findings import Code, Severity
from relatex.analysis.latex.latex_project import (
    citation_at,
    find_root,
    find_section,
    iter_sections,
    load_project,
    section_text,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "analysis" / "latex"


@pytest.fixture()
def thesis(tmp_path: Path) -> Path:
    target = tmp_path / "thesis"
    shutil.copytree(FIXTURES / "thesis", target)
    return target.resolve()


def _span(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(needle, start + 1)
    return start, start + len(needle)


def test_follows_every_include_kind_in_document_order(thesis: Path) -> None:
    project = load_project(thesis / "main.tex")
    names = [p.relative_to(thesis).as_posix() for p in project.file_order]
    assert names == [
        "main.tex", "chapters/intro.tex", "chapters/cycle-a.tex", "chapters/cycle-b.tex",
        "chapters/background.tex", "chapters/method.tex", "appendix/extra.tex", "appendix/detail.tex",
    ]
    assert project.includes[thesis / "main.tex"] == (
        thesis / "chapters/intro.tex", thesis / "chapters/background.tex",
        thesis / "chapters/method.tex", thesis / "appendix/extra.tex",
    )
    assert project.includes[thesis / "appendix/extra.tex"] == (thesis / "appendix/detail.tex",)
    assert project.cited_keys() == (
        "vaswani2017attention", "ji2023survey", "huang2023hallucination", "lewis2020rag",
        "guu2020realm", "bahdanau2015neural", "kaplan2020scaling", "smith2021method",
        "corpus2022", "detail2020",
    )


def test_findings_for_cycle_escape_missing_include_and_missing_bib(thesis: Path) -> None:
    project = load_project(thesis / "main.tex")
    main = project.files[thesis / "main.tex"].text
    cycle_b = project.files[thesis / "chapters/cycle-b.tex"].text
    got = {(f.code, f.path.name, f.start, f.end) for f in project.findings}
    assert got == {
        (Code.INCLUDE_CYCLE, "cycle-b.tex", *_span(cycle_b, r"\input{chapters/cycle-a}")),
        (Code.INCLUDE_OUTSIDE_ROOT, "main.tex", *_span(main, r"\input{../../etc/passwd}")),
        (Code.INCLUDE_NOT_FOUND, "main.tex", *_span(main, r"\input{missing-chapter}")),
        (Code.BIB_FILE_NOT_FOUND, "main.tex", *_span(main, "missing-refs")),
    }
    assert all(not str(p).startswith("/etc") for p in project.files)


def test_citation_keys_have_exact_ranges_and_sentences(thesis: Path) -> None:
    project = load_project(thesis / "main.tex")
    intro_path = thesis / "chapters/intro.tex"
    intro = project.files[intro_path].text
    site = next(s for s in project.citations if s.command == "citep" and s.path == intro_path)
    assert [k.key for k in site.keys] == ["ji2023survey", "huang2023hallucination"]
    assert (site.keys[0].start, site.keys[0].end) == _span(intro, "ji2023survey")
    assert (site.keys[1].start, site.keys[1].end) == _span(intro, "huang2023hallucination")
    assert (site.prenote, site.postnote) == ("see", "p.~3")
    assert (site.start, site.end) == _span(intro, r"\citep[see][p.~3]{ji2023survey, huang2023hallucination}")
    assert intro[site.sentence_start:site.sentence_end] == (
        r"Large language models hallucinate references~\citep[see][p.~3]{ji2023survey, huang2023hallucination}."
    )
    # "et al.\ ", "3.5", "Fig.~" and "e.g." do not end the sentence
    textual = next(s for s in project.citations if s.command == "citeauthor")
    assert intro[textual.sentence_start:textual.sentence_end].startswith(r"Smith et al.\ reached 3.5")
    assert intro[textual.sentence_start:textual.sentence_end].endswith("'s model.")
    # text after \end{document} and commented-out citations are ignored
    assert "after-end-of-document" not in project.cited_keys()
    assert "commented-out" not in project.cited_keys()
    for site in project.citations:
        text = project.files[site.path].text
        for key in site.keys:
            assert text[key.start:key.end] == key.key


def test_front_matter_and_bibliography(thesis: Path) -> None:
    project = load_project(thesis / "main.tex")
    main = project.files[thesis / "main.tex"].text
    assert project.title == "Learning to Cite: Retrieval-Augmented Writing"
    assert project.authors == ("Ada Lovelace", "Alan Turing")
    assert project.abstract == "We study how language models write related-work sections. Citations must be real."
    assert project.abstract_range is not None
    path, start, end = project.abstract_range
    assert path == thesis / "main.tex"
    assert main[start:end].strip().startswith("We study") and main[end:].startswith(r"\end{abstract}")
    assert project.citation_package == "natbib"
    assert [(r.kind, r.path, r.exists) for r in project.bib_resources] == [
        ("bibliography", thesis / "refs.bib", True),
        ("bibliography", thesis / "missing-refs.bib", False),
    ]
    assert project.bib_paths() == (thesis / "refs.bib", thesis / "missing-refs.bib")


def test_section_tree_ranges_and_labels(thesis: Path) -> None:
    project = load_project(thesis / "main.tex")
    flat = [(s.level, s.command, s.title, s.path.name, s.label) for s in iter_sections(project.sections)]
    assert flat == [
        (1, "chapter", "Introduction", "intro.tex", "ch:intro"),
        (2, "section", "First half of a loop", "cycle-a.tex", None),
        (2, "section", "Second half of a loop", "cycle-b.tex", None),
        (1, "chapter", "Background", "background.tex", None),
        (2, "section", "Transformer Models", "background.tex", "sec:transformers"),
        (3, "subsection", "Scaling", "background.tex", None),
        (2, "section*", "Notes", "background.tex", None),
        (1, "chapter", "Method", "method.tex", None),
        (2, "section*", "Extra Material", "extra.tex", None),
    ]
    assert [s.title for s in project.sections] == ["Introduction", "Background", "Method"]
    background = project.files[thesis / "chapters/background.tex"].text
    transformers = find_section(project, "transformer")
    assert transformers is not None
    assert transformers.start == background.index(r"\section[Transformers]")
    assert transformers.end == background.index(r"\section*{Notes}")
    assert background[transformers.title_start:transformers.title_end] == "Transformer Models"
    scaling = transformers.children[0]
    assert (scaling.start, scaling.end) == (background.index(r"\subsection"), background.index(r"\section*"))
    # a chapter ends at its file's end; in the subfile, at its own \end{document}
    assert project.sections[1].end == len(background)
    method_text = project.files[thesis / "chapters/method.tex"].text
    assert project.sections[2].end == method_text.index(r"\end{document}")
    # the include of a file holding a section ends the enclosing section
    cycle_a = project.files[thesis / "chapters/cycle-a.tex"].text
    first_half = project.sections[0].children[0]
    assert first_half.end == cycle_a.index(r"\input{chapters/cycle-b}")


def test_section_text_splices_included_files(thesis: Path) -> None:
    project = load_project(thesis / "main.tex")
    extra = project.sections[2].children[0]
    assert section_text(project, extra) == "Extra Material\n\nDetails follow."
    background = project.sections[1]
    assert section_text(project, background).split("\n\n") == [
        "Background", "Transformer Models", "Attention mechanisms preceded transformers.",
        "Scaling", "Scaling laws hold.", "Notes", "No citations here.",
    ]


def test_overlays_take_precedence_over_disk(thesis: Path) -> None:
    intro = thesis / "chapters/intro.tex"
    overlay = "\\chapter{Unsaved}\nNew claim~\\cite{unsaved2024}.\n"
    project = load_project(thesis / "main.tex", overlays={intro: overlay})
    assert project.files[intro].text == overlay
    assert "unsaved2024" in project.cited_keys()
    assert "ji2023survey" not in project.cited_keys()
    assert project.sections[0].title == "Unsaved"
    # an overlay can also provide a file that does not exist on disk yet
    new_file = thesis / "chapters/new.tex"
    main = (thesis / "main.tex").read_text() .replace(r"\input{missing-chapter}", r"\input{chapters/new}")
    project = load_project(thesis / "main.tex", overlays={thesis / "main.tex": main, new_file: "\\cite{fresh}"})
    assert "fresh" in project.cited_keys()
    assert Code.INCLUDE_NOT_FOUND not in {f.code for f in project.findings}


def test_symlink_pointing_outside_the_root_is_refused(thesis: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.tex"
    secret.write_text("\\cite{secret-key}")
    os.symlink(secret, thesis / "chapters" / "escape.tex")
    main = (thesis / "main.tex").read_text().replace(r"\input{missing-chapter}", r"\input{chapters/escape}")
    project = load_project(thesis / "main.tex", overlays={thesis / "main.tex": main})
    assert "secret-key" not in project.cited_keys()
    assert secret not in project.files
    outside = [f for f in project.findings if f.code == Code.INCLUDE_OUTSIDE_ROOT]
    assert {main[f.start:f.end] for f in outside} == {r"\input{chapters/escape}", r"\input{../../etc/passwd}"}


def test_missing_root_raises_but_bad_content_does_not(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_project(tmp_path / "nope.tex")
    broken = tmp_path / "broken.tex"
    broken.write_bytes(b"\\documentclass{article\n\\begin{document}\xff\xfe\\cite{a\n\\section{x\n\\begin{verbatim}")
    project = load_project(broken)
    assert project.files[broken.resolve()].text.startswith("\\documentclass")
    assert project.citations == ()


def test_find_root_follows_magic_comment_and_subfiles(thesis: Path) -> None:
    assert find_root(thesis / "chapters/intro.tex") == thesis / "main.tex"
    assert find_root(thesis / "chapters/method.tex") == thesis / "main.tex"
    assert find_root(thesis / "main.tex") == thesis / "main.tex"
    # no magic comment, no \documentclass: the file that includes it is the root
    assert find_root(thesis / "chapters/background.tex") == thesis / "main.tex"
    # an overlay's magic comment wins over the file on disk
    standalone = thesis / "appendix/standalone.tex"
    standalone.write_text("\\documentclass{article}\n")
    overlay = {thesis / "appendix/detail.tex": "%!TEX root = standalone.tex\nText."}
    assert find_root(thesis / "appendix/detail.tex", overlay) == standalone
    # magic comments are followed in chains (extra.tex is found through main.tex's \import)
    overlay = {thesis / "appendix/detail.tex": "% !TeX root = extra\nText."}
    assert find_root(thesis / "appendix/detail.tex", overlay) == thesis / "main.tex"


def test_bare_input_and_input_without_extension(tmp_path: Path) -> None:
    (tmp_path / "part.tex").write_text("\\cite{from-part}")
    (tmp_path / "other.tex").write_text("\\cite{from-other}")
    root = tmp_path / "root.tex"
    root.write_text("\\input part\n\\input{other.tex}\n")
    project = load_project(root)
    assert project.cited_keys() == ("from-part", "from-other")
    assert project.findings == ()


def test_citation_at_finds_site_and_key(thesis: Path) -> None:
    project = load_project(thesis / "main.tex")
    intro = thesis / "chapters/intro.tex"
    text = project.files[intro].text
    offset = text.index("huang2023") + 3
    found = citation_at(project, intro, offset)
    assert found is not None
    site, key = found
    assert site.command == "citep" and key is not None and key.key == "huang2023hallucination"
    on_command = citation_at(project, intro, text.index(r"\citep[see]") + 2)
    assert on_command is not None and on_command[1] is None
    assert citation_at(project, intro, 0) is None


def test_a_huge_included_file_is_not_read(tmp_path: Path) -> None:
    import time

    from relatex.analysis.latex.latex_project import MAX_INCLUDED_BYTES

    (tmp_path / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\n\\input{dump}\n"
                                       "Text \\cite{a}.\n\\end{document}\n", encoding="utf-8")
    (tmp_path / "dump.tex").write_text("x \\cite{b} " * (MAX_INCLUDED_BYTES // 10 + 1), encoding="utf-8")
    started = time.monotonic()
    project = load_project(tmp_path / "main.tex")
    assert time.monotonic() - started < 5
    [finding] = [f for f in project.findings if f.code is Code.DOCUMENT_TOO_LARGE]
    assert finding.severity is Severity.INFORMATION and "dump" in finding.message
    assert [k.key for site in project.citations for k in site.keys] == ["a"]


def test_the_size_limit_for_included_files_is_the_callers(tmp_path: Path) -> None:
    (tmp_path / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\n\\input{table}\n"
                                       "Text \\cite{a}.\n\\end{document}\n", encoding="utf-8")
    (tmp_path / "table.tex").write_text("x \\cite{b} " * 3_000, encoding="utf-8")  # 30 kB
    read = load_project(tmp_path / "main.tex")
    assert {k.key for site in read.citations for k in site.keys} == {"a", "b"}
    limited = load_project(tmp_path / "main.tex", max_included_bytes=10_000)
    assert [k.key for site in limited.citations for k in site.keys] == ["a"]
    [finding] = [f for f in limited.findings if f.code is Code.DOCUMENT_TOO_LARGE]
    assert "is 33 kB, over 10 kB" in finding.message and "table" in finding.message
    # an included file open in the editor is the editor's text, whatever its size on disk
    overlays = {tmp_path / "table.tex": "y \\cite{c}"}
    opened = load_project(tmp_path / "main.tex", overlays, max_included_bytes=10_000)
    assert sorted(k.key for site in opened.citations for k in site.keys) == ["a", "c"]  # read, not 30 kB
