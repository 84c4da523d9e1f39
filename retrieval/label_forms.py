"""How a theme label's terms are written: names and acronyms with their usual capitals, count
nouns in the plural, tools' names joined as the papers join them."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from relatex.analysis.claims.topic_claims import IRREGULAR_PLURALS, singular
from relatex.retrieval.communities import STOPWORDS

LANGUAGES = frozenset("""english chinese arabic german french spanish japanese hindi korean russian czech
    dutch italian portuguese turkish swedish hebrew persian urdu bulgarian finnish greek""".split())
# names and proper adjectives that keep their capital wherever they stand ("Wikipedia", "Markov")
PROPER_WORDS = LANGUAGES | frozenset("""bayesian gaussian hessian laplacian euclidean markovian hamiltonian
    lagrangian jacobian boolean markov poisson dirichlet bernoulli zipf monte carlo wikipedia twitter facebook
    google amazon reddit european african american siamese india china japan korea africa europe america
    germany france spain italy brazil canada australia penn berkeley stanford edinburgh cambridge oxford
    europarl hansards viterbi kneser ney turing levenshtein jaccard pearson spearman kendall krippendorff
    dijkstra hilbert wasserstein kullback leibler shannon hawkes gibbs bayes kalman fourier""".split())

# names whose capitals a title in title case hides ("Sighan Bakeoff", "Conll-X"), spelt as usual
KNOWN_SPELLINGS = {w.lower(): w for w in """SIGHAN CoNLL SemEval SENSEVAL TREC MUC WMT IWSLT NIST BLEU ROUGE
    METEOR NTCIR DUC WordNet FrameNet PropBank NomBank VerbNet OntoNotes TimeBank HowNet BabelNet DBpedia
    Freebase YAGO ConceptNet""".split()}

_TAGGED = re.compile(r"(?:(?<=[\s\[])|^)[^\s\[\]/]+/[A-Z$][A-Z$0-9]{1,4}(?:/[A-Z$][A-Z$0-9]{1,4})*"
                     r"(?=[\s\]]|$)")


def untagged(text: str) -> str:
    """The text without its words that carry a part-of-speech tag ("was/BEDZ", "company/NN"),
    where it holds a tagged example (three tagged words or more): an example is not the paper's
    own words, and its tags are no terms."""
    return _TAGGED.sub("", text) if len(_TAGGED.findall(text)) >= 3 else text


def inside_sentence(text: str, start: int) -> bool:
    """Whether the word at ``start`` stands inside a sentence (not first in the text or after . ! ? :),
    where a capital is the word's own."""
    return not re.search(r"(?:^|[.!?:]\s*)$", text[max(0, start - 3):start])


_TITLE_CASE_COMPOUND = re.compile(r"[A-Z][a-z]+(?:-(?:[A-Z][a-z]+|[a-z]{1,3}))+")


def usual_spellings(texts: Sequence[str]) -> dict[str, str]:
    """Lower-case word -> its usual spelling when that has inner or all capitals (BM25, LexRank), or
    when the word is capitalised wherever it stands inside a sentence, at least twice (Chinese,
    Markov, Arabic-English): a name or a proper adjective. A compound in title case
    ("Part-of-Speech", copied from a title) has no inner capitals of its own."""
    forms: dict[str, Counter[str]] = {}
    inside: dict[str, Counter[bool]] = {}  # inside a sentence: capitalised or not
    for text in texts:
        for match in re.finditer(r"[A-Za-z][A-Za-z0-9\-]+", text):
            word, low = match.group(0), match.group(0).lower()
            forms.setdefault(low, Counter())[word] += 1
            if inside_sentence(text, match.start()):
                inside.setdefault(low, Counter())[word[0].isupper()] += 1
    out: dict[str, str] = {}
    for low, counter in forms.items():
        form, count = counter.most_common(1)[0]
        inner = any(c.isupper() for c in form[1:]) and not _TITLE_CASE_COMPOUND.fullmatch(form)
        if count * 2 >= sum(counter.values()) and inner:
            out[low] = form
        elif form[0].isupper() and inside.get(low, Counter())[True] >= 2 and not inside[low][False]:
            out[low] = form
    return out


NAME_SPELLINGS = {w: w.capitalize() for w in PROPER_WORDS} | KNOWN_SPELLINGS  # "Chinese", "SIGHAN"
# a word in title case, hyphenated parts included ("N-Gram", "Large-Scale", "Part-of-Speech")
_TITLE_CASED = re.compile(r"[A-Z][a-z]*(?:-(?:[A-Z][a-z]*|[a-z]{1,3}|[0-9]+))*")


