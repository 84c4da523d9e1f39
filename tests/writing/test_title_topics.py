"""A paper's title read as the subject of a sentence."""

from __future__ import annotations

import random
import re

from relatex.retrieval.records import PaperRecord
from relatex.writing.closings import Style
from relatex.writing.contributions import Contribution, plural_head
from relatex.writing.offline_templates import TITLE_PAIRED, TITLE_TOPIC, title_paired
from relatex.writing.offline_writer import _paper_sentence
from relatex.writing.paper_subjects import title_as_subject
from relatex.writing.plan import PaperBrief, WritingPlan
from relatex.writing.theme_names import fits_label
from relatex.writing.title_topics import lowered, paper_topic, title_subject


def _said(title: str, phrase: str, seeds: int = 6, verb: str = "study") -> list[str]:
    """The sentences introducing one paper (key "p") by ``phrase``, one per template seed."""
    brief = PaperBrief(key="p", record=PaperRecord(id="p", title=title, abstract="An abstract."), layer="development")
    plan = WritingPlan(draft_title="", draft_abstract="", papers={"p": brief}, themes=(), reading_order=("p",),
                       relations={})
    contribution = Contribution(verb=verb, phrase=phrase)
    return [_paper_sentence(brief, contribution, [], plan, Style(random.Random(seed)), False) for seed in range(seeds)]


def _subject(title: str, phrase: str) -> tuple[str, bool]:
    brief = PaperBrief(key="p", record=PaperRecord(id="p", title=title, abstract=""))
    return title_as_subject(brief, Contribution(verb="propose", phrase=phrase))


def test_a_title_cut_short_in_its_record_names_no_subject() -> None:
    assert title_subject("Mining Very-Non-Parallel Corpora: Parallel Sentence and Lexicon Extraction via "
                         "Bootstrapping and E") == ("", False)
    assert title_subject("Bias in Search and Recommender Systems") == ("bias in search and recommender systems", False)
    # the last word is the start of a word of the abstract: "Labellin" of "labelling"
    abstract = "We present an unsupervised method for labelling the arguments of verbs with semantic roles."
    assert title_subject("Unsupervised Semantic Role Labellin", abstract) == ("", False)
    assert title_subject("Unsupervised Semantic Role Labelling", abstract)[0] == \
        "unsupervised semantic role labelling"
    assert title_subject("A Topic Model", "We study topic models.")[0] == "a topic model"  # a plural: no cut


def test_a_phrase_that_leaves_out_what_the_title_names_follows_the_title() -> None:
    for text in _said("Bias in Search and Recommender Systems", "the vicious cycle of bias"):
        assert text.startswith("Bias in search and recommender systems is the subject of \\citet{p}, who "), text
        assert text.endswith(" the vicious cycle of bias."), text
    # a phrase that names the title's words keeps the usual templates
    named = _said("Bias in Search and Recommender Systems", "bias in search and recommender systems on the Web")
    assert not any("the subject of" in text for text in named)
    assert not plural_head("bias in search and recommender systems") and plural_head("biases in search")


def test_the_title_is_no_subject_where_it_repeats_the_phrase_or_runs_long() -> None:
    assert _subject("The PageRank Citation Ranking: Bringing Order to the Web", "PageRank") == ("", True)
    title = "SPECTER: Document-level Representation Learning using Citation-informed Transformers"
    assert _subject(title, "SPECTER")[0].startswith("document-level representation learning")
    long_title = "The Use of MMR, Diversity-Based Reranking for Reordering Documents and Producing Summaries"
    assert _subject(long_title, "maximal marginal relevance") == ("", True)
    # and a paper on reranking is a paper on ranking
    assert fits_label(long_title, "", ["ranking"])


def test_a_gerund_title_is_a_subject_of_one_thing() -> None:
    text = _said("Improving Word Alignments with Graded Judgments", "a new measure of retrieval effectiveness",
                 seeds=1, verb="propose")[0]
    assert text.startswith("Improving word alignments with graded judgments is the subject of \\citet{p}, who "), text


