"""Which words modify rather than name: adjectives by list, by suffix and as hyphenated modifiers."""

from __future__ import annotations

_ADJECTIVE_SUFFIXES = ("ous", "ful", "less", "ical", "ive", "able", "ible", "ic", "al", "ary", "ly", "ed")
# nouns that look like adjectives by their ending
_NOUNS_LIKE_ADJECTIVES = frozenset("""retrieval removal proposal journal signal tutorial interval trial
    portal terminal material potential manual survival approval topic topics metric metrics logic heuristic
    heuristics archive archives objective objectives alternative alternatives perspective narrative variable
    variables table tables summary dictionary library vocabulary boundary embedded family assembly anomaly
    monopoly supply reply""".split())


def is_adjective_like(word: str) -> bool:
    """A word that modifies rather than names (known adjectives, suffix rule, hyphenated modifiers)."""
    low = word.lower()
    if low in _NOUNS_LIKE_ADJECTIVES:
        return False
    if low in _ADJECTIVES:
        return True
    if "-" in low:  # "large-scale", "graph-based", "zero-shot": compound modifiers
        last = low.rsplit("-", 1)[1]
        return last in _HYPHEN_MODIFIERS or (last not in _NOUNS_LIKE_ADJECTIVES and is_adjective_like(last))
    return len(low) > 4 and low.endswith(_ADJECTIVE_SUFFIXES)


_ADJECTIVES = frozenset(
    """good better best high higher low lower large larger small smaller previous recent simple general
    specific related common strong efficient effective robust scalable fast approximate scientific novel
    dense sparse open human real random multiple single whole full main key important relevant
    available new old deep shallow hard easy popular similar particular regular linear nonlinear modular
    various different important useful accurate appropriate adequate separate private latent joint implicit
    explicit hidden fine-grained high-quality known given shown seen made done taken found fake false true
    short long bad free written chosen held kept built brought offline online top parallel""".split()
)
_HYPHEN_MODIFIERS = frozenset({"based", "scale", "shot", "level", "aware", "domain", "oriented", "grained", "free",
                               "like", "driven", "specific", "informed", "augmented", "supervised", "wise", "order",
                               "end", "time", "step", "art"})
