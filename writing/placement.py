"""Where the generated section and its new BibTeX entries go: a list of targeted text edits.

The section goes after the introduction (default), before the conclusion or at the end of the
document. When the draft already has a related-work part (any heading level, in any file), the
generated text is added right after the author's text of that part as a block between two
marked comment lines; only an explicit ``replace`` replaces that part's body (heading and label
kept). New entries are appended to the draft's first .bib file; when the draft declares
none, ``references.bib`` is created next to the root file together with the line that uses it
(``\\bibliography{references}``, or ``\\addbibresource{references.bib}`` in the preamble for
biblatex). An edit whose path does not exist yet creates that file (start = end = 0).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from relatex.analysis.bib.bib_edits import append_entry_edit
from relatex.analysis.bib.bibtex_model import BibFile
from relatex.analysis.edits import TextEdit
from relatex.analysis.latex.latex_project import DISTRIBUTION_BIBS, iter_sections
from relatex.analysis.latex.project_model import LatexProject, Section
from relatex.analysis.text_files import read_text
from relatex.writing.generate import GeneratedSection

PLACEMENTS = ("after-introduction", "before-conclusion", "end")
# a heading naming one of these is the author's related work, at any level
RELATED_PHRASES = ("related work", "related works", "related research", "related literature", "prior work",
                   "previous work", "literature review", "review of the literature", "related approaches")
BLOCK_BEGIN = "% relatex: generated related work begins (review it, merge it with the text above, delete these markers)"
BLOCK_END = "% relatex: generated related work ends"
_HEADING_END = re.compile(r"\s*\\label\{[^{}]*\}")
_BIB_END = re.compile(r"\\bibliographystyle\{|\\bibliography\{|\\printbibliography|\\begin\{thebibliography\}|"
                      r"\\end\{document\}")
_SECTION_STOP = re.compile(_BIB_END.pattern + r"|\\appendix(?![A-Za-z@])|\\backmatter(?![A-Za-z@])")


def _norm(title: str) -> str:
    return " ".join(re.sub(r"[^a-z]+", " ", title.lower()).split())


def _text(project: LatexProject, path: Path) -> str:
    source = project.files.get(path)
    if source is not None:
        return source.text
    try:
        return read_text(path)[0]
    except OSError:
        return ""


def is_related_title(title: str, section_title: str = "Related Work") -> bool:
    """Whether a heading's title names a related-work part ("Alternatives and Related Work", ...)."""
    norm = f" {_norm(title)} "
    wanted = _norm(section_title)
    return (bool(wanted) and norm.strip() == wanted) or any(f" {phrase} " in norm for phrase in RELATED_PHRASES)


def find_related_section(project: LatexProject, section_title: str = "Related Work") -> Section | None:
    """The first heading of the project, at any level, whose title names its related work."""
    for section in iter_sections(project.sections):
        if is_related_title(section.title, section_title):
            return section
    return None


def _heading_end(text: str, section: Section) -> int:
    """End of ``\\section{Title}`` and of a ``\\label`` right after it."""
    end = text.find("}", max(section.title_end, section.start))
    end = end + 1 if end != -1 and end < section.end else section.start
    label = _HEADING_END.match(text, end)
    return label.end() if label else end


def section_body_end(text: str, section: Section) -> int:
    """End of the author's text of ``section``: before the bibliography, ``\\appendix`` or
    ``\\end{document}`` when its range runs into them, and before trailing white space."""
    end = min(section.end, len(text))
    stop = _SECTION_STOP.search(text, _heading_end(text, section), end)
    if stop is not None:
        end = stop.start()
    while end > section.start and text[end - 1] in " \t\r\n":
        end -= 1
    return end


def _insertion_point(project: LatexProject, placement: str) -> tuple[Path, int]:
    sections = [s for s in iter_sections(project.sections) if s.level <= 2]
    root_text = _text(project, project.root)
    if placement == "after-introduction":
        intro = next((s for s in sections if "introduction" in _norm(s.title)), None)
        if intro is not None:
            return intro.path, intro.end
        placement = "before-conclusion"
    if placement == "before-conclusion":
        conclusion = next((s for s in sections if re.search(r"conclu|summary|future work", _norm(s.title))), None)
        if conclusion is not None:
            return conclusion.path, conclusion.start
    begin = root_text.find("\\begin{document}")
    match = _BIB_END.search(root_text, max(begin, 0))
    return project.root, match.start() if match else len(root_text)


def _surround(text: str, offset: int, block: str) -> str:
    """``block`` with the blank lines needed around it at ``offset`` of ``text``."""
    before = text[:offset]
    after = text[offset:]
    lead = "" if before.endswith("\n\n") or not before else ("\n" if before.endswith("\n") else "\n\n")
    trail = "\n" if after.startswith("\n") else "\n\n"
    return lead + block.strip("\n") + trail


def replaced_lines(project: LatexProject, section: Section) -> int:
    """How many lines of the author's text replacing ``section``'s body would remove."""
    text = _text(project, section.path)
    start = _heading_end(text, section)
    return len(text[start:max(start, section_body_end(text, section))].strip("\r\n").splitlines())


def marked_block(body: str) -> str:
    """The generated text between two comment lines that say what it is."""
    return f"{BLOCK_BEGIN}\n{body.strip(chr(10))}\n{BLOCK_END}"


