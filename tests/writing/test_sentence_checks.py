"""Garbled sentences are recognised: no main verb, a dangling ending, unbalanced quotes."""

from __future__ import annotations

import pytest

from relatex.writing.sentence_checks import garbled_reason, phrase_complete, sentences_garbled, well_formed


@pytest.mark.parametrize("sentence", [
    r"\citet{a} employ GreenSpyder to U.",
    r"The model has two key components, i.",
    r"\citet{a} propose a simple yet \u2026 similarity measure.",
    r"\citet{a} propose a method for the.",
    r"Also relevant is ``Dense Retrieval \citep{a}.",
    r"A large dataset of news articles \citep{a}.",
    r"\citet{a} propose the task of automatically writing.",
    r"One example is a new dataset built \citep{a}.",
    r"We take up ratings in a narrower setting: we find that the predictions.",
    r"Where these works treat social networks in general, we find the proposed model leads.",
    r"\citet{a} propose previous research to show.",
    r"Another contribution is due to \citet{a}, who introduce to train a neural ranking model.",
    r"It is based on a large-scale.",
    r"One example is a learning to rank model on the basis \citep{a}.",
    r"The work of \citet{a} analyses how the retrieval bias.",
    r"\citet{a}, in turn, present a better alternative for network embeddings?.",
    r"Their experiments show that its effectiveness is comparable.",
    r"Along similar lines, \citet{a} introduce a general framework named NCF, short.",
    r"An early contribution is that of \citet{a}, who introduce here to investigate a mixed approach.",
    r"Where these works treat information flow in general, we study and compare the performance.",
    r"\citet{a} likewise study specifically on Google Consumer Surveys.",
    r"In recent work, \citet{a} analyse the knowledge graph as the source.",
    r"\citet{a} examine the problem of page-wise recommendations aiming.",
    r"More recently, \citet{a} examine how two pretrained contextualized language models.",
    r"\citet{a}, in turn, examine how two pretrained contextualized language models for document ranking.",
    r"Bilingual parsing is the subject of \citet{a}, who present how simple, commonly understood statistical models.",
    r"Another contribution is due to \citet{a}, who propose a statistical to machine translation.",
    r"A related approach is taken by \citet{a}, who introduce a learning framework on the top.",
    "\\citet{a} build a parser for the \u0420\u0443\u0441\u0441\u043a\u0438\u0439 treebank.",  # Cyrillic
    "\\citet{a} release a corpus of \u4e2d\u6587 reviews.",  # CJK: pdfLaTeX stops on either
    "In contrast to these approaches to related entities, we leverage both content information.",
    r"In \citet{a}, the authors introduce a 2-Poisson model to estimate the frequency.",
    r"In \citet{a}, the author introduces a new means.",
    r"\citet{a} introduce a factorization method for providing users.",
    r"The work of \citet{a} studies if word-level relevance.",
    r"\citet{a} apply to predict security events.",
    r"\citet{a} describe empirical results on the utility.",
    r"We build on this work, but investigate the relationship between a range.",
    r"\citet{a} present a machine learning approach built under the framework.",
    r"More recently, \citet{a} develop using knowledge-aware learning.",
    r"Another contribution is due to \citet{a}, who apply the distance between the user.",
    r"\citet{a}, in turn, studies the logs.",
    r"In recent work, \citet{a} carries out research on modeling users, not just for fun but.",
    r"It is based on a rich set of linguistic.",
    r"\citet{a} develop a software solution for the acquisition.",
    r"Along similar lines, \citet{a} runs research on modeling users, not just.",
    r"Another contribution is due to \citet{a}, who apply the distance.",
    r"\citet{a} describe an evaluation of state.",
    r"Similarly, \citet{a} present a crowdsourced dataset devoid.",
    r"\citet{a} examines language models for informational.",
    r"\citet{a} analyse a new approach to predicting the size.",
    r"\citet{a} compare the models in terms.",
    r"\citet{a} rank the candidates in the order.",
    r"An early contribution is that of \citet{a}, who investigate a multi-stage retrieval architecture consisting.",
    r"Unlike these works on coherence, we demonstrate that while there are cases where coherence is poor.",
    r"Unlike these works on alignment, we prove that finding an optimal alignment.",
    r"In recent work, \citet{a} investigate how to and combine textual information from queries.",
])
def test_garbled_sentences_are_rejected(sentence: str) -> None:
    assert garbled_reason(sentence.replace(r"\u2026", "\u2026")), sentence


