"""Titles read as noun phrases: a paper's title as the topic of a sentence ("dense passage
retrieval for open-domain question answering"), the draft's title as the study a closing
sentence relates a theme to ("the role of word-eye-fixations for query term prediction")."""

from __future__ import annotations

import re
from functools import lru_cache

from relatex.analysis.claims.claim_words import STOPWORDS, stem
from relatex.analysis.claims.term_statistics import default_term_statistics
from relatex.retrieval.label_forms import KNOWN_SPELLINGS, PROPER_WORDS
from relatex.retrieval.word_classes import is_adjective_like
from relatex.writing.contributions import FINITE_FORM, has_finite_verb, head_word, keeps_case, with_article
from relatex.writing.sentence_checks import MODIFIER_STARTS

_PLURAL_NOUNS = frozenset({"needs", "works", "matches", "scales", "benefits", "transfers"})  # "Information Needs"
_NOT_TOPIC_START = frozenset({"towards", "toward", "on", "introduction", "a", "an", "the", "how", "why", "what", "when",
                              "is", "are", "can", "do", "does", "should", "beyond", "rethinking", "revisiting", "from",
                              # a catchword: "My Phone and Me"
                              "my", "your", "our", "we", "i", "you", "let", "let's",
                              # an imperative: "Start from Scratch: ...", "Mind the Gap"
                              "start", "stop", "make", "keep", "put", "take", "give", "get", "go", "think",
                              "look", "mind", "ask", "bring", "say", "tell", "leave", "know", "don't",
                              "improve", "exploit", "enhance", "boost", "combine", "build", "find", "predict",
                              "learn"})  # "Improve Collaborative Filtering through ..."


_NEEDS_NOUNS = frozenset({"information", "user", "users", "search", "searcher", "customer"})  # "User Needs": a noun
_TITLE_VERBS = frozenset({"meets", "meet", "matters", "helps", "beats", "wins", "counts", "pays", "needs", "goes",
                          "fails", "revisited", "considered", "harmful", "vs", "versus"})


def _claims(title: str) -> bool:
    """Whether a title states a claim ("Reciprocal Rank Fusion Outperforms ..."): a finite verb,
    not a part of a compound ("User-Generated") nor a bare form a title uses as a noun ("Web-to-Voice
    Transfer for ...")."""
    rest = re.sub(r"\w+(?:-\w+)+", "compound", " ".join(title.split()[1:]))
    for match in FINITE_FORM.finditer(rest):
        word = match.group(0).lower()
        if match.group("aux") or (word != match.group("base").lower() and word not in _PLURAL_NOUNS):
            return True
    return False


def title_topic(title: str, gerund: bool = False) -> str:
    """A title usable as a noun phrase ("dense passage retrieval for open-domain question
    answering"), or "" (titles with a colon, a question, or starting with a verb or "Towards";
    with ``gerund``, a title led by one is kept: "optimizing hyper-phrase queries")."""
    words = title.split()
    if not 2 <= len(words) <= 12 or re.search(r"[:?!&]|\w\(", title):  # "Pathways &amp; Paws(Es)"
        return ""
    first = words[0].lower()
    verbs = [w for before, w in zip(words, words[1:], strict=False) if w.lower() in _TITLE_VERBS
             and not (w.lower() in _PLURAL_NOUNS and before.lower() in _NEEDS_NOUNS)]  # "Information Needs"
    if first in _NOT_TOPIC_START or (first.endswith("ing") and not gerund) or _claims(title) or verbs \
            or not _commas_list(title):
        return ""  # "Reciprocal rank fusion outperforms ...": a claim, not a topic
    topic = lowered(" ".join(words))
    return f"the {topic}" if _RELATIONAL_HEAD.match(topic) else topic


