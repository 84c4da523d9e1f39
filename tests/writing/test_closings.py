"""Closing sentences claim nothing about the draft that its abstract or title does not give."""

from __future__ import annotations

import random

from relatex.writing.closings import Style, closing, theme_label
from relatex.writing.draft_aspects import DraftAspect
from relatex.writing.plan import ThemeOutline
from relatex.writing.title_topics import draft_topic

THEME = ThemeOutline(id=0, label="dense retrieval", terms=("dense retrieval", "query expansion"), keys=("a", "b"))


def test_without_a_usable_aspect_the_closing_names_the_draft_title_as_its_topic() -> None:
    text = closing(THEME, None, Style(random.Random(1)), topic="citation recommendation for scientific drafts")
    assert "citation recommendation for scientific drafts" in text and "dense retrieval" in text


def test_every_template_relates_an_action_whose_verb_the_checker_does_not_know() -> None:
    aspect = DraftAspect("action", "our system", "expands the candidates along the citation graph")
    for seed in range(20):  # "expands" is in no verb list: the action is a verb phrase by construction
        text = closing(THEME, (aspect, 4.0), Style(random.Random(seed)))
        assert text.endswith("expands the candidates along the citation graph."), text


def test_without_aspect_or_title_topic_there_is_no_closing() -> None:
    assert closing(THEME, None, Style(random.Random(1)), topic="") == ""


def test_the_draft_title_becomes_a_noun_phrase_or_nothing() -> None:
    assert draft_topic("Neural Ranking Models: A Survey") == "neural ranking models"
    assert draft_topic("Syntax-Based Word Alignment for Machine Translation.") == \
        "syntax-based word alignment for machine translation"
    assert draft_topic("Towards Better Search") == ""
    assert draft_topic("How Do Users Search?") == ""
    assert draft_topic("Role of Word-Eye-Fixations for Query Term Prediction") == \
        "the role of word-eye-fixations for query term prediction"  # "our study of the role of ..."
    assert draft_topic("A Tale of Two Parsers: Investigating and Combining Parsers") == ""
    assert draft_topic("A Study of Neural Matching Models for Cross-lingual IR") == \
        "neural matching models for cross-lingual IR"  # not "our study of study of ..."
    assert draft_topic("A Tale of Two Parsers: Dependency Parsing with Beam Search") == \
        "dependency parsing with beam search"


def test_label_terms_sharing_a_word_are_said_once() -> None:
    theme = ThemeOutline(id=1, label="", terms=("dependency parsing", "parsers", "treebanks"), keys=("a",))
    assert theme_label(theme) == "dependency parsing and treebanks"


def test_titles_with_a_verb_are_not_topics() -> None:
    from relatex.writing.title_topics import title_topic

    assert title_topic("Information Extraction Meets Relation Databases") == ""
    assert title_topic("Term Necessity Prediction") == "term necessity prediction"
    assert title_topic("Bayesian Nonparametric Analysis of Markov Chains") == \
        "Bayesian nonparametric analysis of Markov chains"  # proper adjectives and names keep their capital
    assert title_topic("Creation of Topic Maps in Chinese") == "the creation of topic maps in Chinese"


def test_a_papers_title_is_said_whole_or_by_its_longer_half_with_its_article() -> None:
    from relatex.writing.title_topics import paper_topic

    assert paper_topic("See You See Me: The Role of Eye Contact in Multimodal Human-Robot Interaction") == \
        "the role of eye contact in multimodal human-robot interaction"
    assert paper_topic("DeepRank: A New Deep Architecture for Relevance Ranking in Information Retrieval") == \
        "a new deep architecture for relevance ranking in information retrieval"
    assert paper_topic("The Probabilistic Relevance Framework: BM25 and Beyond") == "the probabilistic relevance framework"
    assert paper_topic("Sentence-BERT: Sentence Embeddings using Siamese BERT-Networks") == \
        "sentence embeddings using Siamese BERT-Networks"
    assert paper_topic("Anserini: Enabling the Use of Lucene for Information Retrieval Research") == ""
    assert paper_topic("Towards Automated Related Work Summarization") == ""
    assert paper_topic("Spanish Treebank Construction") == "Spanish treebank construction"  # not "panish"
    assert paper_topic("Sangeet Swara: A Community-Moderated Voice Forum in Rural India") == \
        "a community-moderated voice forum in rural India"
    assert paper_topic("A Simple Kernel Co\u2010Occurrence\u2010Based Enhancement") == \
        "a simple kernel co\u2010occurrence\u2010based enhancement"  # Title Case across Unicode hyphens


def test_verbs_do_not_name_themes() -> None:
    from relatex.retrieval.theme_labels import label_term_ok

    assert not label_term_ok("solve") and not label_term_ok("product")
    assert label_term_ok("query reformulation")
