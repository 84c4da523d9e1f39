"""Closing sentences claim nothing about the draft that its abstract or title does not give."""

from __future__ import annotations

import random
import re

from relatex.writing.aspect_compressions import compressions
from relatex.writing.closings import Style, assign_aspects, closing, sayable
from relatex.writing.copy_guard import CopyGuard
from relatex.writing.draft_aspects import DraftAspect, draft_aspects, evaluation_only
from relatex.writing.plan import ThemeOutline, WritingPlan
from relatex.writing.theme_names import theme_label
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
    assert draft_topic("Bilingually-Constrained (Monolingual) Shift-Reduce Parsing") == \
        "bilingually-constrained shift-reduce parsing"  # the aside is left out, as in the focus phrases
    assert draft_topic("How Do Users Search?") == ""
    assert draft_topic("Supervised Noun Phrase Coreference Research: The First Fifteen Years") == \
        "supervised noun phrase coreference research"  # not "our study of first fifteen years"
    assert draft_topic("Role of Word-Eye-Fixations for Query Term Prediction") == \
        "the role of word-eye-fixations for query term prediction"  # "our study of the role of ..."
    assert draft_topic("A Tale of Two Parsers: Investigating and Combining Parsers") == \
        "investigating and combining parsers"  # the gerund subtitle, never the figurative title
    assert draft_topic("A Study of Neural Matching Models for Cross-lingual IR") == \
        "neural matching models for cross-lingual IR"  # not "our study of study of ..."
    assert draft_topic("A Tale of Two Parsers: Dependency Parsing with Beam Search") == \
        "dependency parsing with beam search"


def test_label_terms_sharing_a_word_are_said_once() -> None:
    theme = ThemeOutline(id=1, label="", terms=("dependency parsing", "parsers", "treebanks"), keys=("a",))
    assert theme_label(theme) == "dependency parsing and treebanks"


def test_titles_with_a_verb_are_not_topics() -> None:
    from relatex.writing.title_topics import paper_topic, title_topic

    assert title_topic("Information Extraction Meets Relation Databases") == ""
    assert title_topic("Term Necessity Prediction") == "term necessity prediction"
    assert title_topic("Bayesian Nonparametric Analysis of Markov Chains") == \
        "Bayesian nonparametric analysis of Markov chains"  # proper adjectives and names keep their capital
    assert title_topic("Creation of Topic Maps in Chinese") == "the creation of topic maps in Chinese"
    assert title_topic("Attention Needs Structure") == ""
    assert paper_topic("My Phone and Me: Understanding People's Receptivity to Mobile Notifications") == ""
    assert title_topic("Delivery Mechanisms for Prospective Information Needs") == \
        "delivery mechanisms for prospective information needs"  # the needs of users: a noun


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


def test_a_study_kind_is_never_the_topic_of_our_study() -> None:
    assert draft_topic("Update Delivery Mechanisms for Information Access: A Reproducibility Study") == \
        "update delivery mechanisms for information access"  # was "our study of reproducibility study"
    assert draft_topic("An Eye Tracking Study of Web Search by People With and Without Dyslexia") == \
        "web search by people with and without dyslexia"
    assert draft_topic("A Reproducibility Study") == ""


def test_a_gerund_title_is_the_topic_of_our_work() -> None:
    topic = draft_topic("Optimizing Hyper-Phrase Queries")
    assert topic == "optimizing hyper-phrase queries"
    text = closing(THEME, None, Style(random.Random(2)), topic=topic)
    assert "our work on optimizing hyper-phrase queries" in text.replace("Our work", "our work"), text
    assert "study of optimizing" not in text.lower()


def test_a_compound_or_a_bare_noun_form_is_no_claim_in_a_title() -> None:
    assert draft_topic("Web-to-Voice Transfer for Product Recommendation on Voice") == \
        "web-to-voice transfer for product recommendation on voice"
    assert draft_topic("Consistency-Aware Recommendation for User-Generated Item List Continuation") == \
        "consistency-aware recommendation for user-generated item list continuation"
    assert draft_topic("Reciprocal Rank Fusion Outperforms Condorcet") == ""


def test_how_the_work_is_tested_does_not_set_it_apart() -> None:
    abstract = ("We propose a ranking model for email search. We conduct a comprehensive set of experiments on a "
                "large-scale email search dataset. We provide an experimental evaluation of our approach. "
                "We show in this paper.")
    assert [a.text for a in draft_aspects(abstract)] == ["propose a ranking model for email search"]
    assert evaluation_only("report experiments on five TREC collections")
    assert evaluation_only("evaluate the proposed solution on large collections")
    assert not evaluation_only("tests whether users notice ranking changes")  # a question is an objective
    assert not evaluation_only("present an extensive analysis of user utterances")
    # a result against other work would turn into a contrast with the theme's papers
    assert evaluation_only("is twice as accurate and over seven times as fast as the state-of-the-art")
    assert evaluation_only("runs faster than MERT") and evaluation_only("propose a better model of word order")
    assert not evaluation_only("aligns texts at the character level rather than the sentence level")
    assert evaluation_only("produce lexicons with higher precision than earlier techniques")  # a noun between
    assert not evaluation_only("learn a grammar with other features than words")
    assert not evaluation_only("rank answers by their order rather than their date")


