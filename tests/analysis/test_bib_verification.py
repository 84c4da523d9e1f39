"""BibTeX verification: every verdict kind and the lenient comparisons (findings, edits: test_bib_findings)."""

from __future__ import annotations

import pytest

from relatex.analysis.findings import Code, Severity
from relatex.analysis.verification.bib_verification import (
    AuthorityRecord,
    FieldMismatch,
    verdict_findings,
    verify_entry,
)
from tests.analysis.bib_authorities import (
    ACCENT,
    ALL,
    BERT,
    RESNET,
    TNT,
    MemoryAuthority,
    OfflineAuthority,
    entry,
    verify,
)


def test_correct_entries_written_differently_are_verified() -> None:
    bert = verify(r"""@inproceedings{devlin,
      title = {{BERT}: pre-training of deep bidirectional transformers for language understanding},
      author = {Devlin, J. and Chang, Ming{-}Wei and Lee, K. and Toutanova, Kristina},
      booktitle = {Proceedings of NAACL-HLT}, year = 2019, pages = {4171--4186},
      doi = {https://doi.org/10.18653/V1/N19-1423}}""")
    assert (bert.status, bert.mismatches, bert.evidence) == ("verified", (), (BERT,))
    accents = verify(r"""@inproceedings{grau, title = {\'{E}valuation des syst\`emes de recherche d'information},
      author = {B\'{e}atrice Grau and J{\"o}rg M\"uller and {\O}degaard, {\AA}se}, year = {2012},
      booktitle = {CORIA}, pages = {1--8}}""")
    assert accents.status == "verified" and accents.evidence == (ACCENT,)
    others = verify(r"""@inproceedings{he, title = {Deep residual learning for image recognition},
      author = {He, Kaiming and others}, booktitle = {CVPR}, year = {2016}, pages = {770 -- 778}}""")
    assert others.status == "verified"
    dash = verify(r"""@inproceedings{brants, title = {{TnT} - a statistical part-of-speech tagger},
      author = {Thorsten Brants}, booktitle = {ANLP}, year = {2000}}""")
    assert dash.status == "verified" and dash.evidence == (TNT,)


def test_wrong_year_is_a_mismatch_with_the_authority_value() -> None:
    verdict = verify(r"""@inproceedings{he, title = {Deep Residual Learning for Image Recognition},
      author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}, year = {2015},
      doi = {10.1109/CVPR.2016.90}}""")
    assert verdict.status == "mismatch"
    assert verdict.mismatches == (FieldMismatch("year", "2015", "2016"),)
    assert verdict.corrected_fields == {"year": "2016"}
    assert verdict.evidence == (RESNET,)
    assert verdict.checked == ("memory",)


def test_dropped_and_swapped_authors() -> None:
    dropped = verify(r"""@inproceedings{he, title = {Deep Residual Learning for Image Recognition},
      author = {He, Kaiming and Zhang, Xiangyu and Sun, Jian}, year = {2016}}""")
    assert dropped.status == "mismatch"
    (mismatch,) = dropped.mismatches
    assert (mismatch.field, mismatch.detail) == ("authors", "missing Ren, Shaoqing")
    assert dropped.corrected_fields == {"author": "He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian"}
    swapped = verify(r"""@inproceedings{he, title = {Deep Residual Learning for Image Recognition},
      author = {Zhang, Xiangyu and He, Kaiming and Ren, Shaoqing and Sun, Jian}, year = {2016}}""")
    assert [(m.field, m.detail) for m in swapped.mismatches] == [("authors", "author order differs")]


def test_altered_title_is_found_through_its_authors_and_flagged() -> None:
    verdict = verify(r"""@inproceedings{he, title = {Deep Residual Networks for Image Recognition},
      author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}, year = {2016}}""")
    assert verdict.status == "mismatch"
    assert [m.field for m in verdict.mismatches] == ["title"]
    assert verdict.corrected_fields == {"title": "Deep Residual Learning for Image Recognition"}