def title_spellings(titles: Sequence[str]) -> dict[str, str]:
    """Lower-case word -> its spelling in the titles where that has capitals title case does not
    explain: an acronym or a name with inner capitals ("LIUM", "SMT", "ILLC-UvA"), from titles not
    set wholly in capitals. A paper without an abstract has only its title to show them."""
    forms: dict[str, Counter[str]] = {}
    for title in titles:
        words = re.findall(r"[A-Za-z][A-Za-z0-9\-]*", title)
        if len(words) > 3 and sum(len(w) > 1 and w.isupper() for w in words) * 2 > len(words):
            continue  # "A STOCHASTIC PARTS PROGRAM": no word's capitals are its own
        for word in words:
            if any(c.isupper() for c in word[1:]) and not _TITLE_CASED.fullmatch(word):
                forms.setdefault(word.lower(), Counter())[word] += 1
    return {low: counter.most_common(1)[0][0] for low, counter in forms.items()}


def label_spellings(titles: Sequence[str], abstracts: Sequence[str]) -> dict[str, str]:
    """Lower-case word -> its spelling in a label: known names, then the titles' acronyms, then
    the abstracts' usual spellings (:func:`usual_spellings`), each over the one before."""
    return {**NAME_SPELLINGS, **title_spellings(titles), **usual_spellings(abstracts)}


def _is_name(word: str) -> bool:
    """A word whose capitals are its own wherever it stands: a known name, an acronym, inner capitals."""
    return word.lower() in NAME_SPELLINGS or any(c.isupper() for c in word[1:]) or not word.isalpha()


def consistent_capitals(term: str, abstracts: Sequence[str]) -> str:
    """A term whose capitals stop part-way ("Support Vector machines": two words capitalised as one
    abstract writes them, the head not) as the abstracts write the whole phrase inside a sentence,
    its words other than names taking that phrase's capitals; the term as it is where they never do."""
    words = term.split()
    common = [w for w in words if not _is_name(w)]
    if not any(w[0].isupper() for w in common) or not any(w.islower() for w in common):
        return term
    head = re.escape(singular(words[-1].lower()))
    phrase = r"\s+".join([*(re.escape(w) for w in words[:-1]), rf"{head}(?:e?s)?"])
    found = Counter(tuple(m.group(0).split()) for text in abstracts
                    for m in re.finditer(rf"(?<![\w\-]){phrase}(?![\w\-])", text, re.I)
                    if inside_sentence(text, m.start()))
    if not found:
        return term
    shown = found.most_common(1)[0][0]
    return " ".join(w if _is_name(w) else (w.capitalize() if s[0].isupper() else w.lower())
                    for w, s in zip(words, shown, strict=True))


_MASS_ENDINGS = ("tion", "sion", "ment", "ness", "ing", "ics", "ism", "ance", "ence", "al", "cy", "ogy",
                 "ure", "age", "ledge", "ware", "back", "work", "ch", "ata", "s")


_COUNT_HEADS = frozenset({"model", "network", "framework", "system", "method", "algorithm", "approach", "architecture",
                          "classifier", "parser", "tagger", "recommender", "metric", "measure", "estimator", "ranker"})
# count nouns that a name before them makes one thing ("the Penn Treebank", "the SIGHAN bakeoff", "the
# Brown corpus"); without a name, a kind ("parallel corpora", "treebanks")
ONE_OF_A_KIND_HEADS = frozenset({"treebank", "bakeoff", "corpus", "challenge", "competition", "campaign", "score"})
# count nouns that a longer term names as a kind ("work on knowledge graphs", "on parse trees"); alone,
# "graph" may be the modifier its papers write ("graph-based"), and stays as they write it
_KIND_IN_A_PHRASE = frozenset({"graph", "tree", "template"})
_KINDS = _COUNT_HEADS | ONE_OF_A_KIND_HEADS  # in the plural wherever no name makes them one thing
# count nouns among the irregular plurals ("analysis" and "index" are read as mass nouns in a label)
_IRREGULAR_COUNT = frozenset({"corpus", "criterion", "phenomenon", "matrix"})
# units of language as the head of a longer term: "work on compound nouns", never "on compound noun"
_UNIT_HEADS = frozenset({"noun", "verb", "adjective", "adverb", "phrase", "clause", "collocation"})


