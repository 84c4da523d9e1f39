"""Citation commands: every ``\\cite``-like site with its keys' exact source ranges.

Covers natbib (``\\citep``, ``\\citet``, ``\\citealp``, ...), biblatex (``\\parencite``,
``\\textcite``, ``\\autocite``, ``\\footcite``, ...), their capitalised and starred variants,
pre/post notes, ``\\nocite`` (including ``\\nocite{*}``) and biblatex multicite commands
(``\\cites(..)(..)[..]{a}[..]{b}``). Scans run on masked text (see
:func:`relatex.analysis.latex.latex_scan.mask_text`), so commented-out or verbatim citations are
never seen.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from relatex.analysis.latex.cite_commands import (
    ALL_CITE_COMMANDS,
    ANY_CITE_RE,
    is_cite_command,
    keys_look_like_keys,
    read_citation_arguments,
)
from relatex.analysis.latex.cite_commands import (
    CITE_NAME_PATTERN as CITE_NAME_PATTERN,  # for server/features/cite_scan.py
)
from relatex.analysis.latex.cite_macros import CiteMacro, current_cite_macros, read_macro_key_groups
from relatex.analysis.latex.latex_includes import safe_exists
from relatex.analysis.latex.latex_scan import Group, iter_comma_items, mask_text
from relatex.analysis.latex.project_model import CitationKey, CitationSite
from relatex.analysis.text_files import read_text


def _note(text: str, group: Group | None) -> str | None:
    if group is None:
        return None
    value = text[group.content_start:group.content_end].strip()
    return value or None


def find_citations(path: Path, text: str, masked: str, end: int | None = None) -> list[CitationSite]:
    """Every citation site of one file, in text order.

    ``masked`` is ``mask_text(text)``; ``end`` stops the scan (e.g. at ``\\end{document}``).
    Sentence ranges are left at the command's own range; the project loader fills them in.
    """
    sites: list[CitationSite] = []
    macros = current_cite_macros()
    for m in ANY_CITE_RE.finditer(masked, 0, len(masked) if end is None else end):
        name = m.group(1)
        known = name in ALL_CITE_COMMANDS
        if name in macros or not is_cite_command(name) or _defined_here(masked, m.start()):
            continue
        args = read_citation_arguments(masked, m.end(), name)
        if args is None:
            continue
        if not known and not all(keys_look_like_keys(masked[g.content_start:g.content_end]) for g in args.key_groups):
            continue
        keys: list[CitationKey] = []
        for group in args.key_groups:
            for start, stop in iter_comma_items(masked, group.content_start, group.content_end):
                keys.append(CitationKey(text[start:stop], path, start, stop))
        if any("#" in key.key or "\\" in key.key for key in keys):
            continue  # inside a macro definition (\newcommand{\mycite}[1]{\cite{#1}}, \renewcommand\cite{\citep})
        sites.append(
            CitationSite(
                command=name + m.group(2),
                keys=tuple(keys),
                path=path,
                start=m.start(),
                end=args.end,
                prenote=_note(text, args.prenote),
                postnote=_note(text, args.postnote),
                sentence_start=m.start(),
                sentence_end=args.end,
            )
        )
    if macros:
        sites.extend(_macro_citations(path, text, masked, end, macros))
        sites.sort(key=lambda site: site.start)
    return sites


_DEFINITION_BEFORE = re.compile(
    r"\\(?:(?:re)?newcommand|providecommand|DeclareRobustCommand|(?:g|e|x)?def|let|(?:New|Renew|Provide|Declare)"
    r"DocumentCommand|DeclareCiteCommand|(?:re)?newbibmacro)\*?[ \t\r\n]*\{?[ \t\r\n]*$"
)


def _defined_here(masked: str, start: int) -> bool:
    """Whether the command at ``start`` is the name being (re)defined, not a use."""
    return _DEFINITION_BEFORE.search(masked, max(0, start - 40), start) is not None


def _macro_citations(path: Path, text: str, masked: str, end: int | None,
                     macros: Mapping[str, CiteMacro]) -> list[CitationSite]:
    """Uses of the author's citation macros; each site carries the command its macro uses."""
    pattern = re.compile(r"\\(" + "|".join(re.escape(n) for n in sorted(macros, key=len, reverse=True))
                         + r")(?![A-Za-z@])")
    sites: list[CitationSite] = []
    for m in pattern.finditer(masked, 0, len(masked) if end is None else end):
        macro = macros[m.group(1)]
        found = read_macro_key_groups(masked, m.end(), macro)
        if found is None:
            continue
        groups, stop = found
        keys = tuple(CitationKey(text[a:b], path, a, b) for group_start, group_end in groups
                     for a, b in iter_comma_items(masked, group_start, group_end))
        if any("#" in key.key for key in keys):
            continue  # inside another macro's definition
        sites.append(CitationSite(command=macro.base, keys=keys, path=path, start=m.start(), end=stop,
                                  sentence_start=m.start(), sentence_end=stop))
    return sites


