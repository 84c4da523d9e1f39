"""Readable theme labels from c-TF-IDF terms (:mod:`relatex.retrieval.communities` ranks them).

c-TF-IDF ranks the candidates (bigrams with a small prior); :func:`label_terms` then keeps what can
name a theme: no adjectives ("scientific", "approximate"), generic nouns ("text", "elements") or verb
forms; terms shared by at least two of the theme's papers; and a word is shown as the noun phrase of
the titles that holds it ("retrieval" -> "dense passage retrieval"), acronyms as usual ("BM25").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from relatex.retrieval.abstract_text import without_debris
from relatex.retrieval.communities import STOPWORDS, class_tfidf, terms_of
from relatex.retrieval.label_forms import (
    LANGUAGES,
    ends_no_phrase,
    followed_phrase,
    hyphen_joined,
    label_spellings,
    label_term_form,
    untagged,
    whole_phrase,
    written_alone,
)
from relatex.retrieval.records import PaperRecord
from relatex.retrieval.word_classes import is_adjective_like

# Words that make poor theme labels on their own: generic nouns, verbs and common adjectives. They may
# still appear inside a label phrase ("scientific literature", "dense retrieval").
GENERIC_LABEL_WORDS = frozenset(
    """text texts data model models system systems approach information elements element performance
    framework frameworks way ways terms term time use application applications experiments experiment
    baseline baselines state art order case cases example examples field level levels type types number
    quality research analysis learning language representation representations technique techniques
    tool tools setting settings measure measures allows finds found sentence sentences document documents
    word words article articles paragraph paragraphs evaluation evaluations algorithm algorithms method
    methods results problem problems find show use make give take provide obtain achieve improve yield
    lead allow user users source sources content creation failure failures item items dataset datasets
    corpus corpora query queries process processes input inputs output outputs feature features context
    contexts structure structures people person group groups value values effect effects factor factors
    scheme schemes service services role roles project projects pair pairs future capture block blocks
    movement movements break accuracy effectiveness efficiency conference collection collections
    constraint constraints identification comparison knowledge activities activity position web online
    benchmark benchmarks concept concepts solve solves estimate estimates predict predicts detect detects
    compute computes generate generates evaluate evaluates compare compares identify identifies explore
    explores understand support supports enable enables combine combines product products discuss discusses
    describe describes propose proposes introduce introduces investigate investigates examine examines
    demonstrate demonstrates suggest suggests argue argues apply applies extend extends consider considers
    employ employs utilize utilizes utilise utilises exploit exploits incorporate incorporates outperform
    outperforms reduce reduces increase increases perform performs present presents require requires include
    includes involve involves contain contains correct corrects provides develop develops translate translates
    build builds create creates ranks searches""".split()
)
# nouns that say nothing as a whole label ("topics and search engines") but name fine phrases ("topic models")
_VAGUE_ALONE = frozenset("""topic topics issue issues aspect aspects area areas task tasks challenge
    challenges question questions parameter parameters feature features factor factors property properties
    relationship relationships network networks number numbers stage stages customers consumers participants
    people individuals humans part parts interest interests noun nouns sequence sequences dependency rank
    part-of-speech out-of-vocabulary sequence-to-sequence program programs tree test tests maximum minimum
    terascale predicate-argument trees tag tags patterns frequencies parses standard resolution combination
    precision recall alignments grammars rules parsers constituent section sections page pages figure figures""".split())
# words that name a theme only inside a longer phrase of the titles ("mobile notifications", "item lists")
_ONLY_WIDENED = frozenset({"mobile", "mouse", "lists"})
# "large amounts", "negative impacts", "subdocument level": how much or where, not what; "dynamic user": a
# modifier ("dynamic user interests") without its noun
_VAGUE_HEADS = frozenset({"amount", "amounts", "impact", "impacts", "level", "levels", "user"})
_QUANTITY_MODIFIERS = frozenset({"additional", "various", "several", "different", "many", "multiple", "other", "further",
                                 "existing", "previous", "novel", "certain", "particular", "specific", "same",
                                 "high", "better", "improved", "single", "limited", "relevant"})
# "high precision": how good, not what; "limited knowledge", "relevant documents": how much or which, not what
# words that need a complement ("attention and due"), verbs, adverbs, tags, units of time ("seconds looking")
# and a participle without its agent ("[user] generated lists") never name a theme
_NEVER_LABEL = frozenset("""due prior according regardless irrespective devoid versus vs train trains said
    achieves improves obtains yields outperforms shows rather instead hence quite still even whereas whether
    neither therefore usually typically generally mostly merely nearly perhaps somewhat vbd vbz vbn vbg vbp
    nnp nns nnps jjr jjs wdt seconds minutes hours generated""".split())
# languages and names that modify a noun ("Chinese word segmentation", "Markov models") but name nothing alone
_NAMES_AS_MODIFIERS = LANGUAGES | frozenset("""markov bayesian gaussian dirichlet poisson bernoulli zipf monte
    carlo hessian laplacian euclidean markovian""".split())


_ADVERB = re.compile(r"(?:ally|ately|ently|antly|ively|ously|ingly|edly|fully|ably|ibly|ely|tly|ghly)$")
_GERUND_NOUNS = frozenset({"learning", "ranking", "reranking", "re-ranking", "parsing", "clustering", "training",
                           "embedding", "indexing", "tagging", "matching", "reasoning", "modeling", "modelling",
                           "understanding", "answering", "processing", "mining", "computing", "programming"})


def label_term_ok(term: str) -> bool:
    """A term fit to name a theme: a noun or a phrase ending on a noun, not a generic word."""
    words = term.split()
    if any(w in STOPWORDS or w in _NEVER_LABEL for w in words):
        return False
    if any(a == b for a, b in zip(words, words[1:], strict=False)):
        return False  # "protest protest"
    if words and set(words[-1].split("-")) <= _NAMES_AS_MODIFIERS:
        return False  # "english", "hidden markov", "parallel english-chinese": a modifier without its noun
    if all(w in GENERIC_LABEL_WORDS or w in LANGUAGES for w in words):
        return False  # "english text", "english language"
    if len(words) == 1:
        verb_form = words[0].endswith("ing") and words[0] not in _GERUND_NOUNS
        vague = words[0] in GENERIC_LABEL_WORDS | _VAGUE_ALONE | _VAGUE_HEADS
        return not (vague or is_adjective_like(words[0]) or verb_form)
    if (words[0].endswith("ing") and words[0] not in _GERUND_NOUNS) or _ADVERB.search(words[0]):
        return False  # "producing summaries", "verifying claims", "closely related problems": no name
    head = words[-1]
    if is_adjective_like(head) or head in _VAGUE_HEADS:
        return False
    if words[0] in _QUANTITY_MODIFIERS and len(words) == 2:
        return False  # "additional features", "several factors": how many, not what
    if "-".join(words) in _VAGUE_ALONE:
        return False  # "predicate argument": "predicate-argument" written apart, a modifier without its noun
    return not all(w in GENERIC_LABEL_WORDS for w in words)


def _extended_term_ok(phrase: str) -> bool:
    """A term with the word its texts always put before it still names a theme, and that word is no
    verb or generic word ("noun phrase coreference resolution", never "improve retrieval")."""
    return label_term_ok(phrase) and phrase.split()[0] not in GENERIC_LABEL_WORDS


def is_a_name(label: str) -> bool:
    """Two words or more, each written capitalised inside the papers' sentences: a proper name."""
    words = label.split()
    return len(words) >= 2 and all(re.fullmatch(r"[A-Z][a-z]+(?:-[A-Za-z][a-z]*)*", w) for w in words)


