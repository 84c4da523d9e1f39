"""What a paper contributes, read from its abstract by rules (no model).

For each abstract: the contribution (what follows "we propose / present / introduce / show",
"this paper presents", "X is proposed"), the task ("for X", "the problem of X"), the method
("based on X", "using X"), the result ("results show that X", "outperforms X"), and a few
StructSurvey-style entities (named methods, tasks, datasets) and relations between them
(``proposes``, ``addresses``, ``uses``, ``evaluated_on``, ``outperforms``). Phrases are cut
short on purpose: the offline writer rephrases around them and must never copy a long run of
words from the source. A cut never leaves a bare appositive ("node2vec, an algorithm"): its
relative clause is kept (also as a participle, "an algorithm learning ..."), or the title's own
description is used, or the name stands alone. :func:`draft_aspects` reads the draft's abstract
the same way, into the actions and clauses the closing sentences relate each theme to.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from relatex.analysis.sentences import split_sentences
from relatex.writing.phrase_ends import COUNT_LEADS, count_without_noun, dangling_end

VERB_CLASSES: dict[str, str] = {
    "propose": "propose", "present": "propose", "introduce": "propose", "develop": "propose",
    "design": "propose", "build": "propose", "construct": "propose", "create": "propose",
    "describe": "describe", "formulate": "define", "define": "define", "cover": "describe", "offer": "propose",
    "provide": "propose", "release": "release", "extend": "extend", "apply": "apply", "use": "apply",
    "employ": "apply", "leverage": "apply",
    "study": "study", "investigate": "study", "explore": "study", "examine": "study",
    "analyze": "study", "analyse": "study", "consider": "study", "address": "study", "tackle": "study",
    "focus": "study", "evaluate": "evaluate", "compare": "evaluate", "conduct": "conduct", "perform": "conduct",
    "show": "show", "demonstrate": "show", "find": "show", "report": "show", "observe": "show",
    "argue": "show", "prove": "show",
    "modify": "modify", "adapt": "modify", "improve": "improve", "combine": "combine", "integrate": "combine",
    "train": "train", "learn": "train", "pretrain": "train", "fine-tune": "train", "collect": "release",
    "annotate": "annotate", "curate": "release",
}
_VERB_ALT = "|".join(sorted(VERB_CLASSES, key=len, reverse=True))
_SUBJECT = r"(?:we|this (?:paper|work|article|study|thesis|chapter|note|monograph|survey|book|textbook|tutorial|report|dissertation|review)|the (?:present|current) (?:paper|work|study)|our (?:paper|work|study))"
CONTRIBUTION = re.compile(
    rf"\b{_SUBJECT}\s+(?:also\s+|further\s+|first\s+|then\s+|here\s+|empirically\s+|experimentally\s+|"
    rf"systematically\s+|thus\s+|therefore\s+)?(?P<verb>{_VERB_ALT})(?:s|es|d|ed)?\b(?:\s+on\b)?\s*(?P<rest>[^.;]*)",
    re.I,
)
PASSIVE = re.compile(r"^(?P<rest>(?:a|an|the)\s[^.;]{3,80}?)\s+(?:is|are)\s+(?P<verb>proposed|presented|introduced|developed|described)\b", re.I)
RESULT = re.compile(
    r"\b(?:results?|experiments?|evaluations?|analys[ie]s|findings|studies|we)\s+(?:also\s+)?"
    r"(?:show|shows|showed|demonstrate|demonstrates|demonstrated|indicate|indicates|indicated|suggest|"
    r"suggests|suggested|confirm|confirms|reveal|reveals|revealed|find|found)\s+that\s+(?P<rest>[^.;]*)",
    re.I,
)
OUTPERFORMS = re.compile(
    r"\b(?P<verb>outperforms?|improves?|achieves?|yields?|reduces?|increases?|beats?|surpasses?)\s+(?P<rest>[^.;]*)",
    re.I,
)
TASK_OF = re.compile(r"\bthe (?:task|problem|challenge) of\s+(?P<rest>[^,.;()]*)", re.I)
TASK = re.compile(r"\bfor(?! example| instance| the first time| each| all| this| that)\s+(?P<rest>[^,.;()]*)", re.I)
METHOD = re.compile(r"\b(?:based on|using|relies on|by means of|with the help of|via)\s+(?P<rest>[^,.;()]*)", re.I)
DATASET = re.compile(r"\b(?:on|using|from)\s+(?:the\s+)?(?P<name>[A-Z][A-Za-z0-9\-]*(?:\s+[A-Z][A-Za-z0-9\-]*){0,3})\s+"
                     r"(?:dataset|corpus|collection|benchmark|track|test collection)s?\b")
NAMED = re.compile(r"\b(?:[A-Z][a-z]*[A-Z][A-Za-z0-9\-]*|[A-Z]{2,}[a-z]?s?)\b")
_CLAUSE_CUT = re.compile(
    r"\s*(?:,?\s(?:e\u2024g|i\u2024e|cf|viz)\u2024|,\s*(?:which|where|while|whereas|and|but|thus|so|as)\b|\s(?:which|that|where|while|whereas|"
    r"because|so that|in order to|such that|thereby|based on)\b|,?\sand\s(?:we|they)\b|\s\(|:|--|\u2014|"
    r"\s\u2013\s|\sand\s(?:also\s|then\s)?(?:"
    + "|".join(sorted(VERB_CLASSES, key=len, reverse=True)) + r")(?:s|es|d|ed)?\b)",
    re.I,
)
_LEADING = re.compile(r"^(?:that|how|whether|here|novel|new|an?|the)\s+", re.I)
PRONOUNS = {"we": "they", "our": "their", "us": "them", "ours": "theirs", "ourselves": "themselves"}
# not "prior": "a Dirichlet prior" is a noun
PREPOSITIONS = frozenset({"of", "for", "in", "on", "with", "by", "from", "to", "at", "into", "over", "under",
                           "across", "between", "among", "through", "using", "via", "without", "than", "within"})
_BAD_RESULT_START = frozenset({"by", "how", "on", "in", "to", "whether", "if", "it", "this", "these", "for",
                               "the", "they", "there", "while", "whilst", "although", "though", "whereas",
                               "when", "since", "because", "unless"})  # "while there are cases [where ...]"
EVALUATION_WORDS = re.compile(r"\b(?:recall|precision|accuracy|f1|bleu|rouge|metrics?|scores?|evaluations?|"
                              r"benchmarks?|baselines?|judges?|annotators?)\b", re.I)
GENERIC_WORDS = frozenset({"AI", "IR", "NLP", "ML", "We", "In", "This", "Our", "The", "A", "An", "I", "II", "III"})


@dataclass(frozen=True)
class Relation:
    subject: str
    relation: str
    object: str


@dataclass(frozen=True)
class Contribution:
    """Short phrases describing one paper; empty strings when the abstract did not say."""

    verb: str = ""  # verb class: propose, describe, release, extend, apply, study, evaluate, show
    phrase: str = ""  # object of the contribution verb, e.g. "a graph-based method to weight concepts"
    task: str = ""
    method: str = ""
    result: str = ""
    entities: tuple[str, ...] = ()
    relations: tuple[Relation, ...] = ()
    # other ways to say ``phrase``, best first (shorter or paraphrased: when it would copy a long run)
    alternatives: tuple[str, ...] = ()
    source_verb: str = ""  # the abstract's own verb ("present"): the writer says it differently
    paper_type: str = "research"  # survey, dataset, benchmark, position or research (from the abstract's cues)
    # the abstract's next contribution, said when ``phrase`` cannot be ("This paper considers X" copies a run;
    # "we propose RippleNet, an end-to-end framework ..." may not)
    second: Contribution | None = None

    @property
    def variants(self) -> tuple[str, ...]:
        """``phrase`` and its alternatives, without repeats."""
        return tuple(dict.fromkeys(p for p in (self.phrase, *self.alternatives) if p))

    @property
    def empty(self) -> bool:
        return not (self.phrase or self.task or self.result)


def shorten(phrase: str, max_words: int = 10, *, cut_clauses: bool = True, strict: bool = False) -> str:
    """The head of a phrase: cut at the first subordinate clause, at most ``max_words`` words.

    Too long phrases are cut before a preposition when that keeps at least four words (the
    phrase then ends on a complete noun phrase); with ``strict`` they are dropped instead.
    """
    text = " ".join(phrase.replace("\n", " ").split())
    text = re.sub(r"\\[a-zA-Z]+\*?(?:\[[^\]]*\])?\{[^{}]*\}", "", text)  # leftover LaTeX commands
    text = text.replace("{", "").replace("}", "")
    cut = _CLAUSE_CUT.search(text, 6) if cut_clauses else None  # keep a few characters before cutting
    if cut:
        text = text[:cut.start()]
        if re.match(r"\s(?:that|which|who)\b", cut.group(0)):  # "similar to the item | that was selected"
            text = _UNDEFINED_REFERENCE.sub("", text)
    words = [PRONOUNS.get(w.lower(), w) if w.lower() in PRONOUNS else w for w in text.split()]
    if len(words) > max_words and not strict:  # ", both post-retrieval and pre-retrieval": an aside ends it
        asides = [i for i in range(4, max_words + 1) if words[i - 1].endswith(",") and words[i].lower() in _ASIDES]
        words = words[:asides[-1]] if asides else words
    if len(words) > max_words:
        if strict:
            return ""
        cuts = [i for i in range(4, max_words + 1) if words[i].lower() in PREPOSITIONS]
        # "the importance | of web pages": an of-phrase completes its noun, cut elsewhere if possible
        cuts = [i for i in cuts if not needs_of(words[:i], words[i:]) and i >= 0.6 * max_words
                and not leaves_comparison_open(words[:i], words[i:])] or cuts
        words = words[:cuts[-1]] if cuts else words[:max_words]
        comma = max((i for i, w in enumerate(words[:-1]) if w.endswith(",")), default=-1)
        if comma >= 3 and len(words) - comma - 1 <= 2 and words[comma - 1].lower() not in {"a", "an", "the"}:
            words = words[:comma + 1]  # "word categories, sets [of words]", not "a convex, smooth function"
    # do not end on a dangling function word, adverb or "capable of", nor on a count without its noun
    counted = False
    while words and (dangling_end(words) or count_without_noun(words)
                     or (counted and words[-1].lower() in COUNT_LEADS)):
        counted = counted or count_without_noun(words)
        words.pop()
    return " ".join(words).strip(" ,;:-")


# "similar to the item": a reference point that only its cut relative clause defined
_UNDEFINED_REFERENCE = re.compile(r"(?<=\w)\s+(?:to|from|than|with|as)\s+the\s+\S+$")
# words that open an aside after a comma ("algorithms, both post-retrieval and pre-retrieval")
_ASIDES = frozenset({"both", "either", "including", "especially", "particularly", "namely", "notably", "mainly",
                     "primarily", "typically", "usually", "often"})
# manner adverbs: dropping one says less, never something else ("dynamically improving" -> "improving")
_MANNER_ADVERBS = frozenset({"dynamically", "automatically", "jointly", "efficiently", "effectively", "simultaneously",
                             "iteratively", "naturally", "seamlessly", "adaptively", "incrementally", "accurately",
                             "quickly", "systematically", "empirically", "experimentally", "theoretically",
                             "carefully", "successfully", "significantly", "substantially", "greatly", "further"})


def without_asides(phrase: str) -> str:
    """The phrase without asides ("(SMT)") and unnegated manner adverbs ("how to [quickly and simply] do")."""
    words = re.sub(r"\s*\([^()]{1,60}\)", "", phrase).split()
    dropped = {i for i, w in enumerate(words) if w.lower() in _MANNER_ADVERBS and not (i and (
        words[i - 1].lower() in {"not", "no", "never", "hardly"} or words[i - 1].endswith("n't")))}
    dropped |= {i for i, w in enumerate(words) if w.lower() in {"and", "or"} and {i - 1, i + 1} <= dropped}
    return " ".join(w for i, w in enumerate(words) if i not in dropped)


def plural_head(phrase: str) -> bool:
    """Whether a noun phrase's head (its last word before a preposition or clause) is plural, or
    the phrase joins two (" a Hidden Markov Model and an HMM-based chunk tagger")."""
    if re.search(r"\sand\s(?:a|an|the)\s", _HEAD_PART.split(f"{phrase} ")[0], re.I):
        return True
    if re.match(r"(?:a|an)\s", phrase, re.I):
        return False  # "a new deep Aesthetic Cross-Domain Networks": a name taken as one thing
    if _COUNTED_MANY.match(phrase):
        return True  # "Three generative, lexicalised models for ...": the comma hides the head
    return plural_looking_head(phrase)


_COUNTED_MANY = re.compile(
    r"(?:two|three|four|five|six|seven|eight|nine|ten|several|many|multiple|various)\s", re.I)


def plural_looking_head(phrase: str) -> bool:
    """Whether a noun phrase's head word has a plural form, whatever its article says."""
    word = head_word(phrase)
    return len(word) > 3 and word.endswith("s") and not word.lower().endswith(("ss", "us", "is", "ics")) \
        and word.lower() not in _SINGULAR_IN_S


