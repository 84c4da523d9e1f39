"""The words a claim is compared by: stop words (with the writing words every abstract uses) and a
cheap stem."""

from __future__ import annotations

STOPWORDS = frozenset(
    """a about above after again against all also although am among an and any are as at be because been
    before being below between both but by can could did do does doing done down during each either
    else et al etc few for from further had has have having he her here hers him his how however i if in
    into is it its itself just may me might more most much must my no nor not now of off on once only or
    other our ours out over own per same she should since so some such than that the their theirs them
    then there these they this those through thus to too under until up upon us very via was we were what
    when where whether which while who whom whose why will with within without would yet you your
    paper papers work works approach approaches method methods propose proposed proposes present presents
    presented show shows shown showed use used uses using based new recent recently previous previously
    study studies studied describe described describes introduce introduced introduces example e g i
    report reported reports find found finds first one two well many several various different""".split()
)

_SUFFIXES = ("ational", "ization", "fulness", "iveness", "ations", "ation", "ments", "ment", "ities", "ity",
             "ings", "ing", "ness", "ives", "ive", "ers", "er", "ied", "ies", "ed", "es", "s", "ly")


def stem(word: str) -> str:
    """A cheap suffix-stripping stem (lower case, at most 7 characters)."""
    word = word.lower().strip("'-")
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                continue
            word = word[: -len(suffix)]
            break
    return word[:7]
