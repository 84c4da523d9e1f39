"""Titles read as noun phrases: a paper's title as the topic of a sentence ("dense passage
retrieval for open-domain question answering"), the draft's title as the study a closing
sentence relates a theme to ("the role of word-eye-fixations for query term prediction")."""

from __future__ import annotations

import re

from relatex.writing.contributions import has_finite_verb, keeps_case

_NOT_TOPIC_START = frozenset({"towards", "toward", "on", "introduction", "a", "an", "the", "how", "why", "what", "when",
                              "is", "are", "can", "do", "does", "should", "beyond", "rethinking", "revisiting", "from"})


_TITLE_VERBS = frozenset({"meets", "meet", "matters", "helps", "beats", "wins", "counts", "pays", "needs", "goes",
                          "fails", "revisited", "considered", "harmful", "vs", "versus"})


def title_topic(title: str) -> str:
    """A title usable as a noun phrase ("dense passage retrieval for open-domain question
    answering"), or "" (titles with a colon, a question, or starting with a verb or "Towards")."""
    words = title.split()
    if not 2 <= len(words) <= 12 or re.search(r"[:?!]", title):
        return ""
    first = words[0].lower()
    if first in _NOT_TOPIC_START or first.endswith("ing") or has_finite_verb(title) or \
            _TITLE_VERBS.intersection(w.lower() for w in words[1:]):
        return ""  # "Reciprocal rank fusion outperforms ...": a claim, not a topic
    topic = " ".join(w if keeps_case(w) or _proper(w) else w.lower() for w in words)
    return f"the {topic}" if _RELATIONAL_HEAD.match(topic) else topic


def _title_parts(title: str) -> list[str]:
    """The title (spaces normalised, no final period), then the parts before and after its colon."""
    title = " ".join(title.split()).rstrip(".")
    return [title] + ([p.strip() for p in title.split(":", 1)] if ":" in title else [])


def paper_topic(title: str) -> str:
    """A paper's title as a noun phrase: the longest of the whole title, its subtitle and the part
    before its colon that reads as one ("See You See Me: The Role of Eye Contact in ..." -> "the
    role of eye contact in ..."; "DeepRank: A New Deep Architecture for ..." -> "a new deep
    architecture for ..."), its article kept; "" when none does."""
    topics = []
    for part in _title_parts(title):
        article = re.match(r"(?:a|an|the)\s+", part, re.I)
        topic = title_topic(part[article.end():] if article else part)
        if topic and len(topic.split()) >= 2:
            keep = article.group(0).lower() if article and not topic.startswith("the ") else ""
            topics.append(keep + topic)
    return max(topics, key=lambda t: len(t.split()), default="")


def draft_topic(title: str) -> str:
    """The draft's title as a noun phrase for a closing sentence ("" when it is not one): the
    whole title, else the part after or before its colon."""
    whole, *halves = _title_parts(title)
    for part in [whole, *reversed(halves)]:
        part = re.sub(r"^(?:(?:a|an|the)\s+)?(?:(?:\w+\s+)?(?:study|investigation|exploration|examination|analysis)"
                      r"\s+(?:of|on|into)\s+)?", "", part, flags=re.I)  # "our study of [a study of] ..."
        topic = title_topic(part)
        if topic.split(" ", 1)[0] in _FIGURATIVE_HEADS:
            continue  # "A Tale of Two Parsers": not what the study is of
        if topic and len(topic.split()) >= 2:
            return topic
    return ""


# a head noun that needs its article before its of-phrase ("our study of the role of ...")
_RELATIONAL_HEAD = re.compile(r"(?:role|impact|effect|influence|importance|value|use|usefulness|effectiveness|"
                              r"limits|nature|problem|design|evaluation|analysis|cost|creation|construction|identification|"
                              r"detection|determination|extraction|generation|selection|estimation|prediction|"
                              r"classification)\s+of\b")
_FIGURATIVE_HEADS = frozenset({"tale", "story", "look", "note", "notes", "journey", "lessons", "glimpse", "case"})
# names and proper adjectives that keep their capital in a lower-cased title
_PROPER_WORDS = frozenset("""bayesian gaussian hessian laplacian euclidean markovian hamiltonian lagrangian
    jacobian boolean markov poisson dirichlet bernoulli zipf monte carlo wikipedia twitter facebook google amazon
    reddit english chinese arabic german french spanish japanese hindi european african american siamese
    india china japan korea africa europe america germany france spain italy brazil canada australia""".split())


def _proper(word: str) -> bool:
    return word[:1].isupper() and re.sub(r"'s$", "", word.lower().rstrip(",;")) in _PROPER_WORDS
