"""Whether a generated sentence is whole: a main verb, a proper ending, balanced quotes.

The offline writer compresses phrases by dropping whole modifiers and clauses; a candidate that
still comes out garbled ("employs GreenSpyder to U.", "two key components, i.", a sentence
without a verb, an opened quotation never closed) is rejected here and the next phrasing tried."""

from __future__ import annotations

import re

from relatex.analysis.sentences import split_sentences
from relatex.retrieval.word_classes import is_adjective_like
from relatex.writing.broken_words import broken_word, split_word
from relatex.writing.contributions import AUXILIARIES, has_finite_verb
from relatex.writing.latex_validator import untypesettable
from relatex.writing.offline_templates import VERBS
from relatex.writing.phrase_ends import COUNT_LEADS, DANGLING, IDIOM_NOUNS, list_cut_short, lost_of_phrase

_CITE_TEXTUAL = re.compile(r"\\(?:citet|textcite|citeauthor|Citet|Textcite)\*?(?:\[[^\]]*\]){0,2}\{[^{}]*\}")
_CITE_ANY = re.compile(r"\s*~?\\[A-Za-z]*cite[A-Za-z]*\*?(?:\[[^\]]*\]){0,2}\{[^{}]*\}")
_TEMPLATE_VERBS = frozenset(form for forms in VERBS.values() for pair in forms for form in pair) | {
    "concerns", "deals", "centres", "forms", "includes", "address", "addresses", "tackle", "rests", "builds",
    "extend", "extends", "lies", "bears", "draws", "inform", "applies", "take", "takes", "return", "reviews",
    "treat", "build", "differs", "goes", "adds", "relate", "relates", "leave", "leaves", "covers", "focus",
    "focuses", "shows", "suggests", "indicate", "indicates", "report", "reports", "is", "are", "was", "were",
    "devise", "devises", "survey", "surveys", "implement", "implements",  # a draft's own verbs
}
_IRREGULAR_PARTICIPLES = frozenset({"built", "made", "done", "given", "known", "taken", "found", "shown",
                                    "seen", "written", "chosen", "held", "kept", "led", "put", "set",
                                    "brought", "thought", "driven", "drawn", "proven", "grown"})
# words that begin a modifier or clause: a phrase cut just before one drops it whole
MODIFIER_STARTS = frozenset({"of", "for", "in", "on", "with", "by", "from", "to", "at", "into", "over", "under",
                             "across", "between", "among", "through", "using", "via", "without", "than", "which",
                             "that", "where", "who", "whose", "while", "whereas", "because", "based", "and"})
_RELATIVE = re.compile(r"\b(?:whose|which|who|where)\b(?P<rest>[^,;]*)$", re.I)
_ARTICLES_AND_LINKS = DANGLING | {"its", "their", "his", "her", "our", "e.g", "i.e", "etc", "one", "amp"}
_BAD_PHRASE_START = frozenset({"and", "or", "but", "then", "also", "finally", "further", "thus", "so", "nor"})
# verbs that cannot end a sentence: their object or complement was cut ("we find the model leads.")
_NEEDS_OBJECT = frozenset({"lead", "leads", "allow", "allows", "enable", "enables", "provide", "provides", "require",
                           "requires", "yield", "yields", "contain", "contains", "make", "makes", "give", "gives",
                           "use", "uses", "show", "shows", "help", "helps", "consist", "consists", "rely", "relies",
                           "depend", "depends", "introduce", "introduces", "present", "presents", "propose",
                           "proposes", "develop", "develops", "describe", "describes", "demonstrate", "improve",
                           "obtain", "achieve", "achieves", "identify", "predict", "capture", "support", "aiming",
                           "leading", "allowing", "enabling", "making", "trying", "seeking", "resulting",
                           "providing", "requiring", "giving", "helping", "determine", "compute", "assess",
                           "quantify", "detect", "include", "includes"})
# a verb of the templates followed by an adverb and a preposition: the object was lost ("study specifically on X")
_ADVERB_FOR_OBJECT = re.compile(r"\b(?:study|studies|examine|examines|analy[sz]e|analy[sz]es|investigate|"
                                r"investigates|propose|proposes|present|presents|introduce|introduces|develop|"
                                r"develops)\s+[a-z]+ly\s+(?:on|in|at|to|for|with|about)\b", re.I)