def test_title_only_match_is_never_accepted() -> None:
    verdict = verify(r"""@article{fake, title = {Deep Residual Learning for Image Recognition},
      author = {Smith, Alice and Jones, Bob}, journal = {Journal of Vision}, year = {2016}}""")
    assert verdict.status == "not_found"
    assert verdict.checked == ("memory",)
    assert verdict.evidence == (RESNET,)  # shown as the closest record, not accepted


def test_year_within_one_is_accepted_two_years_is_not() -> None:
    close = verify(r"""@inproceedings{b, title = {TnT - A Statistical Part-of-Speech Tagger},
      author = {Brants, T.}, year = {2001}}""")
    assert close.status == "mismatch" and close.mismatches == (FieldMismatch("year", "2001", "2000"),)
    far = verify(r"""@inproceedings{b, title = {TnT - A Statistical Part-of-Speech Tagger},
      author = {Brants, T.}, year = {2003}}""")
    assert far.status == "not_found"


def test_doi_of_another_paper_is_a_doi_mismatch_not_a_verification() -> None:
    verdict = verify(r"""@inproceedings{devlin, title = {BERT: Pre-training of Deep Bidirectional
      Transformers for Language Understanding}, author = {Devlin, Jacob and Chang, Ming-Wei and Lee,
      Kenton and Toutanova, Kristina}, year = {2019}, doi = {10.1109/CVPR.2016.90}}""")
    assert verdict.status == "mismatch"
    assert verdict.mismatches[0].field == "doi"
    assert verdict.mismatches[0].entry_value == "10.1109/cvpr.2016.90"
    assert verdict.mismatches[0].authority_value == "10.18653/v1/n19-1423"
    assert "Deep Residual Learning" in verdict.mismatches[0].detail
    assert verdict.corrected_fields == {"doi": "10.18653/v1/n19-1423"}
    assert verdict.evidence == (BERT, RESNET)
    unknown = verify(r"""@article{x, title = {A Theory of Everything Else}, author = {Nobody, Ann},
      year = {2020}, doi = {10.1109/CVPR.2016.90}}""")
    assert unknown.status == "mismatch" and unknown.mismatches[0].field == "doi"
    assert unknown.corrected_fields == {}


def test_preprint_with_published_version() -> None:
    verdict = verify(r"""@article{devlin2018bert,
      title={Bert: Pre-training of deep bidirectional transformers for language understanding},
      author={Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina},
      journal={arXiv preprint arXiv:1810.04805}, year={2018}}""")
    assert verdict.status == "preprint"
    assert verdict.evidence == (BERT,)
    assert verdict.corrected_fields == {
        "@type": "inproceedings",
        "booktitle": BERT.venue,
        "journal": "",
        "year": "2019",
        "doi": "10.18653/v1/n19-1423",
        "pages": "4171--4186",
    }


def test_preprint_identified_by_arxiv_record_with_published_doi() -> None:
    arxiv = AuthorityRecord("memory", "arxiv:1810.04805", BERT.title, BERT.authors, 2018, "arXiv",
                            None, "1810.04805", None, "misc", True, "10.18653/v1/n19-1423")
    verdict = verify(r"""@misc{d, title={BERT: Pre-training of Deep Bidirectional Transformers for Language
      Understanding}, author={Devlin, Jacob and others}, eprint={1810.04805}, archivePrefix={arXiv},
      year={2018}}""", [arxiv, BERT])
    assert verdict.status == "preprint"
    assert verdict.evidence == (BERT, arxiv)
    assert verdict.corrected_fields["doi"] == "10.18653/v1/n19-1423"


def test_arxiv_entry_without_published_version_is_verified() -> None:
    arxiv = AuthorityRecord("memory", "arxiv:2401.00001", "A Fresh Preprint About Retrieval", ("Doe, Jane",),
                            2024, "arXiv", None, "2401.00001", None, "misc", True)
    verdict = verify(r"""@misc{doe, title={A fresh preprint about retrieval}, author={Jane Doe},
      eprint={2401.00001}, archivePrefix={arXiv}, year={2024}}""", [arxiv])
    assert verdict.status == "verified"