@pytest.mark.parametrize("sentence", [
    r"\citet{a} propose a sparse retrieval model for long documents.",
    r"Dense passage retrieval is the subject of \citet{a}.",
    r"Other work on query expansion includes~\citep{a,b,c}.",
    r"Their experiments show that distillation improves recall.",
    r"Unlike these works on retrieval, our system checks every citation.",
    r"\citet{a} study how users search for code.",
    r"\citet{a} study how users, experts and novices alike, search the web.",
    r"\citet{a} report a total of 40 annotated dialogues.",
    r"\citet{a} propose a statistical approach to machine translation.",
    r"They report that accuracy rises with more data.",
    r"\citet{a} show that dense retrieval outperforms BM25 \citep{b}.",
    r"\citet{a} examine whether pairwise learning can improve community recommendation.",
    r"Other work on citation recommendation includes~\citep{a,b}.",
    r"See also~\citep{a,b}.",
    r"\citet{a} provide users with explanations.",
    r"The approach applies to multilingual retrieval \citep{a}.",
    r"\citet{a} study the distance between users and items.",
    r"It is based on a rich set of linguistic features.",
    r"\citet{a} study the role of topic.",
    r"\citet{a} study the interplay between queries.",
    r"\citet{a} develop by hand a lexicon of emotions.",
    r"\citet{a} develop through crowdsourcing a lexicon of emotions.",
    r"\citet{a} study if users notice ranking changes.",
    r"\citet{a} examine whether rankings improved over time.",
    r"\citet{a} study how users with different search expertise and domain knowledge search.",
    r"\citet{a} analyse how people with little training formulate queries in voice search.",
    r"\citet{a} show that accuracy plateaued.",
    r"\citet{a} propose a model of both content and link information.",
    r"A second strand of research deals with relevance feedback and expansion terms \citep{a,b}.",
    r"\citet{a} study word order.",
    r"We prove that finding an optimal alignment is NP-hard.",
    r"\citet{a} show that, while recall rises, precision falls.",
    r"\citet{a} apply the model to and evaluate it on news.",
    "\\citet{a} propose a sparse model with a learned \u03b1 for M\u00fcller's \u201cdev\u201d corpus \u2014 news.",  # \alpha, Latin-1, quotes
])
def test_whole_sentences_pass(sentence: str) -> None:
    assert well_formed(sentence), garbled_reason(sentence)


def test_a_section_is_checked_sentence_by_sentence() -> None:
    text = "% a comment line.\n\n" + r"\citet{a} propose a parser. \citet{b} employ GreenSpyder to U."
    assert [reason for _, reason in sentences_garbled(text)] == ["ends on 'U'"]


def test_a_relative_clause_cut_before_its_verb_is_garbled() -> None:
    assert garbled_reason("Our work draws on it: a checker flags citations whose cited paper.")
    assert well_formed("Our work draws on it: a checker flags citations whose paper shows otherwise.")
    assert well_formed(r"\citet{a} introduce a user-dependent Gaussian prior.")  # "prior" is a noun here


@pytest.mark.parametrize("phrase", ["a new framework", "the information", "the first set of methods",
                                    "an approach to tackle the problem by dealing", "the processes which were developed",
                                    "the predictive performance of these baseline models",
                                    "the intuition", "her past searches", "two successful techniques",
                                    "the first systematic study", "a better alternative for network embeddings?",
                                    "a general framework named NCF, short", "the findings", "a comprehensive survey",
                                    "its potential for incremental processing and conclude",
                                    "user response prediction in the scenario", "how participants interact", "evaluation methods", "a three-step methodology", "a general prediction model", "specifically on Google Consumer Surveys",
                                    "a summary and discuss potential future work",
                                    "a standalone neural ranking model by introducing a sparsity property",
                                    "the first large-scale investigation", "an alternative approach",
                                    "a new research problem", "a formalization", "a data-driven variant",
                                    "three subproblems", "algorithms and methods", "a new dataset",
                                    "the details", "a new predictive framework", "a first prototype",
                                    "the results of an in-depth analysis", "the findings of an online study",
                                    "one of the key features", "all of the information available",
                                    "a generalizable approach", "one natural approach",
                                    "the lexical and aesthetic features",
                                    "an unsupervised learning algorithm for training a rule-based part",
                                    "a number of simple methods", "a variety of techniques",
                                    "the following three error criteria", "a learning framework on the top",
                                    "a user study", "an empirical study"])