# a verb of making whose object is missing ("develop using knowledge-aware learning")
_VERB_THEN_MANNER = re.compile(r"\b(?:propose|develop|introduce|present|design|build)s?\s+(?:using|via|by\s+\w+ing)\b", re.I)
# "the distance between the user.": between without its second term
_BETWEEN_ONE = re.compile(r"\bbetween\s+(?:(?:the|a|an|each|their|its)\s+)?(?:[\w-]+\s+){0,2}?[\w-]*[^s\W]\s*\.?\s*$", re.I)
# "providing users" at the end: the verb lost what it provides ("... with recommendations")
_WITHOUT_WHAT = re.compile(r"\b(?:provid|supply|suppli|equip|furnish)[a-z]*\s+(?:\w+\s+){0,2}?(?:users?|people|"
                           r"researchers|readers|customers|clients|them|developers|analysts)\s*[.?!]?\s*$", re.I)
# verbs that take an object, never a bare to-infinitive ("who introduce to train a model")
_NO_INFINITIVE = re.compile(r"\b(?:introduce|present|develop|describe|design|build|examine|analy[sz]e|evaluate)s?"
                            r"\s+(?:here\s+|also\s+|[a-z]+ly\s+)?to\s+[a-z]|\b(?:apply|applies|employs?|uses?)\s+to\s+"
                            r"(?:predict|train|learn|improve|generate|detect|rank|estimate|identify|classify|model|build|"
                            r"create|extract|find|solve|compute|measure|capture|represent|recommend|retrieve|answer)\b",
                            re.I)
# a complement clause that lost its verb ("we find that the predictions.")
_THAT_CLAUSE = re.compile(r"\b(?:find|found|show|showed|shown|report|reported|suggest|indicate|demonstrate|observe|"
                          r"argue|conclude|reveal|confirm|prove|proved|proven|establish|establishes|"
                          r"established)s?\s+that\b"
                          r"(?P<rest>[^,;:]*)$", re.I)
# a that-clause led by a subordinate clause whose main clause was cut ("we show that while there are cases.")
_SUBORDINATORS = frozenset({"while", "whereas", "although", "though", "when", "whenever", "if", "because",
                            "since", "unless", "once"})
# a comparison without its second term, or an adjective whose noun was cut ("its effectiveness is comparable.")
_NEEDS_TERM = frozenset({"comparable", "superior", "inferior", "equivalent", "similar", "better", "worse", "short",
                         "devoid", "regardless", "irrespective", "due", "according"})  # "a Dirichlet prior." is whole
# "language models for informational.": a preposition's object cut to its first adjective
_ENDING_PREPOSITIONS = frozenset({"of", "for", "to", "with", "in", "on", "by", "from", "about", "over"})
# nouns that end a phrase only with their of-phrase ("a model on the basis.")
# plain verbs after a plural subject ("how users search"): a how-clause holding one is whole
_BARE_VERBS = frozenset({"search", "use", "read", "interact", "behave", "work", "learn", "perform", "respond",
                         "change", "differ", "vary", "engage", "navigate", "browse", "click", "select", "write",
                         "rank", "retrieve", "compare", "perceive", "understand", "adapt", "evolve", "spread"})
_SECOND_VERB = re.compile(r"\band (?:discuss|present|propose|show|evaluate|describe|introduce|analy[sz]e|"
                          r"demonstrate|investigate|provide|compare|explore|conclude|outline|report|examine|"
                          r"verify|validate)\b", re.I)
_HOW_CLAUSE = re.compile(r"\b(?:how|whether|why|if)\b(?P<rest>[^;:]*)$", re.I)
# "how to represent and recommend products": a to-infinitive with its object is the clause's verb
# what joins the verbs of a list ("predicting, explaining and preventing")
LIST_JOIN = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+)"
_HOW_TO_DO = re.compile(rf"\s+to\s+(?!(?:the|a|an)\b)[a-z]+(?:{LIST_JOIN}[a-z]+)*\s+\S", re.I)
# "classifying documents not by topic [, but by overall sentiment]": the first half of a contrast
_NOT_WITHOUT_BUT = re.compile(r"\b(?P<noun>[a-z][\w-]*)\s+not\s+(?:by|on|in|for|with|as|from|to|at|through|via)\s+"
                              r"[\w-]+(?:\s+[\w-]+){0,3}$(?<!\bbut\b)", re.I)