_SINGULAR_IN_S = frozenset({"bias", "atlas", "canvas", "chaos", "lens", "news", "gas"})  # "bias in search is"

_HEAD_PART = re.compile(r",|\s(?:of|for|to|that|which|with|in|on|by|from|named|called|via|using|"
                        r"through|across|under|over|into|towards|toward|between|among|against|within|"
                        r"without|beyond|during|about)\s")


def head_word(phrase: str) -> str:
    """A noun phrase's head: its last word before a preposition, a comma or a clause."""
    head = _HEAD_PART.split(f"{phrase} ")[0].split()
    return head[-1] if head else ""


def cut_before_of(phrase: str, short: str) -> bool:
    """Whether ``short`` is ``phrase`` cut just before an of-phrase that completes its last noun (or
    the definite noun phrase it ends on: "the noun phrase antecedents | of third person pronouns")."""
    before, after = short.split(), phrase[len(short):].split()
    return phrase.startswith(short) and (needs_of(before, after) or leaves_comparison_open(before, after) or (
        bool(after) and after[0].lower() == "of" and _definite_noun_phrase(before)))


# nouns that mean little without their of-phrase ("the importance | of web pages")
OF_NOUNS = frozenset({"design", "implementation", "evaluation", "analysis", "importance", "use", "study", "set",
                      "number", "family", "range", "variety", "combination", "comparison", "notion", "problem",
                      "task", "question", "effect", "effects", "impact", "role", "performance", "quality", "way",
                      "ways", "kind", "type", "types", "form", "forms", "part", "aspects", "aspect", "development",
                      "application", "extension", "generalization", "generalisation", "overview", "survey",
                      "results", "result", "collection", "series", "version", "list", "case", "cases", "idea",
                      "concept", "amount", "degree", "level", "measurement", "estimation", "identification",
                      "advantages", "disadvantages", "benefits", "limitations", "properties", "characteristics",
                      "extent", "potential", "feasibility", "effectiveness", "efficiency", "reliability",
                      "accuracy", "usefulness", "value", "nature", "behavior", "behaviour", "structure",
                      "distribution", "percentage", "rate", "size", "choice", "implications", "consequences",
                      "state", "volume"})  # "state | of the art", "the sheer volume | of data"


