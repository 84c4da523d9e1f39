"""Claims: cited sentences as plain text with offsets back to the source."""

from __future__ import annotations

from pathlib import Path

from relatex.analysis.latex.claim_extraction import source_sentences
from relatex.analysis.latex.latex_project import load_project
from relatex.analysis.latex.latex_scan import mask_text


def _project(tmp_path: Path, body: str) -> tuple[Path, str]:
    root = tmp_path / "paper.tex"
    text = "\\documentclass{article}\n\\begin{document}\n" + body + "\n\\end{document}\n"
    root.write_text(text)
    return root, text


def test_one_claim_per_citation_group(tmp_path: Path) -> None:
    body = (
        "Intro sentence without citations. Dense retrieval beats BM25~\\citep{karpukhin2020} "
        "while sparse models stay competitive \\citep{formal2021, lin2021}. \\citet{lewis2020} "
        "show that retrieval helps generation. \\cite{guu2020} proposed REALM."
    )
    root, text = _project(tmp_path, body)
    project = load_project(root)
    claims = [(c.keys, c.text) for c in project.claims]
    sentence = "Dense retrieval beats BM25 while sparse models stay competitive."
    assert claims == [
        (("karpukhin2020",), sentence),
        (("formal2021", "lin2021"), sentence),
        (("lewis2020",), "This work show that retrieval helps generation."),
        (("guu2020",), "This work proposed REALM."),
    ]
    first, second, third, _ = project.claims
    assert (first.start, first.end) == (second.start, second.end)
    assert text[first.start:first.end].startswith("Dense retrieval") and text[first.end - 1] == "."
    assert text[first.cite_start:first.cite_end] == "\\citep{karpukhin2020}"
    assert text[second.cite_start:second.cite_end] == "\\citep{formal2021, lin2021}"
    assert text[third.cite_start:third.cite_end] == "\\citet{lewis2020}"
    for claim in project.claims:
        assert len(claim.offsets) == len(claim.text)
        for index, ch in enumerate(claim.text):
            if ch.isalpha() and not claim.text.startswith("This work"):
                assert text[claim.source_offset(index)] == ch


def test_abbreviations_ties_and_comments_do_not_split_claims(tmp_path: Path) -> None:
    body = (
        "As noted by Smith et al.~\\cite{smith}, models (e.g.\\ BERT) reach 3.5 points on Fig.~\\ref{f}\n"
        "% a commented line inside the sentence\n"
        "and vs.\\ baselines improve, cf. Sec.~2 \\cite{jones}. Next sentence."
    )
    root, _ = _project(tmp_path, body)
    project = load_project(root)
    expected = ("As noted by Smith et al., models (e.g. BERT) reach 3.5 points on Fig. [ref] and vs. "
                "baselines improve, cf. Sec. 2.")
    assert [(c.keys, c.text) for c in project.claims] == [(("smith",), expected), (("jones",), expected)]


def test_nocite_bare_citations_and_headings_give_no_claims(tmp_path: Path) -> None:
    body = "\\section{Results~\\cite{inheading}}\\label{s}\nShort.\n\n\\cite{bare}\n\n\\nocite{hidden}\n"
    root, _ = _project(tmp_path, body)
    project = load_project(root)
    assert project.cited_keys() == ("inheading", "bare", "hidden")
    assert project.claims == ()


def test_pointer_sentences_state_nothing_to_check(tmp_path: Path) -> None:
    body = ("Dense retrieval is popular. See also~\\citep{a,b}. For more details, see~\\cite{c}. "
            "Cf.~\\cite{d}. See \\cite{e} for a survey of dense retrieval.")
    root, _ = _project(tmp_path, body)
    project = load_project(root)
    assert project.cited_keys() == ("a", "b", "c", "d", "e")
    assert [c.keys for c in project.claims] == [("e",)]  # a survey of dense retrieval: something to check


def test_footnote_and_caption_sentences_are_their_own_claims(tmp_path: Path) -> None:
    body = (
        "Main text\\footnote{As argued in \\cite{fn}.} continues here.\n"
        "\\begin{figure}\\caption{Accuracy of models \\cite{cap}.}\\end{figure}"
    )
    root, _ = _project(tmp_path, body)
    project = load_project(root)
    assert [(c.keys, c.text) for c in project.claims] == [
        (("fn",), "As argued in."),
        (("cap",), "Accuracy of models."),
    ]


def test_source_sentences_respect_paragraphs_and_environments() -> None:
    source = "First one.\n% comment only\nSame sentence? No.\n\n\\begin{itemize}\\item A~\\cite{x}. \\item B\n\\end{itemize}"
    ranges = source_sentences(source, mask_text(source))
    assert [source[a:b] for a, b in ranges] == [
        "First one.", "Same sentence?", "No.", "A~\\cite{x}.", "B",
    ]


def test_author_and_year_of_one_work_form_one_group(tmp_path: Path) -> None:
    body = "Moreover, \\citeauthor{e}~(\\citeyear{e}) argue that scaling helps."
    root, _ = _project(tmp_path, body)
    project = load_project(root)
    assert [(c.keys, c.text) for c in project.claims] == [(("e",), "Moreover, this work argue that scaling helps.")]
    assert len(project.citations) == 2
