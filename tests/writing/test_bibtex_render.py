"""Records rendered as BibTeX entries: types, escaping, protected capitals."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from relatex.retrieval.records import PaperRecord
from relatex.writing.bibtex_render import (
    entry_fields,
    entry_type_for,
    escape_bare_specials,
    latex_accents,
    protect_title,
    render_entry,
)


def test_plain_records_are_escaped_and_protected() -> None:
    record = PaperRecord(id="arxiv:2304.01234", title="BERT & Friends: 100% of $ for C# in my_file ~ ^",
                         authors=("Ada Lovelace",), year=2023, arxiv_id="2304.01234", venue="arXiv")
    fields = entry_fields(record)
    assert fields["title"] == (r"{BERT} \& Friends: 100\% of \$ for C\# in my\_file \textasciitilde{} "
                               r"\textasciicircum{}")
    assert entry_type_for(record) == "misc"
    assert fields["eprint"] == "2304.01234" and fields["archiveprefix"] == "arXiv"
    text = render_entry(record, "lovelace2023bert")
    assert text.startswith("@misc{lovelace2023bert,") and text.count("{") == text.count("}")


def test_venue_decides_the_entry_type() -> None:
    conf = PaperRecord(id="d", title="T", venue="Proceedings of SIGIR 2020", year=2020, doi="10.1/a")
    journal = PaperRecord(id="e", title="T", venue="Information Retrieval Journal", year=2020)
    assert entry_type_for(conf) == "inproceedings" and entry_fields(conf)["booktitle"].startswith("Proceedings")
    assert entry_type_for(journal) == "article" and "journal" in entry_fields(journal)


def test_bib_sourced_values_keep_latex_but_escape_bare_specials() -> None:
    record = PaperRecord(
        id="acl:x", title="Q&A over Tables", authors=("M{\\\"u}ller, Jan",), year=2021, source="acl",
        bibtex_type="inproceedings",
        bibtex_fields={"title": "{Q&A} over Tables with $x_1$", "booktitle": "Proc. of ACL & Friends",
                       "pages": "1-10", "abstract": "long text 50%", "url": "https://x.org/a_b"},
    )
    fields = entry_fields(record)
    assert fields["title"] == r"{Q\&A} over Tables with $x_1$"
    assert fields["booktitle"] == r"Proc. of ACL \& Friends"
    assert fields["pages"] == "1--10" and fields["url"] == "https://x.org/a_b"
    assert "abstract" not in fields and fields["author"] == "M{\\\"u}ller, Jan"


def test_title_protection() -> None:
    assert protect_title("Using GPT-4 and DeepWalk on Graphs") == "Using {GPT-4} and {DeepWalk} on Graphs"
    assert protect_title("{Already} Protected") == "{Already} Protected"
    assert escape_bare_specials(r"a \& b & c $x_1$ d_e") == r"a \& b \& c $x_1$ d\_e"


@given(st.text(min_size=1, max_size=80), st.text(max_size=40))
@settings(max_examples=150, deadline=None)
def test_any_record_renders_to_a_parseable_entry(title: str, venue: str) -> None:
    from pathlib import Path

    from relatex.analysis.bib.bibtex import parse_bib_text
    from relatex.writing.latex_validator import balance_braces

    record = PaperRecord(id="x:1", title=title, authors=("Doe, Jane", "Roe {R}ichard"), year=2020,
                         venue=venue or None)
    text = render_entry(record, "doe2020x")
    assert balance_braces(text)[1] == 0
    parsed = parse_bib_text(text, Path("new.bib"))
    assert [e.key for e in parsed.entries] == ["doe2020x"] and not parsed.findings


def test_accented_names_are_written_as_latex_accents() -> None:
    record = PaperRecord(id="doi:10.1/x", title="Ranking für Anfänger – naïve Methods", year=2008,
                         authors=("Schütze, Hinrich", "Jégou, Hervé", "Łukasz Dvořák", "Ørsted, Straße"),
                         venue="Proceedings of SIGIR", doi="10.1/x")
    fields = entry_fields(record)
    assert fields["author"] == (r'Sch{\"u}tze, Hinrich and J{\'e}gou, Herv{\'e} and {\L}ukasz Dvo{\v{r}}{\'a}k '
                                r"and {\O}rsted, Stra{\ss}e")
    assert fields["title"] == r'Ranking f{\"u}r Anf{\"a}nger -- na{\"{\i}}ve Methods'
    assert fields["doi"] == "10.1/x" and render_entry(record, "k").isascii()
    # values that are LaTeX already are left alone
    assert latex_accents(r'M{\"u}ller') == r'M{\"u}ller' and latex_accents("李") == "李"
