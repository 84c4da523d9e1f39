"""The rhetorical role of each sentence of an abstract, and the kind of paper it describes.

Roles: ``background`` (the field and its gaps), ``objective`` (what the paper sets out to do),
``method`` (how), ``result`` (what was found) and ``conclusion`` (what follows). Paper types:
``survey``, ``dataset``, ``benchmark``, ``position`` (or ``research``). Both are read from the
abstract's own cues by weighted rules (cue phrases plus the sentence's position), no model; the
labelled sample in ``tests/fixtures/analysis/abstract_roles.tsv`` measures them
(``bench/rhetorical_roles.py``). The offline writer states results only from result sentences and
methods only from method sentences, and never turns a background sentence into a contribution.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from relatex.analysis.sentences import split_sentences

BACKGROUND = "background"
OBJECTIVE = "objective"
METHOD = "method"
RESULT = "result"
CONCLUSION = "conclusion"
ROLES: tuple[str, ...] = (BACKGROUND, OBJECTIVE, METHOD, RESULT, CONCLUSION)
PAPER_TYPES: tuple[str, ...] = ("survey", "dataset", "benchmark", "position", "research")

_SELF = r"(?:we|our|us|this (?:paper|work|article|study|thesis|chapter|note|demo(?:nstration)?|survey|review|report)|" \
        r"in (?:this|the present) (?:paper|work|article|study)|here)"


def _cues(*patterns: tuple[str, float]) -> tuple[tuple[re.Pattern[str], float], ...]:
    return tuple((re.compile(p, re.I), w) for p, w in patterns)


_CUES: dict[str, tuple[tuple[re.Pattern[str], float], ...]] = {
    BACKGROUND: _cues(
        (r"^(?:however|yet|unfortunately|traditionally|recently|despite|although|while)\b", 1.2),
        (r"\b(?:has|have) (?:been|become|emerged|attracted|drawn|received|shown)\b", 1.2),
        (r"\b(?:existing|previous|prior|current|traditional|conventional|state-of-the-art) "
         r"(?:work|works|methods?|approaches|systems|studies|research|models|techniques)\b", 1.4),
        (r"\b(?:is|are|remains?) (?:an? )?(?:important|crucial|challenging|difficult|open|key|fundamental|"
         r"essential|critical|vital|hard|useful|common|popular|widely)\b", 1.3),
        (r"\b(?:little|limited|few|no)\b[^.]{0,40}\b(?:known|understood|attention|work|studies|efforts)\b", 1.2),
        (r"\?$", 1.5),
        (r"^(?:recent|previous|prior|earlier|existing|past|many|several|some) (?:\w+ )?(?:studies|work|works|research|"
         r"findings|results|literature|approaches|methods)\b|\bit (?:has been|is well) (?:shown|known|established)\b",
         3.0),
        (r"\b(?:challenge|bottleneck|gap|problem|issue|difficulty)\b", 0.4),
        (r"\b(?:many|most|several|some) (?:recent )?(?:studies|researchers|works|approaches|methods)\b", 0.8),
        # what the field usually does ("Typically, user satisfaction measurement relies on ...")
        (r"^(?:typically|usually|conventionally|commonly|classically)\b", 3.0),
        # another work as the subject ("Collins et al. (2005) suggest a method ...")
        (r"^[A-Z][\w'-]+(?:\s+(?:and|&)\s+[A-Z][\w'-]+|\s+et\s+al\.?)?\s*,?\s*\(?(?:19|20)\d\d[a-z]?\)?\s", 3.0),
    ),
    OBJECTIVE: _cues(
        (rf"\b{_SELF}\b[^.]{{0,30}}\b(?:propose|present|introduce|describe|develop|design|build|create|explore|"
         r"investigate|study|examine|address|tackle|report|contribute|advocate|aim|focus|test)(?:s|d|ed)?\b", 1.6),
        (r"\b(?:in this (?:paper|work|article|study|demonstration)|this (?:paper|work|article) )", 1.8),
        (r"\b(?:the )?(?:aim|goal|purpose|objective)s? (?:of|is|was)\b", 2.0),
        (r"\bwe (?:propose|present|introduce)\b", 1.0),
        (r"\b(?:is|are) (?:proposed|presented|introduced)\b", 1.2),
        (r"\bto (?:this end|address|tackle|fill|overcome|solve|deal with|make)\b", 0.8),
        (r"\bour (?:submission|participation|system|submitted)\b", 0.6),
    ),
    METHOD: _cues(
        (r"\bwe (?:first |then |also |further )?(?:use|apply|employ|adopt|leverage|train|fine-tune|collect|"
         r"annotate|extract|model|represent|encode|compute|construct|combine|integrate|adapt|sample|conduct|"
         r"perform|evaluate|compare|experiment|frame|formulate|devise|implement|analy[sz]e|invite|recruit|"
         r"decrease|increase|make use|rely|exploit|design|develop|build)\w*\b", 1.5),
        (r"\b(?:consists? of|is composed of|is based on|is built on|relies on|comprises?|takes as input|"
         r"is trained|are trained|is used|are used|was used|were used|is performed|was performed|"
         r"were (?:extracted|collected|annotated|selected|asked)|is evaluated|are evaluated)\b", 1.3),
        (r"^(?:first|second|third|then|next|specifically|to do so|for this|in our design)\b", 1.2),
        (r"\b(?:our|the) (?:approach|model|method|system|framework|algorithm|platform|tool|parser|api|toolkit)"
         r"\s+(?:\w+ ){0,2}(?:uses|combines|learns|consists|relies|takes|computes|samples|summarizes|enables|"
         r"generates|converts|interfaces|allows|provides|includes)\b", 1.4),
        (r"\b(?:it|which) (?:uses|combines|learns|samples|computes|summarizes|enables|allows|provides|includes)\b",
         0.9),
        (r"\b(?:participants|users|subjects|annotators)\b[^.]{0,60}\b(?:were|was|could|can)\b", 0.6),
        (r"\b(?:dataset|corpus|data|treebank) (?:contains|consists|comprises|includes|was|were)\b", 1.0),
        (r"\busing\b", 0.3),
        (r"\b(?:our|this|the) (?:first |second |third )?(?:study|experiment|user study|approach taken)\b", 0.8),
    ),
    RESULT: _cues(
        (r"\b(?:results?|experiments?|evaluations?|analys[ie]s|findings|studies|study|measures|data|evidence)\b"
         r"[^.]{0,60}\b(?:show|shows|showed|demonstrate|demonstrates|demonstrated|indicate|indicates|indicated|"
         r"reveal|reveals|revealed|confirm|confirms|confirmed|suggest|suggests|document|prove|proves)\b", 2.0),
        (r"\b(?:outperform|outperforms|outperformed|surpass(?:es)?|beats?|improves?|improved|achieves?|achieved|"
         r"obtains?|obtained|yields?|reaches|ranked|drops?|boosts?)\b", 1.3),
        (r"\bwe (?:also )?(?:show|find|found|observe|observed|demonstrate|report|verify|infer|were able)\b", 1.5),
        (r"\b(?:outperforms?|outperformed|finding that)\b", 0.6),
        (r"\b(?:participants|users|subjects|respondents)\b[^.]{0,40}\b(?:reported|found|felt|preferred|find|"
         r"perceived|rated|evaluate)\b", 1.3),
        (r"\d+(?:\.\d+)?\s?%|\b\d+\.\d+\b|\bf1\b|\bbleu\b|\baccuracy\b|\bstate[- ]of[- ]the[- ]art\b", 0.9),
        (r"\bsignificant(?:ly)?\b|\bcorrelat\w+|\bpreference\b|\bperformance\b", 0.6),
        (r"\b(?:better|worse|higher|lower|more robust|competitive|comparable|superior)\b", 0.5),
    ),
    CONCLUSION: _cues(
        (r"\b(?:we|these|our) (?:\w+ )?(?:findings|results|work|study)\b[^.]{0,30}\b(?:suggest|support|emphasi[sz]e|"
         r"highlight|imply|offer|open|pave|call)\w*\b", 2.0),
        (r"\b(?:we hope|we believe|we conclude|in conclusion|future work|future research|implications?|"
         r"lessons learned)\b", 1.8),
        (r"\bwe (?:\w+ )?discuss\b", 0.6),
        (r"\b(?:code|data|dataset|corpus|models?|resources?|tool|annotations?)\b[^.]{0,40}\b(?:is|are|will be|"
         r"made) (?:publicly |freely )?(?:available|released)\b", 2.2),
        (r"\b(?:github\.com|https?://)", 1.2),
        (r"\bcan be (?:applied|used|extended)\b|\bflexible\b|\bopens? up\b", 0.8),
    ),
}
_POSITION_PRIOR: dict[str, tuple[float, float, float]] = {  # first sentence, middle, last sentence
    BACKGROUND: (1.3, 0.0, -1.0),
    OBJECTIVE: (0.6, 0.0, -0.6),
    METHOD: (-0.6, 0.5, -0.2),
    RESULT: (-1.2, 0.2, 0.7),
    CONCLUSION: (-1.5, -0.6, 0.9),
}


@dataclass(frozen=True)
class RoledSentence:
    """One sentence of an abstract with its role and the per-role scores behind it."""

    text: str
    role: str
    start: int
    end: int
    scores: tuple[tuple[str, float], ...] = ()


def role_scores(sentence: str, index: int, count: int, previous_role: str = "") -> dict[str, float]:
    """Cue and position scores of one sentence (``index`` of ``count``) for every role."""
    text = " ".join(sentence.split())
    where = 0 if index == 0 else 2 if index == count - 1 and count > 2 else 1
    scores: dict[str, float] = {}
    for role in ROLES:
        total = _POSITION_PRIOR[role][where]
        for pattern, weight in _CUES[role]:
            if pattern.search(text):
                total += weight
        scores[role] = total
    if previous_role == BACKGROUND and not re.search(rf"\b{_SELF}\b", text, re.I):
        scores[BACKGROUND] += 0.8  # background runs on until the paper speaks of itself
    if previous_role in (OBJECTIVE, METHOD) and index < count - 1:
        scores[METHOD] += 0.4
    if re.match(rf"(?:{_SELF}|in this)\b", text, re.I) or re.search(r"\bwe\b", text, re.I):
        scores[BACKGROUND] -= 1.5  # the paper speaking of itself is not background
    return scores


def classify_sentences(sentences: list[str]) -> list[str]:
    """The role of each sentence of one abstract, in order."""
    roles: list[str] = []
    for index, sentence in enumerate(sentences):
        scores = role_scores(sentence, index, len(sentences), roles[-1] if roles else "")
        roles.append(max(ROLES, key=lambda r: (scores[r], -ROLES.index(r))))
    return roles


def roled_sentences(abstract: str) -> list[RoledSentence]:
    """The abstract split into sentences (abbreviation-aware), each with its role."""
    text = abstract or ""
    spans = [(a, b) for a, b in split_sentences(text) if text[a:b].strip()]
    sentences = [text[a:b] for a, b in spans]
    roles = classify_sentences(sentences)
    return [RoledSentence(" ".join(s.split()), r, a, b) for s, r, (a, b) in zip(sentences, roles, spans, strict=True)]


_TYPE_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("survey", re.compile(r"\b(?:this|our|the present) (?:survey|review|overview|tutorial)\b|\bwe (?:survey|review)\b|"
                          r"\b(?:a|an|this) (?:comprehensive |systematic |brief )?(?:survey|review|overview) of\b|"
                          r"\bsystematic literature review\b", re.I)),
    ("benchmark", re.compile(r"\b(?:we|this paper) (?:\w+ ){0,2}(?:introduce|present|propose|release|build|construct)"
                             r"\w* (?:a |an |the )?(?:new |novel |large-scale |comprehensive |unified )*"
                             r"(?:benchmark|evaluation (?:suite|framework|campaign)|shared task|test collection)\b|"
                             r"\bthis (?:shared task|benchmark|evaluation campaign)\b", re.I)),
    ("dataset", re.compile(r"\b(?:we|this paper) (?:\w+ ){0,2}(?:introduce|present|release|build|construct|collect|"
                           r"create|describe)\w* (?:a |an |the )?(?:\w+[- ]){0,4}(?:dataset|corpus|treebank|"
                           r"collection|lexicon|resource)\b|\b(?:dataset|corpus) (?:is|are) (?:made )?(?:publicly |"
                           r"freely )?(?:available|released)\b", re.I)),
    ("position", re.compile(r"\b(?:position paper|we argue|this paper argues|we call for|we advocate|this essay|"
                            r"we contend)\b", re.I)),
)


def paper_type(abstract: str, title: str = "") -> str:
    """``survey``, ``benchmark``, ``dataset``, ``position`` or ``research``, from the abstract's (and
    title's) own cues; the first type whose cue appears wins, in that order."""
    text = f"{title}. {abstract or ''}"
    if re.match(r"\s*(?:a |an )?(?:survey|review|overview)\b", title or "", re.I):
        return "survey"
    for kind, pattern in _TYPE_CUES:
        if pattern.search(text):
            return kind
    return "research"
