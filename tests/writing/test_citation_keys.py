"""Key style detection, existing-key reuse and unique new keys."""

from __future__ import annotations

from pathlib import Path

from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.retrieval.records import PaperRecord
from relatex.writing.citation_keys import assign_keys, base_key, detect_key_style, unique_key

DPR = PaperRecord(id="arxiv:2004.04906", title="Dense Passage Retrieval for Open-Domain Question Answering",
                  authors=("Karpukhin, Vladimir", "Oğuz, Barlas", "Min, Sewon"), year=2020,
                  arxiv_id="2004.04906")


def entry(key: str, title: str = "T", authors: tuple[str, ...] = ("Doe, Jane",), year: int = 2020,
          doi: str | None = None, arxiv: str | None = None) -> BibEntry:
    return BibEntry(key=key, entry_type="article", fields={"title": title}, path=Path("refs.bib"), start=0,
                    end=1, title_plain=title, authors=authors, year=year, doi=doi, arxiv_id=arxiv)


def test_detects_common_styles() -> None:
    assert detect_key_style(["karpukhin2020dense", "lewis2020retrieval", "odd_key"]) == "surnameYEARword"
    assert detect_key_style(["Karpukhin:2020", "Lewis:2020"]) == "surname:YEAR"
    assert detect_key_style(["Karpukhin2020", "Lewis2020b"]) == "SurnameYEAR"
    assert detect_key_style(["karpukhin-etal-2020-dense", "lewis-2020-retrieval"]) == "acl"
    assert detect_key_style(["10.1145/3397271.3401075", "10.1145/1"]) == "doi"
    assert detect_key_style([]) == "surnameYEARword"


def test_base_keys_follow_the_style() -> None:
    assert base_key(DPR, "surnameYEARword") == "karpukhin2020dense"
    assert base_key(DPR, "surname:YEAR") == "Karpukhin:2020"
    assert base_key(DPR, "SurnameYEAR") == "Karpukhin2020"
    assert base_key(DPR, "acl") == "karpukhin-etal-2020-dense"
    two = DPR.with_changes(authors=("Oğuz, Barlas", "Min, Sewon"))
    assert base_key(two, "acl") == "oguz-min-2020-dense"  # accents folded


def test_unique_keys_avoid_collisions_case_insensitively() -> None:
    assert unique_key("karpukhin2020dense", {"Karpukhin2020Dense"}, "surnameYEARword") == "karpukhin2020denseb"
    assert unique_key("a-2020-x", {"a-2020-x"}, "acl") == "a-2020-x-2"


def test_existing_entries_are_reused_by_doi_arxiv_or_title() -> None:
    other = PaperRecord(id="doi:10.1/x", title="Something Else", authors=("Roe, Richard",), year=2019, doi="10.1/X")
    titled = PaperRecord(id="s2:1", title="Attention Is All You Need", authors=("Vaswani, Ashish",), year=2017)
    entries = [
        entry("dpr", arxiv="2004.04906"),
        entry("roe19", doi="https://doi.org/10.1/x"),
        entry("vaswani17", title="Attention is all you {N}eed", authors=("Ashish Vaswani",), year=2017),
        entry("karpukhin2020dense", title="Unrelated"),
    ]
    new_record = PaperRecord(id="x:1", title="Dense Retrieval Revisited", authors=("Karpukhin, V.",), year=2020)
    keys, new = assign_keys([DPR, other, titled, new_record], entries)
    assert keys == {"arxiv:2004.04906": "dpr", "doi:10.1/x": "roe19", "s2:1": "vaswani17",
                    "x:1": "karpukhin2020denseb"}
    assert new == {"x:1"}


def test_draft_key_wins() -> None:
    keys, new = assign_keys([DPR], [entry("mykey", arxiv="2004.04906"), entry("dpr")], {DPR.id: "dpr"})
    assert keys[DPR.id] == "dpr" and not new


def test_draft_key_without_entry_gets_the_new_entry() -> None:
    keys, new = assign_keys([DPR], [entry("other")], {DPR.id: "dpr-missing"})
    assert keys[DPR.id] == "dpr-missing" and new == {DPR.id}
