"""The one sanitiser for text relatex writes into LaTeX or BibTeX from records it did not write.

Knowledge-base records, authority answers and model output are data. Before any of it reaches
the author's .bib or .tex (new entries, field corrections, section text) it passes here:

- control sequences outside :data:`ALLOWED_COMMANDS` (accents, special letters, escaped
  characters, text formatting, math letters) are escaped to ``\\textbackslash{}name``, so a
  ``\\immediate\\write18{...}`` in a title prints as text instead of running;
- ``^^`` character escapes (which can spell any character, a backslash included) are escaped;
- URLs must be ``http(s)`` or ``doi:``; DOIs, arXiv ids and keys must look like what they are;
- theme labels are reduced to plain words, without citation-key-like tokens or markup.

:func:`dangerous_constructs` finds the same constructs in the author's own files, for
``relatex check`` to warn about (it never rewrites them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

ACCENT_SYMBOLS = frozenset("'`^\"~=.")
ESCAPED_SYMBOLS = frozenset("&%$#_{} ,;:!-/@\\")
ALLOWED_COMMANDS = frozenset({
    # accents and special letters
    "u", "v", "H", "c", "d", "b", "k", "r", "t", "ss", "ae", "AE", "o", "O", "aa", "AA", "oe", "OE", "l", "L",
    "i", "j", "dh", "DH", "th", "TH", "ng", "NG", "dj", "DJ",
    # formatting and text symbols
    "textit", "textbf", "emph", "textsc", "texttt", "textrm", "textsf", "textup", "textsl", "textmd",
    "textnormal", "textsuperscript", "textsubscript", "mbox", "text", "it", "bf", "em", "sc", "tt", "rm", "sf",
    "textasciitilde", "textasciicircum", "textbackslash", "textendash", "textemdash", "textquoteright",
    "textquoteleft", "textquotedblleft", "textquotedblright", "textregistered", "texttrademark", "textdegree",
    "textbar", "textless", "textgreater", "textunderscore", "ldots", "dots", "cdots", "LaTeX", "TeX", "BibTeX",
    "relax", "space", "nobreakspace", "slash", "S", "P", "copyright", "pounds", "dag", "ddag", "euro",
    # math
    "mathrm", "mathbf", "mathit", "mathcal", "mathbb", "mathsf", "mathtt", "boldsymbol", "frac", "sqrt", "log",
    "exp", "sum", "prod", "int", "infty", "times", "cdot", "leq", "geq", "neq", "approx", "sim", "pm", "mp",
    "in", "to", "rightarrow", "leftarrow", "ell", "partial", "nabla", "circ", "star", "ast", "prime", "hat",
    "tilde", "bar", "vec", "dot", "ddot", "left", "right", "langle", "rangle", "lfloor", "rfloor", "lceil",
    "rceil", "mid", "top", "le", "ge", "cal", "Bbb", "boldmath", "texttimes", "sharp", "flat", "natural",
    "leftrightarrow", "Rightarrow", "Leftarrow", "uparrow", "downarrow", "emptyset", "forall", "exists",
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "vartheta", "iota",
    "kappa", "lambda", "mu", "nu", "xi", "pi", "varpi", "rho", "varrho", "sigma", "varsigma", "tau", "upsilon",
    "phi", "varphi", "chi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon",
    "Phi", "Psi", "Omega",
})
# commands generated text may never hold: they touch files, the shell or the macro table
FORBIDDEN_COMMANDS = (
    "write18", "immediate", "write", "input", "include", "includeonly", "openout", "openin", "read",
    "newwrite", "newread", "catcode", "def", "edef", "gdef", "xdef", "let", "futurelet", "newcommand",
    "renewcommand", "providecommand", "DeclareRobustCommand", "newenvironment", "renewenvironment",
    "usepackage", "RequirePackage", "documentclass", "special", "csname", "directlua", "luaexec",
    "ShellEscape", "makeatletter", "makeatother", "bibliography", "addbibresource", "bibliographystyle",
    "expandafter", "endinput", "end{document}", "begin{document}",
)
# what `relatex check` warns about in the author's own files: a .tex preamble may define macros
# and \input chapters, but shell escapes and raw file writes are never part of a paper; a .bib
# entry needs none of the forbidden commands
TEX_DANGEROUS = frozenset({"write18", "immediate", "openout", "directlua", "luaexec", "ShellEscape"})
BIB_DANGEROUS = frozenset(name for name in FORBIDDEN_COMMANDS if "{" not in name)
_COMMAND = re.compile(r"\\(?:(write18|[A-Za-z@]+)|(.))", re.S)
_URL_OK = re.compile(r"^(?:https?://|doi:)[^\s{}\\\"<>%#^`|]+$", re.I)
_DOI_OK = re.compile(r"^10\.\d+(?:\.\d+)*/[^\s{}\\\"<>%#^`|]+$")
_IDENT_OK = re.compile(r"^[A-Za-z0-9][\w.:/+-]*$")
_KEY_OK = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_:.+/'-]*$")
_LABEL_WORD = re.compile(r"^\w+(?:['-]\w+)*$")
_KEY_LIKE = re.compile(r"[^\W\d_]\d{4}|\d{4}[^\W\d_]|_")
_INSTRUCTION_WORDS = frozenset({"cite", "citet", "citep", "ignore", "instruction", "instructions", "prompt",
                                "system", "assistant"})
MAX_LABEL_WORDS = 8


@dataclass(frozen=True)
class Construct:
    """A control sequence found in text: offsets of ``\\name`` and the name."""

    start: int
    end: int
    name: str


def _commands(text: str) -> Iterator[Construct]:
    for match in _COMMAND.finditer(text):
        yield Construct(match.start(), match.end(), match.group(1) or match.group(2))


def _command_allowed(name: str) -> bool:
    if len(name) == 1 and not name.isalpha():
        return name in ACCENT_SYMBOLS or name in ESCAPED_SYMBOLS
    return name in ALLOWED_COMMANDS


def sanitise_latex(value: str, also_allowed: frozenset[str] = frozenset()) -> tuple[str, tuple[str, ...]]:
    """``value`` with every disallowed control sequence (and ``^^``) escaped; returns the names escaped.

    ``also_allowed``: more command names the caller writes itself (citation commands in a section).
    ``\\url{...}`` and ``\\href{...}`` are kept only with a safe URL.
    """
    out: list[str] = []
    escaped: list[str] = []
    pos = 0
    for found in _commands(value):
        if found.start < pos:
            continue
        out.append(value[pos:found.start])
        link = found.name in {"url", "href"} and _safe_link_after(value, found.end)
        if _command_allowed(found.name) or found.name in also_allowed or link:
            out.append(value[found.start:found.end])
        else:
            escaped.append("\\" + found.name)
            out.append(r"\textbackslash{}" + value[found.start + 1:found.end])
        pos = found.end
    rest = value[pos:]
    if rest.endswith("\\"):  # a lone trailing backslash would escape whatever follows the value
        escaped.append("\\")
        rest = rest[:-1] + r"\textbackslash{}"
    out.append(rest)
    text = "".join(out)
    if "^^" in text:
        escaped.append("^^")
        text = text.replace("^^", r"\textasciicircum{}\textasciicircum{}")
    return text, tuple(dict.fromkeys(escaped))


def _safe_link_after(text: str, pos: int) -> bool:
    match = re.match(r"\s*\{([^{}]*)\}", text[pos:])
    return bool(match and safe_url(match.group(1)))


def safe_url(url: str) -> str | None:
    """``url`` when it is an ``http(s)`` or ``doi:`` address without markup, else None."""
    url = url.strip()
    return url if _URL_OK.match(url) else None


def safe_doi(doi: str) -> str | None:
    """``doi`` when it is a bare DOI (``10.x/...``) without markup, else None."""
    doi = doi.strip()
    return doi if _DOI_OK.match(doi) else None


def safe_identifier(value: str) -> str | None:
    """An arXiv id, archive prefix or class: letters, digits and ``. : / + - _`` only."""
    value = value.strip()
    return value if _IDENT_OK.match(value) else None


def safe_key(key: str) -> bool:
    """Whether ``key`` may be written as a citation key (no braces, commas, spaces or backslashes)."""
    return bool(_KEY_OK.match(key)) and len(key) <= 120


def sanitise_field(name: str, value: str) -> tuple[str | None, tuple[str, ...]]:
    """A BibTeX field value made safe (None: the value is rejected) and what was wrong with it."""
    name = name.lower()
    if name == "url":
        return (value, ()) if safe_url(value) else (None, (f"url {value[:60]!r} is not http(s) or doi",))
    if name == "doi":
        return (value, ()) if safe_doi(value) else (None, (f"doi {value[:60]!r} is not a DOI",))
    if name in {"eprint", "archiveprefix", "primaryclass"}:
        return (value, ()) if safe_identifier(value) else (None, (f"{name} {value[:60]!r} is not an identifier",))
    text, escaped = sanitise_latex(value)
    return text, tuple(f"{name}: {command} escaped" for command in escaped)


def sanitise_fields(fields: Mapping[str, str]) -> tuple[dict[str, str], tuple[str, ...]]:
    """Every field through :func:`sanitise_field`; rejected ones are dropped (``@type`` kept if a word)."""
    out: dict[str, str] = {}
    problems: list[str] = []
    for name, value in fields.items():
        if name == "@type":
            if re.fullmatch(r"[A-Za-z]+", value):
                out[name] = value
            else:
                problems.append(f"entry type {value[:30]!r} rejected")
            continue
        if not value:  # an empty value means "remove the field"
            out[name] = value
            continue
        safe, found = sanitise_field(name, value)
        problems.extend(found)
        if safe is not None:
            out[name] = safe
    return out, tuple(problems)


def plain_label(text: str) -> str:
    """A theme label or term as plain words: no markup, no key-like tokens, no instructions."""
    words: list[str] = []
    for raw in re.split(r"[\s,;]+", text):
        word = raw.strip(".:!?()[]\"'`")
        if not word or not _LABEL_WORD.match(word) or _KEY_LIKE.search(word):
            continue
        if word.lower() in _INSTRUCTION_WORDS:
            continue
        words.append(word)
        if len(words) >= MAX_LABEL_WORDS:
            break
    return " ".join(words)


def dangerous_constructs(text: str, bib: bool = False) -> list[Construct]:
    """Constructs of :data:`TEX_DANGEROUS` (:data:`BIB_DANGEROUS` in a .bib) and ``^^`` escapes."""
    names = BIB_DANGEROUS if bib else TEX_DANGEROUS
    found = [c for c in _commands(text) if c.name in names]
    found.extend(Construct(m.start(), m.end(), "^^") for m in re.finditer(r"\^\^(?=[0-9a-f]{2}|[@-_a-z])", text))
    return sorted(found, key=lambda c: c.start)