def test_a_closing_drops_a_whole_inner_modifier_to_avoid_copying() -> None:
    text = "employs a Transformer with multi-head self-attention for feature learning"
    assert "employs a Transformer for feature learning" in compressions(text, action=True)
    text = "retrieves candidate papers from a local knowledge base with a hybrid of lexical and dense retrieval"
    assert "retrieves candidate papers with a hybrid of lexical and dense retrieval" in compressions(text, action=True)
    assert "propose a graph model for bundle recommendation" in \
        compressions("propose a graph model named BGCN for bundle recommendation", action=True)
    # a name of several words goes whole, up to the next preposition, never its first word alone
    named = compressions("propose unsupervised induction of similar schemata called narrative event chains "
                          "from raw newswire text", action=True)
    assert "propose unsupervised induction of similar schemata from raw newswire text" in named
    assert not any("schemata event chains" in c for c in named)
    cut = compressions("present an extensive analysis of language, relevance, dependency of user utterances in "
                        "a multi-turn conversation", action=True)
    assert all("analysis of" in c and not c.endswith("dependency") for c in cut)  # no kind alone, no cut list


def test_what_a_closing_can_say_counts_its_subject_against_the_copy_limit() -> None:
    abstract = "In this paper we study the problem of knowledge concept recommendation in online courses."
    guard = CopyGuard([abstract])
    aspect = DraftAspect("action", "we", "study the problem of knowledge concept recommendation")
    # "we study the problem of knowledge concept recommendation": 8 words; "our work studies ..." copies 6
    assert sayable(aspect, guard) == "studies the problem of knowledge concept recommendation"
    assert sayable(aspect) == "study the problem of knowledge concept recommendation"


def test_a_label_term_abbreviating_the_other_is_said_once() -> None:
    theme = ThemeOutline(id=0, label="cross-lingual information retrieval",
                         terms=("cross-lingual information retrieval", "CLIR models"), keys=("a",))
    assert theme_label(theme) == "cross-lingual information retrieval"


def test_the_fields_background_is_no_aspect_of_the_draft() -> None:
    abstract = ("Relevance is an essential concept in information retrieval. Although memorization is an important "
                "part of search, it is rarely studied. We propose a personalized user recommendation framework for "
                "content curation platforms that models preferences for both users and the items they engage with.")
    aspects = [a.text for a in draft_aspects(abstract)]
    assert aspects == ["propose a personalized user recommendation framework for content curation platforms"]


def test_a_closing_says_a_purpose_with_a_gerund_and_never_a_bare_container() -> None:
    assert "propose a feedback model for estimating a distribution of terms" in \
        compressions("propose a feedback model to estimate a distribution of terms", action=True)
    assert compressions("present a list", action=True) == []
    assert compressions("can automatically derive a mixture", action=True) == []
    assert compressions("show empirically, through experiments", action=True) == []
    assert compressions("optimizes the policy for logging data so", action=True) == []


def test_an_aspect_that_restates_the_theme_is_not_its_closing() -> None:
    theme = ThemeOutline(id=0, label="related-work sections", terms=("related-work sections",), keys=())
    plan = WritingPlan(draft_title="", draft_abstract="", papers={}, themes=(theme,))
    circular = DraftAspect("clause", "", "a writer drafts a related-work section")
    other = DraftAspect("action", "our system", "retrieves candidate papers")
    assert assign_aspects(plan, [theme], [circular]) == {}
    assert assign_aspects(plan, [theme], [circular, other])[0][0] == other


def test_a_sentence_citing_other_work_is_no_aspect_of_the_draft() -> None:
    abstract = ("We propose a ranking model for citation recommendation. In Lin and Och (2004), we proposed a "
                "framework that automatically evaluated translation metrics. We extend the parser of [12] to "
                "graphs. Our model also follows~\\cite{smith20} in reading full texts.")
    assert [a.text for a in draft_aspects(abstract)] == ["propose a ranking model for citation recommendation"]


def test_a_parenthetical_citation_leaves_the_draft_sentence_an_aspect() -> None:
    abstract = ("We offer a simple and scalable method for parameter tuning based on the pairwise approach to "
                "ranking (Herbrich et al., 1999).")
    assert [a.text for a in draft_aspects(abstract)] == [
        "offer a simple and scalable method for parameter tuning based on the pairwise approach to ranking"]


