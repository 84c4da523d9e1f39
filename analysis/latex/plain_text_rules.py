"""What LaTeX commands become in plain text: the tables of :mod:`relatex.analysis.latex.latex_text`.

Accents, escaped symbols, named symbols, macros whose arguments are dropped, references,
verbatim, math and skipped environments; symbol macros and short inline math are converted with
pylatexenc.
"""

from __future__ import annotations

import logging
from functools import lru_cache

# pylatexenc reports tolerated parse problems as warnings; they are the author's LaTeX, not ours to print
logging.getLogger("pylatexenc").setLevel(logging.CRITICAL)

REF_PLACEHOLDER = "[ref]"
MATH_PLACEHOLDER = "[math]"

ACCENTS: dict[str, str] = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "k": "\u0328",
    "r": "\u030a", "d": "\u0323", "b": "\u0331", "t": "\u0361",
}
SYMBOL_ESCAPES: dict[str, str] = {
    "%": "%", "&": "&", "_": "_", "#": "#", "$": "$", "{": "{", "}": "}", " ": " ", "\n": " ",
    "\t": " ", "\r": " ", ",": " ", ";": " ", ":": " ", "!": "", "-": "", "/": "", "@": "",
    "\\": " ", ">": " ", "<": "",
}
NAMED: dict[str, str] = {
    "LaTeX": "LaTeX", "TeX": "TeX", "BibTeX": "BibTeX", "LaTeXe": "LaTeX2e", "i": "ı", "j": "ȷ",
    "ldots": "…", "dots": "…", "textellipsis": "…", "newline": " ", "linebreak": " ",
    "nobreakspace": " ", "quad": " ", "qquad": " ", "enspace": " ", "thinspace": " ",
    "space": " ", "S": "§", "P": "¶", "euro": "€", "textasciitilde": "~", "etal": "et al.",
}
NOTHING: frozenset[str] = frozenset(
    {"maketitle", "today", "item", "tableofcontents", "listoffigures", "listoftables", "appendix",
     "clearpage", "newpage", "cleardoublepage", "centering", "noindent", "par", "hline", "toprule",
     "midrule", "bottomrule", "printbibliography", "frontmatter", "mainmatter", "backmatter"}
)
PARAGRAPH_MACROS: frozenset[str] = frozenset(
    {"par", "item", "part", "chapter", "section", "subsection", "subsubsection", "paragraph",
     "subparagraph", "caption", "maketitle", "bibitem", "IEEEPARstart"}
)
# Macros whose arguments are dropped: name -> (optional args, required args).
DROP_ARGS: dict[str, tuple[int, int]] = {
    "label": (0, 1), "footnote": (1, 1), "footnotetext": (1, 1), "footnotemark": (1, 0),
    "thanks": (0, 1), "vspace": (0, 1), "hspace": (0, 1), "includegraphics": (1, 1),
    "bibliographystyle": (0, 1), "bibliography": (0, 1), "addbibresource": (1, 1),
    "usepackage": (1, 1), "RequirePackage": (1, 1), "documentclass": (1, 1), "input": (0, 1),
    "include": (0, 1), "subfile": (0, 1), "import": (0, 2), "subimport": (0, 2),
    "includefrom": (0, 2), "subincludefrom": (0, 2), "inputfrom": (0, 2), "subinputfrom": (0, 2),
    "setlength": (0, 2), "setcounter": (0, 2), "addtocounter": (0, 2), "pagestyle": (0, 1),
    "thispagestyle": (0, 1), "index": (0, 1), "todo": (1, 1), "hypersetup": (0, 1),
    "graphicspath": (0, 1), "bibitem": (1, 1), "theoremstyle": (0, 1), "definecolor": (0, 3),
    "color": (0, 1), "textcolor": (0, 1), "colorbox": (0, 1), "href": (0, 1), "newtheorem": (0, 2),
    "DeclareMathOperator": (0, 2), "newenvironment": (1, 3), "renewenvironment": (1, 3),
    "newcommand": (0, 1), "renewcommand": (0, 1), "providecommand": (0, 1), "def": (0, 0),
    "foreignlanguage": (0, 1), "orcid": (0, 1), "email": (0, 1), "affiliation": (0, 1),
    "affil": (1, 1), "institute": (0, 1), "address": (0, 1), "inst": (0, 1), "keywords": (0, 1),
    "IEEEauthorrefmark": (0, 1), "acmConference": (1, 3), "acmYear": (0, 1), "acmDOI": (0, 1),
    "copyrightyear": (0, 1), "setcopyright": (0, 1), "ccsdesc": (1, 1), "acmISBN": (0, 1),
    "corref": (0, 1), "fnref": (0, 1), "tnoteref": (0, 1), "IEEEauthorblockA": (0, 1), "sep": (0, 0),
    "vskip": (0, 0), "titlerunning": (0, 1), "authorrunning": (0, 1), "date": (0, 1),
}
REF_MACROS: frozenset[str] = frozenset(
    {"ref", "eqref", "autoref", "cref", "Cref", "pageref", "nameref", "vref", "Vref", "cpageref",
     "labelcref", "autopageref", "Autoref", "subref", "hyperref"}
)
RAW_ARGUMENT_MACROS: frozenset[str] = frozenset({"url", "path", "nolinkurl", "doi"})
VERBATIM_INLINE: frozenset[str] = frozenset({"verb", "lstinline", "Verb"})
MATH_ENVIRONMENTS: frozenset[str] = frozenset(
    {"equation", "align", "gather", "multline", "eqnarray", "displaymath", "flalign", "alignat",
     "dmath", "dgroup", "IEEEeqnarray", "split", "aligned", "gathered", "cases", "matrix"}
)
SKIPPED_ENVIRONMENTS: frozenset[str] = frozenset(
    {"tabular", "tabularx", "tabulary", "longtable", "array", "tikzpicture", "pgfpicture",
     "verbatim", "Verbatim", "BVerbatim", "lstlisting", "minted", "comment", "filecontents",
     "algorithmic", "thebibliography", "spverbatim", "alltt", "code", "axis", "forest"}
)
ENVIRONMENT_ARGS: dict[str, tuple[int, int]] = {
    "minipage": (1, 1), "wrapfigure": (1, 2), "multicols": (0, 1), "subfigure": (1, 1),
    "tabularx": (0, 2),
}
INLINE_MATH_MAX = 40


@lru_cache(maxsize=4096)
def symbol_text(name: str) -> str:
    """Text of a symbol macro (``\\alpha`` -> ``α``) via pylatexenc; empty when unknown."""
    if name in NAMED:
        return NAMED[name]
    if name in NOTHING:
        return ""
    try:
        from pylatexenc.latex2text import LatexNodes2Text

        value = LatexNodes2Text(math_mode="text").latex_to_text("\\" + name)
    except Exception:  # pylatexenc may fail on odd names; the macro then renders as nothing
        return ""
    if "\n" in value or len(value) > 4:
        return ""
    return " " if value and not value.strip() else value


@lru_cache(maxsize=4096)
def math_text(content: str) -> str:
    """Plain text of inline math content, or the placeholder when it is long or fails."""
    content = content.strip()
    if not content:
        return ""
    if len(content) > INLINE_MATH_MAX:
        return MATH_PLACEHOLDER
    try:
        from pylatexenc.latex2text import LatexNodes2Text

        value = LatexNodes2Text(math_mode="text").latex_to_text(content)
    except Exception:  # keep going on malformed math
        return MATH_PLACEHOLDER
    value = " ".join(value.split())
    return value if value else MATH_PLACEHOLDER