def test_vague_cut_or_anaphoric_phrases_are_not_said(phrase: str) -> None:
    assert not phrase_complete(phrase)


def test_specific_phrases_are_said() -> None:
    assert phrase_complete("a cluster ranking approach based on Markov random fields")
    assert phrase_complete("a dual-sparse topic model")
    assert phrase_complete("how participants interact with voice assistants")
    assert phrase_complete("graded relevance evaluation methods") and phrase_complete("a neural ranking model")
    assert phrase_complete("the results of a study of query logs")
    assert phrase_complete("natural language interfaces to databases")
    assert phrase_complete("the lexical features of web documents")
    assert phrase_complete("a model trained in part") and phrase_complete("a tagger split into two parts")
    assert phrase_complete("a number of simple methods for improving word alignment")
    assert phrase_complete("a model following the encoder-decoder design")
    assert phrase_complete("a user study of voice search") and phrase_complete("the performance of rankers")


def test_a_phrase_thinner_than_its_title_is_recognised() -> None:
    from relatex.writing.title_coverage import thin_beside_title

    basket = "Personalized Purchase Prediction of Market Baskets with Wasserstein-Based Sequence Matching"
    assert thin_beside_title("similarity matching", basket)  # two specific words, most of the title left out
    assert thin_beside_title("two aspects of user intent prediction",  # parts counted, never named
                             "User Intent Prediction in Information-seeking Conversations")
    assert thin_beside_title("the utility of knowledge graph", "KGAT: Knowledge Graph Attention Network for Recommendation")
    # a definite phrase that says which only through the abstract, unless the title names it
    assert thin_beside_title("the reading protocol software", "A Reading Protocol for Eye Tracking Studies")
    assert not thin_beside_title("the probabilistic relevance framework",
                                 "The Probabilistic Relevance Framework: BM25 and Beyond")
    assert not thin_beside_title("the Berkeley FrameNet project", "The Berkeley FrameNet Project")
    assert not thin_beside_title("the first corpus of reading logs", "A Reading Protocol for Eye Tracking Studies")
    # ending on a definite noun that only the abstract's earlier sentences say
    assert thin_beside_title("a comprehensive experimental evaluation of the architecture",
                             "Topic Propagation in Conversational Search")
    assert thin_beside_title("three methods for training a neural network for estimating the probabilities",
                             "Discriminative Training of a Neural Network Statistical Parser")
    assert thin_beside_title("a cross-domain behavioral attention mechanism to perform the weighting",
                             "Neural Attentive Cross-Domain Recommendation")
    assert not thin_beside_title("a survey of the state of the art", "Dense Retrieval: A Survey")
    assert not thin_beside_title("a new measure of the structure", "Measuring Graph Structure")  # title says
    # specific enough, or the title says no more
    assert not thin_beside_title("query refinement using eye-tracking", "An Eye-Tracking Study of Query Reformulation")
    assert not thin_beside_title("a standalone neural ranking model", "From Neural Re-Ranking to Neural Ranking: "
                                 "Learning a Sparse Representation for Inverted Indexing")
    assert not thin_beside_title("situational context", "Situational Context in Search")
    assert not thin_beside_title("", basket) and not thin_beside_title("similarity matching", "")
    assert not thin_beside_title("DPRX", "Dense Passage Retrieval for Open-Domain Question Answering")  # a name
    assert thin_beside_title("a solution for ConvQA", "Attentive History Selection for Conversational Question "
                             "Answering")  # a task's acronym is not the paper's name
    # "making" names no topic, as "makes" does not: the participle is no more specific than the clause
    cutoff = "Dynamic Cutoff Prediction in Multi-Stage Retrieval Systems"
    assert thin_beside_title("a technique making a parameter prediction", cutoff)
    assert thin_beside_title("a technique that makes a parameter prediction", cutoff)
    assert not thin_beside_title("a technique that makes a parameter prediction to maximize efficiency", cutoff)


