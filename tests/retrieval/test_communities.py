"""Louvain themes and their class-based TF-IDF labels."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import numpy as np

from relatex.retrieval.communities import STOPWORDS, class_tfidf, detect_communities, terms_of, top_terms
from relatex.retrieval.label_forms import count_noun_plural, whole_phrase
from relatex.retrieval.records import PaperRecord
from relatex.retrieval.theme_labels import (
    GENERIC_LABEL_WORDS,
    label_communities,
    label_term_ok,
    title_phrases,
)
from relatex.retrieval.word_classes import is_adjective_like

PARSING = [
    ("p1", "Dependency parsing with transition systems", "We study transition-based dependency parsing with beam search."),
    ("p2", "Neural dependency parsing", "A graph-based dependency parsing model with neural scoring of arcs."),
    ("p3", "Dependency parsing for many languages", "Multilingual dependency parsing across treebanks."),
]
MT = [
    ("m1", "Neural machine translation by jointly learning to align", "Attention for machine translation."),
    ("m2", "Phrase-based machine translation", "Statistical machine translation with phrase tables."),
    ("m3", "Low-resource machine translation", "Back-translation improves machine translation for rare languages."),
]


def _records() -> dict[str, PaperRecord]:
    return {pid: PaperRecord(id=pid, title=t, abstract=a) for pid, t, a in PARSING + MT}


def _graph() -> nx.Graph:
    g = nx.Graph()
    g.add_weighted_edges_from([("p1", "p2", 1.0), ("p2", "p3", 1.0), ("p1", "p3", 0.8),
                               ("m1", "m2", 1.0), ("m2", "m3", 1.0), ("m1", "m3", 0.7), ("p3", "m3", 0.05)])
    return g


def test_louvain_finds_the_two_clusters() -> None:
    communities = detect_communities(_graph(), seed=0)
    assert sorted(map(tuple, communities)) == [("m1", "m2", "m3"), ("p1", "p2", "p3")]


def test_singletons_join_the_most_similar_community() -> None:
    g = _graph()
    g.add_node("lonely")
    vectors = {n: np.array([1.0, 0.0]) if n.startswith("p") else np.array([0.0, 1.0]) for n in g.nodes}
    vectors["lonely"] = np.array([0.1, 0.99])
    communities = detect_communities(g, vectors, seed=0)
    assert ["lonely", "m1", "m2", "m3"] in communities and len(communities) == 2


def test_no_edges_falls_back_to_similarity_clusters() -> None:
    g = nx.Graph()
    g.add_nodes_from(["a", "b", "c", "d"])
    vectors = {"a": np.array([1.0, 0.0]), "b": np.array([0.99, 0.1]),
               "c": np.array([0.0, 1.0]), "d": np.array([0.1, 0.99])}
    communities = detect_communities(g, vectors, seed=0)
    assert sorted(map(tuple, communities)) == [("a", "b"), ("c", "d")]


def test_labels_name_what_distinguishes_each_theme() -> None:
    communities = [["p1", "p2", "p3"], ["m1", "m2", "m3"]]
    labels = label_communities(communities, _records())
    parsing_label, parsing_terms = labels[0]
    mt_label, mt_terms = labels[1]
    assert parsing_terms[0] == "dependency parsing"
    assert mt_terms[0] == "machine translation"
    # A unigram contained in a chosen bigram is not repeated.
    assert "parsing" not in parsing_terms and "translation" not in mt_terms
    assert parsing_label.startswith("dependency parsing") and mt_label.startswith("machine translation")


def test_terms_drop_stopwords_and_keep_bigrams() -> None:
    terms = terms_of("We propose a novel approach to dense retrieval.")
    assert "dense retrieval" in terms and "dense" in terms
    assert not {"propose", "novel", "approach", "we"} & set(terms)
    assert "co-occurrence" in terms_of("kernel co\u2010occurrence enhancement")  # a Unicode hyphen joins too
    tagging = terms_of("Unsupervised Part of Speech Tagging")  # never "speech" alone (nor "part")
    assert "part-of-speech tagging" in tagging and not {"part", "speech"} & set(tagging)


def test_class_tfidf_prefers_terms_unique_to_a_class() -> None:
    weights = class_tfidf({0: ["graph neural graph neural models"], 1: ["neural ranking ranking models"]})
    assert weights[0][0][0] in {"graph", "graph neural"}
    assert top_terms(weights[1], 1) in {("ranking",), ("neural ranking",)}


# -- labels on the demo library: noun phrases, no adjectives or generic words ----------------------
DEMO_LIBRARY = Path(__file__).resolve().parents[2] / "examples" / "demo" / "library.bib"
# the themes the demo selection finds (title prefixes), as in `relatex generate examples/demo/main.tex`
DEMO_THEMES = (
    ("SPECTER", "Content-Based Citation", "Fact or Fiction", "AutoSurvey", "CORWA", "Bibliographic coupling",
     "S2ORC", "PaperQA", "Citation Indexes", "Context-aware Citation", "SciBERT"),
    ("Fast unfolding", "The PageRank", "SimRank", "Semi-Supervised Classification", "node2vec", "Authoritative"),
    ("The Probabilistic Relevance", "Dense Passage", "Sentence-BERT", "BEIR", "Passage Re-ranking",
     "Introduction to Information"),
    ("Towards Automated", "Multi-XScience", "The Use of MMR", "ROUGE", "LexRank"),
    ("Billion-Scale", "Efficient and Robust"),
)
JUNK = {"scientific", "approximate", "elements", "text", "approach", "good", "large", "novel", "based", "producing"}


def _demo_records() -> dict[str, PaperRecord]:
    from relatex.analysis.bib.bibtex import parse_bib_text
    from relatex.retrieval.sources.bibtex_source import bib_entry_record

    bib = parse_bib_text(DEMO_LIBRARY.read_text(encoding="utf-8"), DEMO_LIBRARY)
    out: dict[str, PaperRecord] = {}
    for entry in bib.entries:
        made = bib_entry_record(entry, "demo")
        if isinstance(made, tuple):
            out[made[0].id] = made[0]
    return out


def test_demo_library_labels_are_noun_phrases_without_junk() -> None:
    records = _demo_records()
    communities = [[rid for rid, r in records.items() if r.title.startswith(prefixes)] for prefixes in DEMO_THEMES]
    assert [len(c) for c in communities] == [len(p) for p in DEMO_THEMES]
    labels = label_communities(communities, records)
    for label, terms in labels:
        assert terms and label == ", ".join(terms)
        for term in terms:
            words = term.lower().split()
            assert not JUNK & set(words[-1:]), (label, term)  # no junk word as a term or a phrase head
            assert all(w not in STOPWORDS for w in words), (label, term)
            assert label_term_ok(term.lower()), (label, term)
            if len(words) == 1:
                assert not is_adjective_like(words[0]) and words[0] not in GENERIC_LABEL_WORDS, (label, term)
    first_terms = [terms[0] for _, terms in labels]
    # the best term of most themes is a phrase from the titles, not a lone word
    assert sum(" " in t for t in first_terms) >= 3, first_terms
    assert "BM25" in labels[2][1] or any("retrieval" in t for t in labels[2][1])  # acronyms keep their capitals


def test_label_term_rules() -> None:
    assert label_term_ok("dense retrieval") and label_term_ok("retrieval") and label_term_ok("citation recommendation")
    assert label_term_ok("topic models") and label_term_ok("question answering") and label_term_ok("latent features")
    assert label_term_ok("error correction") and label_term_ok("discourse")
    assert label_term_ok("dependency parsing") and label_term_ok("sequence labeling") and label_term_ok("noun phrases")
    assert label_term_ok("part-of-speech tagging")
    for junk in ("scientific", "approximate", "elements", "text", "retrieval dense", "producing summaries",
                 "graph-based", "large", "technologies like", "topics", "tasks", "fake", "parameters", "features", "due",
                 "relationships", "networks", "reviews written", "rules given", "offline", "top", "stage", "parallel",
                 "additional features", "several factors", "customers", "discuss", "correct", "proposes", "products",
                 "translate", "provides", "develop", "part", "noun", "sequence", "dependency", "rank", "interest",
                 "part-of-speech", "programs", "tree", "test", "maximum", "terascale", "predicate-argument",
                 "resolution achieves", "achieves", "machine translation improves", "system outperforms"):
        assert not label_term_ok(junk), junk
    assert all(label_term_ok(t) for t in ("tree kernels", "maximum entropy", "test collections"))
    assert not label_term_ok("participants train")  # a verb
    # how good a result is, or a bare tag, names no theme
    assert not any(label_term_ok(t) for t in ("high precision", "better accuracy", "improved performance",
                                              "tag"))


def test_languages_and_names_keep_their_capitals_without_abstracts() -> None:
    records = {k: PaperRecord(id=k, title=t) for k, t in (
        ("a", "Chinese part-of-speech tagging with CRFs"),
        ("b", "Chinese part-of-speech tagging for the bakeoff"),
        ("c", "Joint Chinese part-of-speech tagging and word segmentation"))}
    [(label, _)] = label_communities([["a", "b", "c"]], records)
    assert label.startswith("Chinese part-of-speech tagging"), label
    assert is_adjective_like("scientific") and is_adjective_like("large-scale") and not is_adjective_like("retrieval")
    assert title_phrases("Dense Passage Retrieval for Open-Domain Question Answering")[:2] == [
        "Dense Passage Retrieval", "Passage Retrieval"]


def test_a_title_phrase_does_not_start_inside_a_compound() -> None:
    # "neural network statistical parser": "network statistical parser" is no phrase of its own
    assert title_phrases("Discriminative Training of a Neural Network Statistical Parser") == [
        "Discriminative Training", "Statistical Parser"]
    assert "Time Information Retrieval" not in title_phrases("Fast Real Time Information Retrieval")
    # an adjective opens a phrase
    assert title_phrases("Fast Semantic Role Labeling")[0] == "Semantic Role Labeling"
    assert not label_term_ok("parallel english-chinese")  # a language pair modifies a noun, names none


def test_a_lone_count_noun_is_named_in_the_plural() -> None:
    assert count_noun_plural("graph", ["We study random graphs and their spectra.", "A graph model."]) == "graphs"
    assert count_noun_plural("graph", ["Each node of a graph has a rank."]) == "graphs"
    assert count_noun_plural("graph", ["A graph-based model.", "A graph model."]) == "graph"  # a modifier here
    assert count_noun_plural("related entity", ["We rank related entities for a query."]) == "related entities"
    assert count_noun_plural("language model", ["We train a language model on news."]) == "language models"
    assert count_noun_plural("matching model", ["an attention based neural matching model"]) == "matching models"
    assert count_noun_plural("parser", ["A statistical parser for English."]) == "parsers"  # an artefact
    assert count_noun_plural("neural network", []) == "neural networks"  # ends as "work" does, but counts
    assert count_noun_plural("teamwork", ["Teamwork in search."]) == "teamwork"
    assert count_noun_plural("compound noun", ["compound noun interpretation"]) == "compound nouns"  # a unit
    assert count_noun_plural("noun", ["noun phrase chunking"]) == "noun"  # alone, a modifier here
    # a piece of a longer term is named whole: "work on base nouns" is not what the papers are about
    assert count_noun_plural("base noun", ["base noun phrase identification"]) == "base noun phrases"
    assert count_noun_plural("compound noun", ["compound noun phrases", "compound noun interpretation"]) == \
        "compound noun phrases"
    assert count_noun_plural("parallel corpus", ["We align a parallel corpus of news."]) == "parallel corpora"
    assert count_noun_plural("approach", []) == "approaches"
    for kept in ("retrieval", "search", "feedback", "summarization", "dense retrieval", "BERT", "networks"):
        assert count_noun_plural(kept, ["retrievals searches feedbacks summarizations BERTs networkss"]) == kept


def test_a_hyphenated_modifier_is_named_with_its_usual_noun() -> None:
    from relatex.retrieval.theme_labels import as_modifier_of

    texts = ["We propose related-work summarisation as a new task: producing the related-work section of a paper.",
             "We assemble a corpus of related-work sections.", "A model writes the related-work paragraph."]
    assert as_modifier_of("related-work", texts) == "related-work sections"
    assert as_modifier_of("related-work", texts[2:] + ["the related-work generation"]) == ""  # no noun recurs
    assert as_modifier_of("summarisation", texts) is None  # not a hyphenated modifier
    assert as_modifier_of("state-of-the-art", ["beats the state-of-the-art.", "the state-of-the-art, BM25"]) is None


def test_bigrams_are_words_next_to_each_other_in_the_text() -> None:
    terms = terms_of("We study learning to rank for web search.")
    assert "learning rank" not in terms  # "to" stood between them: a label "learning rank" is no phrase
    assert "web search" in terms


def test_languages_and_names_modify_a_label_but_never_end_one() -> None:
    for junk in ("english", "bayesian", "hidden markov", "international chinese", "english french", "english text",
                 "english language"):
        assert not label_term_ok(junk), junk
    for kept in ("chinese word segmentation", "markov models", "bayesian estimators", "simple english wikipedia"):
        assert label_term_ok(kept), kept


def test_names_keep_their_capital_where_the_abstracts_always_give_it() -> None:
    from relatex.retrieval.label_forms import usual_spellings

    texts = ["Chinese text has no spaces. We segment Chinese words with a Markov model.",
             "A Chinese treebank and Arabic-English data; more Arabic-English data for Markov chains.",
             "Translation of the Treebank. The treebank is large."]
    spellings = usual_spellings(texts)
    assert spellings["chinese"] == "Chinese" and spellings["markov"] == "Markov"
    assert spellings["arabic-english"] == "Arabic-English"
    assert "treebank" not in spellings and "translation" not in spellings  # lower-case inside a sentence, or once
    # a compound in title case copied from a title is no name: "Work on Part-of-Speech tagging"
    titled = ["Unsupervised Part-of-Speech Tagging. We tag words.",
              "Part-of-Speech Tagging in Context. Tags."]
    assert "part-of-speech" not in usual_spellings(titled)
    assert usual_spellings(["Wasserstein-GAN training. We train a Wasserstein-GAN."])["wasserstein-gan"] == \
        "Wasserstein-GAN"


def test_a_tool_name_joined_by_an_underscore_is_written_so() -> None:
    from relatex.retrieval.label_forms import as_written

    texts = ["We present pytrec_eval, a Python interface to trec_eval.", "Evaluation with pytrec_eval is fast."]
    assert as_written("pytrec eval", texts) == "pytrec_eval"
    assert as_written("dense retrieval", texts + ["dense_retrieval and dense retrieval"]) == "dense retrieval"


def test_authors_names_never_make_a_label() -> None:
    ney = "Hermann Ney"
    records = {
        "a": PaperRecord(id="a", title="Word graphs in statistical machine translation", authors=("N. Ueffing", ney),
                         abstract="Hermann Ney. Word graphs for statistical machine translation are generated."),
        "b": PaperRecord(id="b", title="Phrase-based statistical machine translation", authors=("R. Zens", ney),
                         abstract="Hermann Ney. Phrase-based statistical machine translation with word graphs."),
        "c": PaperRecord(id="c", title="Dense passage retrieval", authors=("V. Karpukhin",),
                         abstract="Dense passage retrieval for open-domain question answering."),
        "d": PaperRecord(id="d", title="Dense retrieval with hard negatives", authors=("L. Xiong",),
                         abstract="Dense retrieval learns from hard negatives for question answering."),
    }
    labels = label_communities([["a", "b"], ["c", "d"]], records)
    assert labels[0][1] and not any("ney" in t.lower() or "hermann" in t.lower() for t in labels[0][1]), labels


def test_a_term_never_written_alone_takes_the_word_before_it() -> None:
    texts = ["Parsing the Wall Street Journal with CCG.", "We parse the Wall Street Journal.",
             "Noun phrase coreference resolution as clustering.", "Conundrums in Noun Phrase Coreference Resolution"]
    assert whole_phrase("Street Journal", texts, label_term_ok) == "Wall Street Journal"
    assert whole_phrase("phrase coreference resolution", texts, label_term_ok) == \
        "noun phrase coreference resolution"
    # once, or after different words, or after a stopword: the term stands
    assert whole_phrase("retrieval", ["dense retrieval", "sparse retrieval"], label_term_ok) == "retrieval"
    assert whole_phrase("retrieval", ["of retrieval", "of retrieval"], label_term_ok) == "retrieval"
    assert whole_phrase("retrieval", ["we improve retrieval"] * 2, lambda p: "improve" not in p) == \
        "retrieval"
    # one paper's own phrase names no theme: only a phrase two papers use is taken whole
    assert whole_phrase("recommendation", ["Hierarchical recommendation. We study hierarchical recommendation."],
                        label_term_ok) == "recommendation"


def test_a_proper_name_is_no_theme_label() -> None:
    from relatex.retrieval.theme_labels import is_a_name

    assert is_a_name("Wall Street Journal") and is_a_name("Canadian Hansards")
    assert not any(is_a_name(t) for t in ("Basilisk", "BiBr", "Chinese word segmentation", "Web search",
                                          "Penn treebank", "MovieLens datasets"))
    wsj = "Our experiments use the Wall Street Journal. Results on the Wall Street Journal are reported."
    records = {
        "a": PaperRecord(id="a", title="Statistical parsing with a lexicalised grammar",
                         abstract="A statistical parser for English. " + wsj),
        "b": PaperRecord(id="b", title="Deterministic dependency parsing of English text",
                         abstract="Deterministic dependency parsing is fast. " + wsj),
        "c": PaperRecord(id="c", title="Parsing English with a discriminative reranker",
                         abstract="A discriminative reranker for statistical parsing. " + wsj),
    }
    [(label, terms)] = label_communities([["a", "b", "c"]], records)
    assert terms and not any("journal" in t.lower() for t in terms), label


def test_a_word_of_a_name_does_not_lengthen_a_label() -> None:
    from relatex.retrieval.label_forms import usual_spellings
    from relatex.retrieval.theme_labels import _whole

    texts = ["Results of the Conference on Computational Natural Language Learning shared task.",
             "We took part in the Computational Natural Language Learning shared task."]
    assert whole_phrase("natural language", texts, label_term_ok) == "computational natural language"
    assert _whole("natural language", texts, usual_spellings(texts)) is None  # a piece of a name
    chinese = ["The Chinese word segmentation bakeoff.", "At the second Chinese word segmentation bakeoff."]
    assert _whole("word segmentation bakeoff", chinese, usual_spellings(chinese)) == \
        "Chinese word segmentation bakeoff"
    noun = ["Noun phrase coreference resolution as clustering.",
            "We study noun phrase coreference resolution."]
    assert _whole("phrase coreference resolution", noun, usual_spellings(noun)) == \
        "noun phrase coreference resolution"


def test_a_term_never_ending_a_phrase_takes_the_word_after_it() -> None:
    from relatex.retrieval.label_forms import followed_phrase

    texts = ["We present a statistical machine translation system.",
             "Statistical machine translation with phrases."]
    assert followed_phrase("statistical machine", texts, label_term_ok) == "statistical machine translation"
    assert followed_phrase("base noun", ["A base noun phrase chunker.", "We find base noun phrases."],
                           label_term_ok) == "base noun phrase"
    # a term that ends a phrase somewhere, is followed by different words, or is used by one text stands
    assert followed_phrase("machine translation", texts, label_term_ok) == "machine translation"
    assert followed_phrase("unsupervised POS", ["unsupervised POS tagging", "unsupervised POS induction"],
                           label_term_ok) == "unsupervised POS"
    one_text = ["Dense retrieval models. Dense retrieval models."]
    assert followed_phrase("retrieval", one_text, label_term_ok) == "retrieval"


def test_doubled_words_tags_and_sameness_are_no_label() -> None:
    junk = ("protest protest", "said vbd", "same data", "participants train")
    assert not any(label_term_ok(t) for t in junk)


def test_a_single_name_is_a_label_only_where_a_title_says_it() -> None:
    from relatex.retrieval.theme_labels import label_terms

    weighted = [("fairchild", 1.0), ("word sense disambiguation", 0.9)]
    papers_terms = [{"fairchild", "word sense disambiguation"}] * 2
    spellings = {"fairchild": "Fairchild"}
    titles = ["Word sense disambiguation bounds", "Estimating upper bounds for word sense disambiguation"]
    assert "Fairchild" not in label_terms(weighted, titles, papers_terms, 3, spellings)
    assert "Fairchild" in label_terms(weighted, [*titles, "The Fairchild corpus"], papers_terms, 3, spellings)


def test_an_acronym_or_tag_no_title_says_is_no_label() -> None:
    from relatex.retrieval.theme_labels import label_terms

    weighted = [("bedz", 1.0), ("word sense disambiguation", 0.9)]
    papers_terms = [{"bedz", "word sense disambiguation"}] * 2
    titles = ["Word sense disambiguation bounds", "Estimating upper bounds for word sense disambiguation"]
    assert "BEDZ" not in label_terms(weighted, titles, papers_terms, 3, {"bedz": "BEDZ"})
    assert "BEDZ" in label_terms(weighted, [*titles, "BEDZ tags"], papers_terms, 3, {"bedz": "BEDZ"})


def test_words_of_a_tagged_example_make_no_label_terms() -> None:
    from relatex.retrieval.label_forms import untagged

    tagged = "A tagger. [The/AT principal/JJ figure/NN] in/IN [Trans-world/NP/NP] was/BEDZ [a/AT company/NN]"
    assert "company" not in untagged(tagged) and "BEDZ" not in untagged(tagged)
    assert "A tagger." in untagged(tagged)
    assert untagged("TCP/IP and A/B testing") == "TCP/IP and A/B testing"  # no tagged example


def test_a_known_name_is_capitalised_in_a_label() -> None:
    records = {pid: PaperRecord(id=pid, title=t, abstract=a) for pid, t, a in [
        ("a", "Lexical simplification from wikipedia edits", "We mine wikipedia edit histories."),
        ("b", "Sentence simplification with wikipedia", "Aligned wikipedia sentences for simplification."),
        ("c", "Learning to simplify with wikipedia", "Simplification models trained on wikipedia."),
    ]}
    [(label, terms)] = label_communities([["a", "b", "c"]], records)
    assert "wikipedia" not in label, label


def test_a_word_written_only_inside_a_tables_tokens_never_makes_a_label() -> None:
    table = "System BiBr.EF.1 BiBr.EF.2 BiBr.EF.3 BiBr.RE.1 Limited Unlimited 0.8 0.7 baseline of BiBr.EF.1"
    records = {
        "a": PaperRecord(id="a", title="An evaluation exercise for word alignment", abstract=table,
                         year=2003),
        "b": PaperRecord(id="b", title="Word alignment with bilingual bracketing",
                         abstract="We align words with bilingual bracketing. " + table, year=2003),
        "c": PaperRecord(id="c", title="Improving word alignment", abstract="Word alignment models.",
                         year=2004),
    }
    [(label, terms)] = label_communities([["a", "b", "c"]], records)
    assert terms and not any("bibr" in term.lower() for term in terms), label
    assert "word alignment" in terms


def test_a_table_given_as_an_abstract_names_no_theme() -> None:
    table = ("RANK CRIB. SCR. COMBINED STRING DATE-LOCAL WIDE-COS 1 0.18 protest/N (1) abhorrence/N "
             "protest/V protest/N protest/N 2 0.19 opening/N (1) protest/N system/N 3 0.24 break/N (1) "
             "protest/V 4 0.28 mouth/N (1) protest/V 5 0.29 objection/N (1) protest/V protest/V 6 (1) "
             "protest/N 7 0.30 protest/N")
    records = {
        "a": PaperRecord(id="a", title="Inducing translation lexicons via bridge languages",
                         abstract=table),
        "b": PaperRecord(id="b", title="Pivot language approach for phrase-based translation",
                         abstract=table),
        "c": PaperRecord(id="c", title="Dense passage retrieval",
                         abstract="Dense passage retrieval for open-domain question answering."),
        "d": PaperRecord(id="d", title="Dense retrieval with hard negatives",
                         abstract="Dense retrieval learns from hard negatives for question answering."),
    }
    labels = label_communities([["a", "b"], ["c", "d"]], records)
    assert labels[0][1] and not any("protest" in t for t in labels[0][1]), labels


def test_a_hyphenated_word_written_only_before_nouns_is_a_modifier() -> None:
    from relatex.retrieval.theme_labels import as_modifier_of

    texts = ["A shift-reduce parser for Chinese.", "We train shift-reduce parsers.", "Fast shift-reduce parsing."]
    assert as_modifier_of("shift-reduce", texts) == "shift-reduce parsers"
    assert as_modifier_of("shift-reduce", ["shift-reduce parsing", "shift-reduce conflicts", "shift-reduce actions"]) \
        == ""  # no noun recurs
    # a field's name written alone once is no modifier ("learning-to-rank.")
    fields = ["learning-to-rank models", "learning-to-rank methods", "we study learning-to-rank."]
    assert as_modifier_of("learning-to-rank", fields) is None