_NOT_AFTER_VERB = AUXILIARIES | {"need", "needs"}
_OPEN_QUESTION = re.compile(r"\?\s*[.,;:]|\?\s+[a-z]")
_EXTRA_VERBS = re.compile(r"\b(?:rises?|drops?|falls?|grows?|emerges?|exists?|occurs?|appears?|seems?|proves?|"
                          r"becomes?|leads?|results?|stays?|increases?|decreases?|matters?|changes?)\b|"
                          r"\b[a-z]+ed\b(?=\s*$|\s+(?:by|to|in|on|with|for|from|over|the|a|an|as|at)\b)", re.I)


def plain_sentence(sentence: str) -> str:
    """The sentence as read: a textual citation becomes a name, other citations disappear."""
    text = _CITE_TEXTUAL.sub("Smith", sentence)
    text = _CITE_ANY.sub("", text)
    return " ".join(text.replace("~", " ").split())


# mass nouns that take "a" only as the modifier of a noun ("a machine learning system")
_MASS_NOUN_MODIFIERS = frozenset({"learning", "processing", "mining", "retrieval", "filtering"})
_SIZES = "large|small|growing|vast|huge|substantial|considerable|big|sizable|significant|whole|entire"
_RELATIVE_CLAUSE = re.compile(r"\b(?:which|who|whose)\b[^,;]*")


# a verb after a comma with an object and nothing else, where a name or "which" was lost ("presents
# a new program, aligns texts"); a plural noun is followed by a preposition ("categories, sets of ...")
_LOST_SUBJECT = re.compile(r",\s+(?!(?:and|or|but|as|thus|plus|its|this|his|has|was|is|does|us)\b)"
                           r"[a-z]{2,}[^s\W]s\s+(?!(?:of|for|in|on|to|with|by|from|at|as)\b)"
                           r"[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}\s*\.?$")


def _has_main_verb(text: str) -> bool:
    words = re.findall(r"[A-Za-z][A-Za-z-]*", text)
    return has_finite_verb(text) or any(w.lower() in _TEMPLATE_VERBS for w in words[1:])


def _balanced(text: str) -> bool:
    if text.count("``") != text.count("''") or text.count('"') % 2:
        return False
    if text.count("\u201c") != text.count("\u201d"):
        return False
    return all(text.count(opening) == text.count(closing) for opening, closing in ("()", "[]", "{}"))


def _dangles(last: str, before: str) -> bool:
    """Whether a sentence or phrase ending on ``last`` (after ``before``) lost what follows."""
    if last in IDIOM_NOUNS:
        return before in {"in", "with", "the", "a", "an"}
    return last in _ARTICLES_AND_LINKS or (last == "up" and before in DANGLING)  # "an improvement of up."


# two function words that cannot follow each other ("the and", "a of", "and but", "of of"); "of the",
# "and a", "or of" are how English joins phrases; "how to [X] and add", "using of" lost a word
_DOUBLED_FUNCTION_WORD = re.compile(r"\b(?:(?:the|a|an)\s+(?:and|or|but|of|the|a|an)|(?:and|or|but|of)\s+(?:and|or|but)|"
                                    r"of\s+of|using\s+of|how\s+to\s+(?:and|or|but))\b", re.I)
# "we develop a new efficient parsing for ...": an article before a verb form that ends its noun phrase
_ARTICLE_GERUND = re.compile(r"\b[Aa]n?\s+(?:[\w-]+\s+){0,2}?(?P<verb>[a-z]+ing)(?=\s*(?:[.,;:]|$)|"
                             r"\s(?:for|of|in|on|with|by|from|that|which)\b)")
# "a statistical [approach] to machine translation": an adjective whose noun a PDF abstract lost
_ARTICLE_ADJECTIVE_PREPOSITION = re.compile(r"\b[Aa]n?\s+(?P<adj>[a-z]+)\s+(?:to|of|for|with|from|by)\b")
_ADJECTIVES_AS_NOUNS = frozenset({"total", "individual", "original", "general", "whole", "top", "bottom", "number"})
_COUNT_GERUNDS = frozenset("""understanding ranking embedding mapping clustering matching setting meeting string thing
    building encoding labeling labelling reading finding ordering drawing recording listing posting heading opening
    hearing warning offering grouping pairing coupling binding sibling ring spring morning evening feeling wedding
    painting saving booking rating sampling covering partitioning bracketing spelling wording crossing beginning
    tiling filing ruling holding""".split())
