"""Where a phrase of the offline writer may end: not on a function word, an idiom's noun ("in
terms"), an abbreviation, a count without what it counts ("trained on roughly 50,000"), or a list
of modifiers without their noun ("a weakly-supervised, general-purpose")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from relatex.retrieval.label_forms import LANGUAGES
from relatex.retrieval.word_classes import is_adjective_like

# an inner period ("e.g.", "U.S.") masked while the phrase patterns, which stop at periods, run
INNER_PERIOD = "\u2024"
# and the comma of a grouped number ("50,000"), for the same reason
GROUPING_COMMA = "\u201a"
# words a phrase cannot end on ("is the first [to ...]", "the reasons for some [users]", "they have [run]")
DANGLING = frozenset({"a", "an", "the", "of", "for", "to", "and", "or", "in", "on", "with", "by", "from", "that",
                       "which", "as", "at", "its", "their", "capable", "able", "is", "are", "be", "both", "such",
                       "than", "how", "whether", "into", "between", "among", "using", "called", "referred", "more",
                       "less", "much", "very", "most", "also", "not", "can", "may", "will", "based", "derived",
                       "listing", "named", "including", "like", "where", "while", "who", "whose", "relation", "respect",
                       "order", "terms", "addition", "contrast", "particular", "devoid", "regardless",
                       "irrespective", "due", "according", "consisting", "composed", "comprised",
                       "first", "some", "many", "several", "few", "each", "every", "any", "thousands",
                       "hundreds", "millions", "dozens", "have", "has", "had", "do", "does", "did"})

# nouns that end a phrase only outside their idiom ("query terms", "word order"; not "in terms [of]",
# "by means [of]")
IDIOM_NOUNS = frozenset({"terms", "order", "relation", "respect", "addition", "contrast", "particular",
                         "means"})


def dangling_end(words: Sequence[str]) -> bool:
    """Whether a phrase of ``words`` cannot end where it does (see :func:`_dangling`)."""
    if not words:
        return False
    last = words[-1].lower().strip(",;:")
    if last in IDIOM_NOUNS:
        return len(words) < 2 or words[-2].lower() in {"in", "with", "the", "a", "an", "by"}  # "by means"
    if last == "up" and len(words) > 1 and words[-2].lower() in {"of", "by", "to", "for", "with"}:
        return True  # "an improvement of up [to 8.5%]"
    return _dangling(words[-1])


def _dangling(word: str) -> bool:
    """A word a phrase cannot end on: function words, adverbs, participles of cut relative clauses."""
    low = word.lower().strip(",;:")
    if INNER_PERIOD in low or low.endswith("."):
        return True  # "to U.S.", "components, i.e.": an abbreviation cannot end a phrase
    return low in DANGLING or low.endswith("ly") or (low.endswith("ed") and len(low) > 4 and low != "need")


# words after which a number counts something the phrase must name ("over 10,000 [users]"); not
# "of" or "by": "an F-score of 91.5" and "improves by 3.2" are whole
COUNT_LEADS = frozenset({"roughly", "about", "approximately", "nearly", "almost", "around", "over", "some", "than",
                         "on", "with", "from", "under"})


def count_without_noun(words: Sequence[str]) -> bool:
    """A phrase cut after a number that counted something ("trained on roughly 50,000 | sentences")."""
    number = re.fullmatch(rf"\d[\d,.{GROUPING_COMMA}{INNER_PERIOD}]*", words[-1].strip(",;:")) if words else None
    return len(words) > 1 and number is not None and words[-2].lower() in COUNT_LEADS


_LISTED_MODIFIERS = re.compile(r"\b(?:a|an|the)\s+([\w-]+),\s+[\w-]+\W*$", re.I)
# "a distribution over source trees, target trees[, and ...]": plural nouns listed without "and"
_LISTED_NOUNS = re.compile(r"\b(?:of|over|for|on|in|with|from|between|among)\s+(?:[a-z][\w-]*\s+){0,2}"
                           r"[a-z][\w-]*s,\s+(?!(?:and|or|a|an|the|which|who|that)\b)"
                           r"[a-z][\w-]*(?:\s+[a-z][\w-]*)?s\W*$|"  # "for adjective-noun, noun-noun"
                           r"\b(?:of|over|for|on|in|with|from|between|among)\s+[a-z][\w-]*,\s+"
                           r"(?!(?:and|or|a|an|the|which|who|that|respectively)\b)[a-z][\w-]*\W*$")


def list_cut_short(text: str) -> bool:
    """Whether ``text`` ends on a list cut before its last item: an article and modifiers without
    their noun ("a weakly-supervised, general-purpose[, and accurate algorithm]", not the appositive
    name of "a new corpus, Multi-XScience"), or plural nouns without "and" ("source trees, target trees")."""
    listed = _LISTED_MODIFIERS.search(text)
    return listed is not None and is_adjective_like(listed.group(1)) or bool(_LISTED_NOUNS.search(text))


_NEEDS_OF = frozenset("""estimation basis help means presence absence lack fact number aid course light rest
    form use end terms performance source top frequency probability importance effect impact role amount
    degree extent utility value effectiveness usefulness benefits range variety series framework logs
    acquisition distance difference relationship interplay correlation gap size length fraction proportion
    portion subset""".split())
# "an indicator [of X]", "upper and lower bounds [on X]"
_NEEDS_OF_ANYWHERE = frozenset({"indicator", "predictor", "proxy", "improvement", "bound", "bounds"})


def lost_of_phrase(last: str, before: str) -> bool:
    """A noun that needs its of-phrase, ending a phrase after an article ("on the basis.") or any word;
    a language without its noun ("the translated portion of the Chinese [Treebank]"); an adjective
    after its noun without its complement ("a criterion rewarding documents relevant [to the query]")."""
    after_article = before in {"the", "a", "an", "new", "novel"}
    language = before == "the" and last in LANGUAGES
    complement = last in _NEEDS_COMPLEMENT and before not in _LINKS_BEFORE_ADJECTIVE
    return (last in _NEEDS_OF and after_article) or last in _NEEDS_OF_ANYWHERE or language or complement


_NEEDS_COMPLEMENT = frozenset({"relevant", "similar", "dissimilar", "related", "equivalent", "comparable",
                               "identical", "prone", "akin", "applicable", "suitable", "appropriate", "amenable",
                               "susceptible", "conducive"})  # "bilingual word classes suitable [for translation]"
_LINKS_BEFORE_ADJECTIVE = frozenset({"is", "are", "be", "been", "was", "were", "being", "very", "highly",
                                     "most", "more", "less", "least", "not", "equally", "closely"})