def _commas_list(title: str) -> bool:
    """Whether the commas of a title join a list ("Fidelity, Soundness, and Efficiency of ..."),
    adjectives ("A Simple, Efficient Hierarchical HMM") or a name and what it is ("NPtool, a
    Detector of ..."); not two clauses or a slogan ("System Ask, User Respond", "Paper Books,
    Digital Books", "Ask, but Don't Interrupt")."""
    parts = re.split(r"(?<!\d),|,(?!\d)", title)
    if len(parts) == 1:
        return True
    if re.search(r"\b(?:i|it|you|we|don't|it's|but|then)\b", title, re.I):
        return False
    if re.search(r"\b(?:and|or)\b|&", " ".join(parts[1:]), re.I):
        return True
    return all(re.match(r"\s*(?:a|an|the)\s", p, re.I) for p in parts[1:]) or all(
        "-" in p.split()[-1] or is_adjective_like(p.split()[-1]) for p in parts[:-1] if p.split())


def _title_parts(title: str) -> list[str]:
    """The title (spaces normalised, no final period), then the parts before and after its colon, or
    after its question ("How Do Users Respond to Voice Input Errors? Lexical and Phonetic ...")."""
    title = " ".join(title.split()).rstrip(".")
    parts = re.split(r":|(?<=\?)\s", title, maxsplit=1)
    return [title] + ([p.strip() for p in parts] if len(parts) > 1 else [])


def paper_topic(title: str) -> str:
    """A paper's title as a noun phrase: the longest of the whole title, its subtitle and the part
    before its colon that reads as one ("See You See Me: The Role of Eye Contact in ..." -> "the
    role of eye contact in ..."; "DeepRank: A New Deep Architecture for ..." -> "a new deep
    architecture for ..."), its article kept; "" when none does."""
    joined = _kind_with_subject(title)
    if joined:
        return joined
    topics = []
    for part in _title_parts(title):
        article = re.match(r"(?:a|an|the)\s+", part, re.I)
        topic = title_topic(part[article.end():] if article else part)
        if _figurative(topic):
            continue  # "A Tale of Two Parsers" is not what the paper presents
        if topic.split() and topic.split()[-1].lower() in _PUBLICATION_KINDS:
            continue  # "Conversational Search: A Perspective Paper": the kind of paper, not its topic
        if topic and len(topic.split()) >= 2:
            keep = article.group(0).lower() if article and not topic.startswith("the ") else ""
            if not keep and not topic.startswith("the ") and head_word(topic).lower() in ARTEFACT_HEADS:
                topic = with_article(topic)  # "a conversational recommender system"
            topics.append(keep + topic)
    return max(topics, key=lambda t: len(t.split()), default="")


_PUBLICATION_KINDS = frozenset({"paper", "papers", "abstract", "article", "essay", "note", "notes", "preprint"})


def _figurative(topic: str) -> bool:
    words = topic.split()[:2]
    return bool(words) and words[0] in _FIGURATIVE_HEADS and words[1:] != ["study"]


def lowered(part: str) -> str:
    """A title's words lower-cased, except acronyms, names with inner capitals and proper words
    (in a compound, only its proper parts: "Wasserstein-based", "Arabic-English"); HTML tags of a
    record's title ("on <i>Steam</i>") left out."""
    part = re.sub(r"</?[A-Za-z]+>", "", part)
    words = part.split()
    named = _in_sentence_case(words)
    return " ".join(w if keeps_case(w) or (named and _capitalised_inside(words, i)) else _proper_parts(w)
                    for i, w in enumerate(words))


def _in_sentence_case(words: list[str]) -> bool:
    """Whether a title is written in sentence case ("Combining Terrier with Apache Spark to create
    agile experimental information retrieval pipelines"): most of its content words after the first
    in lower case, three at least. A capital inside such a title is a name's."""
    content = [w for i, w in enumerate(words) if w[:1].isalpha() and w.lower() not in STOPWORDS
               and not keeps_case(w) and (w[:1].islower() or _capitalised_inside(words, i))]
    lower = sum(1 for w in content if w[:1].islower())
    return lower >= 3 and lower * 2 > len(content)


def _capitalised_inside(words: list[str], i: int) -> bool:
    """Whether the word at ``i`` is capitalised where no sentence or subtitle starts."""
    return i > 0 and words[i][:1].isupper() and not words[i - 1].endswith((":", ".", "?", "!"))


