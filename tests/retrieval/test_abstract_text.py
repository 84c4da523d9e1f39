"""Abstracts that are a PDF's debris (a table, a bibliography page, a page begun mid-sentence) go
unread."""

from __future__ import annotations

from relatex.retrieval.abstract_text import debris_reason, readable_abstract, readable_text, without_debris
from relatex.retrieval.records import PaperRecord

TABLE = ("string date occurrence Local .125 context All .125 word distribution Narrow .125 .083 .083 "
         ".083 .125 Wide IDF RF Burstiness 1 exact-match accuracy 0.8 0.6 0.4 0.2 4 3 2 1 combo combo "
         "minus levenshtein 0 0 500 1000 1500 2000 protest/N (1) abhorrence/N break/V protest/V")
BIBLIOGRAPHY = ("Jelinek. 1991. language modeling speech In A. Waibel and K.F. Lee, editors, Readings in "
                "Speech Recognition, pages 450-506. Katz, S. M. 1987. Estimation of probabilities from "
                "sparse data. In Proceedings of the ACL, pp. 9-14.")
MID_SENTENCE = ("with genetic algorithms. Workshop on Empirical Learning of NLP Tasks. K. Koskenniemi, 1983. "
                "A general computational model for word-form recognition and production. 1994. Tagging "
                "text with a probabilistic model. Computational Linguistics 20(2):155-171.")
CLEAN = [
    # numbers, but a sentence: a shared-task system description
    "This paper describes our system for SemEval-2021 Task 7, which placed 3rd of 58 teams in subtask 1a "
    "(F1 0.95) and 4th in subtask 1b (RMSE 0.52) with an ensemble of 5 pretrained transformer models.",
    # citations inside a theory abstract
    "We present an algorithm with runtime O(k^2 n^3) for the following NP-complete problem [M. Garey and "
    "D. Johnson, Computers and Intractability, 1979]: given a graph, find a minimum interval completion.",
    # a name in lower case at the start, and no numbers
    "word2vec embeddings are widely used; we study how their neighbourhoods change across training runs "
    "and propose a stability measure for them.",
    # another language
    "Dans cet article, nous présentons un outil modulaire libre pour le résumé automatique de textes et "
    "nous évaluons ses performances sur 3 corpus.",
    "汉语词语的离合现象是汉语中一种词语可分可合的特殊现象。 "
    "本文采用 2 种 字符级 序列标注 方法 解决 问题 1 2 3 4 5 6 7",
    "Too short: 1 2 3 4",
    # a name in lower case, an ordinal: sentences all the same
    "jTLEX is a programming library that provides a Java implementation of the TimeLine EXtraction algorithm "
    "(TLEX; Finlayson et al., 2021), along with 2 utilities and 3 example corpora.",
    "2nd Nurse Care Activity Recognition Challenge using Lab and Field Data is organized as a part of the "
    "HASCA workshop in 2020 and is a continuation of the 1st challenge held in 2019.",
]


def test_tables_bibliographies_captions_and_pages_begun_mid_sentence_are_debris() -> None:
    assert debris_reason(TABLE).startswith("a table")
    assert debris_reason(BIBLIOGRAPHY).startswith("starts mid-sentence")
    assert debris_reason(MID_SENTENCE).startswith("starts mid-sentence")
    caption = ("Figure 3: Size and devset performance of the cumulatively annotated models, starting with the "
               "markovized baseline. For vertical histories, we used a cutoff.")
    assert debris_reason(caption) == "starts with a caption"
    assert debris_reason("2: Test set performance of our systems: and output/reference length ratio. Collins et al. "
                         "(2005) suggest a method to reorder the German input.") == "starts with a caption"


def test_prose_with_numbers_citations_or_other_scripts_is_read() -> None:
    for text in CLEAN:
        assert debris_reason(text) == "", text


def test_a_record_is_read_without_its_debris() -> None:
    debris = PaperRecord(id="acl:W02-2026", title="Inducing Translation Lexicons", abstract=TABLE)
    clean = PaperRecord(id="x", title="A system", abstract=CLEAN[0])
    assert readable_abstract(debris) == "" and readable_text(debris) == "Inducing Translation Lexicons"
    assert without_debris(debris).abstract is None and without_debris(debris).title == debris.title
    assert without_debris(clean) is clean and readable_text(clean) == f"A system. {CLEAN[0]}"
    assert without_debris(PaperRecord(id="y", title="No abstract")).abstract is None
