"""The no-copy rule of the offline writer: no run of :data:`MAX_COPIED_WORDS` or more consecutive
words of any source abstract may appear in the text it writes."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

MAX_COPIED_WORDS = 8


def _words(text: str) -> list[str]:
    text = re.sub(r"\\[a-zA-Z]+\*?(?:\[[^\]]*\])*\{[^{}]*\}", " ", text)  # citation commands
    text = re.sub(r"\\[a-zA-Z]+", " ", text)
    return re.findall(r"[a-z0-9]+", text.lower())


class CopyGuard:
    """Detects runs of ``limit`` or more consecutive words shared with any source text."""

    def __init__(self, sources: Iterable[str], limit: int = MAX_COPIED_WORDS) -> None:
        self.limit = limit
        self._grams: set[tuple[str, ...]] = set()
        for source in sources:
            words = _words(source)
            for i in range(len(words) - limit + 1):
                self._grams.add(tuple(words[i:i + limit]))

    def copied(self, text: str) -> list[tuple[int, int]]:
        """Word ranges ``[start, end)`` of ``text`` (in its word list) that are copied runs."""
        words = _words(text)
        hits: list[tuple[int, int]] = []
        for i in range(len(words) - self.limit + 1):
            if tuple(words[i:i + self.limit]) in self._grams:
                if hits and hits[-1][1] >= i + self.limit - 1:
                    hits[-1] = (hits[-1][0], i + self.limit)
                else:
                    hits.append((i, i + self.limit))
        return hits

    @staticmethod
    def words(text: str) -> list[str]:
        """The words of ``text`` as the guard counts them (citation commands left out)."""
        return _words(text)

    def copied_text(self, text: str) -> list[str]:
        """The copied runs of ``text``, as words."""
        words = _words(text)
        return [" ".join(words[a:b]) for a, b in self.copied(text)]

    def ok(self, text: str) -> bool:
        return not self.copied(text)

    def ok_after(self, before: str, text: str) -> bool:
        """Whether ``text`` said right after ``before`` starts or holds no copied run: a run may cross
        from the end of one sentence into the next ("... in spoken dialogue. Our ...")."""
        start = len(_words(before))
        return not any(end > start for _, end in self.copied(f"{before} {text}"))


def longest_copied_run(text: str, sources: Sequence[str]) -> int:
    """The longest run of consecutive words of ``text`` found verbatim in one of ``sources``."""
    out = _words(text)
    best = 0
    for source in sources:
        src = _words(source)
        positions: dict[str, list[int]] = {}
        for j, word in enumerate(src):
            positions.setdefault(word, []).append(j)
        previous: dict[int, int] = {}
        for word in out:
            current: dict[int, int] = {}
            for j in positions.get(word, ()):
                length = previous.get(j - 1, 0) + 1
                current[j] = length
                if length > best:
                    best = length
            previous = current
    return best