def test_only_a_redone_act_counts_for_its_base() -> None:
    assert fits_label("Diversity-based reranking of documents", "", ["ranking"])
    # "research" is no search, "represent" no present
    assert not fits_label("Repeat purchase recommendations", "We found limited research on products.", ["product search"])


def test_a_short_plural_fits_its_singular() -> None:
    assert fits_label("Interpreting compound noun sequences", "", ["compound nouns"])  # "nouns": a noun
    assert fits_label("Modelling users of search engines", "", ["user"])
    assert fits_label("Class imbalance", "", ["class"]) and fits_label("Topic focus", "", ["focus"])


def test_the_kind_of_a_paper_is_not_its_subject() -> None:
    assert title_subject("Conversational Search: A Perspective Paper") == ("conversational search", False)
    assert title_subject("Perspective Paper") == ("", False)
    assert title_subject("Report on the SIGIR Workshop")[0] == "a report on the SIGIR workshop"


def test_a_named_shared_task_or_workshop_takes_the_definite_article() -> None:
    assert title_subject("CoNLL-X Shared Task On Multilingual Dependency Parsing") == \
        ("the CoNLL-X shared task on multilingual dependency parsing", False)
    assert title_subject("SIGIR 2016 Workshop on Neural Information Retrieval") == \
        ("the SIGIR 2016 workshop on neural information retrieval", True)
    assert title_subject("Neural IR Workshop Report") == ("a neural IR workshop report", True)
    assert title_subject("Shared Task on Paraphrase") == ("shared task on paraphrase", False)


def test_a_possessive_keeps_the_capital_its_abstract_gives_it() -> None:
    title = "Saarland's Multi-Pass Sieve Coreference Resolution System at the CoNLL-2011 Shared Task"
    named = "This paper details the coreference resolution system submitted by Saarland at the shared task."
    assert title_subject(title, named)[0].startswith("Saarland's multi-pass sieve")
    assert title_subject(title)[0].startswith("saarland's")  # no abstract to show the name: lower case
    assert title_subject(title.replace("Saarland", "Stanford"))[0].startswith("Stanford's")  # a known name
    assert title_subject("The Annotator's Dilemma", "We ask what an annotator does.")[0] == \
        "the annotator's dilemma"
    assert title_subject(title, "Saarland built it. The saarland system.")[0].startswith("saarland's")


def test_a_name_keeps_the_capital_its_abstract_gives_it() -> None:
    title = "Personalized Purchase Prediction of Market Baskets with Sinkhorn-Based Sequence Matching"
    abstract = "Dot products violate the triangle inequality. Here we propose a Sinkhorn-based loss."
    assert title_subject(title, abstract)[0] == \
        "personalized purchase prediction of market baskets with Sinkhorn-based sequence matching"
    assert "sinkhorn" in title_subject(title)[0]  # no abstract to show the name: lower case
    known = title.replace("Sinkhorn", "Wasserstein")  # a name relatex knows
    assert "with Wasserstein-based sequence" in title_subject(known)[0]
    assert title_subject("Efficient Estimation of Pagerank Values", "We speed up PageRank sums.")[0] == \
        "efficient estimation of PageRank values"  # spelled as the abstract spells it
    assert title_subject("Hierarchical Pitman-Yor Processes", "a dependent Pitman-Yor process model")[0] == \
        "hierarchical Pitman-Yor processes"
    # a common word, the title copied into its abstract, a Title-Case run, or a lower-case use: no name
    assert title_subject("Analysis of Design Practice", "We present the Analysis of design practice.")[0] == \
        "an analysis of design practice"
    assert title_subject("A Tangible System for Children's Storytelling",
                         "We built a tangible system for children's Storytelling in schools.")[0] == \
        "a tangible system for children's storytelling"
    assert title_subject("Kernel Methods for Graphs", "We use the Kronecker Product Kernel here.")[0] == \
        "kernel methods for graphs"
    assert "sinkhorn" in title_subject(title, "a Sinkhorn-based loss and a sinkhorn distance")[0]
    assert title_subject("Domain Identification Using Word2vec", "We train a word2Vec model on news.")[0] == \
        "domain identification using word2vec"  # no part of a word with a digit