_RUN_TOGETHER = re.compile(r"\b[a-z]{4,}(?:the|this|these)\b|"  # lower case: "Forsythe" is a name
                           r"\b[a-z]{2,}(?:ed|ing)(?:to|the|of|and|in|for|with|on|by)\b|"  # "suitedto"
                           r"\b(?:of|the|to|for|and|in|on|with)[A-Z]{2,}s?\b|"  # "the employment ofSA"
                           r"\bthe(?!or|rap|rm|saur|m|re|s[ie]s|at|ft|olog|irs|nce|tic|ta\b)[a-z]{3,}\b")  # "thetime"
# a word hyphenated at a line end ("res- olution"; not "pre- and post-retrieval") or a compound cut
_SPLIT_WORD = re.compile(r"\b[A-Za-z]+-\s+(?!(?:and|or|to|as well|versus|vs)\b)[a-z]+|\b(\w+)-to\s+\1\b|\bstate-of\s")
_WORDS_ENDING_THE = frozenset({"breathe", "loathe", "clothe", "soothe", "seethe", "scythe", "writhe", "sheathe",
                               "teethe", "absinthe", "unclothe", "bequeathe"})


def garbled_reason(sentence: str, verbs: frozenset[str] = frozenset()) -> str:
    """Why the sentence is not a whole, well-formed sentence ("" when it is); ``verbs`` are words
    known to be verbs here (a closing's action from the draft: "our system expands ...")."""
    if not sentence.strip():
        return "empty"
    if re.fullmatch(r"\s*See also~?\\citep?\{[^{}]*\}\.\s*", sentence):
        return ""  # a pointer to papers, complete as it is
    text = plain_sentence(sentence)
    if char := untypesettable(sentence):
        return f"a character pdfLaTeX cannot typeset ({char!r})"
    if not _balanced(sentence):
        return "unbalanced quotes or brackets"
    if "\u2026" in text or re.search(r"\s[,;:.]|[,;:]{2}", text):
        return "a word removed"
    for glued in _RUN_TOGETHER.finditer(text):  # text extracted from a PDF: "a system for identifythe relations"
        if glued.group(0).lower() not in _WORDS_ENDING_THE:
            return f"words run together ('{glued.group(0)}')"
    if broken := broken_word(text):  # "a syntax-based statistical matranslation system"
        return f"a word broken in the source ('{broken}')"
    if split := _SPLIT_WORD.search(text):  # "an algorithm for anaphora res- olution", "a tree-to tree model"
        return f"a word split apart ('{split.group(0)}')"
    if split_apart := split_word(text):  # "a syntax-driven ap proach"
        return f"a word split apart ('{split_apart}')"
    if not _has_main_verb(text) and not verbs.intersection(w.lower() for w in text.split()):
        return "no main verb"
    outside = _RELATIVE_CLAUSE.sub(" ", text)  # "a parser which is competitive in accuracy": its verb is the clause's
    if not verbs and not _has_main_verb(outside):
        return "no main verb outside a relative clause"
    words = re.findall(r"[A-Za-z0-9][A-Za-z0-9.'-]*", text.rstrip(".!?;: "))
    if not words:
        return "no words"
    last = words[-1].rstrip(".").lower()
    before = words[-2].lower() if len(words) > 1 else ""
    if len(last) == 1 and last not in {"x", "k", "n"} or _dangles(last, before):
        return f"ends on '{words[-1]}'"
    if _open_relative(text):
        return "a relative clause without its verb"
    lost = _LOST_SUBJECT.search(text)
    if lost and not re.search(r"\b(?:and|or)\b", lost.group(0)) and _has_main_verb(text[:lost.start()]):
        return "a verb after a comma without its subject"
    reason = _cut_complement(sentence, text, last, before)
    if reason:
        return reason
    if last in _IRREGULAR_PARTICIPLES or (last.endswith("ing") and (before.endswith("ly") or before in
                                                                     {"of", "for", "to", "by", "in"})):
        return f"ends on the verb '{words[-1]}' without its object"
    if re.search(r"\bboth\s+(?!of\b)\w", text, re.I) and not re.search(r"\bboth\b.*\band\b", text, re.I):
        return "'both' without its 'and'"
    if _DOUBLED_FUNCTION_WORD.search(text):
        return "doubled function word"
    if re.search(r"\b(?:the|a|an)\s+based\b", text, re.I):
        return "an article before 'based' (what it is based on was lost: 'apply a based on ...')"
    gerund = _ARTICLE_GERUND.search(text)
    if gerund and gerund.group("verb").lower() not in _COUNT_GERUNDS:
        return f"an article before the verb form '{gerund.group('verb')}'"
    for lost in _ARTICLE_ADJECTIVE_PREPOSITION.finditer(text):
        if is_adjective_like(lost.group("adj")) and lost.group("adj").lower() not in _ADJECTIVES_AS_NOUNS:
            return f"'{lost.group(0)}': an adjective without its noun"  # "a statistical [approach] to ..."
    return ""


