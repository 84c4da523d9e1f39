"""BibTeX verification verdicts as findings, and the correction edits of their quick fixes."""

from __future__ import annotations

import re

from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.analysis.edits import apply_edits
from relatex.analysis.findings import Code, Severity
from relatex.analysis.latex.project_model import CitationKey, CitationSite
from relatex.analysis.verification.bib_verification import (
    BibVerdict,
    correction_edit,
    verdict_findings,
    verify_entry,
)
from tests.analysis.bib_authorities import ALL, BERT, BIB, TEX, MemoryAuthority, entry


def test_findings_on_the_entry_and_each_citation() -> None:
    text = "% refs\n" + r"""@inproceedings{he, title = {Deep Residual Learning for Image Recognition},
      author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}, year = {2015}}"""
    bib = parse_bib_text(text, BIB)
    he = bib.entries[0]
    verdict = verify_entry(he, [MemoryAuthority(ALL)])
    sites = [
        CitationSite("cite", (CitationKey("he", TEX, 10, 12), CitationKey("other", TEX, 13, 18)), TEX, 4, 19),
        CitationSite("citep", (CitationKey("he", TEX, 40, 42),), TEX, 33, 43),
    ]
    findings = verdict_findings(verdict, he, sites)
    assert [(f.path, f.start, f.end) for f in findings] == [(BIB, he.key_start, he.key_end), (TEX, 10, 12), (TEX, 40, 42)]
    assert {f.code for f in findings} == {Code.BIB_MISMATCH}
    assert findings[0].severity == Severity.WARNING
    assert findings[0].data["corrected_fields"] == {"year": "2016"}
    assert findings[0].data["mismatches"] == [{"field": "year", "entry": "2015", "authority": "2016", "detail": ""}]
    assert "year is '2015'" in findings[0].message
    assert verdict_findings(BibVerdict("verified", "he"), he, sites) == []


def test_not_found_findings_are_quieter_for_non_paper_types() -> None:
    manual = entry(r"@manual{tool, title={Some Tool Manual}, author={Team, The}, year={2020}}")
    verdict = verify_entry(manual, [MemoryAuthority(ALL)])
    (finding,) = verdict_findings(verdict, manual)
    assert (finding.code, finding.severity) == (Code.BIB_UNKNOWN, Severity.INFORMATION)


def test_correction_edit_touches_only_the_entry_and_keeps_other_fields() -> None:
    text = (
        "@string{cvpr = {CVPR}}\n\n"
        "@inproceedings{he,\n"
        "    title     = {Deep Residual Learning for Image Recognition},\n"
        "    author    = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},\n"
        "    booktitle = cvpr,\n"
        "    year      = 2015,\n"
        "    note      = {Oral},\n"
        "    keywords  = \"resnet, deep\"\n"
        "}\n\n@misc{after, title = {Untouched}}\n"
    )
    bib = parse_bib_text(text, BIB)
    he = bib.by_key()["he"]
    verdict = verify_entry(he, [MemoryAuthority(ALL)])
    edit = correction_edit(he, verdict, bib.text)
    assert edit is not None and (edit.start, edit.end) == (he.start, he.end)
    fixed = apply_edits(text, [edit])
    assert fixed == text.replace("year      = 2015", "year      = {2016}")
    canonical = correction_edit(he, verdict)  # without the source text: formatted entry
    assert canonical is not None and re.search(r"\n  year +=  ?\{2016\},\n", canonical.new_text)
    assert "note" in canonical.new_text and canonical.new_text.startswith("@inproceedings{he,")
    assert correction_edit(he, BibVerdict("verified", "he"), bib.text) is None


def test_preprint_correction_changes_type_venue_and_adds_fields() -> None:
    text = (
        "@article{devlin2018bert,\n"
        "  title={Bert: Pre-training of deep bidirectional transformers for language understanding},\n"
        "  author={Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina},\n"
        "  journal={arXiv preprint arXiv:1810.04805},\n"
        "  year={2018}\n"
        "}\n"
    )
    bib = parse_bib_text(text, BIB)
    verdict = verify_entry(bib.entries[0], [MemoryAuthority(ALL)])
    edit = correction_edit(bib.entries[0], verdict, text)
    assert edit is not None
    fixed = parse_bib_text(apply_edits(text, [edit]), BIB).entries[0]
    assert fixed.entry_type == "inproceedings" and fixed.key == "devlin2018bert"
    assert fixed.fields["booktitle"] == BERT.venue and "journal" not in fixed.fields
    assert (fixed.fields["year"], fixed.doi, fixed.fields["pages"]) == ("2019", "10.18653/v1/n19-1423", "4171--4186")
    assert fixed.fields["title"].startswith("Bert: Pre-training")  # the user's title is kept

def _fixed_text(text: str, fixes: dict[str, str]) -> str:
    from relatex.analysis.bib.bib_field_edits import rewrite_entry

    bib = parse_bib_text(text, BIB)
    one = bib.entries[0]
    return rewrite_entry(one, fixes, text[one.start : one.end])


def test_field_rewrite_handles_bibtex_syntax_variants() -> None:
    paren = '@article(k,\r\n  title = "A {B} c" # " d",\r\n  year = 1999\r\n)'
    assert _fixed_text(paren, {"year": "2000", "doi": "10.1/x"}) == (
        '@article(k,\r\n  title = "A {B} c" # " d",\r\n  year = {2000},\r\n  doi = {10.1/x}\r\n)'
    )
    trailing = "@misc{k, title={T}, journal={arXiv preprint}, year={2018},}"
    assert _fixed_text(trailing, {"@type": "inproceedings", "journal": "", "booktitle": "ACL"}) == (
        "@inproceedings{k, title={T}, year={2018}, booktitle = {ACL}}"
    )
    removal = "@misc{k,\n  title = {T},\n  journal = {CoRR},\n  year = {2018}\n}"
    assert _fixed_text(removal, {"journal": ""}) == "@misc{k,\n  title = {T},\n  year = {2018}\n}"