def _proper_parts(word: str) -> str:
    """Each part of a compound as a name is written ("Arabic-English", "CoNLL-X"), else lower-cased."""
    # a letter after the first part keeps its case: "CoNLL-X", not "N-gram"
    return "-".join(KNOWN_SPELLINGS.get(p.lower(), p if _proper(p) or (len(p) == 1 and i) else p.lower())
                    for i, p in enumerate(word.split("-")))


def _kind_with_subject(title: str) -> str:
    """``Subject: A Kind`` said as one noun phrase when the subtitle names only a kind of work
    ("Written versus Spoken Queries: A Qualitative and Quantitative Comparative Analysis" -> "a
    qualitative and quantitative comparative analysis of written versus spoken queries")."""
    if title.count(":") != 1:
        return ""
    subject, kind = (p.strip() for p in _title_parts(title)[1:])
    words = lowered(kind).split()
    if words and words[0] in {"a", "an", "the"}:
        words = words[1:]
    if not 1 <= len(words) <= 7 or words[-1] not in _KIND_JOIN or any(w in MODIFIER_STARTS - {"and"} for w in words):
        return ""
    subject_words = subject.split()
    if not 2 <= len(subject_words) <= 8 or re.search(r"[?!]", subject) or has_finite_verb(subject) or \
            subject_words[0].lower() in _NOT_TOPIC_START - {"a", "an", "the"} or _names_one_thing(subject) or \
            (_TITLE_VERBS - {"vs", "versus"}).intersection(w.lower() for w in subject_words) or re.search(r"&|\w\(", subject):
        return ""  # "BEIR: A Benchmark": the name is the benchmark; "Factorization Meets ...": a claim
    return with_article(f"{' '.join(words)} {_KIND_JOIN[words[-1]]} {lowered(subject)}")


def _names_one_thing(part: str) -> bool:
    """A name ("DeepRank", "BM25", "TREC CAsT"), not a subject ("Dense Retrieval")."""
    words = part.split()
    return len(words) == 1 or any(keeps_case(w) for w in words)


def title_purpose(title: str, phrase: str) -> str:
    """What the title says a paper's contribution is for ("for effective pseudo relevance
    feedback"), to complete a bare kind of thing ("a simple and heuristic model"); "" when the
    title names another thing or no purpose. "Explainable Recommendation via Multi-Task Learning"
    gives "for explainable recommendation" to "a multi-task learning solution"."""
    if re.search(r"\bfor\b", phrase):
        return ""
    mine = _content_words(phrase)
    for part in _title_parts(title)[1:] or _title_parts(title):
        made_for = re.match(r"(?P<thing>.+?)\s+for\s+(?P<goal>.+)$", part, re.I)
        made_by = re.match(r"(?P<goal>.+?)\s+(?:via|using|through|with|by)\s+(?P<thing>.+)$", part, re.I)
        for found in (made_for, made_by):
            if not found or not mine & _content_words(found.group("thing")):
                continue  # the title's thing must be the phrase's thing
            goal = lowered(found.group("goal"))
            goal_words = goal.split()
            if 1 <= len(goal_words) <= 6 and not re.search(r"[?!:]", goal) and not has_finite_verb(goal) and \
                    not _content_words(goal) <= mine:
                return f"for {goal}"
    return ""


def _content_words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower())) - _NOT_CONTENT


_NUMBER_WORDS = frozenset("""one two three four five six seven eight nine ten eleven twelve fifteen twenty
    fifty hundred thousand million first second third fourth fifth""".split())
# what a title says of its own kind or time ("Fifteen Years Later", "Lessons Learned"), not a topic
_NO_FOCUS = frozenset({"years", "decades", "months", "days", "weeks", "times", "ways", "lessons", "steps",
                       "perspectives", "directions", "results", "experiments", "experiences", "insights",
                       "challenges", "opportunities"})


def names_a_span(phrase: str) -> bool:
    """Whether a title's phrase counts or names a span or kind of its own ("the first fifteen
    years", "lessons learned"): not a topic a closing can relate a theme to."""
    return bool((_NUMBER_WORDS | _NO_FOCUS).intersection(phrase.lower().split()))