def _clause_has_verb(rest: str) -> bool:
    return _has_main_verb("x " + rest) or bool(_EXTRA_VERBS.search(rest))


def _cut_complement(sentence: str, text: str, last: str, before: str) -> str:
    """Why the sentence lost a verb's object or complement, a noun's of-phrase or a comparison's term."""
    if _OPEN_QUESTION.search(text):
        return "a question mark inside the sentence"
    if _NO_INFINITIVE.search(text) or _ADVERB_FOR_OBJECT.search(text) or _WITHOUT_WHAT.search(text) \
            or _VERB_THEN_MANNER.search(text) or _BETWEEN_ONE.search(text):
        return "a verb without its object"
    how = _HOW_CLAUSE.search(text.rstrip(". "))
    if how and len(how.group("rest").split()) < 12 and not _clause_has_verb(how.group("rest")) \
            and not _HOW_TO_DO.match(how.group("rest")) \
            and not _BARE_VERBS.intersection(w.lower() for w in how.group("rest").split()[1:]):
        return "a how-clause without its verb"
    that = _THAT_CLAUSE.search(text.rstrip(". "))
    if that and that.group("rest").split()[:1] and that.group("rest").split()[0].lower() in _SUBORDINATORS:
        return "a that-clause without its main clause"
    if that and not _clause_has_verb(that.group("rest")):
        return "a that-clause without its verb"
    if last in _NEEDS_TERM or (before in {"a", "an"} and "-" in last):
        return f"ends on '{last}' without what it qualifies"
    if last in {"but", "nor"} or (before == "not" and last in {"just", "only", "merely"}):
        return f"ends on '{last}'"
    negated = _NOT_WITHOUT_BUT.search(text.rstrip(". "))
    if negated and negated.group("noun").lower() not in _NOT_AFTER_VERB:  # "are not in English": a predicate
        return "a 'not' cut from its 'but'"
    if list_cut_short(text):
        return "a list cut short"
    if before in _ENDING_PREPOSITIONS and is_adjective_like(last):
        return f"ends on '{before} {last}' without its noun"
    if last in _MASS_NOUN_MODIFIERS and re.search(
            rf"\b(?:a|an)\s+(?:(?!(?:for|of|in|on|to|with|by|from|and|or|the)\b)[\w-]+\s+){{0,3}}{last}\W*$", text, re.I):
        return f"ends on '{last}', a modifier without its noun"  # "an extension of a machine learning [system]"
    if last in {"need", "needs"} and before in {"there", "it", "one", "that", "which", "who", "we", "they"}:
        return f"ends on '{before} {last}' without what is needed"  # "we argue that there needs [to be ...]"
    if re.fullmatch(r"\d[\d,.]*", last) and before in COUNT_LEADS:  # "trained on roughly 50[,000 sentences]"
        return f"ends on the count '{before} {last}' without what it counts"
    if before == "of" and last == "state":  # "an evaluation of state [of the art ...]"
        return "ends on 'of state', a cut 'state of the art'"
    if last == "body" and re.search(rf"\b(?:a\s+(?:(?:{_SIZES})\s+)?|the\s+(?:{_SIZES})\s+)body\W*$", text):
        return "ends on 'body' without its of-phrase"  # "over a large body [of text]"
    if lost_of_phrase(last, before):
        return f"ends on '{before} {last}' without its of-phrase"
    cited_object = re.search(r"\}\s*\.?\s*$", sentence)  # "Other work on X includes~\\citep{a}"
    if last in _NEEDS_OBJECT and before not in {"a", "an", "the", "its", "their"} and not cited_object:
        return f"ends on the verb '{last}' without its object"
    return ""