def test_a_comma_without_its_space_in_a_title_is_read_as_a_comma() -> None:
    assert title_subject("A Phrase-Based,Joint Probability Model For Statistical Machine Translation")[0] == \
        "a phrase-based, joint probability model for statistical machine translation"


def test_a_plural_in_ies_or_es_fits_its_singular_and_news_is_no_plural() -> None:
    from relatex.analysis.claims.topic_claims import singular

    assert fits_label("Query expansion with word embeddings", "", ["queries"])
    assert fits_label("Learning from user studies", "", ["user study"])
    assert not fits_label("A new recommendation model", "", ["news recommendation"])
    assert [singular(w) for w in ("queries", "approaches", "corpora", "news", "analysis", "class")] == [
        "query", "approach", "corpus", "news", "analysis", "class"]


def test_names_a_title_case_hides_keep_their_usual_capitals() -> None:
    assert lowered("A Conditional Random Field Word Segmenter For Sighan Bakeoff 2005") == \
        "a conditional random field word segmenter for SIGHAN bakeoff 2005"
    assert lowered("The Conll-X Shared Task On Wordnet Senses") == "the CoNLL-X shared task on WordNet senses"
    assert lowered("Sentence Extraction For Arabic-English Translation") == \
        "sentence extraction for Arabic-English translation"


def test_a_title_whose_commas_join_clauses_or_a_slogan_names_no_topic() -> None:
    for title in ("Towards Conversational Search and Recommendation: System Ask, User Respond",
                  "Paper Books, Digital Books", "Ask, but Don't Interrupt", "Less Grammar, More Features",
                  "The Reliability of Anaphoric Annotation, Reconsidered"):
        assert paper_topic(title) == "", title
    assert paper_topic("Fidelity, Soundness, and Efficiency of Interleaved Comparison Methods") == \
        "fidelity, soundness, and efficiency of interleaved comparison methods"
    assert paper_topic("GnatDb: A Small-Footprint, Secure Database System") == \
        "a small-footprint, secure database system"
    assert paper_topic("NPtool, a Detector of English Noun Phrases") == \
        "NPtool, a detector of English noun phrases"
    assert paper_topic("11,001 New Features for Statistical Machine Translation") == \
        "11,001 new features for statistical machine translation"


def test_a_list_names_a_bare_head_as_its_papers_titles_do() -> None:
    from relatex.writing.theme_names import as_titles_say, fitted_label

    rules = [("Combining Sample Selection and Error-Driven Pruning for Machine Learning of Coreference Rules",
              "")]
    assert fitted_label(["coreference resolution", "rules"], rules) == "coreference rules"
    # the titles put different words before it, or none: the term as it is
    assert as_titles_say("parsing", ["Dependency Parsing with Graphs", "Fast Parsing"]) == "parsing"
    assert as_titles_say("parsing", ["Dependency parsing", "Parsing the web"]) == "parsing"
    assert as_titles_say("rules", ["Learning of Rules", "Mining of Rules"]) == "rules"  # "of" is no kind
    # a widened term that another term of the list already holds is said once
    ner = [("Biomedical Named Entity Recognition Using CRFs", ""), ("The Bio-Entity Recognition Task", "")]
    assert fitted_label(["named entity recognition", "recognition"], ner) == "named entity recognition"