def draft_topic(title: str) -> str:
    """The draft's title as a noun phrase for a closing sentence ("" when it is not one): the
    whole title, else the part after or before its colon; an aside in brackets is left out
    ("Bilingually-Constrained (Monolingual) Shift-Reduce Parsing")."""
    title = re.sub(r"\s*\([^()]*\)", "", title)
    whole, *halves = _title_parts(title)
    joined = _kind_with_subject(title)  # "X: A Reproducibility Study" -> "a reproducibility study of X"
    for part in [joined, whole, *reversed(halves)]:
        part = _STUDY_OF.sub("", part)  # "our study of [a study of] ..."
        topic = title_topic(part, gerund=True) if part else ""
        if _figurative(topic) or (topic and topic.split()[-1].lower() in _STUDY_KINDS) or \
                head_word(topic).lower() in _NO_FOCUS:
            continue  # "A Tale of Two Parsers", "A Reproducibility Study", "The First Fifteen Years"
        if topic and len(topic.split()) >= 2:
            return topic
    return ""


# heads that name a kind of study: "our study of a reproducibility study" says nothing
_STUDY_KINDS = frozenset({"study", "studies", "investigation", "exploration", "examination", "analysis", "survey",
                          "review", "comparison", "evaluation", "assessment"})
_STUDY_OF = re.compile(rf"^(?:(?:a|an|the)\s+)?(?:(?:[\w-]+\s+){{0,4}}?(?:{'|'.join(sorted(_STUDY_KINDS))})"
                       r"\s+(?:of|on|into)\s+)?", re.I)
# a topic that is a study of something ("(the) analysis of voice queries"), not one headed by a
# task that a study word names ("sentiment analysis using ...")
_STUDY_OF_THING = re.compile(rf"(?:the\s+)?(?:{'|'.join(sorted(_STUDY_KINDS - {'studies'}))})\s+of\s", re.I)


def names_a_study(topic: str) -> bool:
    """Whether a title topic names a study of something: a paper presents it, it does not study it."""
    return bool(_STUDY_OF_THING.match(topic))


def names_an_artefact(topic: str) -> bool:
    """Whether a draft's title topic names the artefact the draft builds ("new approach for aligning
    parallel texts"): the draft is it ("our new approach for ..."), not a study of it."""
    head = re.split(r"\s(?:for|of|to|with|in|on|based|using|via|that)\s", f" {topic} ", maxsplit=1)[0].split()
    last = head[-1].lower() if head else ""
    built = last == "function" or not last.endswith(_PROCESS_ENDS + ("s",))  # one thing, not a task
    if len(head) >= 3 and head[0].lower() in {"new", "novel"} and built and not head[1][:1].isupper():
        return True  # "new objective function for word alignment": the draft's own, whatever its head
    return bool(head) and head[0].lower() not in {"a", "an", "the"} and head[-1].lower() in ARTEFACT_HEADS


_PROCESS_ENDS = ("tion", "ing", "sis", "ment")  # "new word detection": a task, not a thing built


# a subtitle that names only a kind of work, and how it joins the title's subject
_KIND_JOIN = {"analysis": "of", "study": "of", "survey": "of", "comparison": "of", "evaluation": "of",
              "investigation": "of", "review": "of", "overview": "of", "examination": "of", "assessment": "of",
              "exploration": "of", "perspective": "on", "framework": "for", "approach": "for", "method": "for",
              "model": "for", "system": "for", "architecture": "for", "algorithm": "for", "toolkit": "for"}
# singular heads that name one artefact and need an article ("a collaborative memory network for ...")
ARTEFACT_HEADS = frozenset({"framework", "approach", "method", "model", "system", "architecture", "algorithm",
                             "toolkit", "network", "platform", "engine", "tool", "dataset", "corpus", "benchmark",
                             "parser", "tagger", "classifier", "recommender", "interface", "library", "agent",
                             "language", "metric", "measure", "simulator", "prototype", "testbed", "pipeline",
                             "analyzer", "aligner", "segmenter", "translator", "summarizer", "generator",
                             "recognizer"})