def well_formed(sentence: str, verbs: frozenset[str] = frozenset()) -> bool:
    return not garbled_reason(sentence, verbs)


def sentences_garbled(text: str) -> list[tuple[str, str]]:
    """(sentence, reason) for every garbled sentence of a written section (comment lines skipped)."""
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("%"))
    out: list[tuple[str, str]] = []
    for start, end in split_sentences(body):
        sentence = body[start:end]
        reason = garbled_reason(sentence)
        if reason:
            out.append((sentence, reason))
    return out


def phrase_complete(phrase: str) -> bool:
    """Whether a phrase placed inside a template ends on a word it can end on."""
    words = re.findall(r"[A-Za-z0-9][A-Za-z0-9.'-]*", phrase)
    if not words:
        return True
    last = words[-1].rstrip(".").lower()
    before = words[-2].lower() if len(words) > 1 else ""
    if len(last) == 1 or _dangles(last, before) or last in _IRREGULAR_PARTICIPLES:
        return False
    if len(words) > 1 and words[0].lower().endswith("ly") and words[1].lower() in MODIFIER_STARTS:
        return False  # "specifically on Google Consumer Surveys": an adverb where the object should be
    if words[0].lower() in _BAD_PHRASE_START or re.search(r"\b(?:and|or)\s+in\s+the\b", phrase):
        return False  # "and in the users", "then applies ...": a fragment of a larger clause
    if last == "part" and before not in {"in", "most"}:
        return False  # "a rule-based part [of speech tagger]": a compound cut at its first word
    if lost_of_phrase(last, before):
        return False  # "a learning framework on the top [of ...]": said inside a sentence, not only at its end
    if last.endswith("ing") and before in {"of", "for", "to", "by", "in"}:
        return False  # "to tackle this problem by dealing": the gerund lost its object
    if last.endswith("ed") and before in {"is", "are", "was", "were", "been", "be"}:
        return False  # "the processes which were developed": a relative clause cut after its verb
    if last in _NEEDS_TERM or last in _NEEDS_OBJECT or last in {"conclude", "concludes", "find", "finds"}:
        return False  # "a framework named NCF, short", "... and conclude": cut before what completes it
    if re.search(r"\b(?:in|for|under|to) the (?:scenario|setting|context|case|domain|above)$", phrase.rstrip(". ")):
        return False  # "in the scenario": a setting the reader never saw
    if re.search(r"\bby [a-z]+ing\b", phrase, re.I) and not re.match(r"(?:by|of)\b", phrase):
        return False  # "a model by introducing a sparsity property": the adjunct belonged to the abstract's verb
    if re.search(r"\b(?:how|whether) \w+ (?:interact|behave|work|respond|perform|change|differ|vary|engage)$",
                 phrase.rstrip(". ")):
        return False  # "how participants interact": with what, the reader is not told
    if _SECOND_VERB.search(phrase):
        return False  # "a summary and discuss future work": a second verb that will not agree with the template's
    if list_cut_short(phrase):
        return False  # "a weakly-supervised, general-purpose": modifiers cut before their noun
    if "?" in phrase or re.search(r"\b(?:her|his|she|he|him)\b", phrase, re.I):
        return False  # "her past searches": a person the reader never met
    if re.search(r"\b(?:these|those|this|such|aforementioned|above|the following|"
                 r"the (?:two|three|four|other|different|various|respective) \w+)\b", phrase, re.I):
        return False  # "these baseline models", "the different tracks": refers to what the reader never saw
    return not vague(phrase) and not _open_relative(phrase)


