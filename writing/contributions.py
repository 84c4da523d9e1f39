"""What a paper contributes, read from its abstract by rules (no model).

For each abstract: the contribution (what follows "we propose / present / introduce / show",
"this paper presents", "X is proposed"), the task ("for X", "the problem of X"), the method
("based on X", "using X"), the result ("results show that X", "outperforms X"), and a few
StructSurvey-style entities (named methods, tasks, datasets) and relations between them
(``proposes``, ``addresses``, ``uses``, ``evaluated_on``, ``outperforms``). Phrases are cut
short on purpose: the offline writer rephrases around them and must never copy a long run of
words from the source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from relatex.analysis.sentences import split_sentences

VERB_CLASSES: dict[str, str] = {
    "propose": "propose", "present": "propose", "introduce": "propose", "develop": "propose",
    "design": "propose", "build": "propose", "construct": "propose", "create": "propose",
    "describe": "describe", "formulate": "propose", "define": "propose", "offer": "propose",
    "provide": "propose", "release": "release", "extend": "extend", "apply": "apply", "use": "apply",
    "employ": "apply", "leverage": "apply",
    "study": "study", "investigate": "study", "explore": "study", "examine": "study",
    "analyze": "study", "analyse": "study", "consider": "study", "address": "study", "tackle": "study",
    "focus": "study", "evaluate": "evaluate", "compare": "evaluate", "conduct": "evaluate",
    "show": "show", "demonstrate": "show", "find": "show", "report": "show", "observe": "show",
    "argue": "show", "prove": "show",
    "modify": "modify", "adapt": "modify", "improve": "modify", "combine": "combine", "integrate": "combine",
    "train": "train", "learn": "train", "pretrain": "train", "fine-tune": "train", "collect": "release",
    "annotate": "release", "curate": "release",
}
_VERB_ALT = "|".join(sorted(VERB_CLASSES, key=len, reverse=True))
_SUBJECT = r"(?:we|this (?:paper|work|article|study|thesis|chapter|note|monograph|survey|book|tutorial|report|dissertation|review)|the (?:present|current) (?:paper|work|study)|our (?:paper|work|study))"
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
    r"\s*(?:,\s*(?:which|where|while|whereas|and|but|thus|so|as)\b|\s(?:which|that|where|while|whereas|"
    r"because|so that|in order to|such that|thereby)\b|\s\(|:|--|\u2014|\sand\s(?:also\s|then\s)?(?:"
    + "|".join(sorted(VERB_CLASSES, key=len, reverse=True)) + r")(?:s|es|d|ed)?\b)",
    re.I,
)
_LEADING = re.compile(r"^(?:that|how|whether|here|novel|new|an?|the)\s+", re.I)
_PRONOUNS = {"we": "they", "our": "their", "us": "them", "ours": "theirs", "ourselves": "themselves"}
_DANGLING = frozenset({"a", "an", "the", "of", "for", "to", "and", "or", "in", "on", "with", "by", "from", "that",
                       "which", "as", "at", "its", "their", "capable", "able", "is", "are", "be", "both", "such",
                       "than", "how", "whether", "into", "between", "among", "using", "called", "referred", "more",
                       "less", "much", "very", "most", "also", "not", "can", "may", "will", "based", "derived",
                       "listing", "named", "including", "like", "where", "while", "who", "whose", "relation", "respect",
                       "order", "terms", "addition", "contrast", "particular"})
_PREPOSITIONS = frozenset({"of", "for", "in", "on", "with", "by", "from", "to", "at", "into", "over", "under",
                           "across", "between", "among", "through", "using", "via", "without", "than"})
_BAD_RESULT_START = frozenset({"by", "how", "on", "in", "to", "whether", "if", "it", "this", "these", "for",
                               "the", "they", "there"})
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
    words = [_PRONOUNS.get(w.lower(), w) if w.lower() in _PRONOUNS else w for w in text.split()]
    if len(words) > max_words:
        if strict:
            return ""
        cuts = [i for i in range(4, max_words + 1) if words[i].lower() in _PREPOSITIONS]
        words = words[:cuts[-1]] if cuts else words[:max_words]
    # do not end on a dangling function word, adverb or "capable of"
    while words and _dangling(words[-1]):
        words.pop()
    return " ".join(words).strip(" ,;:-")


def _dangling(word: str) -> bool:
    """A word a phrase cannot end on: function words, adverbs, participles of cut relative clauses."""
    low = word.lower().strip(",;:")
    return low in _DANGLING or low.endswith("ly") or (low.endswith("ed") and len(low) > 4 and low != "need")


def _strip_leading(phrase: str) -> str:
    previous = None
    while previous != phrase:
        previous = phrase
        phrase = _LEADING.sub("", phrase)
    return phrase


def sentences_of(text: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text)]


def extract(text: str, title: str = "", *, max_words: int = 10, cut_clauses: bool = True) -> Contribution:
    """The contribution, task, method, result, entities and relations of one abstract."""
    text = " ".join((text or "").split())
    verb = phrase = task = method = result = ""
    for sentence in sentences_of(text):
        if not phrase:
            match = CONTRIBUTION.search(sentence)
            if match and len(match.group("rest").split()) >= 2:
                verb = VERB_CLASSES.get(match.group("verb").lower(), "propose")
                rest = match.group("rest")
                if not cut_clauses:  # the draft's own phrase: up to the first comma
                    rest = rest.split(", ")[0]
                if verb == "show":  # a clause: cut short it stops making sense, so keep it whole or not at all
                    rest = re.sub(r"^that\s+", "", rest.strip(), flags=re.I)
                    phrase = shorten(rest, max_words, cut_clauses=False, strict=True)
                else:
                    phrase = shorten(rest, max_words, cut_clauses=cut_clauses)
                phrase = re.sub(r"^(The|A|An|This|These|Our|Their)\b", lambda m: m.group(1).lower(), phrase)
            else:
                passive = PASSIVE.search(sentence)
                if passive:
                    verb, phrase = "propose", shorten(passive.group("rest"))
                    phrase = re.sub(r"^(The|A|An)\b", lambda m: m.group(1).lower(), phrase)
        if not result:
            match = RESULT.search(sentence)
            candidate = ""
            if match and not CONTRIBUTION.search(sentence[: match.start() + 3]):
                candidate = shorten(match.group("rest"), 10, strict=True)
                words = candidate.split()
                if len(words) >= 3 and words[0].lower() not in _BAD_RESULT_START:
                    result = candidate
            else:
                better = OUTPERFORMS.search(sentence)
                if better and (not phrase or sentence.lower().find(phrase.lower()[:20]) == -1):
                    candidate = shorten(better.group(0), 9, strict=True)
                    if len(candidate.split()) >= 3:
                        result = f"the approach {candidate}"
        if not task:
            match = TASK_OF.search(sentence)
            contribution = CONTRIBUTION.search(sentence)
            if match is None and contribution is not None:
                match = TASK.search(contribution.group("rest"))
            if match and len(match.group("rest").split()) >= 2:
                task = shorten(match.group("rest"), 7)
        if not method:
            match = METHOD.search(sentence)
            if match and len(match.group("rest").split()) >= 1:
                method = shorten(match.group("rest"), 6)
    entities = _entities(text, title)
    relations = _relations(phrase, task, method, result, entities, text)
    return Contribution(verb=verb, phrase=phrase, task=task, method=method, result=result,
                        entities=entities, relations=relations)


def _entities(text: str, title: str) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for source in (title, text):
        for match in NAMED.finditer(source):
            name = match.group(0)
            if name not in GENERIC_WORDS and len(name) <= 30:
                found.setdefault(name, None)
    return tuple(found)[:6]


def _relations(phrase: str, task: str, method: str, result: str, entities: tuple[str, ...],
               text: str) -> tuple[Relation, ...]:
    relations: list[Relation] = []
    if phrase:
        relations.append(Relation("paper", "proposes", phrase))
    if task:
        relations.append(Relation("paper", "addresses", task))
    if method:
        relations.append(Relation("paper", "uses", method))
    for match in DATASET.finditer(text):
        relations.append(Relation("paper", "evaluated_on", match.group("name")))
    better = re.search(r"\boutperforms?\s+(?P<rest>[^,.;]*)", text, re.I)
    if better:
        relations.append(Relation(entities[0] if entities else "paper", "outperforms", shorten(better.group("rest"), 6)))
    if result:
        relations.append(Relation("paper", "shows", result))
    return tuple(relations)


def task_key(contribution: Contribution) -> str:
    """A normalised handle on the task, for grouping papers that share one."""
    words = re.findall(r"[a-z]{3,}", contribution.task.lower())
    stop = {"the", "and", "with", "from", "that", "this", "their", "large", "scale", "based"}
    return " ".join(w for w in words if w not in stop)[:60]