def _whole(term: str, texts: Sequence[str], spellings: Mapping[str, str]) -> str | None:
    """The term with the word its texts always put before it (:func:`whole_phrase`), that word
    spelled as the papers spell it ("Chinese word segmentation"); None when both it and the term's
    first word are capitalised inside sentences: the term is then a piece of a name ("Natural
    Language" of "Computational Natural Language Learning", a venue), or a modifier whose head
    the texts vary (:func:`ends_no_phrase`); a term its texts only write after a word and a hyphen,
    with that word (:func:`hyphen_joined`)."""
    joined = hyphen_joined(term, texts)
    if joined != term:
        return joined  # "generated lists" of "user-generated lists"
    whole = whole_phrase(term, texts, _extended_term_ok)
    if whole == term:
        followed = followed_phrase(term, texts, label_term_ok)
        return None if followed == term and ends_no_phrase(term, texts) else followed  # no head: no term
    first, rest = whole.split()[0], whole.split()[1:]
    shown = spellings.get(first.lower(), first)
    if shown[:1].isupper() and spellings.get(rest[0].lower(), rest[0])[:1].isupper():
        return None
    return " ".join([shown, *rest])


def _norm(word: str) -> str:
    """Spelling- and number-insensitive form for matching (summarisation ~ summarization, graphs ~ graph)."""
    word = word.lower().replace("isation", "ization").replace("ising", "izing").replace("our", "or")
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def title_phrases(title: str, max_words: int = 3) -> list[str]:
    """Noun-phrase candidates of a title: runs of up to ``max_words`` content words, ending on a noun."""
    out: list[str] = []
    for chunk in re.split(r"[:;,.!?()\u2013\u2014\"]|\s-\s", title):
        words = [w.strip("-'") for w in chunk.split()]
        run: list[str] = []
        runs: list[list[str]] = []
        for word in words:
            if not word or word.lower() in STOPWORDS or len(word) < 2:
                if run:
                    runs.append(run)
                run = []
            else:
                run.append(word)
        if run:
            runs.append(run)
        for run in runs:  # an English noun phrase ends on its head: only suffixes of a run
            for n in range(min(max_words, len(run)), 1, -1):
                phrase = run[len(run) - n:]
                if n < len(run) and _cuts_compound(run[len(run) - n - 1], phrase[0], phrase[1]):
                    continue
                if label_term_ok(" ".join(w.lower() for w in phrase)):
                    out.append(" ".join(phrase))
    return out