_GENERIC_HEADS = frozenset({"framework", "approach", "method", "methods", "model", "models", "set", "information",
                            "constraint", "constraints", "strategy", "measure",
                            "process", "processes", "technique", "system", "investigation", "attempt", "solution",
                            "algorithm", "tool", "study", "analysis", "way", "problem", "issue", "task", "work",
                            "intuition", "observation", "idea", "ideas", "assumption", "principle", "results", "result",
                            "techniques", "components", "insight", "insights", "fact", "notion", "objective",
                            "factors", "aspects", "issues", "challenges", "questions", "measures", "features",
                            "findings", "survey", "review", "overview", "experiments", "performance",
                            "formalization", "formalisation", "formalism", "variant", "variants", "variation",
                            "extension", "extensions", "implementation", "generalization", "generalisation",
                            "modification", "improvement", "improvements", "problems", "subproblems", "algorithms",
                            "tools", "systems", "approaches", "frameworks", "solutions", "strategies", "dataset",
                            "datasets", "corpus", "resource", "benchmark", "details", "prototype"})


UNSPECIFIC = frozenset({"a", "an", "the", "and", "new", "novel", "first", "of", "this", "these", "such", "general",
                         "simple", "effective", "efficient", "several", "two", "three", "successful", "existing",
                         "different", "various", "key", "main", "important", "systematic", "comprehensive",
                         "empirical", "detailed", "thorough", "extensive", "preliminary", "initial", "comparative",
                         "large-scale", "four", "some", "many", "previous", "prior", "same", "alternative", "research",
                         "one", "all", "available", "generalizable", "general-purpose", "natural", "ongoing"})


def vague(phrase: str) -> bool:
    """A phrase that names only a generic head ("a new framework", "the first set of methods",
    "the information"): true of almost any paper, so it says nothing about this one."""
    words = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z-]*", phrase)]
    content = [w for w in words if w not in UNSPECIFIC]
    if len(content) == 2 and content[1] in KIND_HEADS and content[0] in _KIND_MODIFIERS:
        return True  # "evaluation methods", "a three-step methodology": a kind of thing, not what it is for
    if _RESULTS_OF_A_STUDY.match(phrase.strip()) or _PARTS_OF_WHAT.match(phrase.strip()) \
            or _SOME_OF_A_KIND.match(phrase.strip()):
        return True  # "the results of an in-depth analysis", "the lexical and aesthetic features": of what?
    return bool(words) and all(w in _GENERIC_HEADS for w in content)


# results of a study whose topic and findings are both left unsaid
_RESULTS_OF_A_STUDY = re.compile(r"(?:the\s+)?(?:(?:main|key|first)\s+)?(?:results?|findings|outcomes?|lessons|insights)\s+"
                                 r"(?:of|from)\s+(?:(?:an?|the|our|their|two|three|several)\s+)?(?:[\w-]+\s+){0,3}?"
                                 r"(?:study|studies|analysis|analyses|survey|experiments?|evaluation|investigation|"
                                 r"interviews?|trials?)$", re.I)
# a count of generic things ("a number of simple methods", "a variety of techniques"): of what, for what?
_SOME_OF_A_KIND = re.compile(r"(?:a|an)\s+(?:number|couple|handful|variety|range|series|set)\s+of\s+(?:[\w-]+\s+){0,2}?"
                             r"(?:methods|approaches|techniques|models|ways|features|strategies|experiments|ideas|"
                             r"algorithms|extensions|improvements|modifications)$", re.I)
# the parts of something never named ("the lexical and aesthetic features [of web documents]")
_PARTS_OF_WHAT = re.compile(r"the\s+(?:[\w-]+\s+(?:and\s+)?){0,3}(?:features|characteristics|properties|attributes|"
                            r"factors|dimensions|components)$", re.I)
KIND_HEADS = _GENERIC_HEADS | {"methodology", "strategy", "scheme", "mechanism", "paradigm", "architecture",
                               "pipeline", "procedure", "measure", "metric", "metrics", "optimization"}
_KIND_MODIFIERS = frozenset("""user pilot case field lab laboratory empirical comparative exploratory
    preliminary qualitative quantitative longitudinal controlled large-scale crowdsourcing crowdsourced
    evaluation prediction learning three-step two-step multi-step two-stage multi-stage unified hybrid
    statistical probabilistic neural deep generative discriminative computational automatic automated formal
    iterative generic principled flexible scalable robust supervised unsupervised theoretical mathematical
    analytical data-driven rule-based corpus-based feature-based knowledge-based learning-based graph-based
    model-based predictive""".split())


def _open_relative(text: str) -> bool:
    """A relative clause cut before its verb ("citations whose cited paper")."""
    match = _RELATIVE.search(text.rstrip(". "))
    return match is not None and not _has_main_verb("x " + match.group("rest"))