AUXILIARIES = frozenset({"is", "are", "was", "were", "be", "been", "can", "could", "may", "might", "will", "would",
                         "should", "must", "has", "have", "had", "do", "does", "did"})
# verbs a clause stands on, in their base form; inflected forms are matched by FINITE_FORM's suffix group
_FINITE_VERBS = ("outperform|improve|achieve|yield|reduce|increase|perform|lead|help|capture|match|reach|provide|"
                 "work|hold|remain|depend|correlate|generali[sz]e|benefit|beat|fail|affect|rely|enable|allow|find|"
                 "show|exceed|surpass|converge|scale|produce|make|give|require|need|lower|raise|boost|hurt|degrade|"
                 "vary|differ|agree|predict|explain|contribute|apply|transfer|suffer|miss|cover|learn|generate|tend")
# group "aux": an auxiliary; group "base": a verb's base form, the whole match with its suffix ("outperforms")
FINITE_FORM = re.compile(rf"\b(?:(?P<aux>{'|'.join(sorted(AUXILIARIES))})|(?P<base>{_FINITE_VERBS})(?:s|es|ed|d)?)\b",
                         re.I)


def has_finite_verb(clause: str) -> bool:
    """Whether a clause has a verb it can stand on ("X outperforms Y"), not just a noun phrase."""
    return bool(FINITE_FORM.search(" ".join(clause.split()[1:])))


