"""LaTeX in BibTeX values to Unicode (for comparison and display), and BibTeX name lists.

Fast and dependency-free: most values contain no LaTeX and are returned unchanged; accents,
the usual special letters and symbols are mapped to Unicode; other commands keep their
argument text. Output is NFC-normalised with whitespace collapsed.
"""

from __future__ import annotations

import re
import unicodedata

_ACCENTS = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "d": "\u0323",
    "b": "\u0331", "k": "\u0328", "r": "\u030a",
}
_SYMBOLS = {
    "ss": "ß", "o": "ø", "O": "Ø", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "aa": "å", "AA": "Å",
    "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ", "dh": "ð", "DH": "Ð", "th": "þ", "TH": "Þ", "ng": "ŋ",
    "NG": "Ŋ", "dj": "đ", "DJ": "Đ",
    "textendash": "–", "textemdash": "—", "ldots": "…", "dots": "…", "textellipsis": "…",
    "textquoteright": "’", "textquoteleft": "‘", "textquotedblleft": "“", "textquotedblright": "”",
    "S": "§", "P": "¶", "copyright": "©", "textregistered": "®", "texttrademark": "™",
    "pounds": "£", "euro": "€", "textdegree": "°", "degree": "°", "circ": "°", "times": "×",
    "pm": "±", "textbackslash": "\\", "textasciitilde": "~", "textunderscore": "_",
    "LaTeX": "LaTeX", "TeX": "TeX", "BibTeX": "BibTeX",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "lambda": "λ",
    "mu": "μ", "pi": "π", "sigma": "σ", "tau": "τ", "phi": "φ", "omega": "ω", "theta": "θ",
    "rightarrow": "→", "leftarrow": "←", "to": "→", "infty": "∞", "leq": "≤", "geq": "≥",
    "textless": "<", "textgreater": ">",
}
_ESCAPES = {"&": "&", "%": "%", "$": "$", "#": "#", "_": "_", "{": "{", "}": "}", ",": " ",
            " ": " ", "/": "", "-": "", "@": "", "\\": " ", ";": " ", ":": " ", "!": "", "~": "~"}

_ACCENT_RE = re.compile(
    r"\\(['`^\"~=.])\s*(?:\{\s*(\\[ij]|[A-Za-z])\s*\}|(\\[ij](?![A-Za-z])|[A-Za-z]))"
    r"|\\([uvHcdbkr])(?:\s*\{\s*(\\[ij]|[A-Za-z])\s*\}|\s+(\\[ij](?![A-Za-z])|[A-Za-z]))"
)
_COMMAND_RE = re.compile(r"\\([A-Za-z]+)\s*|\\(.)", re.S)
_MARKUP = re.compile(r"[\\{}$~]|--")


def _accent(match: re.Match[str]) -> str:
    mark = match.group(1) or match.group(4)
    letter = next(g for g in match.groups()[1:3] + match.groups()[4:6] if g)
    if letter in ("\\i", "\\j"):
        letter = letter[1]
    return letter + _ACCENTS[mark]


def _command(match: re.Match[str]) -> str:
    name = match.group(1)
    if name is not None:
        symbol = _SYMBOLS.get(name)
        if symbol is not None:
            return symbol
        return ""  # unknown command: its argument (if any) stays as text
    return _ESCAPES.get(match.group(2), match.group(2))


def decode_latex(value: str) -> str:
    """Plain Unicode text of a BibTeX value (LaTeX accents, symbols and braces decoded).

    For comparison and display only; the verbatim value is what is written back.
    """
    if _MARKUP.search(value) is None:
        return " ".join(value.split()) if ("  " in value or "\n" in value or "\t" in value) else value.strip()
    text = value
    if "\\" in text:
        text = _ACCENT_RE.sub(_accent, text)
        text = _COMMAND_RE.sub(_command, text)
    if "-" in text:
        text = text.replace("---", "—").replace("--", "–")
    text = text.replace("~", " ").replace("$", "").replace("{", "").replace("}", "")
    text = unicodedata.normalize("NFC", text)
    return " ".join(text.split())


def _split_top_level(value: str, separator: re.Pattern[str]) -> list[str]:
    """Split on a separator that occurs outside braces."""
    if "{" not in value:
        return separator.split(value)
    parts: list[str] = []
    depth = 0
    start = 0
    pos = 0
    n = len(value)
    while pos < n:
        ch = value[pos]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif depth == 0:
            match = separator.match(value, pos)
            if match is not None and match.end() > pos:
                parts.append(value[start:pos])
                start = pos = match.end()
                continue
        pos += 1
    parts.append(value[start:])
    return parts


_AND = re.compile(r"\s+and\s+", re.I)
_COMMA = re.compile(r"\s*,\s*")
_SPACE = re.compile(r"\s+")


def _format_name(raw: str) -> str:
    raw = raw.strip()
    if not raw:
        return ""
    if _MARKUP.search(raw) is None and "\n" not in raw and "  " not in raw:
        last, sep, first = raw.partition(", ")
        if sep and "," not in first and "," not in last:
            return raw
    if raw.lower() == "others":
        return "others"
    parts = [p for p in _split_top_level(raw, _COMMA)]
    if len(parts) >= 2:
        last = decode_latex(parts[0])
        rest = [decode_latex(p) for p in parts[1:]]
        if len(rest) == 2 and rest[1]:
            return f"{last}, {rest[1]}, {rest[0]}" if rest[0] else f"{last}, {rest[1]}"
        first = ", ".join(p for p in rest if p)
        return f"{last}, {first}" if first else last
    words = [w for w in _split_top_level(raw, _SPACE) if w]
    if len(words) == 1:
        return decode_latex(words[0])
    von = next((i for i, w in enumerate(words[:-1]) if i > 0 and _starts_lower(w)), len(words) - 1)
    first = decode_latex(" ".join(words[:von]))
    last = decode_latex(" ".join(words[von:]))
    return f"{last}, {first}" if first else last


def _starts_lower(word: str) -> bool:
    for ch in word:
        if ch.isalpha():
            return ch.islower()
        if ch == "{":
            return False  # "{von}" braced words are not von particles by BibTeX's rule
    return False


def split_names(value: str) -> tuple[str, ...]:
    """Names of an ``author``/``editor`` value, each as "Last, First" (decoded to Unicode)."""
    names = []
    for part in _split_top_level(value.strip(), _AND):
        name = _format_name(part)
        if name:
            names.append(name)
    return tuple(names)