def test_a_title_naming_an_artefact_is_the_draft_not_a_study_of_it() -> None:
    topic = draft_topic("K-Vec: A New Approach For Aligning Parallel Texts")
    assert topic == "new approach for aligning parallel texts"
    for seed in range(6):
        text = closing(THEME, None, Style(random.Random(seed)), topic=topic)
        assert "our new approach for aligning parallel texts" in text.replace("Our new", "our new"), text
        assert "study of" not in text and "  " not in text


def test_an_action_the_draft_says_with_we_is_said_of_our_work_when_that_alone_copies_it() -> None:
    abstract = "In this work, we analyze the role of word-eye-fixations for predicting query terms."
    guard = CopyGuard([abstract])
    aspect = DraftAspect("action", "we", "analyze the role of word-eye-fixations for predicting query terms")
    assert sayable(aspect, guard) == "analyzes the role of word-eye-fixations"
    text = closing(THEME, (aspect, 2.0), Style(random.Random(0)), guard=guard)
    assert "our work analyzes the role of word-eye-fixations." in text.replace("Our work", "our work"), text
    assert guard.ok(text)
    used: set[str] = set()
    closing(THEME, (aspect, 2.0), Style(random.Random(0)), used, guard)
    assert closing(THEME, (aspect, 2.0), Style(random.Random(1)), used, guard) == ""  # one paragraph each


def test_only_a_base_verb_is_inflected_for_our_work() -> None:
    from relatex.writing.agreement import singular_action as _singular

    assert _singular("automatically derive rules and apply them") == "automatically derives rules and applies them"
    assert _singular("can predict query terms") == "can predict query terms"
    assert _singular("proposed a model") == ""
    assert _singular("uses a model") == ""
    assert _singular("address the task of POS tagging") == "addresses the task of POS tagging"


def test_what_this_paper_does_is_said_with_we_when_our_work_copies_it() -> None:
    abstract = ("This paper briefly describes the annotation, and presents and discusses the results achieved "
                "by the participating systems.")
    guard = CopyGuard([abstract])
    aspect = DraftAspect("action", "our work", "presents and discusses the results achieved by the participating "
                         "systems")
    assert sayable(aspect, guard) == "present and discuss the results achieved by the participating systems"
    text = closing(THEME, (aspect, 2.0), Style(random.Random(0)), guard=guard)
    assert "we present and discuss the results" in text.replace("We present", "we present"), text
    assert guard.ok(text)


def test_only_a_third_person_verb_is_said_in_its_base_form_for_we() -> None:
    from relatex.writing.agreement import plural_action

    said_with_we = {
        "examines whether role information helps": "examine whether role information helps",
        "studies two parsers and applies them": "study two parsers and apply them",
        "focuses on parsing": "focus on parsing",
        "uses a model": "use a model",
        "addresses the task": "address the task",
        "is deterministic": "",  # "we is": no verb to agree
        "can predict query terms": "",
        "proposed a model": "",
    }
    for action, said in said_with_we.items():
        assert plural_action(action) == said, action


def test_an_aspect_closes_one_paragraph_whichever_compression_says_it() -> None:
    aspect = DraftAspect("action", "we", "propose to improve the estimation of tail ratings")
    guard = CopyGuard(["We propose to improve the estimation of tail ratings by extending representations."])
    used: set[str] = set()
    first = closing(THEME, (aspect, 2.0), Style(random.Random(0)), used, guard)
    assert "estimation of tail ratings" in first
    assert closing(THEME, (aspect, 2.0), Style(random.Random(1)), used, guard) == ""  # not "... the estimation"


def test_a_title_on_the_development_of_something_takes_its_article() -> None:
    from relatex.writing.title_topics import paper_topic

    assert paper_topic("Development And Use Of A Gold-Standard Data Set For Subjectivity Classifications") == \
        "the development and use of a gold-standard data set for subjectivity classifications"


def test_a_compound_of_names_keeps_its_capitals_in_a_title_topic() -> None:
    from relatex.writing.title_topics import paper_topic

    assert paper_topic("A Maximum Entropy Word Aligner for Arabic-English Machine Translation") == \
        "a maximum entropy word aligner for Arabic-English machine translation"
    assert paper_topic("Statistical Machine Translation of Russian Texts") == \
        "statistical machine translation of Russian texts"


def test_what_the_draft_names_it_builds_does_is_said_of_our_artefact() -> None:
    abstract = ("Bundle recommendation aims to recommend a bundle of items. In this work, we propose a "
                "graph neural network model named BGCN for bundle recommendation. BGCN unifies user-item "
                "interaction and bundle-item affiliation into a joint graph. BGCN outperforms baselines.")
    aspects = draft_aspects(abstract)
    unifies = "unifies user-item interaction and bundle-item affiliation into a joint graph"
    assert DraftAspect("action", "our model", unifies) in aspects
    assert not any("outperforms" in a.text for a in aspects)  # a result against others contrasts no theme
    named = "We propose a term weighting framework (DeepCT). DeepCT maps term vectors to weights."
    assert DraftAspect("action", "our framework", "maps term vectors to weights") in draft_aspects(named)