def test_a_method_sentence_needs_a_noun_phrase() -> None:
    from relatex.writing.contributions import Contribution
    from relatex.writing.phrase_attempts import usable_method

    assert usable_method(Contribution(phrase="a ranking model", method="a joint tensor factorization"))
    assert not usable_method(Contribution(phrase="a link predictor", method='measures the "proximity" of nodes'))
    assert not usable_method(Contribution(phrase="a ranking model", method="ranking"))  # one word says nothing
    # a way of doing it that names no way: "It builds on fully automated approaches."
    for method in ("fully automated approaches", "a simple method", "unsupervised techniques"):
        assert not usable_method(Contribution(phrase="a ranking model", method=method)), method
    for method in ("a multi-armed bandit method", "a latent factor model", "maximum entropy models"):
        assert usable_method(Contribution(phrase="a ranking model", method=method)), method


def test_a_grouped_number_is_never_cut_at_its_comma() -> None:
    from relatex.writing.contribution_extract import extract
    from relatex.writing.contributions import shorten

    found = extract("We present a system for identifying the semantic relationships filled by the constituents of "
                    "a sentence. The system is based on statistical classifiers trained on roughly 50,000 sentences "
                    "that were hand-annotated with semantic roles.", "Automatic Labeling of Semantic Roles")
    assert found.method == "statistical classifiers"  # was "statistical classifiers trained on roughly 50"
    found = extract("We present a parser for German. The parser is based on a treebank of 40,000 sentences that were "
                    "annotated by hand.", "A German Parser")
    assert found.method == "a treebank of 40,000 sentences"  # was "a treebank of 40"
    assert shorten("a corpus of over 10,000", 6) == "a corpus"
    assert shorten("an approach for discovering word categories, sets of words sharing an aspect of meaning", 8) == \
        "an approach for discovering word categories"  # not "..., sets"
    assert shorten("an F-score of 91.5 on", 8) == "an F-score of 91.5"


@pytest.mark.parametrize("sentence", [
    r"The approach rests on statistical classifiers trained on roughly 50.",
    r"\citet{a} collect a corpus of over 10,000.",
    r"\citet{a} propose a system for identifythe semantic relationships.",  # words run together in a PDF
    r"One example is an algorithm for anaphora res- olution \citep{a}.",  # hyphenated at a line end
    r"\citet{a} propose a new corpus that is suitedto their task.",
    r"\citet{a} propose a discriminative tree-to tree model.",
    r"According to their evaluation, a parser which is competitive in accuracy.",
    r"One example is an extension of a machine learning \citep{a}.",
    r"\citet{a} analyse thetime usage of a dependency parser.",
    r"\citet{a} explore the employment ofSA based query expansion.",
    r"It builds on collective information over a large body.",
    r"Early on, \citet{a} present the SDC PUNDIT,, system for processing language.",
    r"Unlike these works on search, we argue that there needs.",
    r"Unlike these works on parsing, we develop a new efficient parsing.",  # "a new efficient parsing [algorithm]"
    r"Early on, \citet{a} presents a new program, aligns texts.",  # "a new program, [which] aligns texts"
    r"A statistical to machine translation is developed by \citet{a}.",  # the article opening the sentence
    r"A new efficient parsing for dependency trees is presented by \citet{a}.",
    r"Recent work by \citet{a} proposes a weakly-supervised, general-purpose.",  # "..., and accurate algorithm"
])
def test_noise_of_pdf_abstracts_cut_counts_and_cut_phrases_are_garbled(sentence: str) -> None:
    assert garbled_reason(sentence), sentence


@pytest.mark.parametrize("sentence", [
    r"Their parser reaches an F-score of 91.5.",
    r"\citet{a} evaluate on SemEval 2007.",
    r"\citet{a} report results for the year 2000.",
    r"\citet{a} study dialogues collected by Forsythe.",  # a name, not words run together
    r"\citet{a} study pre- and post-retrieval predictors.",
    r"\citet{a} propose a built-in check for end-to-end training.",
    r"\citet{a} propose a parser which is competitive in accuracy.",
    r"\citet{a} propose a method for information retrieval.",
    r"\citet{a} study the human body.",
    r"\citet{a} present a new corpus, Multi-XScience.",  # an appositive name, not a modifier
    r"\citet{a} study update delivery mechanisms for prospective information needs.",
    r"\citet{a} learn a ranking for each query and give an understanding of its errors.",
    r"\citet{a} propose a learning to rank approach with a new string matching step.",
    r"\citet{a} present an approach for discovering word categories, sets of words.",  # a noun, then "of"
    r"\citet{a}, in turn, present a model of syntax, semantics and discourse.",
    r"\citet{a} present a model, outperforming baselines.",
    r"In contrast to these approaches to parsing, we devise a simple algorithm.",  # a draft's own verb
])
def test_whole_sentences_like_them_and_numbers_ending_whole_phrases_are_not(sentence: str) -> None:
    assert not garbled_reason(sentence), garbled_reason(sentence)


