"""How a label's words are capitalised: acronyms a title shows, phrases capitalised throughout or not at all."""

from __future__ import annotations

from relatex.retrieval.label_forms import consistent_capitals, label_spellings, title_spellings
from relatex.retrieval.records import PaperRecord
from relatex.retrieval.theme_labels import label_communities


def test_a_titles_acronyms_and_inner_capitals_are_its_own() -> None:
    spellings = title_spellings([
        "LIUM's SMT Machine Translation Systems for WMT 2011", "LIMSI @ WMT11",
        "ILLC-UvA translation system for EMNLP-WMT 2011", "Using SVMs for Chunking"])
    assert spellings["lium"] == "LIUM" and spellings["smt"] == "SMT" and spellings["limsi"] == "LIMSI"
    assert spellings["illc-uva"] == "ILLC-UvA" and spellings["svms"] == "SVMs"
    assert "machine" not in spellings and "for" not in spellings  # title case says nothing of a word


def test_title_case_and_titles_in_capitals_give_no_spelling() -> None:
    spellings = title_spellings(["N-Gram Models For Large-Scale Part-of-Speech Tagging",
                                 "A STOCHASTIC PARTS PROGRAM AND NOUN PHRASE PARSER FOR UNRESTRICTED TEXT"])
    assert spellings == {}


def test_the_abstracts_spelling_wins_over_the_titles() -> None:
    spellings = label_spellings(["Lexical Choice in WORDNET"], ["We extend WordNet with new senses."])
    assert spellings["wordnet"] == "WordNet"


def test_capitals_that_stop_part_way_follow_the_whole_phrase() -> None:
    abstracts = ["We apply Support Vector Machines (SVMs) to identify English base phrases.",
                 "Our algorithm is based on support vector machines."]
    assert consistent_capitals("Support Vector machines", abstracts[:1]) == "Support Vector Machines"
    lower = ["We train graph convolutional networks on item graphs. They scale."]
    assert consistent_capitals("graph Convolutional networks", lower) == "graph convolutional networks"
    # names keep their capitals; a phrase the abstracts never write stays as it is
    assert consistent_capitals("Kyoto University corpus", ["Results on the Kyoto University corpus."]) == \
        "Kyoto University corpus"
    assert consistent_capitals("Chinese word segmentation", []) == "Chinese word segmentation"
    assert consistent_capitals("Support Vector machines", ["Nothing here."]) == "Support Vector machines"


def test_a_label_from_titles_alone_keeps_their_acronyms() -> None:
    records = {k: PaperRecord(id=k, title=t) for k, t in (
        ("a", "LIMSI @ WMT11: statistical translation systems"),
        ("b", "LIMSI's statistical translation systems for WMT'10"),
        ("c", "Statistical translation systems of LIMSI for the shared task"))}
    [(label, _)] = label_communities([["a", "b", "c"]], records)
    assert "limsi" not in label, label


def test_an_amount_or_an_impact_names_no_theme() -> None:
    from relatex.retrieval.theme_labels import label_term_ok

    for vague in ("amounts", "large amounts", "negative impacts", "impact"):
        assert not label_term_ok(vague), vague
    for kept in ("latent factors", "negative sampling", "discourse cues", "question answering", "user interests"):
        assert label_term_ok(kept), kept


def test_a_term_its_papers_only_write_before_varied_heads_is_no_label_term() -> None:
    from relatex.retrieval.label_forms import ends_no_phrase

    texts = ["The necessity of parsing for predicate argument recognition. We find predicate argument "
             "recognition needs full parses.",
             "We use predicate argument structures for information extraction.",
             "Question answer classification with predicate argument features helps."]
    assert ends_no_phrase("predicate argument", texts)
    # a head some text ends a phrase on, one follower always (extended instead), a single word: terms
    assert not ends_no_phrase("machine translation", [
        "Machine translation systems differ.", "We study machine translation quality.",
        "Errors in machine translation."])
    chunks = ["noun phrase chunks", "noun phrase chunks here", "noun phrase chunks"]
    assert not ends_no_phrase("noun phrase", chunks)
    assert not ends_no_phrase("parsing", texts)
    ranking = ["Neural ranking models learn.", "We train neural ranking models.", "A neural ranking method."]
    assert not ends_no_phrase("neural ranking", ranking)  # an activity names a field alone


def test_a_term_led_by_an_adverb_names_no_theme() -> None:
    from relatex.retrieval.theme_labels import label_term_ok

    assert not label_term_ok("closely related problems") and not label_term_ok("highly relevant documents")
    assert label_term_ok("weakly supervised learning") and label_term_ok("anomaly detection")
    assert label_term_ok("early detection") and label_term_ok("family history")