def test_the_artefact_a_title_names_is_ours_even_in_a_descriptive_sentence() -> None:
    title = "Joshua: An Open Source Toolkit for Parsing-Based Machine Translation"
    abstract = ("We describe an open source toolkit for statistical machine translation. The toolkit also "
                "implements suffix-array grammar extraction. Joshua achieves state of the art performance.")
    aspects = draft_aspects(abstract, title=title)
    assert DraftAspect("action", "our toolkit", "implements suffix-array grammar extraction") in aspects
    assert not any("achieves" in a.text for a in aspects)  # a result, as for a name the abstract gives
    assert not any(a.subject == "our toolkit" for a in draft_aspects(abstract))  # no title: no name, no kind
    lead = "Learning: A Survey of Methods for Ranking"  # a subtitle whose head names no artefact
    assert not any(a.subject.startswith("our") for a in draft_aspects("Learning ranks documents well.", lead))
    word = "Search: A Tool for Finding Papers"  # a word the abstract writes in lower case is no name
    tool = draft_aspects("We build a tool for search. Search engines rank papers by their citations.", word)
    assert not any(a.subject == "our tool" for a in tool)


def test_an_aim_says_what_the_work_does_and_a_participle_lead_in_is_left_out() -> None:
    aims = "In this paper, we aim to investigate the brain activity associated with graded relevance."
    assert [a.text for a in draft_aspects(aims)] == \
        ["investigate the brain activity associated with graded relevance"]
    lead = ("We propose Choppy, a model for list truncation. Needing nothing more than the relevance "
            "scores of the results, the model uses a multi-head attention mechanism to optimize any metric.")
    assert "the model uses a multi-head attention mechanism to optimize any metric" in \
        [a.text for a in draft_aspects(lead)]


def test_a_list_is_never_cut_short_to_say_it() -> None:
    text = "unifies user-item interaction, user-bundle interaction and bundle-item affiliation into a graph"
    assert not any(c.endswith("user-bundle interaction") for c in compressions(text, action=True))


def test_a_name_the_draft_only_uses_is_not_its_artefact() -> None:
    used = "We use a pretrained language model (BERT) for ranking. BERT encodes each query and passage."
    assert not any(a.subject == "our model" for a in draft_aspects(used))


def test_every_coordinated_action_is_read_and_a_pronoun_object_says_nothing() -> None:
    collected = "In this paper, we collected and analyzed gaze data from searchers with dyslexia."
    assert [a.text for a in draft_aspects(collected)] == \
        ["collect and analyze gaze data from searchers with dyslexia"]
    both = "This paper describes and evaluates log-linear parsing models for CCG."
    assert [a.text for a in draft_aspects(both)] == \
        ["describes and evaluates log-linear parsing models for CCG"]
    three = "We report the results and describe the approaches of the participating systems."
    assert "describe the approaches of the participating systems" in [a.text for a in draft_aspects(three)]
    argued = "This paper presents a set of tools for regular relations and argues that they suit phonology."
    assert not any("they" in a.text for a in draft_aspects(argued))


def test_a_survey_says_what_it_surveys() -> None:
    survey = "This paper surveys the major milestones in supervised coreference research."
    assert [a.text for a in draft_aspects(survey)] == \
        ["surveys the major milestones in supervised coreference research"]


def test_a_family_without_what_it_is_a_family_of_is_a_thin_object() -> None:
    assert "analyze two families" not in compressions("analyze two families of such algorithms", action=True)
    milestones = "surveys the major milestones in coreference research since its inception"
    assert "surveys the major milestones" not in compressions(milestones, action=True)


BACKGROUND = "Search engines log the clicks of their users. "


def test_a_topic_the_draft_studies_is_not_its_own_artefact() -> None:
    studied = draft_aspects(BACKGROUND + "We investigate causal retrieval, which involves retrieving "
                            "a set of documents that describe potential causes.")
    assert [(a.subject, a.text) for a in studied] == [("we", "investigate causal retrieval")]
    built = draft_aspects(BACKGROUND + "We propose a new ranking model that learns relevance from clicks.")
    assert [(a.subject, a.text) for a in built] == [("our new ranking model", "learns relevance from clicks")]


def test_focusing_on_something_keeps_its_preposition() -> None:
    aspects = draft_aspects(BACKGROUND + "This paper focuses on the problem of learning word senses.")
    assert [a.text for a in aspects] == ["focuses on the problem of learning word senses"]
    assert draft_aspects(BACKGROUND + "We focus on it.") == []


def test_a_second_action_focusing_on_something_is_read() -> None:
    aspects = draft_aspects(BACKGROUND + "We collect a corpus of queries and focus on the parsing "
                            "of long queries.")
    assert [a.text for a in aspects] == ["collect a corpus of queries",
                                         "focus on the parsing of long queries"]