def count_noun_plural(term: str, texts: Sequence[str]) -> str:
    """A term whose head is a count noun, in the plural, when the papers use it so (the phrase in the
    plural, or after "a"/"each"): "work on graph" and "approaches to related entity" are not English,
    "graphs" and "related entities" are; a unit of language the papers write before "phrase" is
    named as that longer term ("base noun phrases"); a name's one thing stays singular ("Penn
    Treebank": :func:`names_one_thing`); other terms as they are."""
    words = term.split()
    head = words[-1] if words else ""
    if names_one_thing(term):
        return term
    counts = head in _KINDS or head in _IRREGULAR_COUNT  # "network" ends as "work", "corpus" as "s"
    mass = head.endswith(_MASS_ENDINGS) and not counts
    if not head.isalpha() or not head.islower() or mass:
        return term
    regular = head + ("es" if head.endswith(("x", "sh", "ch")) else "s")
    irregular = IRREGULAR_PLURALS[head] if head in _IRREGULAR_COUNT else ""
    many = irregular or (head[:-1] + "ies" if re.search(r"[^aeiou]y$", head) else regular)
    plural = " ".join([*words[:-1], many])
    unit = head in _UNIT_HEADS and len(words) > 1
    if unit and any(re.search(rf"\b{re.escape(term)}\s+phrases?\b", text, re.I) for text in texts):
        return f"{term} phrases"  # "base noun" of "base noun phrase": a piece of the longer term, named whole
    if head in _KINDS or unit or (head in _KIND_IN_A_PHRASE and len(words) > 1):
        return plural  # "work on matching models", "work on parsers": a kind of artefact, never a mass
    after = r"(?=\s*[.,;:)]|\s+(?:of|in|on|with|for|to|from|that|which|is|was|has|and|or|by)\b)"  # not a modifier
    pattern = re.compile(rf"\b{re.escape(plural)}\b|\b(?:a|an|each|every)\s+{re.escape(term)}{after}", re.I)
    return plural if any(pattern.search(text) for text in texts) else term


def names_one_thing(term: str) -> bool:
    """Whether a term is one named thing that takes "the" in a sentence: a singular head of
    :data:`ONE_OF_A_KIND_HEADS` after a capitalised word ("Penn Treebank", "SIGHAN bakeoff",
    "Chinese word segmentation bakeoff")."""
    words = term.split()
    return len(words) > 1 and words[-1].lower() in ONE_OF_A_KIND_HEADS and words[0][:1].isupper()


def as_written(term: str, texts: Sequence[str]) -> str:
    """A two-word term as the texts write it when they join its words by an underscore and never
    by a space ("pytrec eval" -> "pytrec_eval", a tool's name)."""
    words = term.split()
    if len(words) != 2:
        return term
    joined = [m.group(0) for t in texts for m in re.finditer(re.escape("_".join(words)), t, re.I)]
    spaced = any(re.search(rf"\b{re.escape(term)}\b", t, re.I) for t in texts)
    return Counter(joined).most_common(1)[0][0] if joined and not spaced else term


def _adjacent_words(pattern: str, texts: Sequence[str]) -> tuple[list[str], int]:
    """The word ``pattern``'s group 1 finds beside a term at each of its matches in ``texts`` ("" where
    there is none; a match inside a longer word does not count), and how many texts match."""
    words: list[str] = []
    using = 0
    for text in texts:
        found = len(words)
        for match in re.finditer(pattern, text, re.I):
            start = match.start(0)
            if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "-_"):
                continue  # inside a longer word
            words.append(match.group(1) or "")
        using += len(words) > found
    return words, using


def whole_phrase(term: str, texts: Sequence[str], names_a_theme: Callable[[str], bool]) -> str:
    """A term that the texts never write alone, with the word that always comes before it ("street
    journal" -> "Wall Street Journal", "phrase coreference resolution" -> "noun phrase coreference
    resolution"): used by two texts at least, each time after the same word, that no stopword, and
    the longer phrase still names a theme (``names_a_theme``: never "improve retrieval"); else the term."""
    words = term.split()
    if not words or len(words) > 3:
        return term
    before, using = _adjacent_words(rf"(?:([A-Za-z][\w\-]*)\s+)?{re.escape(term)}\b", texts)
    if using < 2:
        return term  # one paper's own phrase ("hierarchical translation-based ..."): no theme's
    firsts = Counter(word.lower() for word in before)
    word, count = firsts.most_common(1)[0]
    if count < len(before) or not word or word in STOPWORDS or len(word) < 3 or not word.isalpha() or \
            not names_a_theme(f"{word} {term.lower()}"):
        return term
    shown = Counter(w for w in before if w.lower() == word).most_common(1)[0][0]
    if term[:1].islower() and shown[1:].islower():
        shown = shown.lower()  # "noun phrase ..." as the term is; "Wall Street Journal" keeps its capitals
    return f"{shown} {term}"