def needs_of(before: Sequence[str], after: Sequence[str]) -> bool:
    """Whether cutting between ``before`` and ``after`` leaves a noun without the of-phrase it needs."""
    return bool(before and after and after[0].lower() == "of" and (before[-1].lower().strip(",;:") in OF_NOUNS
                or [w.lower() for w in before[-2:-1]] == ["the"]))  # "the use | of": which use


def leaves_comparison_open(before: Sequence[str], after: Sequence[str]) -> bool:
    """Whether cutting between ``before`` and ``after`` leaves a comparison without what it is
    compared with ("to compare a path | with a group of paths")."""
    return bool(after) and after[0].lower() in {"with", "to", "against", "from"} and any(
        re.match(r"(?:compar|contrast|distinguish|differentiat)", w.lower()) for w in before[-4:])


def _definite_noun_phrase(words: Sequence[str]) -> bool:
    """Whether ``words`` end on a noun phrase opened by "the" ("the use", "the noun phrase
    antecedents"): which one, its of-phrase says."""
    for word in reversed(words[-4:-1]):
        low = word.lower()
        if low == "the":
            return True
        if low in PREPOSITIONS or low.endswith(",") or not re.fullmatch(r"[a-z][\w-]*", low):
            return False
    return False


def _strip_leading(phrase: str) -> str:
    previous = None
    while previous != phrase:
        previous = phrase
        phrase = _LEADING.sub("", phrase)
    return phrase


def keeps_case(word: str) -> bool:
    """Acronyms and names keep their capitals (BERT, LexRank); Title-Case words do not (Retrieval-Augmented)."""
    word = word.strip("()[]\"'`,;:.")  # "(Monolingual)" is a capitalised word, not a name
    return any(c.isupper() for part in re.split(r"[-\u2010\u2011]", word) for c in part[1:])


def _fix_articles(text: str) -> str:
    """``a`` before a vowel sound becomes ``an`` and back, after words were removed."""
    text = re.sub(r"\b([Aa]) (?=[aeioAEIO][a-z]|[uU](?!ni|se|su|ti)[a-z])", lambda m: m.group(1) + "n ", text)
    return re.sub(r"\b([Aa])n (?=[b-df-hj-np-tv-z][a-z])", lambda m: m.group(1) + " ", text)


def with_article(phrase: str) -> str:
    """``phrase`` after "a" or "an", as its first sound asks ("an algorithm", "a user-guided ...")."""
    return _fix_articles(f"a {phrase}")


def sentences_of(text: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text)]