def test_no_closing_claims_a_relation_the_draft_never_states() -> None:
    from relatex.writing.offline_templates import CLOSING_ACTION

    # "We take up web pages in a narrower setting: we train models ..." said what the draft never said
    assert not any("narrower" in template for template in CLOSING_ACTION)
    aspect = DraftAspect("action", "we", "release the dataset of the annotations")
    said = {closing(THEME, (aspect, 4.0), Style(random.Random(seed))) for seed in range(30)}
    # three: "Where these works treat dense retrieval in general" would make releasing a dataset a case of it,
    # and "Within this line of work" needs a word of the label or the titles
    assert all("narrower" not in text for text in said) and len(said) == 3


def test_a_finding_of_the_draft_is_related_as_a_finding_not_as_a_step_of_its_design() -> None:
    abstract = ("We learn user representations from reviews and networks. We evaluated the model on Yelp reviews. "
                "The proposed model outperformed several baselines. The learnt user representations are also "
                "proved to be useful in content recommendation.")  # the last sentence concludes
    aspects = draft_aspects(abstract)
    assert [(a.kind, a.text) for a in aspects][-1] == (
        "finding", "the learnt user representations are proved to be useful in content recommendation")
    for seed in range(12):
        for score in (4.0, 0.0):
            text = closing(THEME, (aspects[-1], score), Style(random.Random(seed)))
            assert text.startswith(("Our results bear on", "Our findings add to")), text
            assert "design" not in text and "step" not in text


def test_a_clause_sharing_next_to_nothing_with_the_theme_gives_way_to_the_title() -> None:
    aspect = DraftAspect("clause", "", "the selected papers are grouped into themes")
    topic = "grounded related-work drafting"
    weak = closing(THEME, (aspect, 0.29), Style(random.Random(3)), topic=topic)
    assert topic in weak and "grouped into themes" not in weak, weak
    used = {"topic"}  # the title already closed another paragraph: the clause is said after all
    again = closing(THEME, (aspect, 0.29), Style(random.Random(3)), used=used, topic=topic)
    assert again.endswith("the selected papers are grouped into themes."), again
    strong = closing(THEME, (aspect, 2.0), Style(random.Random(3)), topic=topic)
    assert strong.endswith("the selected papers are grouped into themes."), strong


def test_a_task_is_said_without_the_problem_of_and_a_list_of_modifiers_goes_whole() -> None:
    assert "address unsupervised POS tagging" in compressions("address the task of unsupervised POS tagging",
                                                              action=True)
    assert "focuses on cross-lingual sentiment classification" in compressions(
        "focuses on the problem of cross-lingual sentiment classification", action=True)
    assert not any("study representing" in c for c in compressions("study the problem of representing products",
                                                                   action=True))
    said = compressions("present a weakly-supervised, general-purpose, and accurate algorithm for harvesting "
                        "semantic relations", action=True)
    assert "present an algorithm for harvesting semantic relations" in said
    # a list of nouns is what the draft presents: it is not cut
    assert compressions("present a parser, tagger, and chunker for German", action=True) == \
        ["present a parser, tagger, and chunker for German"]


def test_what_the_draft_views_something_as_is_said_without_a_problem_of() -> None:
    abstract = ("In this paper, we view coreference resolution as a problem of ranking candidate partitions "
                "generated by different coreference systems.")
    guard = CopyGuard([abstract])
    aspect = DraftAspect("clause", "", "we view coreference resolution as a problem of ranking candidate partitions "
                         "generated by different coreference systems")
    said = compressions(aspect.text)
    assert "we view coreference resolution as ranking candidate partitions generated by different coreference " \
        "systems" in said
    assert "we view coreference resolution as ranking candidate partitions" in said  # the participle goes whole
    assert sayable(aspect, guard) == "we view coreference resolution as ranking candidate partitions"
    text = closing(THEME, (aspect, 2.0), Style(random.Random(0)), guard=guard)
    assert "we view coreference resolution as ranking candidate partitions." in text, text


def test_is_able_to_is_said_can_and_the_drafts_our_is_kept_when_a_clause_is_cut() -> None:
    said = compressions("our formulation is able to handle non-local output features in an efficient manner")
    assert "our formulation can handle non-local output features" in said
    assert not any(s.startswith("their") for s in said)  # the draft's "our" stays the draft's


def test_a_verb_that_goes_on_with_to_is_not_cut_before_it() -> None:
    said = compressions("our proposed methods can automatically learn to capture document interactions without "
                        "any auxiliary information")
    assert not any(s.endswith("learn") for s in said), said