def test_ambiguous_when_several_works_match_and_none_exactly() -> None:
    conf = AuthorityRecord("memory", "doi:10.1/conf", "Learning to Rank Short Texts", ("Lee, Min", "Park, Jin"),
                           2019, "SIGIR", "10.1/conf", None, "1--10", "inproceedings")
    journal = AuthorityRecord("memory", "doi:10.1/jour", "Learning to Rank Short Texts", ("Lee, Min", "Park, Jin"),
                              2020, "TOIS", "10.1/jour", None, "5--40", "article")
    verdict = verify(r"""@article{lee, title={Learning to rank short texts}, author={Lee, Min and Park, Jin},
      year={2019}, pages={30--45}}""", [conf, journal])
    assert verdict.status == "ambiguous"
    assert verdict.evidence == (conf, journal)
    exact = verify(r"""@article{lee, title={Learning to rank short texts}, author={Lee, Min and Park, Jin},
      year={2020}, pages={5--40}}""", [conf, journal])
    assert exact.status == "verified" and exact.evidence == (journal,)


def test_unavailable_authorities_leave_the_entry_unchecked() -> None:
    text = r"@article{x, title={Some Paper}, author={Doe, Jane}, year={2020}}"
    verdict = verify_entry(entry(text), [OfflineAuthority()])
    assert (verdict.status, verdict.unavailable) == ("unchecked", ("offline",))
    assert verify_entry(entry(text), []).status == "unchecked"
    fallback = verify_entry(entry(text), [OfflineAuthority(), MemoryAuthority(ALL)])
    assert (fallback.status, fallback.checked, fallback.unavailable) == ("not_found", ("memory",), ("offline",))


def test_first_decisive_authority_wins_and_later_ones_are_not_asked() -> None:
    first, second = MemoryAuthority([RESNET], "kb"), MemoryAuthority([RESNET], "crossref")
    text = r"""@inproceedings{he, title={Deep Residual Learning for Image Recognition},
      author={He, Kaiming and others}, year={2016}, doi={10.1109/cvpr.2016.90}}"""
    verdict = verify_entry(entry(text), [first, second])
    assert verdict.status == "verified" and verdict.checked == ("kb",)
    assert second.calls == []



@pytest.mark.parametrize(
    "title",
    ["", "   "],
)
def test_entries_without_title_or_identifier_are_unchecked(title: str) -> None:
    verdict = verify(f"@misc{{x, title={{{title}}}, author={{Doe, Jane}}}}")
    assert verdict.status == "unchecked" and "no title" in verdict.note



def test_lenient_comparisons() -> None:
    from relatex.analysis.bib.bib_matching import (
        author_difference,
        same_person,
        titles_equal,
        venues_compatible,
    )

    assert same_person("Le Cun, Yann", "Yann LeCun") and same_person("van den Bosch, Antal", "Antal Bosch")
    assert same_person("Wei, Zhang", "Zhang Wei") and not same_person("Li, Wei", "Liu, Wei")
    assert author_difference(["Devlin, J.", "others"], ["Devlin, Jacob", "Chang, Ming-Wei"]) is None
    assert author_difference(["M{\\\"u}ller, J."], ["Müller, Jörg"]) is None
    assert titles_equal("Pre-training & Fine-tuning", "pre-training and fine-tuning")
    assert titles_equal("{BERT}", "BERT: Pre-training of Deep Bidirectional Transformers") is False  # too short
    assert venues_compatible("Proc. of NAACL-HLT", BERT.venue)
    assert venues_compatible("SIGIR '12", "Proceedings of the 35th International ACM SIGIR Conference")
    assert not venues_compatible("Journal of Machine Learning Research", "Annals of Applied Probability Theory")


def test_published_entry_checked_against_only_its_preprint_is_not_a_year_mismatch() -> None:
    arxiv = AuthorityRecord("arxiv", "arxiv:1810.04805", BERT.title, BERT.authors, 2018, "arXiv",
                            None, "1810.04805", None, "misc", True, "10.18653/v1/n19-1423")
    verdict = verify(r"""@inproceedings{d, title={BERT: Pre-training of Deep Bidirectional Transformers for
      Language Understanding}, author={Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova,
      Kristina}, booktitle={NAACL}, year={2019}, pages={4171--4186}}""", [arxiv])
    assert verdict.status == "verified"