def test_a_question_titles_subtitle_is_its_subject() -> None:
    from relatex.writing.agreement import plural_topic

    title = ("How Do Users Respond to Voice Input Errors? Lexical and Phonetic Query Reformulation in "
             "Voice Search")
    subject = "lexical and phonetic query reformulation in voice search"
    assert title_subject(title) == (subject, False)
    assert title_subject("Is Interactive Search Worth It? A Study of Session Logs") == \
        ("a study of session logs", True)
    assert title_subject("What Makes a Query Difficult?") == ("", False)  # a question alone names nothing
    # two modifiers sharing one head name one thing
    assert not plural_topic(subject) and plural_topic("coarse-to-fine parsing and discriminative reranking")
    # a Latin modifier of two words shares the head too ("in situ and context-aware ... selection is")
    assert not plural_topic("In situ and context-aware target apps selection for unified mobile search")
    assert plural_topic("in situ evaluation and crowdsourcing")
    for text in _said(title, "user experiments with native English speakers", verb="conduct"):
        assert text.startswith(f"{subject[:1].upper()}{subject[1:]} is the subject of "), text


def test_a_bare_name_is_said_beside_what_its_title_says_it_is() -> None:
    conv = "Convolutional Neural Networks for Soft-Matching N-Grams in Ad-hoc Search"
    assert _subject(conv, "Conv-KNRM") == (  # 9 words beside a name
        "convolutional neural networks for soft-matching n-grams in ad-hoc search", False)
    assert _subject("LightGCN: Simplifying and Powering Graph Convolution Network for Recommendation",
                    "a new model named LightGCN") == (
        "simplifying and powering graph convolution network for recommendation", False)
    said = _said("LightGCN: Simplifying and Powering Graph Convolution Network for Recommendation",
                 "a new model named LightGCN", verb="propose")
    opening = "Simplifying and powering graph convolution network for recommendation is "
    assert any(s.startswith(opening) for s in said)
    # a phrase that says what the thing is keeps the 8-word limit
    assert _subject("Convolutional Neural Networks for Soft-Matching N-Grams in Ad-hoc Search",
                    "a kernel pooling model for ranking") == ("", True)


def test_a_gerund_title_is_the_subject_of_a_paper_with_no_sayable_phrase() -> None:
    said = _said("Learning a Deep Listwise Context Model for Ranking Refinement", "")
    subject = "Learning a deep listwise context model for ranking refinement"
    assert set(said) == {f"{subject} is the subject of \\citet{{p}}.",
                         f"\\citet{{p}} focus on {subject[:1].lower()}{subject[1:]}."}
    # a gerund phrase is one activity: "is", whatever its object's number
    said = _said("Understanding the Needs of Searchers with Dyslexia", "")
    assert set(said) == {"Understanding the needs of searchers with dyslexia is the subject of \\citet{p}.",
                         "\\citet{p} focus on understanding the needs of searchers with dyslexia."}


def test_a_title_part_of_place_or_time_is_no_subject() -> None:
    assert title_subject("Neural Information Retrieval: At the End of the Early Years") == ("", False)
    assert title_subject("Beyond Pooling") == ("", False)
    in_situ = "In Situ and Context-Aware Target Apps Selection for Unified Mobile Search"
    assert title_subject(in_situ)[0].startswith("in situ and context-aware")


def test_a_title_naming_what_its_paper_reports_is_presented_and_a_bracketed_word_is_lowered() -> None:
    title = "Experiments with a Higher-Order Projective Dependency Parser"
    assert title_subject(title) == ("experiments with a higher-order projective dependency parser", True)
    topic = "experiments with a higher-order projective dependency parser"
    said = set(_said(title, "", seeds=8))
    assert said == {f"\\citet{{p}} present {topic}.", f"E{topic[1:]} are presented by \\citet{{p}}."}, said
    assert lowered("Bilingually-Constrained (Monolingual) Shift-Reduce Parsing") == \
        "bilingually-constrained (monolingual) shift-reduce parsing"
    assert lowered("The (BERT) Model") == "the (BERT) model"