def test_a_closing_that_completes_a_run_with_the_sentence_before_is_made_again() -> None:
    from relatex.writing.closings import closing_that_fits

    abstract = "We apply a decision tree based approach to pronoun resolution in spoken dialogue. Our system deals."
    guard = CopyGuard([abstract])
    before = "\\citet{s0} present a machine learning approach to pronoun resolution in spoken dialogue."
    assert guard.ok(before) and guard.ok("Our study draws on this work.")
    assert not guard.ok_after(before, "Our study draws on this work.")  # "... in spoken dialogue. Our"
    assert guard.ok_after(before, "This work provides context for our study.")
    made = iter(["Our study draws on this work.", "This work provides context for our study."])
    used: set[str] = set()

    def make() -> str:
        text = next(made)
        used.update({f"{{template}} {text}", f"aspect:{text}"})
        return text

    assert closing_that_fits(make, used, lambda c: guard.ok_after(before, c)) == "This work provides context for our study."
    assert "{template} Our study draws on this work." in used  # the first template stays used, its aspect not
    assert "aspect:Our study draws on this work." not in used


def test_a_named_one_of_a_kind_is_said_with_its_article() -> None:
    from relatex.writing.theme_names import fits_label, join_terms, word_stems

    assert join_terms(["dependency parsing", "Penn Treebank"]) == "dependency parsing and the Penn Treebank"
    assert join_terms(["SIGHAN bakeoff"]) == "the SIGHAN bakeoff"
    assert join_terms(["parallel corpora", "treebanks"]) == "parallel corpora and treebanks"
    # the article changes nothing of what the label is about
    assert word_stems("the Penn Treebank") == word_stems("Penn Treebank")
    assert fits_label("Parsing the Penn Treebank", "", ["Penn Treebank"])


def test_an_action_is_set_against_the_theme_only_where_no_paper_does_it_too() -> None:
    from relatex.writing.closings import contrast_holds

    aspect = DraftAspect("action", "our work", "uses a publicly available structured output SVM")
    svm = [("Discriminative word alignment", "We train SVMs on aligned sentences.")]
    other = [("Discriminative word alignment", "We train a perceptron on aligned sentences.")]
    assert not contrast_holds(aspect.text, svm) and contrast_holds(aspect.text, other)
    assert contrast_holds("is deterministic", other) and not contrast_holds("is deterministic", [("A deterministic "
                                                                                                   "parser", "")])
    for score in (4.0, 0.0):
        said = {closing(THEME, (aspect, score), Style(random.Random(seed)), papers=svm) for seed in range(30)}
        assert said and not any(text.startswith(("Unlike", "In contrast", "Where these works")) for text in said), said
    contrasts = {closing(THEME, (aspect, 4.0), Style(random.Random(seed)), papers=other) for seed in range(30)}
    assert any(text.startswith(("Unlike", "In contrast")) for text in contrasts)


def test_a_clause_is_tied_to_a_theme_by_its_label_or_titles_not_by_words_scattered_in_abstracts() -> None:
    from relatex.retrieval.records import PaperRecord
    from relatex.writing.plan import PaperBrief

    def brief(key: str, title: str, abstract: str) -> PaperBrief:
        return PaperBrief(key=key, record=PaperRecord(id=key, title=title, abstract=abstract))

    papers = {"a": brief("a", "Threshold optimization using truncated score distributions",
                         "We optimize a threshold with a model of relevance scores."),
              "b": brief("b", "Relevance score normalization for metasearch",
                         "A model of scores that uses an attention to the metric of each engine.")}
    theme = ThemeOutline(id=0, label="relevance scores", terms=("relevance scores",), keys=("a", "b"))
    plan = WritingPlan(draft_title="", draft_abstract="", papers=papers, themes=(theme,))
    step = DraftAspect("clause", "", "the model uses a multi-head attention mechanism to optimize any metric")
    [(_, score)] = assign_aspects(plan, [theme], [step]).values()
    assert score < 1  # "model", "attention", "metric" are the abstracts' words: no step the theme bears on
    tied = DraftAspect("clause", "", "the cut-off depends on the scores of the ranked list")
    [(_, score)] = assign_aspects(plan, [theme], [tied]).values()
    assert score >= 1  # the label's and the titles' words
    action = DraftAspect("action", "we", "use a multi-head attention mechanism to optimize any metric")
    [(_, score)] = assign_aspects(plan, [theme], [action]).values()
    assert score >= 1  # an action is set against the theme, not said to be informed by it: any shared word


