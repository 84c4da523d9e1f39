"""Load time of a thesis-sized project: 20 chapters, 500 citations."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from relatex.analysis.latex.latex_project import clear_analysis_cache, iter_sections, load_project
from relatex.analysis.latex.latex_text import plain_text

_WORDS = ("model retrieval citation graph dense sparse embedding corpus evaluation benchmark "
          "transformer attention layer training data method result baseline accuracy").split()


def _sentence(rng: random.Random, cite: str | None) -> str:
    words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(10, 22)))
    extra = rng.choice(["", " with $O(n \\log n)$ cost", " (see Fig.~\\ref{fig:x})", ", e.g.\\ \\emph{BERT}"])
    cite_text = f"~\\citep[p.~{rng.randint(1, 9)}]{{{cite}}}" if cite else ""
    return f"{words.capitalize()}{extra}{cite_text}."


def build_thesis(root: Path, chapters: int = 20, citations: int = 500, seed: int = 7) -> Path:
    rng = random.Random(seed)
    per_chapter = citations // chapters
    includes = []
    for chapter in range(chapters):
        lines = [f"\\chapter{{Chapter {chapter}}}\\label{{ch:{chapter}}}"]
        for index in range(per_chapter):
            if index % 5 == 0:
                lines.append(f"\\section{{Part {index // 5}}}\n")
            cite = f"key{chapter}x{index}"
            lines.append(" ".join([_sentence(rng, None), _sentence(rng, cite), _sentence(rng, None)])
                         + " % a comment\n")
        (root / f"chapter{chapter:02d}.tex").write_text("\n".join(lines), encoding="utf-8")
        includes.append(f"\\include{{chapter{chapter:02d}}}")
    main = root / "main.tex"
    main.write_text(
        "\\documentclass{book}\n\\usepackage{natbib}\n\\title{A Thesis}\\author{A. Student}\n"
        "\\begin{document}\n\\maketitle\n\\begin{abstract}An abstract.\\end{abstract}\n"
        + "\n".join(includes) + "\n\\bibliography{refs}\n\\end{document}\n",
        encoding="utf-8",
    )
    (root / "refs.bib").write_text("", encoding="utf-8")
    return main


def test_500_citation_20_chapter_project_loads_fast(tmp_path: Path) -> None:
    main = build_thesis(tmp_path)
    load_project(main)  # warm caches (pylatexenc symbol table, regexes)
    timings = []
    cpu = []
    for _ in range(5):
        clear_analysis_cache()  # cold: every file analysed from scratch
        start, start_cpu = time.perf_counter(), time.process_time()
        project = load_project(main)
        timings.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    best = min(timings)
    size = sum(len(f.text) for f in project.files.values())
    print(f"\nload_project cold: 20 chapters, {len(project.citations)} citations, {size} chars: "
          f"best {best * 1000:.1f} ms wall, {min(cpu) * 1000:.1f} ms CPU "
          f"(wall runs {[round(t * 1000) for t in timings]})")
    chapter = main.parent / "chapter05.tex"
    edited = chapter.read_text(encoding="utf-8") + "\nOne more sentence~\\cite{edited}.\n"
    start = time.perf_counter()
    warm = load_project(main, overlays={chapter: edited})
    warm_time = time.perf_counter() - start
    print(f"load_project after editing one chapter (other files cached): {warm_time * 1000:.1f} ms wall")
    assert len(warm.citations) == 501 and "edited" in warm.cited_keys()
    assert len(project.citations) == 500
    assert len(project.claims) == 500
    assert len([s for s in iter_sections(project.sections) if s.level == 1]) == 20
    assert project.findings == ()
    assert best < 1.0  # generous for a shared machine; typically well under 200 ms


@pytest.mark.parametrize(
    "unit",
    ["\\cite{", "\\citep[", "\\cites(", "\\section{", "\\author{", "\\footnote{a", "\\input{", "{", "$",
     "\\begin{thebibliography}\\bibitem{"],
)
def test_unclosed_arguments_stay_linear(tmp_path: Path, unit: str) -> None:
    """Typing leaves commands unclosed; thousands of them must not make loading quadratic."""
    root = tmp_path / "main.tex"
    text = unit * (100_000 // len(unit))
    start = time.perf_counter()
    project = load_project(root, overlays={root: text})
    plain_text(text)
    elapsed = time.perf_counter() - start
    assert project.files[root.resolve()].text == text
    assert elapsed < 5.0, f"{unit!r}: {elapsed:.1f} s"