def test_a_capital_inside_a_title_in_sentence_case_is_a_name() -> None:
    from relatex.writing.title_topics import lowered

    assert lowered("Combining Terrier with Apache Spark to create agile experimental information retrieval "
                   "pipelines") == "combining Terrier with Apache Spark to create agile experimental information " \
                                   "retrieval pipelines"
    # a subtitle's first word is no name; a title in title case shows no names by its capitals
    assert lowered("PyTerrier: Declarative experimentation in Python from BM25 to dense retrieval") == \
        "PyTerrier: declarative experimentation in Python from BM25 to dense retrieval"
    assert lowered("Learning To Rank For Information Retrieval and web search") == \
        "learning to rank for information retrieval and web search"


def test_title_sentences_in_a_row_do_not_repeat_one_frame() -> None:
    """A paragraph of papers said by their titles ("A is the subject of ..., B is the subject of ...")
    reads as a list: the frames alternate, and a title paired with a phrase after "the subject of"
    is said with "study ... and"."""
    titles = ["Exploiting Semantic Role Labeling for Coreference Resolution",
              "Improving Machine Learning Approaches to Coreference Resolution",
              "Understanding the Value of Features for Coreference Resolution",
              "Learning a Deep Listwise Context Model for Ranking Refinement"]
    for seed in range(8):
        style = Style(random.Random(seed))
        said = []
        for i, title in enumerate(titles):
            brief = PaperBrief(key=f"p{i}", record=PaperRecord(id=f"p{i}", title=title, abstract="An abstract."))
            said.append(_paper_sentence(brief, Contribution(), [], None, style, False))  # type: ignore[arg-type]
        frames = ["subject" if " is the subject of " in s else "focus" if " focus on " in s else s
                  for s in said]
        assert set(frames) == {"subject", "focus"}, said
        assert all(frames[i] != frames[i + 1] for i in range(len(frames) - 1)), said
    brief = PaperBrief(key="p", record=PaperRecord(id="p", title="Stochastic Attribute-Value Grammars",
                                                   abstract="An abstract."), layer="development")
    style = Style(random.Random(0), recent=[TITLE_TOPIC[1]])
    text = _paper_sentence(brief, Contribution(verb="propose", phrase="a new estimator"), [], None,  # type: ignore[arg-type]
                           style, False)
    assert re.fullmatch(r"\\citet\{p\} study stochastic attribute-value grammars and [a-z]+ a new estimator\.", text), text
    for seed in range(8):  # a phrase of the study class takes another verb: not "study X and study Y"
        style = Style(random.Random(seed), recent=[TITLE_TOPIC[1]])
        text = _paper_sentence(brief, Contribution(verb="study", phrase="generalizations of parsing algorithms"),
                               [], None, style, False)  # type: ignore[arg-type]
        assert text.startswith("\\citet{p} study stochastic") and " and study " not in text, text
    gerund = title_paired([TITLE_TOPIC[1]], "learning to rank with partial labels")
    assert gerund == TITLE_PAIRED[0]  # "study learning to rank ..." does not read: the subject again


def test_a_template_picked_when_all_were_used_lately_is_the_one_used_longest_ago() -> None:
    for seed in range(8):
        assert Style(random.Random(seed), recent=["a", "b", "c"]).pick(["c", "b", "a"]) == "a"
        assert Style(random.Random(seed), recent=["b", "x"]).pick(["a", "b"]) == "a"  # a fresh one first


def test_a_title_sentence_the_checker_refuses_in_one_frame_is_said_in_another() -> None:
    from relatex.writing.sentence_checks import well_formed

    record = PaperRecord(id="p", title="Accessible Information Seeking", abstract="Search is hard for many people.",
                         authors=("M. Morris",))
    brief = PaperBrief(key="p", record=record, layer="development")
    said = {_paper_sentence(brief, Contribution(), [], None, Style(random.Random(seed)), False)  # type: ignore[arg-type]
            for seed in range(8)}
    assert said == {"Accessible information seeking is the subject of \\citet{p}."}, said
    assert all(well_formed(text) for text in said)