def test_a_named_one_of_a_kind_stays_singular_a_kind_goes_plural() -> None:
    from relatex.retrieval.label_forms import count_noun_plural, names_one_thing

    # "work on Penn treebank" needs "the"; "work on parallel corpus" is no English, "parallel corpora" is
    assert count_noun_plural("Penn treebank", []) == "Penn treebank"
    assert count_noun_plural("SIGHAN bakeoff", []) == "SIGHAN bakeoff"
    assert names_one_thing("Penn treebank") and names_one_thing("Chinese word segmentation bakeoff")
    assert count_noun_plural("parallel corpus", []) == "parallel corpora"
    assert count_noun_plural("knowledge graph", ["knowledge graph embedding"]) == "knowledge graphs"
    assert count_noun_plural("parse tree", []) == "parse trees"
    assert count_noun_plural("graph", ["A graph-based model.", "A graph model."]) == "graph"  # a modifier alone
    assert not names_one_thing("treebank") and not names_one_thing("parallel corpus")
    assert not names_one_thing("Bayesian network")  # a kind: "Bayesian networks"


def test_a_label_says_what_not_how_well_how_many_or_where() -> None:
    from relatex.retrieval.label_forms import label_term_form
    from relatex.retrieval.theme_labels import label_term_ok

    assert label_term_form("effective neural CLIR", [], []) == "neural CLIR"
    assert label_term_form("effective reranking", [], []) == "effective reranking"  # the word is all it has
    assert not label_term_ok("single query")
    assert not label_term_ok("subdocument level")
    assert not label_term_ok("standard")  # "unsupervised part-of-speech tagging and standard"
    assert not label_term_ok("limited knowledge") and not label_term_ok("relevant documents")  # how much, which
    assert not label_term_ok("predicate argument")  # "predicate-argument" written apart: no noun
    assert not label_term_ok("precision") and label_term_ok("precision medicine")  # a measure alone
    assert label_term_ok("predicate argument structures")
    # a bare plural of a kind of artefact names no line of work ("machine translation and grammars")
    for vague in ("alignments", "grammars", "rules", "parsers", "constituent", "section"):
        assert not label_term_ok(vague), vague
    assert label_term_ok("word alignment") and label_term_ok("synchronous grammars") and label_term_ok("alignment")
    assert label_term_ok("constituent parsing")  # a modifier alone ("parsers and constituent") is none


def test_mobile_names_a_theme_only_inside_a_title_phrase() -> None:
    from relatex.retrieval.theme_labels import label_terms

    terms = [{"mobile", "push"}, {"mobile", "push"}, {"mobile"}]
    weighted = [("mobile", 1.0), ("push", 0.8)]
    titles = ["Mobile Notifications in the Wild", "Predicting Mobile Notifications", "A Study of Phones"]
    assert label_terms(weighted, titles, terms)[0] == "mobile notifications"
    assert "mobile" not in label_terms(weighted, ["Push Systems", "Push Delivery", "Phones"], terms)


def test_a_term_written_only_after_a_hyphen_is_named_with_the_word_before() -> None:
    from relatex.retrieval.label_forms import hyphen_joined
    from relatex.retrieval.theme_labels import label_term_ok

    texts = ["We model user-generated lists.", "User-generated lists of items are common."]
    assert hyphen_joined("generated lists", texts) == "user-generated lists"
    assert hyphen_joined("generated lists", [*texts, "Automatically generated lists."]) == "generated lists"
    assert hyphen_joined("generated lists", texts[:1]) == "generated lists"  # once is no usage
    # pieces and modifiers that name no theme alone
    assert not label_term_ok("resolution") and not label_term_ok("combination")
    assert not label_term_ok("dynamic user") and label_term_ok("Twitter users")
    from relatex.retrieval.theme_labels import label_terms

    assert "mouse" not in label_terms([("mouse", 1.0)], ["Mouse Movements", "Mouse Cursors", "Gaze"],
                                      [{"mouse"}, {"mouse"}, {"mouse"}])
    assert "lists" not in label_terms([("lists", 1.0)], ["Lists of Items", "Bundles", "Gaze"], [{"lists"}] * 3)
    assert label_terms([("lists", 1.0)], ["Item Lists", "Recommending Item Lists", "Gaze"], [{"lists"}] * 3) \
        == ("item lists",)
    # a unit of time and a participle without its agent name nothing ("seconds looking", "[user] generated lists")
    assert not label_term_ok("seconds looking") and not label_term_ok("generated lists")