def section_edit(project: LatexProject, generated: GeneratedSection, placement: str = "after-introduction",
                 section_title: str = "Related Work", replace: bool = False) -> TextEdit:
    """The edit that puts the generated section into the draft; it never removes the author's text
    unless ``replace`` is asked for.

    Without an existing related-work part, a new section goes at ``placement``. With one, the
    generated text goes right after the author's text of that part as a marked block; with
    ``replace`` its body (not its heading or label) is replaced."""
    if placement not in PLACEMENTS:
        raise ValueError(f"unknown placement {placement!r}: use one of {', '.join(PLACEMENTS)}")
    body = generated.latex.strip("\n")
    existing = find_related_section(project, section_title)
    if existing is not None:
        text = _text(project, existing.path)
        start = _heading_end(text, existing)
        end = section_body_end(text, existing)
        if replace:
            return TextEdit(existing.path, start, max(start, end), "\n\n" + body)
        return TextEdit(existing.path, end, end, "\n\n" + marked_block(body) + ("" if text[end:end + 1] in "\r\n"
                                                                                  else "\n\n"))
    path, offset = _insertion_point(project, placement)
    text = _text(project, path)
    label = "sec:related-work"
    heading = f"\\section{{{section_title}}}\n" + (f"\\label{{{label}}}\n" if f"{{{label}}}" not in text else "")
    return TextEdit(path, offset, offset, _surround(text, offset, heading + "\n" + body))


def target_bib(project: LatexProject, bibs: Mapping[Path, BibFile]) -> Path | None:
    """The .bib file new entries go to: the first declared one that was read, else the first
    declared one, never an abbreviations file of the TeX distribution; None when none is declared."""
    declared = [r.path for r in project.bib_resources if r.path is not None and r.path.stem not in DISTRIBUTION_BIBS]
    return min(declared, key=lambda p: (p not in bibs, declared.index(p)), default=None)


def bibliography_edits(project: LatexProject, bibs: Mapping[Path, BibFile],
                       generated: GeneratedSection) -> list[TextEdit]:
    """Append the new entries to the first .bib, or create ``references.bib`` and declare it."""
    if not generated.new_entries:
        return []
    entries_text = "\n\n".join(e.bibtex.strip("\n") for e in generated.new_entries) + "\n"
    path = target_bib(project, bibs)
    if path is not None:
        bib = bibs.get(path)
        if bib is not None:
            return [append_entry_edit(bib, entries_text)]
        current = _text(project, path)
        return [TextEdit(path, len(current), len(current), ("\n" if current and not current.endswith("\n") else "")
                         + ("\n" if current.strip() else "") + entries_text)]
    path = project.root_dir / "references.bib"
    current = _text(project, path) if path.exists() else ""
    edits = [TextEdit(path, len(current), len(current), ("\n" if current.strip() else "") + entries_text)]
    root_text = _text(project, project.root)
    if project.citation_package == "biblatex":
        begin = root_text.find("\\begin{document}")
        if begin != -1:
            edits.append(TextEdit(project.root, begin, begin, "\\addbibresource{references.bib}\n"))
        end = root_text.rfind("\\end{document}")
        if "\\printbibliography" not in root_text and end != -1:
            edits.append(TextEdit(project.root, end, end, _surround(root_text, end, "\\printbibliography")))
    else:
        end = root_text.rfind("\\end{document}")
        if end == -1:
            end = len(root_text)
        style = "plainnat" if project.citation_package == "natbib" else "plain"
        line = ("" if "\\bibliographystyle" in root_text else f"\\bibliographystyle{{{style}}}\n") + \
            "\\bibliography{references}"
        edits.append(TextEdit(project.root, end, end, _surround(root_text, end, line)))
    return edits


def plan_insertion(
    project: LatexProject,
    bibs: Mapping[Path, BibFile],
    generated: GeneratedSection,
    placement: str = "after-introduction",
    section_title: str = "Related Work",
    replace: bool = False,
) -> list[TextEdit]:
    """Every edit needed to put ``generated`` into the draft (section first, then bibliography)."""
    return [section_edit(project, generated, placement, section_title, replace),
            *bibliography_edits(project, bibs, generated)]


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def describe_edits(edits: Sequence[TextEdit], texts: Mapping[Path, str]) -> list[str]:
    """One line per edit saying where it writes and what it adds; a replacement also lists,
    line by line (``- ``), every line of the author's text it removes."""
    lines: list[str] = []
    for edit in edits:
        text = texts.get(edit.path, "")
        line = _line_of(text, edit.start)
        added = len(edit.new_text.strip("\r\n").splitlines())
        where = f"{edit.path}:{line}" if text else f"{edit.path} (new file)"
        if edit.end == edit.start:
            entries = len(re.findall(r"(?m)^@", edit.new_text)) if edit.path.suffix.lower() == ".bib" else 0
            lines.append(f"{where}: added {added} lines" + (f" ({entries} BibTeX entries)" if entries else ""))
            continue
        removed = text[edit.start:edit.end].strip("\r\n").splitlines()
        lines.append(f"{where}: replaced {len(removed)} lines (up to line {_line_of(text, edit.end)}) "
                     f"with {added} lines; removed:")
        lines.extend(f"- {row}" for row in removed)
    return lines