def _cuts_compound(dropped: str, first: str, second: str) -> bool:
    """Whether a title phrase starting at ``first`` cuts a compound that the word before it opens
    ("network statistical parser" of "neural network ...", "scale information retrieval")."""
    compound = is_adjective_like(f"{dropped}-{first}")  # "large scale": "large-scale"
    return not is_adjective_like(first) and (is_adjective_like(second) or compound)


def _surface(phrase: str) -> str:
    """Lower-case, except acronyms and names with inner capitals (BERT, LexRank, GPUs)."""
    return " ".join(w if any(c.isupper() for part in w.split("-") for c in part[1:]) else w.lower()
                    for w in phrase.split())


MIN_RELATIVE_WEIGHT = 0.4  # label terms after the first weigh at least this share of the best one
BIGRAM_PRIOR = 1.5  # bigrams are rarer than their words: a readability prior on their c-TF-IDF weight


def label_terms(
    weighted: Sequence[tuple[str, float]],
    titles: Sequence[str],
    papers_terms: Sequence[set[str]],
    n: int = 3,
    surface: Mapping[str, str] | None = None,
) -> tuple[str, ...]:
    """Readable label terms for one class, ranked by c-TF-IDF (bigrams weighted by :data:`BIGRAM_PRIOR`).

    Terms that cannot name a theme (adjectives, generic words) are skipped; a term shared by
    fewer than two of the class's papers is skipped when enough shared ones exist; a unigram is
    shown as the title noun phrase containing it (``retrieval`` -> ``information retrieval``)
    when that phrase occurs in two titles or all its words are strong terms of the class.
    ``surface`` maps lower-case words to their usual spelling (``bm25`` -> ``BM25``).
    """
    norm_weight: dict[str, float] = {}
    for term, weight in weighted:
        key = " ".join(_norm(w) for w in term.split())
        norm_weight[key] = max(norm_weight.get(key, 0.0), weight)
    phrases = _title_phrase_counts(titles)
    said_in_titles = " ".join(titles).lower()
    normalised = [{" ".join(_norm(w) for w in t.split()) for t in terms} for terms in papers_terms]

    def df(term: str) -> int:
        key = " ".join(_norm(w) for w in term.split())
        return sum(1 for terms in normalised if key in terms)

    shared_by = 2 if len(papers_terms) > 2 else 1  # in a pair, one paper's words may name the theme
    candidates, every_candidate = _label_candidates(weighted, df, shared_by, n)
    chosen: list[str] = []
    used: set[str] = set()
    top = candidates[0][1] if candidates else 0.0
    for term, weight in candidates:
        if chosen and weight < MIN_RELATIVE_WEIGHT * top:
            break  # a weak term blurs the label more than it helps
        words = [_norm(w) for w in term.split()]
        if {_stem(w) for w in words} & used:
            continue
        label = term
        if len(words) <= 2:
            context = _LabelContext(phrases, norm_weight, every_candidate, used, df, shared_by)
            label = _widened(term, words, weight, context) or term
            if label in _ONLY_WIDENED:
                continue  # "push notification systems and mobile"
        label = " ".join((surface or {}).get(w.lower(), w) for w in label.split())
        if is_a_name(label) or (re.fullmatch(r"[A-Z][a-z]+|[A-Z][A-Z0-9]{2,}", label)
                                and label.lower() not in said_in_titles):
            continue  # "Wall Street Journal", "Canadian Hansards", "BEDZ": a corpus, venue, tag no title says
        chosen.append(label)
        used |= {_stem(_norm(w)) for w in label.lower().split()}
        if len(chosen) == n:
            break
    return tuple(chosen)