def test_doi_resolving_to_a_merged_record_is_not_a_doi_mismatch() -> None:
    merged = AuthorityRecord("memory", "doi:10.1145/67449.67461", "Query Expansion Using Lexical Relations",
                             ("Voorhees, Ellen M.",), 1994, "SIGIR '94", "10.1145/67449.67461", None, "61--69")

    class Aliasing(MemoryAuthority):
        def by_doi(self, doi: str) -> list[AuthorityRecord]:
            return [merged] if doi in ("10.1145/67449.67461", "10.1145/67450.67461") else []

    text = r"""@inproceedings{v, title={Query expansion using lexical relations}, author={Voorhees, Ellen M.},
      year={1993}, pages={1--2}, doi={10.1145/67450.67461}}"""
    assert verify_entry(entry(text), [Aliasing([merged])]).status == "verified"
    assert verify(text.replace("Voorhees, Ellen M.", "Smith, Jo"), [merged]).status == "not_found"


def test_particle_surnames_written_either_way_are_the_same_person() -> None:
    from relatex.analysis.bib.bib_matching import same_person

    assert same_person("im Walde, Sabine Schulte", "Schulte im Walde, Sabine")


FABRICATED = r"""@inproceedings{made_up, title = {Quantum Citation Graphs for Retrieval-Augmented Peer Review},
  author = {Nobody, Alice and Person, Bob}, booktitle = {Proceedings of SIGIR}, year = {2021}}"""


def test_a_paper_missing_from_the_local_knowledge_base_is_absent_not_suspect() -> None:
    local = MemoryAuthority(ALL, "knowledge base", exhaustive=False)
    verdict = verify_entry(entry(FABRICATED), [local])
    assert (verdict.status, verdict.checked) == ("absent", ("knowledge base",))
    findings = verdict_findings(verdict, entry(FABRICATED))
    assert [(f.code, f.severity) for f in findings] == [(Code.BIB_NOT_IN_KB, Severity.INFORMATION)]
    assert "not in the knowledge base" in findings[0].message
    assert "may not exist" not in findings[0].message
    assert "enable online verification" in findings[0].message


def test_absent_when_the_online_registries_cannot_be_asked() -> None:
    local = MemoryAuthority(ALL, "knowledge base", exhaustive=False)
    verdict = verify_entry(entry(FABRICATED), [local, OfflineAuthority()])
    assert (verdict.status, verdict.unavailable) == ("absent", ("offline",))
    message = verdict_findings(verdict, entry(FABRICATED))[0].message
    assert "online sources could not be asked (offline)" in message


def test_may_not_exist_only_when_a_registry_was_asked() -> None:
    local = MemoryAuthority(ALL, "knowledge base", exhaustive=False)
    registry = MemoryAuthority(ALL, "crossref")
    verdict = verify_entry(entry(FABRICATED), [local, registry])
    assert (verdict.status, verdict.checked) == ("not_found", ("knowledge base", "crossref"))
    finding = verdict_findings(verdict, entry(FABRICATED))[0]
    assert (finding.code, finding.severity) == (Code.BIB_UNKNOWN, Severity.WARNING)
    assert "may not exist" in finding.message


def test_a_local_record_contradicting_the_identifier_is_still_a_warning() -> None:
    local = MemoryAuthority(ALL, "knowledge base", exhaustive=False)
    text = r"""@inproceedings{devlin, title = {BERT: Pre-training of Deep Bidirectional
      Transformers for Language Understanding}, author = {Devlin, Jacob and Chang, Ming-Wei and Lee,
      Kenton and Toutanova, Kristina}, year = {2019}, doi = {10.1109/CVPR.2016.90}}"""
    verdict = verify_entry(entry(text), [local])
    assert verdict.status == "mismatch"
    assert verdict_findings(verdict, entry(text))[0].severity == Severity.WARNING