_NOT_CONTENT = frozenset({"a", "an", "the", "new", "novel", "of", "and", "for", "to", "in", "on", "with", "via",
                          "using", "by", "through", "based", "approach", "method", "model", "framework", "system"})
# a head noun that needs its article before its of-phrase ("our study of the role of ...")
_RELATIONAL_HEAD = re.compile(r"(?:role|impact|effect|influence|importance|value|use|usefulness|effectiveness|"
                              r"limits|nature|problem|design|evaluation|analysis|cost|creation|construction|identification|"
                              r"detection|determination|extraction|generation|selection|estimation|prediction|"
                              r"classification|development)(?:\s+and\s+[a-z]+)?\s+of\b")
_FIGURATIVE_HEADS = frozenset({"tale", "story", "look", "note", "notes", "journey", "lessons", "glimpse", "case"})


def _proper(word: str) -> bool:
    """A capitalised name or proper adjective, alone or in a compound ("Arabic-English")."""
    parts = re.sub(r"'s$", "", word.lower().rstrip(",;")).split("-")
    return word[:1].isupper() and any(part in PROPER_WORDS for part in parts)


# a title naming an event or a report is presented, not studied ("present the SIGIR 2016 workshop on ...")
_EVENT_OR_REPORT = frozenset({"workshop", "tutorial", "overview", "report", "track", "proceedings", "keynote"})
# a title naming what its paper reports ("Experiments with a Higher-Order Projective Dependency Parser"):
# presented, not studied ("study experiments with ..."), and without an article
_REPORTED = frozenset({"experiments", "experiences", "lessons", "results", "findings", "observations",
                       "reflections", "insights"})


def _names_owned(topic: str, abstract: str) -> str:
    """``topic`` with each possessive its paper's abstract writes as a name restored ("Stanford's
    multi-pass sieve ..."): capitalised inside a sentence there, and never in lower case."""
    def restored(match: re.Match[str]) -> str:
        word = match.group(1)
        inside = re.findall(rf"(?<![.!?:]\s)(?<!^)\b{word}\b", abstract, re.I | re.M)
        named = inside and all(w[:1].isupper() for w in re.findall(rf"\b{word}\b", abstract, re.I))
        return (word.capitalize() if named else word) + match.group(2)
    return re.sub(r"\b([a-z][a-z-]+)(['\u2019]s)\b", restored, topic) if abstract else topic


_WORD_PREFIXES = frozenset("""multi cross inter intra non pre post semi anti meta sub super hyper self pseudo
    quasi auto micro macro mini mega over under out mono poly uni""".split())  # "Multi-task": a prefix
_COMMON_DF = 1000  # in the shipped statistics' 155,000 abstracts: "Web" 12,939, "Tamil" 439, "Gibbs" 228


def _around(text: str, start: int, end: int) -> tuple[str, str]:
    """The words before and after the compound holding ``text[start:end]`` ("" at either end)."""
    before = re.search(r"(\S+)\s+[\w-]*$", text[:start])
    after = re.match(r"[\w-]*\s+(\S+)", text[end:])
    return (before.group(1) if before else "", after.group(1) if after else "")


def names_written(topic: str, abstract: str) -> str:
    """``topic`` with each word its paper's abstract writes as a name restored ("... with
    Wasserstein-based sequence matching"): a word rare in scholarly abstracts, capitalised wherever
    the abstract writes it, once at least inside a sentence between two lower-case words (so not in
    a Title-Case run: "Information Retrieval") other than its neighbours in the title (so not the
    title copied: "for children's Storytelling")."""
    df = default_term_statistics().df

    def restored(match: re.Match[str]) -> str:
        word = match.group(0)
        if word in STOPWORDS or word in _WORD_PREFIXES or not df or df.get(stem(word), 0) >= _COMMON_DF:
            return word  # "the Analysis of design practice": a common word capitalised is no name
        found = list(re.finditer(rf"(?<![A-Za-z0-9]){word}(?![A-Za-z0-9])", abstract, re.I))
        if not found or not all(m.group(0)[:1].isupper() for m in found):
            return word
        in_title = [w.lower() for w in _around(topic, match.start(), match.end())]
        for m in found:
            around = _around(abstract, m.start(), m.end())
            if all(w[:1].islower() and w.lower() != t for w, t in zip(around, in_title, strict=True)):
                forms = {f.group(0) for f in found}  # "PageRank" as the abstract spells it
                return forms.pop() if len(forms) == 1 else word.capitalize()
        return word
    return re.sub(r"(?<![A-Za-z0-9])[a-z]{3,}(?![A-Za-z0-9'\u2019])", restored, topic) if abstract else topic


