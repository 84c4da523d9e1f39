"""Checks and repairs generated LaTeX before it reaches the user's draft.

Three rules, for both writers:

- every citation key belongs to the selected papers (a model may invent keys, and retrieved
  abstracts may try to smuggle one in); foreign keys are dropped, and a citation left empty is
  removed;
- braces balance (an unbalanced brace breaks the whole document);
- no command that touches files, the shell or the macro table: ``\\write18``, ``\\immediate``,
  ``\\input``, ``\\include``, ``\\openout``, ``\\catcode``, ``\\def`` and friends. ``\\newcommand``
  / ``\\renewcommand`` are rejected too: a related-work section needs no new macros, and a
  redefinition (``\\renewcommand{\\cite}``) would change the whole document and could hide a
  citation from this very check.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from relatex.analysis.latex.cite_commands import CITE_NAME_PATTERN
from relatex.analysis.latex.latex_sanitiser import FORBIDDEN_COMMANDS, sanitise_latex

CITE_COMMAND = re.compile(
    r"\\(?P<cmd>" + CITE_NAME_PATTERN + r")"
    r"(?P<star>\*?)(?P<opts>(?:\s*\[[^\]]*\]){0,2})\s*\{(?P<keys>[^{}]*)\}"
)
DANGEROUS = FORBIDDEN_COMMANDS
_DANGEROUS_RE = re.compile(
    r"\\(?P<name>" + "|".join(re.escape(d) for d in sorted(DANGEROUS, key=len, reverse=True)) + r")(?![A-Za-z])"
)
_TAKES_CONTROL_SEQUENCE = frozenset({
    "def", "edef", "gdef", "xdef", "let", "futurelet", "newcommand", "renewcommand", "providecommand",
    "DeclareRobustCommand", "newwrite", "newread",
})
_FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*$", re.M)


@dataclass(frozen=True)
class ValidationResult:
    """The repaired text, what was wrong with the input, and the keys removed from it."""

    text: str
    problems: tuple[str, ...] = ()
    dropped_keys: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


_PROSE_SPECIALS = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "^": r"\textasciicircum{}"}
_BARE_SPECIAL = re.compile(r"(?<!\\)[&%$#_^]")
_GREEK = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma "
          "tau upsilon phi chi psi omega").split()
# characters pdfLaTeX's UTF-8 input does not define: a Greek letter or a maths sign stops the build
_MATH_CHARACTERS = {
    **{chr(0x3B1 + i): f"$\\{name}$" for i, name in enumerate(_GREEK) if name not in {"omicron", "sigmaf"}},
    **{chr(0x391 + i): (f"$\\{name.capitalize()}$" if name.capitalize() in
                        {"Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega"}
                        else "ABEZHIKMNOPTX"["alpha beta epsilon zeta eta iota kappa mu nu omicron rho tau chi".split()
                                             .index(name)])
       for i, name in enumerate(_GREEK) if name != "sigmaf"},
    "\u03c2": "$\\varsigma$", "\u03bf": "o", "\u2264": "$\\leq$", "\u2265": "$\\geq$", "\u00d7": "$\\times$", "\u2192": "$\\rightarrow$",
    "\u2248": "$\\approx$", "\u00b1": "$\\pm$", "\u2208": "$\\in$", "\u221e": "$\\infty$",
}
_MATH_RE = re.compile("[" + "".join(re.escape(c) for c in _MATH_CHARACTERS) + "]")


# what pdfLaTeX's UTF-8 input (with T1 and textcomp, LaTeX's defaults since 2018) typesets beyond
# ASCII: Latin-1, Latin Extended-A, dashes, quotes, ellipsis, bullet, per mille, euro, trade mark;
# anything else, except the characters escape_prose rewrites as maths, stops the build
_UNTYPESETTABLE = re.compile("[^\t\n\x20-\x7e\xa0-\u017f\u2010-\u2026\u2030\u20ac\u2122"
                             + "".join(re.escape(c) for c in _MATH_CHARACTERS) + "]")


def untypesettable(text: str) -> str:
    """The first character of ``text`` that pdfLaTeX cannot typeset and :func:`escape_prose` does
    not rewrite ("" when there is none): CJK, Cyrillic, combining marks, emoji stop a pdfLaTeX build."""
    match = _UNTYPESETTABLE.search(text)
    return match.group(0) if match else ""


def escape_prose(text: str) -> str:
    """Prose built from plain text (abstract phrases, titles) as LaTeX: ``& % $ # _ ^`` escaped
    outside citation commands and ``%`` comment lines (ones already escaped are kept), Greek
    letters and common maths signs as maths. A bare ``%`` would silently comment out the rest of
    the line; a bare ``_`` or ``&``, or an ``α`` under pdfLaTeX, stop the build."""
    lines = []
    for line in text.split("\n"):
        if line.lstrip().startswith("%"):
            lines.append(line)
            continue
        pieces, last = [], 0
        for match in CITE_COMMAND.finditer(line):
            pieces += [_escape_plain(line[last:match.start()]), match.group(0)]
            last = match.end()
        pieces.append(_escape_plain(line[last:]))
        lines.append("".join(pieces))
    return "\n".join(lines)


def _escape_plain(text: str) -> str:
    text = _BARE_SPECIAL.sub(lambda m: _PROSE_SPECIALS[m.group(0)], text)
    return _MATH_RE.sub(lambda m: _MATH_CHARACTERS[m.group(0)], text)


# commands a related-work section may use beyond the sanitiser's accents and formatting
SECTION_COMMANDS = frozenset({"paragraph", "subsection", "subsubsection", "label", "ref", "cref", "Cref",
                              "autoref", "eqref", "footnote", "etal", "eg", "ie", "nocite"})


def _cite_names(text: str) -> frozenset[str]:
    return frozenset(match.group("cmd") for match in CITE_COMMAND.finditer(text))


def cited_keys(text: str) -> list[str]:
    """Every key of every citation command, in order (duplicates kept)."""
    keys: list[str] = []
    for match in CITE_COMMAND.finditer(text):
        keys.extend(k.strip() for k in match.group("keys").split(",") if k.strip())
    return keys


def _skip_group(text: str, pos: int, open_ch: str, close_ch: str) -> int:
    """Position after a balanced group starting at ``pos`` (or ``pos`` when none starts there)."""
    if pos >= len(text) or text[pos] != open_ch:
        return pos
    depth = 0
    i = pos
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == open_ch:
            depth += 1
        elif text[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def remove_dangerous(text: str) -> tuple[str, list[str]]:
    """Drop dangerous commands with their control-sequence and bracket/brace arguments."""
    found: list[str] = []
    while True:
        match = _DANGEROUS_RE.search(text)
        if match is None:
            break
        found.append("\\" + match.group("name"))
        end = match.end()
        if match.group("name") in _TAKES_CONTROL_SEQUENCE:
            cs = re.match(r"\s*\{?\s*(\\[A-Za-z@]+|\\.)\s*\}?", text[end:])
            if cs:
                end += cs.end()
        else:  # \write18, \catcode`\^=7, \openout3=file
            number = re.match(r"\s*(?:`\\?.|\d+)(?:\s*=\s*[\w./-]+)?", text[end:])
            if number:
                end += number.end()
        for _ in range(4):  # parameters (#1), options and arguments
            params = re.match(r"(#\d)+", text[end:])
            if params:
                end += params.end()
            spaces = len(text[end:]) - len(text[end:].lstrip(" "))
            after = end + spaces
            if after < len(text) and text[after] in "[{":
                end = _skip_group(text, after, text[after], "]" if text[after] == "[" else "}")
            else:
                break
        text = text[:match.start()] + text[end:]
    if "^^" in text:
        found.append("^^ character escapes")
        text = text.replace("^^", "")
    return text, found


def balance_braces(text: str) -> tuple[str, int]:
    """Unmatched ``{`` / ``}`` removed (escaped ones ignored); returns the text and how many."""
    stack: list[int] = []
    drop: set[int] = set()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":  # a control symbol (\{, \}, \\) is never a group delimiter
            i += 2
            continue
        if ch == "{":
            stack.append(i)
        elif ch == "}":
            if stack:
                stack.pop()
            else:
                drop.add(i)
        i += 1
    drop.update(stack)
    if not drop:
        return text, 0
    return "".join(ch for i, ch in enumerate(text) if i not in drop), len(drop)


def filter_citations(text: str, allowed: Collection[str]) -> tuple[str, list[str]]:
    """Keep only allowed keys in citation commands; remove commands left without keys."""
    allowed_set = set(allowed)
    dropped: list[str] = []

    def fix(match: re.Match[str]) -> str:
        keys = [k.strip() for k in match.group("keys").split(",") if k.strip()]
        kept = [k for k in keys if k in allowed_set]
        dropped.extend(k for k in keys if k not in allowed_set)
        if not kept:
            return ""
        if len(kept) == len(keys):
            return match.group(0)
        return f"\\{match.group('cmd')}{match.group('star')}{match.group('opts')}{{{','.join(kept)}}}"

    fixed = CITE_COMMAND.sub(fix, text)
    if dropped:  # tidy what an emptied citation leaves behind: "word~ ." / "( )" / double spaces
        fixed = re.sub(r"~(?=[\s.,;:)])", "", fixed)
        fixed = re.sub(r"\(\s*\)", "", fixed)
        fixed = re.sub(r"[ \t]+([.,;:])", r"\1", fixed)
        fixed = re.sub(r"[ \t]{2,}", " ", fixed)
    return fixed, dropped


def validate_latex(text: str, allowed_keys: Collection[str]) -> ValidationResult:
    """Repair ``text`` (foreign citations, dangerous commands, unbalanced braces) and say what was wrong."""
    problems: list[str] = []
    if _FENCE.search(text):
        text = _FENCE.sub("", text)
    text, dangerous = remove_dangerous(text)
    if dangerous:
        problems.append("forbidden commands removed: " + ", ".join(sorted(set(dangerous))))
    text, dropped = filter_citations(text, allowed_keys)
    if dropped:
        problems.append("citations of keys outside the selected papers removed: " + ", ".join(sorted(set(dropped))))
    text, escaped = sanitise_latex(text, SECTION_COMMANDS | _cite_names(text))
    if escaped:
        problems.append("unknown commands escaped: " + ", ".join(escaped))
    text, unbalanced = balance_braces(text)
    if unbalanced:
        problems.append(f"{unbalanced} unbalanced brace(s) removed")
    return ValidationResult(text=text, problems=tuple(problems), dropped_keys=tuple(dict.fromkeys(dropped)))