def _title_phrase_counts(titles: Sequence[str]) -> dict[str, tuple[str, int]]:
    """Normalised title noun phrase -> (its surface form, number of titles containing it)."""
    phrases: dict[str, tuple[str, int]] = {}
    for title in titles:
        for phrase in dict.fromkeys(title_phrases(title)):
            key = " ".join(_norm(w) for w in phrase.lower().split())
            shown, count = phrases.get(key, (phrase, 0))
            phrases[key] = (shown, count + 1)
    return phrases


def _label_candidates(weighted: Sequence[tuple[str, float]], df: Callable[[str], int], shared_by: int,
                      n: int) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """(the candidates to try, strongest first: shared ones when enough; every candidate)."""
    candidates = [(t, w * (BIGRAM_PRIOR if " " in t else 1.0)) for t, w in weighted if label_term_ok(t)]
    candidates.sort(key=lambda tw: (-tw[1], tw[0]))
    every_candidate = list(candidates)
    if shared_by > 1:
        shared = [(t, w) for t, w in candidates if df(t) >= shared_by]
        if len(shared) >= n:
            candidates = shared
    candidates.sort(key=lambda tw: (-tw[1], tw[0]))
    return candidates, every_candidate


@dataclass(frozen=True)
class _LabelContext:
    """What :func:`_widened` needs of the class being labelled."""

    phrases: Mapping[str, tuple[str, int]]
    norm_weight: Mapping[str, float]
    every_candidate: Sequence[tuple[str, float]]
    used: set[str]
    df: Callable[[str], int]
    shared_by: int


def _widened(term: str, words: list[str], weight: float, ctx: _LabelContext) -> str | None:
    """The title noun phrase (or, for a unigram, the bigram of the class) that shows ``term``; None: none fits."""
    best: tuple[float, str] | None = None
    for key, (shown, count) in ctx.phrases.items():
        pwords = key.split()
        others = [w for w in pwords if w not in words]
        if len(pwords) <= len(words) or not _contains(pwords, words) or {_stem(w) for w in pwords} & ctx.used:
            continue
        strong = all(ctx.norm_weight.get(w, 0.0) >= 0.3 * weight and w not in GENERIC_LABEL_WORDS
                     and ctx.df(w) >= ctx.shared_by for w in others)
        if count < 2 and not strong:
            continue
        score = count + sum(ctx.norm_weight.get(w, 0.0) for w in others) / (weight or 1.0)
        if best is None or score > best[0]:
            best = (score, _surface(shown))
    if best is None and len(words) == 1:  # else a bigram of the class containing the word, if nearly as strong
        bigger = [t for t, w in ctx.every_candidate if " " in t and term in t.split() and w >= 0.5 * weight
                  and not ({_stem(_norm(x)) for x in t.split()} & ctx.used)
                  and all(ctx.df(x) >= ctx.shared_by for x in t.split())]
        if bigger:
            best = (0.0, bigger[0])
    return best[1] if best is not None else None