_PACKAGE_RE = re.compile(r"\\(?:usepackage|RequirePackage)[ \t]*(?:\[(?P<opts>[^\]]*)\])?[ \t\r\n]*\{(?P<names>[^}]*)\}")
_CLASS_RE = re.compile(r"\\documentclass[ \t]*(?:\[(?P<opts>[^\]]*)\])?[ \t\r\n]*\{(?P<name>[^}]*)\}")
NATBIB_CLASSES: frozenset[str] = frozenset(
    {"acmart", "elsarticle", "revtex4", "revtex4-1", "revtex4-2", "aastex", "aastex6", "aastex61",
     "aastex62", "aastex63", "aastex631", "jss", "svjour3", "sn-jnl", "iopart", "mnras", "copernicus",
     "achemso", "agujournal2019", "PoPETs", "pnas-new", "cas-sc", "cas-dc"}
)


_BIBLATEX_ONLY_RE = re.compile(r"\\(?:addbibresource|printbibliography|addglobalbib)(?![A-Za-z@])")
_MAX_LOCAL_PACKAGES = 20


def _local_package_texts(masked_texts: list[str], root_dir: Path) -> list[str]:
    """The masked text of the project's own ``.sty``/``.cls`` files that its files load
    (and that those load in turn)."""
    found: list[str] = []
    seen: set[Path] = set()
    pending = list(masked_texts)
    while pending and len(seen) < _MAX_LOCAL_PACKAGES:
        masked = pending.pop()
        names = [(n.strip(), ".sty") for m in _PACKAGE_RE.finditer(masked) for n in m.group("names").split(",")]
        names += [(m.group("name").strip(), ".cls") for m in _CLASS_RE.finditer(masked)]
        for name, suffix in names:
            path = root_dir / f"{name}{suffix}"
            if not name or path in seen or "/" in name or not (safe_exists(path) and path.is_file()):
                continue
            seen.add(path)
            try:
                text = mask_text(read_text(path)[0])
            except OSError:
                continue
            found.append(text)
            pending.append(text)
    return found


def detect_citation_package(masked_texts: list[str], root_dir: Path | None = None) -> str:
    """``"biblatex"``, ``"natbib"`` or ``"none"`` from packages, the document class, the
    project's own ``.sty``/``.cls`` files (with ``root_dir``) and biblatex-only commands
    (``\\addbibresource``, ``\\printbibliography``)."""
    if root_dir is not None:
        masked_texts = [*masked_texts, *_local_package_texts(masked_texts, root_dir)]
    natbib = False
    for masked in masked_texts:
        for m in _PACKAGE_RE.finditer(masked):
            names = {n.strip() for n in m.group("names").split(",")}
            if any(n == "biblatex" or n.startswith("biblatex-") for n in names):
                return "biblatex"
            if "natbib" in names:
                natbib = True
        for m in _CLASS_RE.finditer(masked):
            options = (m.group("opts") or "").replace(" ", "")
            if m.group("name").strip() in NATBIB_CLASSES and "natbib=false" not in options:
                natbib = True
    if natbib:
        return "natbib"
    return "biblatex" if any(_BIBLATEX_ONLY_RE.search(masked) for masked in masked_texts) else "none"