def test_two_joined_noun_phrases_take_a_plural_verb() -> None:
    from relatex.writing.contributions import plural_head

    assert plural_head("a Hidden Markov Model and an HMM-based chunk tagger")
    assert not plural_head("a model of syntax and a method for parsing")
    assert plural_head("Three generative, lexicalised models for statistical parsing")  # the comma hides the head
    assert not plural_head("One sense per discourse")


def test_a_claim_of_being_first_is_never_cut_from_what_it_is_first_in() -> None:
    from relatex.writing.contribution_extract import extract
    from relatex.writing.phrase_attempts import attempts

    title = "TF-Ranking: Scalable TensorFlow Library for Learning-to-Rank"
    found = extract("We introduce TensorFlow Ranking, the first open source library for solving large-scale ranking "
                    "problems in a deep learning framework.", title)
    phrases = [a.phrase for a in attempts(found, title)]
    assert "TensorFlow Ranking" in phrases
    assert all("first" not in p or "ranking problems" in p for p in phrases), phrases  # never "the first library"


def test_a_method_that_only_points_back_is_no_method() -> None:
    from relatex.writing.contribution_extract import extract

    for sentence in ("Our parser is based on the input, and learns weights from it.",
                     "The parser is based on this representation."):
        assert extract(f"We present a parser for German. {sentence}").method == "", sentence
    kept = extract("We present a parser for German. The parser is based on maximum entropy models.")
    assert kept.method == "maximum entropy models"
    # a definite phrase without a name says which only through the abstract's earlier sentences
    for sentence in ("The classifier is based on the subjective nouns.", "It builds on the user answers.",
                     "The feature is based on the path in the parse tree."):
        assert extract(f"We present a parser for German. {sentence}").method == "", sentence
    for sentence, method in (("The parser is based on the maximum entropy principle.", "the maximum entropy principle"),
                             ("The parser is based on the EM algorithm.", "the EM algorithm")):
        assert extract(f"We present a parser for German. {sentence}").method == method, sentence


def test_a_method_named_by_a_singular_count_noun_takes_its_article() -> None:
    from relatex.writing.contribution_extract import extract

    for sentence, method in (("Our model is based on question attention network.", "a question attention network"),
                             ("It relies on Maximum Entropy tagging method.", "a Maximum Entropy tagging method"),
                             ("It relies on a multi-armed bandit method.", "a multi-armed bandit method"),
                             ("It is based on Estimation stage and history.", "Estimation stage and history"),
                             ("It relies on word embeddings.", "word embeddings")):
        assert extract(f"We present a parser for German. {sentence}").method == method, sentence
    # how one step is done ("adaptively based on X") is no method; "entirely based on X" is
    adverbial = "Our model adjusts the structure of the graph adaptively based on status of model training."
    assert extract(f"We present a parser for German. {adverbial}").method == ""
    assert extract("We present a parser for German. Our model is entirely based on word embeddings.").method == \
        "word embeddings"