def test_a_contrast_on_a_new_approach_turns_on_what_it_is_for_acronyms_spelled_out() -> None:
    from relatex.writing.closings import contrast_holds, expansion

    draft = "Query rewriting (QR) replaces null queries. We present a new approach for pre-retrieval QR."
    assert expansion("QR", draft) == "query rewriting" and expansion("QR", "") == ""
    assert expansion("NMT", "neural machine translation (NMT) is used") == "neural machine translation"
    action = "presents a new approach for pre-retrieval QR of voice shopping null queries"
    rewriting = [("Voice search", "We study voice queries."), ("Mining logs", "We learn query rewriting rules.")]
    voice = [("Voice search", "We study voice queries."), ("Spoken queries", "We analyse spoken queries.")]
    assert not contrast_holds(action, rewriting, draft)  # a paper rewrites queries too
    assert contrast_holds(action, voice, draft)
    assert not contrast_holds(action, [("QR for mobile search", "We rewrite mobile queries.")], draft)
    # the words of the expansion in another order, a few words apart: the paper does it too
    assert not contrast_holds(action, [("Rewriting null e-commerce queries to recommend products", "")], draft)
    # what the approach is for counts only after a head that says nothing but that something was built
    assert contrast_holds("uses a structured output SVM for alignment", [("Alignment", "We align words.")])


def test_in_general_is_said_only_of_an_action_that_names_the_themes_head() -> None:
    other = [("Discriminative word alignment", "We train a perceptron on aligned sentences.")]
    for text in ("establishes upper and lower bounds on performance", "proposes a framework called PyTerrier"):
        aspect = DraftAspect("action", "our work", text)
        for score in (0.0, 4.0):  # sharing words with the theme's abstracts makes it no case of the theme
            said = {closing(THEME, (aspect, score), Style(random.Random(seed)), papers=other) for seed in range(30)}
            assert said and not any(t.startswith("Where these works") for t in said), said
    aspect = DraftAspect("action", "our work", "proposes sparse retrieval over learned term weights")
    said = {closing(THEME, (aspect, 4.0), Style(random.Random(seed)), papers=other) for seed in range(30)}
    assert "Where these works treat dense retrieval in general, our work proposes sparse retrieval over learned " \
        "term weights." in said, said


def test_an_action_sharing_no_word_with_the_theme_named_is_not_said_to_be_within_it() -> None:
    aspect = DraftAspect("action", "our work", "describes the OntoNotes annotation")
    in_abstract = [("Joint parsing and named entity recognition", "We train a joint model on the OntoNotes annotation.")]
    in_title = [("OntoNotes annotation of entities", "We describe the OntoNotes annotation of named entities.")]
    # a word of the papers' abstracts or titles says nothing of "this line of work on dense retrieval"
    for papers in (in_abstract, in_title):
        said = {closing(THEME, (aspect, 4.0), Style(random.Random(seed)), papers=papers) for seed in range(30)}
        assert {" ".join(text.split()[:3]) for text in said} == {"Against this background"}, said
    # "Within this line of work on head transducers, our work presents a method for transferring dependency
    # parsers": tied by "dependency" in a title; and "translation models" names no line by its "models"
    parsers = DraftAspect("action", "our work", "presents a method for transferring dependency parsers")
    transducers = ThemeOutline(id=0, label="head transducers", terms=("head transducers",), keys=("a",))
    titled = [("Dependency translation models as head transducers", "We learn head transducers.")]
    models = DraftAspect("action", "we", "define a direct probability model")
    translation = ThemeOutline(id=0, label="translation models", terms=("translation models",), keys=("a",))
    for theme, found in ((transducers, parsers), (translation, models)):
        said = {closing(theme, (found, 4.0), Style(random.Random(seed)), papers=titled) for seed in range(30)}
        assert said and not any("Within this line" in text for text in said), said
    # nor by a common modifier of the term: "faceted search interfaces" for "a dataset of 50 search sessions"
    facets = ThemeOutline(id=0, label="faceted search interfaces", terms=("faceted search interfaces",), keys=("a",))
    sessions = DraftAspect("action", "our work", "uses a dataset of 50 search sessions")
    said = {closing(facets, (sessions, 4.0), Style(random.Random(seed)), papers=titled) for seed in range(30)}
    assert said and not any("Within this line" in text for text in said), said
    # an action naming the theme's own words may be said to be within it
    aspect = DraftAspect("action", "our work", "describes dense retrieval over the OntoNotes annotation")
    said = {closing(THEME, (aspect, 4.0), Style(random.Random(seed)), papers=in_title) for seed in range(30)}
    assert any(text.startswith("Within this line of work on dense retrieval, our work describes") for text in said)
    # where the contrast holds too: "is deterministic" over papers that never say so is within none of them
    aspect = DraftAspect("action", "our system", "is deterministic")
    learning = [("A machine learning approach to coreference", "We learn a classifier of noun phrase pairs.")]
    said = {closing(THEME, (aspect, 4.0), Style(random.Random(seed)), papers=learning) for seed in range(30)}
    assert said and not any("Within this line" in text for text in said), said


