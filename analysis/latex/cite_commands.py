"""The citation commands LaTeX packages define, and the reader of their arguments.

Names of natbib's and biblatex's citation commands (single, multicite, textual), the test for a
control word read as a citation command, and :func:`read_citation_arguments`, shared by the
citation scanner (:mod:`relatex.analysis.latex.citations`), the author's citation macros
(:mod:`relatex.analysis.latex.cite_macros`) and the plain-text converter.
"""

from __future__ import annotations

import re

from relatex.analysis.latex.latex_scan import Group, read_arguments, read_group, skip_spaces

SINGLE_CITE_COMMANDS: frozenset[str] = frozenset(
    {
        "cite", "citep", "citet", "citealp", "citealt", "citeauthor", "citeyear", "citeyearpar",
        "citenum", "citetitle", "citeurl", "citedate", "citeA", "citeN", "citeNP", "citeyearNP",
        "shortcite", "shortciteN", "citeasnoun", "citepalias", "citetalias", "citefullauthor",
        "parencite", "textcite", "autocite", "footcite", "footcitetext", "smartcite", "supercite",
        "fullcite", "footfullcite", "nocite", "citeauthoryear", "newcite", "possessivecite", "yrcite",
        "Cite", "Citep", "Citet", "Citealp", "Citealt", "Citeauthor", "Parencite", "Textcite",
        "Autocite", "Footcite", "Footcitetext", "Smartcite", "Supercite", "Citetitle",
    }
)
MULTI_CITE_COMMANDS: frozenset[str] = frozenset(
    {
        "cites", "parencites", "textcites", "autocites", "footcites", "footcitetexts",
        "smartcites", "supercites", "Cites", "Parencites", "Textcites", "Autocites", "Footcites",
        "Smartcites",
    }
)
# Citations whose rendering is (or starts with) the authors' names, read as part of the
# sentence ("\\citet{x} show that ...").
TEXTUAL_CITE_COMMANDS: frozenset[str] = frozenset(
    {
        "citet", "Citet", "citealt", "Citealt", "citeauthor", "Citeauthor", "textcite", "Textcite",
        "textcites", "Textcites", "citeA", "citeN", "shortciteN", "citeasnoun", "citetalias",
        "citefullauthor", "fullcite", "citetitle", "Citetitle", "newcite", "possessivecite",
    }
)
ALL_CITE_COMMANDS: frozenset[str] = SINGLE_CITE_COMMANDS | MULTI_CITE_COMMANDS

CITE_RE = re.compile(
    r"\\(" + "|".join(sorted(ALL_CITE_COMMANDS, key=len, reverse=True)) + r")(?![A-Za-z@])(\*?)"
)
# Any control word containing "cite": a citation when its argument looks like keys (a command of a
# class or package the project does not ship, ``\parenciteseveral{a,b}``), unless it is one of these.
CITE_NAME_PATTERN = r"[A-Za-z]*[cC]ite[A-Za-z]*"
NOT_CITE_COMMANDS: frozenset[str] = frozenset(
    {
        "setcitestyle", "citestyle", "citetext", "citenumfont", "citeleft", "citeright", "citepunct",
        "citemid", "citedash", "citeform", "bibcite", "citeindextrue", "citeindexfalse", "citeindextype",
        "DeclareCiteCommand", "citesetup", "citereset", "citetrackerfalse", "citetrackertrue",
        "citeauthorfont", "citeyearfont", "citecolor", "ifciteseen", "citestyleoptions", "citation",
        "excite", "recite", "defcitealias", "citefont", "citestarts", "citeends",
    }
)
ANY_CITE_RE = re.compile(r"\\(" + CITE_NAME_PATTERN + r")(?![A-Za-z@])(\*?)")
_KEY_LIKE = re.compile(r"[^\s\\{}#%~$^&]+")


_ENGLISH_CITE = re.compile(r"(?:ex|re|in|eli|soli|feli|expli|impli)cit", re.IGNORECASE)  # \\excited, \\explicit...


def is_cite_command(name: str) -> bool:
    """Whether a control word (without backslash or star) is read as a citation command."""
    return name in ALL_CITE_COMMANDS or (name not in NOT_CITE_COMMANDS
                                         and "cite" in _ENGLISH_CITE.sub("", name.lower()))


def keys_look_like_keys(text: str) -> bool:
    """Whether a brace group's content is a comma-separated list of citation keys."""
    items = [item.strip() for item in text.split(",")]
    return any(items) and all(not item or _KEY_LIKE.fullmatch(item) for item in items)
_ARGUMENT_LIMIT = 3000


class CitationArguments:
    """The parsed arguments of one citation command."""

    __slots__ = ("end", "key_groups", "postnote", "prenote")

    def __init__(self, key_groups: list[Group], prenote: Group | None, postnote: Group | None,
                 end: int) -> None:
        self.key_groups = key_groups
        self.prenote = prenote
        self.postnote = postnote
        self.end = end


def read_citation_arguments(text: str, pos: int, name: str) -> CitationArguments | None:
    """Read the arguments of citation command ``name`` whose name (and star) ends at ``pos``.

    Returns None when there is no closed key group (an incomplete command).
    """
    if name in MULTI_CITE_COMMANDS:
        return _read_multicite(text, pos)
    args = read_arguments(text, pos, max_optional=2, required=1, limit=_ARGUMENT_LIMIT)
    if not args.required or not args.required[0].closed:
        return None
    prenote: Group | None = None
    postnote: Group | None = None
    if len(args.optional) == 2:
        prenote, postnote = args.optional
    elif len(args.optional) == 1:
        postnote = args.optional[0]
    return CitationArguments([args.required[0]], prenote, postnote, args.end)


def _read_multicite(text: str, pos: int) -> CitationArguments | None:
    """``\\cites(global pre)(global post)[pre][post]{a}[pre][post]{b}...``."""
    parens: list[Group] = []
    cursor = pos
    while len(parens) < 2:
        at = skip_spaces(text, cursor, allow_paragraph=False)
        group = read_group(text, at, "(", ")", limit=_ARGUMENT_LIMIT)
        if group is None or not group.closed:
            break
        parens.append(group)
        cursor = group.end
    key_groups: list[Group] = []
    first_notes: tuple[Group, ...] = ()
    while True:
        args = read_arguments(text, cursor, max_optional=2, required=1, limit=_ARGUMENT_LIMIT)
        if not args.required or not args.required[0].closed:
            break
        if not key_groups:
            first_notes = args.optional
        key_groups.append(args.required[0])
        cursor = args.end
    if not key_groups:
        return None
    prenote: Group | None = None
    postnote: Group | None = None
    if len(parens) == 2:
        prenote, postnote = parens
    elif len(parens) == 1:
        postnote = parens[0]
    elif len(key_groups) == 1 and first_notes:
        if len(first_notes) == 2:
            prenote, postnote = first_notes
        else:
            postnote = first_notes[0]
    return CitationArguments(key_groups, prenote, postnote, cursor)


def is_textual(site_command: str) -> bool:
    """True for citations read as a noun phrase (``\\citet``, ``\\textcite``, ...)."""
    return site_command.rstrip("*") in TEXTUAL_CITE_COMMANDS
