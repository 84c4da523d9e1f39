"""Generate a thesis-size LaTeX project into a directory (not committed as data).

``python bench/make_thesis.py OUT_DIR [--bib FILE(.bib|.bib.gz)] [--chapters 20] [--citations 500]``

The root ``thesis.tex`` includes one file per chapter; chapters hold sections and paragraphs
whose sentences cite keys drawn from the given bibliography (decompressed next to the root as
``references.bib``), or from a synthetic one when no file is given.
"""

from __future__ import annotations

import argparse
import gzip
import random
import re
import shutil
from pathlib import Path

KEY = re.compile(r"^@(?!comment|string|preamble)[A-Za-z]+\s*\{\s*([^,\s]+)\s*,", re.M | re.I)
TITLE = re.compile(r"^\s*title\s*=\s*\{+([^}]*)", re.M | re.I)
WORDS = ("retrieval ranking relevance evaluation users queries documents models learning neural collections "
         "recommendation search click behaviour efficiency indexing effectiveness benchmark").split()


def _copy_bib(source: Path, target: Path) -> None:
    if source.name.endswith(".gz"):
        with gzip.open(source, "rb") as src, target.open("wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
    else:
        shutil.copyfile(source, target)


def _synthetic_bib(target: Path, count: int, rng: random.Random) -> None:
    with target.open("w", encoding="utf-8") as out:
        for i in range(count):
            words = " ".join(rng.choice(WORDS) for _ in range(6)).title()
            out.write(f"@article{{paper{i:05d},\n  author = {{Author{i}, A. and Writer, B.}},\n"
                      f"  title = {{{words}}},\n  journal = {{Journal of Things}},\n  year = {{{1990 + i % 33}}},\n"
                      f"  abstract = {{We study {words.lower()}. Our method improves {rng.choice(WORDS)}.}}\n}}\n\n")


def _keys_and_titles(bib: Path, limit: int = 200_000) -> list[tuple[str, str]]:
    text = bib.read_text(encoding="utf-8", errors="replace")
    result: list[tuple[str, str]] = []
    matches = list(KEY.finditer(text))
    for index, match in enumerate(matches[:limit]):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        title = TITLE.search(text, match.end(), end)
        result.append((match.group(1), title.group(1).strip() if title else "this work"))
    return result


def make_thesis(out: Path, bib: Path | None = None, chapters: int = 20, citations: int = 500,
                seed: int = 0) -> Path:
    """Write the project into ``out``; returns the root file."""
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    (out / "chapters").mkdir(exist_ok=True)
    references = out / "references.bib"
    if bib is not None:
        _copy_bib(bib, references)
    else:
        _synthetic_bib(references, max(citations * 2, 1000), rng)
    pool = _keys_and_titles(references)
    cited = rng.sample(pool, min(citations, len(pool)))
    per_chapter = max(1, len(cited) // chapters)
    includes = []
    for number in range(chapters):
        chunk = cited[number * per_chapter:(number + 1) * per_chapter] if number < chapters - 1 else \
            cited[number * per_chapter:]
        lines = [f"\\chapter{{Chapter {number + 1}: {rng.choice(WORDS).title()} and {rng.choice(WORDS)}}}",
                 f"\\label{{ch:{number + 1}}}", ""]
        for index, (key, title) in enumerate(chunk):
            if index % 5 == 0:
                lines += ["", f"\\section{{{rng.choice(WORDS).title()} {rng.choice(WORDS)}}}", ""]
            words = " ".join(rng.choice(WORDS) for _ in range(12))
            clean = re.sub(r"[{}\\$%&#_^~]", "", title)[:120]
            lines.append(f"Work on {clean.lower()} \\cite{{{key}}} studies {words}. "
                         f"We build on its observations about {rng.choice(WORDS)} and {rng.choice(WORDS)} "
                         f"in the setting of this chapter, which differs in {rng.choice(WORDS)}.")
            lines.append("")
        (out / "chapters" / f"ch{number + 1:02d}.tex").write_text("\n".join(lines) + "\n", encoding="utf-8")
        includes.append(f"\\include{{chapters/ch{number + 1:02d}}}")
    root = out / "thesis.tex"
    root.write_text(
        "\\documentclass{report}\n\\usepackage{natbib}\n\\title{A Thesis on Retrieval}\n\\author{A. Student}\n"
        "\\begin{document}\n\\maketitle\n\\begin{abstract}\nThis thesis studies retrieval, ranking and "
        "evaluation of search systems.\n\\end{abstract}\n" + "\n".join(includes) +
        "\n\\bibliographystyle{plainnat}\n\\bibliography{references}\n\\end{document}\n",
        encoding="utf-8",
    )
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--bib", type=Path, default=None)
    parser.add_argument("--chapters", type=int, default=20)
    parser.add_argument("--citations", type=int, default=500)
    args = parser.parse_args()
    print(make_thesis(args.out, args.bib, args.chapters, args.citations))


if __name__ == "__main__":
    main()