def test_a_compressed_action_keeps_only_the_relation_its_own_words_support() -> None:
    text = "is deterministic and is driven entirely by syntactic and semantic compatibility"
    aspect = DraftAspect("action", "our system", text)
    guard = CopyGuard([f"In contrast to much current work, our system {text}."], limit=8)
    # "semantic" ties the whole action to the theme, but the closing can only say "is deterministic"
    theme = ThemeOutline(id=0, label="semantic compatibility", terms=("semantic compatibility",), keys=("a", "b"))
    papers = [("Semantic role labeling for coreference resolution", "Our deterministic system resolves mentions.")]
    said = {closing(theme, (aspect, 4.0), Style(random.Random(seed)), guard=guard, papers=papers)
            for seed in range(30)}
    assert said == {"Against this background of work on semantic compatibility, our system is deterministic."}, said
    from relatex.writing.closings import contrast_holds

    # the contrast turns on what the draft is said to be, not on a word of its second verb phrase
    assert not contrast_holds(text, papers) and contrast_holds(text, [("Coreference", "We learn entirely.")])


def test_no_closing_template_says_the_draft_draws_on_or_builds_on_a_theme() -> None:
    from relatex.writing.draft_focus import CLOSING_FOCUS, CLOSING_SHARED
    from relatex.writing.offline_templates import (
        CLOSING_ACTION,
        CLOSING_CLAUSE,
        CLOSING_FINDING,
        CLOSING_GENERIC,
    )

    # which works a draft uses (it "draws on" them, "builds on" them, they "inform" its design), no abstract
    # says: a closing relates the theme, it does not claim a use
    templates = (*CLOSING_ACTION, *CLOSING_CLAUSE, *CLOSING_FINDING, *CLOSING_GENERIC, *CLOSING_FOCUS, *CLOSING_SHARED)
    assert not [t for t in templates if re.search(r"draws on|builds? on|inform", t)], templates


def test_a_contrast_turns_on_the_object_before_a_comma_and_on_the_words_said() -> None:
    from relatex.writing.closings import contrast_holds

    # "In contrast to these approaches to word alignment, our work considers ... objectives" beside "A New
    # Objective Function for Word Alignment": the check had turned on "presentation", after the comma
    action = ("considers maximum margin and conditional likelihood objectives, including the presentation of a "
              "new normal form grammar")
    objective = [("A New Objective Function for Word Alignment", ""),
                 ("Semi-Supervised Training for Statistical Word Alignment", "We train on labelled data.")]
    assert not contrast_holds(action, objective)
    assert contrast_holds(action, objective[1:])
    aspect = DraftAspect("action", "our work", action)
    said = {closing(THEME, (aspect, 4.0), Style(random.Random(seed)), papers=objective) for seed in range(30)}
    assert said and not any(t.startswith(("Unlike", "In contrast", "Where these")) for t in said), said
    # a name before its appositive is no contrast alone: "Unlike these works, we propose Choppy" holds of any
    # papers, "an assumption-free model" does not
    retrieval = [("Retrieval models", "We study a probabilistic model of relevance.")]
    assert not contrast_holds("propose Choppy, an assumption-free model", retrieval)
    assert contrast_holds("propose Choppy, an assumption-free model", [("Query performance", "We predict it.")])


def test_no_contrast_turns_on_the_data_a_draft_uses() -> None:
    from relatex.writing.closings import contrast_holds

    # "Unlike these works on eye tracking, our work uses a dataset of 50 search sessions" beside an
    # eye-tracking study of searchers: the papers' studies had their data too
    study = [("What do exploratory searchers look at in a faceted search interface?",
              "This study examined how searchers interacted with a faceted library catalog, with eye tracking.")]
    assert not contrast_holds("uses a dataset of 50 search sessions obtained in the social sciences domain", study)
    assert contrast_holds("uses a structured output SVM", study)


def test_no_contrast_with_a_theme_the_draft_works_by() -> None:
    from relatex.writing.closings import draft_uses

    # make demo's draft groups its papers "by community detection": "In contrast to these approaches to
    # communities, our system selects a diverse, central subset" set it against what it uses
    draft = "We select a diverse, central subset. The selected papers are grouped into themes by community detection."
    assert draft_uses("communities", draft) and not draft_uses("dense retrieval", draft)
    communities = ThemeOutline(id=0, label="communities", terms=("communities",), keys=("a",))
    papers = [("Fast unfolding of communities in large networks", "We detect communities in large networks.")]
    aspect = DraftAspect("action", "our system", "selects a diverse, central subset")
    said = {closing(communities, (aspect, 4.0), Style(random.Random(seed)), papers=papers, draft=draft)
            for seed in range(30)}
    assert said and not any(t.startswith(("Unlike", "In contrast", "Where these")) for t in said), said
    said = {closing(communities, (aspect, 4.0), Style(random.Random(seed)), papers=papers, draft="We select.")
            for seed in range(30)}
    assert any(t.startswith(("Unlike", "In contrast")) for t in said), said
    # "by ensuring that their alignments ...": a verb after "by", not a means of the draft's
    assert not draft_uses("word alignment", "Methods gain guidance by ensuring that their alignments maintain cohesion.")