def hyphen_joined(term: str, texts: Sequence[str]) -> str:
    """A term that its texts write only joined by a hyphen to the same word before it, twice at
    least, with that word ("generated lists" -> "user-generated lists"); else the term."""
    low = term.lower()
    if not any(f"-{low}" in text.lower() for text in texts):
        return term  # no use after a hyphen: the scan below would find none
    pattern = rf"(?<![\w\-])(?:([A-Za-z]+)-)?{re.escape(term)}(?![\w\-])"
    before = [m.group(1) for text in texts for m in re.finditer(pattern, text, re.I)]
    if len(before) < 2 or not all(before):
        return term
    word, count = Counter(w.lower() for w in before).most_common(1)[0]
    return f"{word}-{term}" if count == len(before) else term


def _followers(term: str, texts: Sequence[str]) -> tuple[list[str], int]:
    """The word after each use of ``term`` in ``texts`` ("" where none follows), and how many texts use it."""
    return _adjacent_words(rf"(?<![\w\-]){re.escape(term)}(?:\s+([A-Za-z][\w\-]*))?", texts)


def followed_phrase(term: str, texts: Sequence[str], names_a_theme: Callable[[str], bool]) -> str:
    """A term that the texts never end a phrase on, with the word that always comes after it
    ("statistical machine" -> "statistical machine translation", "base noun" -> "base noun phrases"):
    used by two texts at least, each time before the same word, that no stopword, and the longer
    phrase still names a theme; else the term."""
    if not term.split() or len(term.split()) > 3:
        return term
    after, using = _followers(term, texts)
    if using < 2:
        return term
    word, count = Counter(singular(w.lower()) for w in after).most_common(1)[0]
    if count < len(after) or not word or word in STOPWORDS or len(word) < 3 \
            or not names_a_theme(f"{term} {word}"):
        return term
    return f"{term} {Counter(w for w in after if singular(w.lower()) == word).most_common(1)[0][0]}"


def ends_no_phrase(term: str, texts: Sequence[str]) -> bool:
    """Whether a term of two words or more is only ever a modifier in ``texts``: three uses at least,
    in two texts, each followed by a word of content, and not always the same one ("predicate
    argument" of "predicate argument recognition" and "predicate argument structures"): a label
    would stop before its head. A term some text ends a phrase on ("machine translation.") is none,
    nor one ending on an activity ("neural ranking models": neural ranking is a field)."""
    if len(term.split()) < 2 or term.endswith("ing"):
        return False  # "neural ranking [models]": an activity names a field alone
    after, using = _followers(term, texts)
    heads = {singular(w.lower()) for w in after}
    return using >= 2 and len(after) >= 3 and len(heads) >= 2 and \
        all(w and w.lower() not in STOPWORDS and not w.lower().endswith("ly") for w in after)


def written_alone(term: str, texts: Sequence[str]) -> bool:
    """Whether some text writes ``term`` as words of their own, not only inside a longer token
    joined by dots ("BiBr.EF.1": a row name of a table in an abstract taken from a PDF)."""
    words = [re.escape(w) for w in re.split(r"[\s\-]+", term) if w]
    pattern = re.compile(r"(?<!\w)(?<!\w\.)" + r"[\s\-]+".join(words) + r"(?!\w|\.\w)", re.I)
    return not words or any(pattern.search(text) for text in texts)


# words saying how well, never part of a theme's name ("effective neural CLIR" is work on neural CLIR)
_HOW_WELL = frozenset({"effective", "efficient", "accurate", "better", "improved", "fast", "faster", "good"})


def label_term_form(term: str, texts: Sequence[str], abstracts: Sequence[str]) -> str:
    """A label term as it is written: a tool's name joined as the papers join it, a count noun in
    the plural, capitals consistent over the phrase, no word before it that says how well."""
    words = term.split()
    if len(words) > 2 and words[0].lower() in _HOW_WELL:
        term = " ".join(words[1:])
    return consistent_capitals(count_noun_plural(as_written(term, texts), texts), abstracts)