def _stem(word: str) -> str:
    """A crude stem for de-duplication: summarization ~ summaries ~ summary."""
    return word[:6] if len(word) > 6 else word


def _contains(words: Sequence[str], part: Sequence[str]) -> bool:
    return any(list(words[i:i + len(part)]) == list(part) for i in range(len(words) - len(part) + 1))


def as_modifier_of(term: str, texts: Sequence[str]) -> str | None:
    """For a hyphenated word led by an adjective ("related-work", "real-world") that the papers nearly
    always write before a noun, the phrase with the noun they use most ("related-work sections"), or
    "" when no noun recurs: a modifier names no theme alone. Any other hyphenated word ("shift-reduce")
    is read so when the papers write a noun after it each time, three times at least. None: the word
    is no such modifier."""
    if " " in term or "-" not in term:
        return None
    led = is_adjective_like(term.split("-", 1)[0])
    uses = [m.group(1) for text in texts
            for m in re.finditer(rf"\b{re.escape(term)}\b(?:\s+([a-z][a-z-]*))?", text.lower())]
    nouns = [w for w in uses if w and w not in STOPWORDS and not w.endswith("ly")]
    if len(uses) < (2 if led else 3) or len(nouns) < (0.75 if led else 1.0) * len(uses):
        return None
    by_norm = Counter(_norm(w) for w in nouns)
    head, count = by_norm.most_common(1)[0]
    if count < 2:
        return ""
    forms = Counter(w for w in nouns if _norm(w) == head)
    shown = max(forms, key=lambda w: (forms[w], w.endswith("s")))  # "sections" over "section" on a tie
    return f"{term} {shown}"


def _without_modifiers(weighted: Sequence[tuple[str, float]], texts: Sequence[str]) -> list[tuple[str, float]]:
    """The class's weighted terms, modifiers with their usual noun; none only inside a token ("BiBr.EF.1")."""
    out: list[tuple[str, float]] = []
    for term, weight in weighted:
        phrase = as_modifier_of(term, texts) if written_alone(term, texts) else ""
        if phrase is None:
            out.append((term, weight))
        elif phrase:
            out.append((phrase, weight))
    return out


def label_communities(
    communities: Sequence[Sequence[str]],
    records: Mapping[str, PaperRecord],
    n_terms: int = 3,
) -> list[tuple[str, tuple[str, ...]]]:
    """A (label, terms) pair per community from its most distinctive c-TF-IDF terms, shown as
    the noun phrases of its titles where possible; never a term made only of authors' names
    ("hermann ney": abstracts taken from PDFs may begin with their authors)."""
    readable = {i: without_debris(records[i]) for members in communities for i in members if i in records}
    texts = {c: [untagged(readable[i].embedding_text()) for i in members if i in readable]  # no table's words
             for c, members in enumerate(communities)}
    names = {w.lower() for r in records.values() for a in r.authors for w in re.findall(r"[^\W\d_]{2,}", a)}
    weights = {c: [(t, w) for t, w in terms if not set(t.split()) <= names]
               for c, terms in class_tfidf(texts).items()}
    out: list[tuple[str, tuple[str, ...]]] = []
    for c, members in enumerate(communities):
        titles = [records[i].title for i in members if i in records]
        papers_terms = [set(terms_of(text)) for text in texts[c]]
        abstracts = [readable[i].abstract or "" for i in members if i in readable]
        spellings = label_spellings(titles, abstracts)
        weighted = _without_modifiers(weights.get(c, []), texts[c])
        chosen = label_terms(weighted, titles, papers_terms, n_terms, spellings)
        wholes = [w for t in chosen if (w := _whole(t, texts[c], spellings))] or list(chosen)  # no name piece
        terms = tuple(label_term_form(t, texts[c], abstracts) for t in wholes)
        label = ", ".join(terms) if terms else f"theme {c + 1}"
        out.append((label, terms))
    return out
