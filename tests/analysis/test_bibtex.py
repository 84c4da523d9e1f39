"""Parsing .bib text: exact ranges, fields, macros, identifiers, broken blocks, caching, streaming."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from relatex.analysis.bib import bibtex
from relatex.analysis.bib.bibtex import (
    decode_latex,
    iter_bib_blocks,
    iter_bib_entries,
    load_bib_file,
    parse_bib_text,
    split_names,
)
from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.analysis.findings import Code, Finding, Severity

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "analysis" / "bib"
P = Path("/tmp/refs.bib")


def test_entry_ranges_cover_exactly_from_at_to_closing_delimiter() -> None:
    text = (
        "% a comment line with an email a@b.c\n"
        "@Article{smith2020,\n  title = {Deep {BM25}},\n  author = {Smith, Ann and Bob Jones},\n"
        "  year = 2020,\n}\n\n"
        "@misc( paren:key , note = {a (b) c}, title = \"Quoted {\"}\" )\n"
        "@book{empty}\n"
    )
    bib = parse_bib_text(text, P)
    assert [e.key for e in bib.entries] == ["smith2020", "paren:key", "empty"]
    assert bib.findings == ()
    first, second, third = bib.entries
    assert text[first.start:first.end].startswith("@Article{") and text[first.start:first.end].endswith("}")
    assert text[first.end:first.end + 2] == "\n\n"
    assert text[first.key_start:first.key_end] == "smith2020"
    assert first.entry_type == "article"
    assert first.fields["title"] == "Deep {BM25}"
    assert first.title_plain == "Deep BM25"
    assert first.authors == ("Smith, Ann", "Jones, Bob")
    assert first.year == 2020
    assert text[second.start:second.end] == "@misc( paren:key , note = {a (b) c}, title = \"Quoted {\"}\" )"
    assert second.fields["note"] == "a (b) c"
    assert second.fields["title"] == 'Quoted {"}'
    assert text[third.start:third.end] == "@book{empty}"
    assert third.fields == {}


def test_string_macros_concatenation_and_months_are_expanded() -> None:
    text = (
        '@STRING{ acl = "Association for " # {Computational Linguistics} }\n'
        "@inproceedings{k, booktitle = \"Proc. of \" # acl, month = jun, year = {1999}, series = undefinedmacro}\n"
    )
    bib = parse_bib_text(text, P)
    (entry,) = bib.entries
    assert bib.strings == {"acl": "Association for Computational Linguistics"}
    assert entry.fields["booktitle"] == "Proc. of Association for Computational Linguistics"
    assert entry.fields["month"] == "June"
    assert entry.fields["series"] == "undefinedmacro"


def test_comments_and_preambles_are_skipped() -> None:
    text = "@comment{ignored @article{x, title={y}} }\n@preamble{ \"\\newcommand{\\x}{y}\" }\n@misc{real, title={T}}\n"
    bib = parse_bib_text(text, P)
    assert [e.key for e in bib.entries] == ["real"]
    assert bib.findings == ()


@pytest.mark.parametrize(
    ("fields", "doi", "arxiv"),
    [
        ({"doi": "https://doi.org/10.1145/ABC.123"}, "10.1145/abc.123", None),
        ({"doi": "doi:10.18653/v1/N19-1423"}, "10.18653/v1/n19-1423", None),
        ({"url": "https://dx.doi.org/10.1000/xyz"}, "10.1000/xyz", None),
        ({"eprint": "2004.04906v2", "archiveprefix": "arXiv"}, None, "2004.04906"),
        ({"eprint": "hep-th/9901001", "eprinttype": "arxiv"}, None, "hep-th/9901001"),
        ({"journal": "arXiv preprint arXiv:1810.04805"}, None, "1810.04805"),
        ({"journal": "CoRR", "volume": "abs/1706.03762"}, None, "1706.03762"),
        ({"url": "https://arxiv.org/abs/1908.10084v3"}, None, "1908.10084"),
        ({"doi": "10.48550/arXiv.2312.07559"}, "10.48550/arxiv.2312.07559", "2312.07559"),
        ({"eprint": "12345", "archiveprefix": "PubMed"}, None, None),
    ],
)
def test_identifiers_are_extracted(fields: dict[str, str], doi: str | None, arxiv: str | None) -> None:
    body = ", ".join(f"{k} = {{{v}}}" for k, v in fields.items())
    (entry,) = parse_bib_text(f"@misc{{k, title = {{T}}, {body}}}", P).entries
    assert entry.doi == doi
    assert entry.arxiv_id == arxiv


def test_year_from_year_or_date() -> None:
    entries = parse_bib_text("@misc{a, year = {c. 1998}}\n@online{b, date = {2021-03-04}}\n@misc{c, year={n.d.}}", P).entries
    assert [e.year for e in entries] == [1998, 2021, None]


@pytest.mark.parametrize(
    ("latex", "plain"),
    [
        (r"Lefebvre, {\'E}tienne", "Lefebvre, Étienne"),
        (r"B\'{e}atrice", "Béatrice"),
        (r"Sch{\"u}tze", "Schütze"),
        (r"\v{S}koda and {\L}ukasz", "Škoda and Łukasz"),
        (r"Fran\c{c}ois \ss{} {\o}", "François ß ø"),
        (r"\'{\i}\`a", "ìà".replace("ì", "í")),
        (r"\emph{Deep}   Learning -- fast---really", "Deep Learning – fast—really"),
        (r"$\alpha$-test \& 100\%", "α-test & 100%"),
        ("plain  text\nacross lines", "plain text across lines"),
    ],
)
def test_decode_latex(latex: str, plain: str) -> None:
    assert decode_latex(latex) == plain


def test_split_names_handles_the_bibtex_name_forms() -> None:
    assert split_names(
        r"Ludwig van Beethoven and Lefebvre, {\'E}tienne and {Google Research} and "
        "Jean de la Fontaine and others and Doe, Jr., John and  Madonna"
    ) == (
        "van Beethoven, Ludwig", "Lefebvre, Étienne", "Google Research", "de la Fontaine, Jean",
        "others", "Doe, John, Jr.", "Madonna",
    )
    assert split_names("{Barnes and Noble} and Smith, A.") == ("Barnes and Noble", "Smith, A.")


def test_broken_blocks_become_findings_and_the_rest_still_loads() -> None:
    text = (
        "@article{ok1, title = {Fine}}\n"
        "@article{unclosed, title = {Never closed,\n  year = 2000\n"
        "@article{ok2, title = {Also fine}}\n"
        "@article{nocomma, title = {A} year = {2001}}\n"
        "@article{, title = {No key}}\n"
        "@article missing brace\n"
        "@misc{ok3, title = {Last}}\n"
    )
    bib = parse_bib_text(text, P)
    # the entry with a missing comma is reported and still read leniently
    assert [e.key for e in bib.entries] == ["ok1", "ok2", "nocomma", "ok3"]
    assert {f.code for f in bib.findings} == {Code.BIB_PARSE_ERROR}
    assert [int(f.data["line"]) for f in bib.findings] == [2, 5, 6, 7]
    assert bib.findings[1].data["key"] == "nocomma" and bib.findings[1].data["recovered"] is True
    for finding in bib.findings:
        assert finding.severity is Severity.ERROR
        assert 0 <= finding.start <= finding.end <= len(text)


def test_unclosed_last_entry_reports_end_of_file() -> None:
    bib = parse_bib_text("@misc{a, title={x}}\n@misc{b, title = {y}\n", P)
    assert [e.key for e in bib.entries] == ["a"]
    (finding,) = bib.findings
    assert "end of the file" in finding.message
    assert finding.data["line"] == 2


def test_load_bib_file_caches_by_content(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text("@misc{a, title = {One}}\n", encoding="utf-8")
    first = load_bib_file(path)
    assert load_bib_file(path) is first
    assert load_bib_file(path, "@misc{a, title = {One}}\n") is first
    changed = load_bib_file(path, "@misc{b, title = {Two}}\n")
    assert changed is not first and [e.key for e in changed.entries] == ["b"]
    assert first.content_hash and first.content_hash != changed.content_hash


def test_disk_cache_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    text = (FIXTURES / "sample.bib").read_text(encoding="utf-8")
    bibtex.clear_cache()
    parsed = load_bib_file(path, text, cache_dir=tmp_path / "cache")
    assert list((tmp_path / "cache").glob("*.pickle"))
    bibtex.clear_cache()
    again = load_bib_file(path, text, cache_dir=tmp_path / "cache")
    assert again == parsed and again is not parsed


def test_gzip_files_load_and_stream(tmp_path: Path) -> None:
    text = (FIXTURES / "sample.bib").read_text(encoding="utf-8")
    gz = tmp_path / "sample.bib.gz"
    with gzip.open(gz, "wt", encoding="utf-8") as handle:
        handle.write(text)
    assert [e.key for e in load_bib_file(gz).entries] == [e.key for e in parse_bib_text(text, gz).entries]
    assert [e.key for e in iter_bib_entries(gz)] == [e.key for e in parse_bib_text(text, gz).entries]


@pytest.mark.parametrize("chunk_size", [1, 7, 64, 1000, 1 << 20])
def test_streaming_gives_the_same_entries_and_findings_as_a_full_parse(chunk_size: int) -> None:
    path = FIXTURES / "sample.bib"
    text = path.read_text(encoding="utf-8")
    full = parse_bib_text(text, path)
    streamed = list(iter_bib_blocks(path, chunk_size=chunk_size))
    entries = [item for item in streamed if isinstance(item, BibEntry)]
    findings = [item for item in streamed if isinstance(item, Finding)]
    assert entries == list(full.entries)
    assert findings == list(full.findings)
    assert len(full.findings) >= 1  # the sample contains one broken entry


def test_sample_fixture_has_exact_ranges() -> None:
    path = FIXTURES / "sample.bib"
    text = path.read_text(encoding="utf-8")
    bib = parse_bib_text(text, path)
    for entry in bib.entries:
        block = text[entry.start:entry.end]
        assert block.startswith("@")
        assert block.endswith("}") or block.endswith(")")
        assert text[entry.key_start:entry.key_end] == entry.key
    # re-parsing an entry's own range gives the same entry (ranges are self-contained)
    for entry in bib.entries:
        (alone,) = parse_bib_text(text[entry.start:entry.end], path).entries
        assert alone.fields == entry.fields or entry.key == "usesmacro"


def test_keys_may_contain_parentheses_like_real_dois() -> None:
    key = "10.1002/(SICI)1097-4571(199909)50:11<1030::AID-ASI6>3.0.CO;2-T"
    text = f"@article{{{key},\n  title = {{x}}\n}}\n@misc(paren, title = {{y}})\n@misc{{a(b), title = {{z}}}}"
    bib = parse_bib_text(text, P)
    assert [e.key for e in bib.entries] == [key, "paren", "a(b)"]
    assert bib.findings == ()


def test_streaming_memory_does_not_grow_with_the_file(tmp_path: Path) -> None:
    import tracemalloc

    path = tmp_path / "big.bib.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for i in range(8000):
            handle.write(f"@article{{key{i},\n  title = {{A title number {i} about {{BM25}}}},\n"
                         f"  author = {{Smith, Ann and Jones, Bob}},\n  journal = {{J}},\n  year = {{2001}}\n}}\n\n")
    size = 8000 * 120
    tracemalloc.start()
    try:
        count = sum(1 for _ in iter_bib_entries(path, chunk_size=1 << 14))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 8000
    assert peak < size / 3, f"peak {peak} bytes for a {size}-character file"


def test_quick_keys_agree_with_the_parser(tmp_path: Path) -> None:
    text = (FIXTURES / "sample.bib").read_text(encoding="utf-8") + (
        "@comment{not an entry}\n@string{jnl = {Journal}}\n@preamble{\"x\"}\n"
        "@article{10.1016/S1071-5819(02)00129-5, title = {Parentheses in a key}}\n"
        "@misc(paren-open, title = {Round brackets})\n"
        "@inproceedings{\n  newline2020,\n  title = {Key on the next line}}\n"
    )
    path = tmp_path / "refs.bib"
    path.write_text(text, encoding="utf-8")
    parsed = {e.key for e in parse_bib_text(text, path).entries}
    assert {"10.1016/S1071-5819(02)00129-5", "paren-open", "newline2020"} <= parsed
    # never misses a key the parser finds; may see one inside an @comment block (so a quick
    # check can at worst miss an undefined key, never flag a defined one)
    assert bibtex.quick_keys(path) - parsed == {"notanentry"}
    assert parsed <= bibtex.quick_keys(path)
    gz = tmp_path / "refs.bib.gz"
    with gzip.open(gz, "wt", encoding="utf-8") as handle:
        handle.write(text)
    assert bibtex.quick_keys(gz) == bibtex.quick_keys(path)