def test_what_other_work_is_based_on_is_not_the_papers_method() -> None:
    from relatex.writing.contribution_extract import extract

    for sentence in ("Most systems are optimized by using implicit user feedback, that is, clicks.",
                     "Existing algorithms usually extract visual features using off-the-shelf networks.",
                     "However, previous approaches rely on hand-crafted features.",
                     "State-of-the-art user models rely on coarse-grained representations of the user.",
                     "We generalize from eye tracking to using more accessible signals: mouse cursor traces.",
                     "We conduct extensive experiments using two of the largest personal search engines.",
                     "We compare our SVM-based system with a system using Maximum Entropy tagging method.",
                     "A drawback of this approach is that it is local: while decisions can be based on "
                     "complex structures on the left, they see few words to the right."):
        found = extract(f"We explore bias in recommender systems. {sentence} We find that bias grows.")
        assert found.method == "", sentence
    contrasted = extract("We explore bias in recommender systems. Compared to prior approaches, we develop a "
                         "method based on highly efficient random walks.")
    assert contrasted.method == "highly efficient random walks"  # set against others, not tested against them
    own = extract("We explore bias in recommender systems. Most systems are based on clicks. "
                  "Our model is based on maximum entropy models.")
    assert own.method == "maximum entropy models"  # the next method sentence, about the paper's own model
    contrasted = extract("We explore bias in recommender systems. Unlike existing methods, our approach is "
                         "based on topic extraction. We find that bias grows.")
    assert contrasted.method == "topic extraction"  # set against others, but the paper's own
    # the paper's own method named by its title, or "the proposed method", after a contrast
    named = extract("We cluster patients by their records. Unlike other partitioning methods, CRISP is "
                    "fit using a Bayesian hierarchical model. We find stable clusters.",
                    "CRISP: consistent clusters")
    assert named.method == "a Bayesian hierarchical model"
    proposed = extract("We cluster patients by their records. Unlike other partitioning methods, the "
                       "proposed method is based on a Bayesian hierarchical model. We find stable clusters.")
    assert proposed.method == "a Bayesian hierarchical model"
    for other in ("Unlike CRISP, the baseline is based on a Bayesian hierarchical model.",
                  "Unlike other partitioning methods, trees are based on a Bayesian hierarchical model."):
        found = extract(f"We cluster patients by their records. {other} We find stable clusters.",
                        "CRISP: consistent clusters")
        assert found.method == "", other


def test_a_pair_of_manner_adverbs_goes_with_its_and() -> None:
    from relatex.writing.contributions import without_asides

    assert without_asides("how to effectively and efficiently combine text") == "how to combine text"
    kept = "does not effectively use X and learns Y"  # a negated adverb stays
    assert without_asides("does not effectively use X and jointly learns Y") == kept


def test_a_latex_command_that_lost_its_backslash_or_braces_is_no_word() -> None:
    from relatex.writing.contribution_extract import extract

    for abstract in ("We propose emph{multi-product utility maximization} as a general approach to recommendation.",
                     "We propose emphmulti-product utility maximization as a general approach to recommendation."):
        assert extract(abstract).phrase.startswith("multi-product utility maximization"), abstract
    assert "emphasis" in extract("We present a parser with an emphasis on speed for German.").phrase


def test_a_phrase_cut_after_an_irregular_participle_is_incomplete() -> None:
    assert not phrase_complete("a general approach to recommendation driven")
    assert not phrase_complete("a lexicon drawn")
    assert phrase_complete("a general approach to recommendation driven by economic principles")


def test_an_indicator_without_what_it_indicates_is_incomplete() -> None:
    assert not phrase_complete("salience is a useful indicator")
    assert not phrase_complete("clicks are a noisy proxy")
    assert not phrase_complete("the approach achieves an improvement")  # of how much, in what: nothing said
    assert phrase_complete("the approach achieves an improvement of 8.5% in MAP")
    assert phrase_complete("salience is a useful indicator of relevance")


def test_an_amount_cut_after_up_is_incomplete() -> None:
    from relatex.writing.contributions import shorten

    assert not phrase_complete("the approach achieves an improvement of up")
    assert garbled_reason("According to their evaluation, the approach achieves an improvement of up.")
    assert not garbled_reason("This work builds the index up.")
    assert shorten("the approach achieves an improvement of up to 8.5% in MAP over strong baselines", 7) == \
        "the approach achieves an improvement"


def test_a_phrase_cut_after_a_quantifier_a_list_item_or_a_second_verb_is_incomplete() -> None:
    assert not phrase_complete("the reasons for some")  # some of what
    assert not phrase_complete("an in situ study to collect thousands")
    assert not phrase_complete("a distribution over source trees, target trees")  # the list lost its end
    assert not phrase_complete("a generative, phrase-based model and verify")  # verify what
    assert phrase_complete("a model, SBPR")
    assert phrase_complete("a process, combining crowdsourcing and computation")
    assert phrase_complete("a distribution over source trees and target trees")


def test_a_finding_never_starts_with_a_subordinate_clause() -> None:
    from relatex.writing.contribution_extract import extract

    abstract = ("We explore how well phrases cohere across two languages. We demonstrate that while "
                "there are cases where coherence is poor, there are many regularities.")
    assert not extract(abstract, "Phrasal Cohesion").result.startswith("while")