_INFLECTIONS = frozenset({"s", "es", "ed", "d", "ing", "er", "ers", "ly", "al", "ally", "ation", "ations",
                          "ness"})


def title_cut_short(title: str, abstract: str) -> bool:
    """Whether the title's last word is an unknown word that starts a word of the ``abstract``
    ("Unsupervised Semantic Role Labellin" beside "labelling"): the record cut the title short."""
    words = re.findall(r"[A-Za-z]+", title)
    last = words[-1].lower() if words else ""
    tokens = set(re.findall(r"[a-z]+", abstract.lower()))
    if len(last) < 4 or last in tokens or default_term_statistics().df.get(stem(last), 0) >= 5:
        return False
    return any(t.startswith(last) and t[len(last):] not in _INFLECTIONS for t in tokens if len(t) > len(last))


# a title part of place or time ("At the End of the Early Years", "Beyond Pooling") is no noun phrase
_PLACE_OR_TIME = re.compile(r"(?!in situ\b)(?:at|in|on|to|from|with|by|of|for|towards?|beyond|into|over|"
                            r"under|after|before)\s", re.I)  # not "In situ and context-aware ... selection"


# a writer asks again for each template it tries; a section reads 100 papers at most
@lru_cache(maxsize=2048)
def title_subject(title: str, abstract: str = "") -> tuple[str, bool]:
    """A paper's title as a noun phrase, and whether it names a work (a paper presents it) rather
    than a subject (a paper studies it); ("", False) when the title reads as neither. A possessive
    or a name is spelled as the paper's ``abstract`` spells it (:func:`_names_owned`,
    :func:`names_written`)."""
    title = " ".join(title.split()).rstrip(".")
    title = re.sub(r"(?<=[a-z]),(?=[A-Za-z])", ", ", title)  # "A Phrase-Based,Joint Probability Model"
    topic = names_written(_names_owned(paper_topic(title), abstract), abstract)
    if not topic or re.search(r"\s[A-Za-z]$", topic) or title_cut_short(title, abstract):
        return "", False  # a title cut short in its record ("... via bootstrapping and E")
    if _PLACE_OR_TIME.match(topic):
        return "", False  # "at the end of the early years", "beyond pooling": no noun phrase
    kind = names_a_study(topic)  # "(the) analysis of X" is a work; "sentiment analysis" is not
    if kind and topic.lower().startswith("the "):
        topic = topic[4:]  # "present an analysis of voice queries", not "study the analysis of ..."
    head = head_word(topic).lower()
    shared_task = head == "task" and bool(re.search(r"\bshared\s+task\b", topic, re.I))  # a subject, named
    if head in _REPORTED and topic.split()[0].lower() == head:
        return topic, True  # "present experiments with a higher-order projective dependency parser"
    work = bool(re.match(r"(?:a|an)\s", topic)) or head in _EVENT_OR_REPORT or kind
    first = topic.split()[0]
    owned = re.search(r"['\u2019]s$", first)  # "Stanford's ... system": the possessive is its determiner
    if (work or shared_task) and not re.match(r"(?:a|an|the)\s", topic, re.I) and not owned:
        event = shared_task or head in _EVENT_OR_REPORT
        named = event and (keeps_case(first) or first[:1].isdigit() or _proper(first))
        if named or work:  # "the CoNLL-X shared task on ...", "the SIGIR 2016 workshop", "an overview of ..."
            topic = f"the {topic}" if named else with_article(topic)
    return topic, bool(work)