def test_a_phrase_cut_after_an_auxiliary_a_purpose_verb_or_a_language_is_incomplete() -> None:
    assert not phrase_complete("the associated experiments they have")
    assert not phrase_complete("three variant syntactic representations to determine")
    assert not phrase_complete("the translated portion of the Chinese")  # [Treebank]
    assert phrase_complete("the translated portion of the Chinese Treebank")
    assert phrase_complete("models for Chinese")
    assert not phrase_complete("analysis over different response types, model variations")
    assert not well_formed("They analyse the results using of theories of dyslexia.")
    assert not phrase_complete("establishes upper and lower bounds")  # on what
    assert not phrase_complete("links between passage structures, their tree spaces also include")


def test_a_dash_aside_is_cut_a_titles_html_tags_left_out_and_implements_a_verb() -> None:
    from relatex.writing.contributions import shorten
    from relatex.writing.title_topics import lowered

    assert shorten("an unsupervised stochastic model \u2013 the only resource they use", 12) == \
        "an unsupervised stochastic model"
    assert lowered("Bundle Recommendations on <i>Steam</i>") == "bundle recommendations on steam"
    assert well_formed("In contrast to these works, our toolkit implements suffix-array grammar extraction.")


def test_a_mangled_apostrophe_is_read_as_one_and_a_gerund_title_keeps_its_names() -> None:
    from relatex.writing.contribution_extract import extract
    from relatex.writing.paper_subjects import gerund_title

    phrase = extract("In this paper, we propose a module to aggregate a user\u00bbs history.").phrase
    assert "user's history" in phrase
    assert gerund_title("Generating and Personalizing Bundle Recommendations on <i>Steam</i>",
                        "We collect a new dataset from the Steam video game distribution platform.") == \
        "generating and personalizing bundle recommendations on Steam"


def test_an_adjective_after_its_noun_needs_its_complement_and_the_query_is_no_definite_end() -> None:
    from relatex.writing.title_coverage import thin_beside_title

    assert not phrase_complete("maximal marginal relevance, a criterion rewarding documents relevant")
    assert phrase_complete("a criterion rewarding documents relevant to the query")
    assert phrase_complete("documents that are relevant")
    assert not phrase_complete("a method for determining bilingual word classes suitable")
    assert phrase_complete("a method for determining bilingual word classes suitable for translation")
    # "relevant to the query" names no referent the abstract introduced: the phrase is not thin
    assert not thin_beside_title("a criterion rewarding documents relevant to the query",
                                 "The Use of MMR, Diversity-Based Reranking for Reordering Documents")


def test_a_list_of_compound_modifiers_cut_and_a_definite_noun_cut_from_its_of_phrase_are_incomplete() -> None:
    from relatex.writing.contributions import cut_before_of
    from relatex.writing.phrase_ends import list_cut_short

    assert list_cut_short("a method that retrieves counts for adjective-noun, noun-noun")
    assert not list_cut_short("a model of syntax, semantics and discourse")
    assert not list_cut_short("the parsing of text, respectively")
    # "the noun phrase antecedents" of what: the of-phrase says which, whatever the words between
    assert cut_before_of("an algorithm that identifies the noun phrase antecedents of third person pronouns",
                         "an algorithm that identifies the noun phrase antecedents")
    assert not cut_before_of("a parser for news text of high quality", "a parser for news text")


def test_the_different_tracks_point_back_into_the_abstract() -> None:
    from relatex.writing.sentence_checks import phrase_complete

    assert not phrase_complete("the tasks of the different tracks")
    assert phrase_complete("a comparison of different methods")


def test_a_family_of_measures_is_a_noun_and_its_members() -> None:
    from relatex.retrieval.word_classes import is_adjective_like
    from relatex.writing.sentence_checks import well_formed

    assert not is_adjective_like("family") and is_adjective_like("friendly")
    assert well_formed("Further afield, \\citet{k} presents ROUGE, a family of measures.")


def test_a_not_cut_from_its_but_is_garbled() -> None:
    """"classifying documents not by topic[, but by overall sentiment]": the first half of a contrast
    says the opposite of nothing; a negated predicate or a contrast after a comma is whole."""
    assert sentences_garbled("\\citet{a} study how to classify documents not by topic.")
    assert not sentences_garbled("\\citet{a} study documents that are not in English.")
    assert not sentences_garbled("\\citet{a} study how to rank documents by sentiment, not by topic.")
