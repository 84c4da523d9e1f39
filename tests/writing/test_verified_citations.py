"""A generated section never cites a draft entry that verification could not find."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from relatex.analysis.verification.bib_verification import AuthorityRecord, BibVerdict
from relatex.retrieval.records import PaperRecord
from relatex.writing.generate import generate_related_work
from tests.writing.conftest import make_project, make_selection


def test_not_found_entries_are_not_cited_and_mismatches_use_the_authority(tmp_path: Path,
                                                                          records: list[PaperRecord]) -> None:
    project, bibs = make_project(tmp_path)
    selection = make_selection(records, {"doi:10.1000/bm25": "robertson2009bm25"})
    fake = replace(selection.papers[1], draft_key="smith2099fake")
    selection = replace(selection, papers=(selection.papers[0], fake, *selection.papers[2:]))
    authority = AuthorityRecord("crossref", "10.1000/bm25", "The Probabilistic Relevance Framework: BM25 and Beyond",
                                ("Robertson, Stephen", "Zaragoza, Hugo"), 2009, "Foundations and Trends in IR")
    verdicts = {"smith2099fake": BibVerdict("not_found", "smith2099fake"),
                "robertson2009bm25": BibVerdict("mismatch", "robertson2009bm25", evidence=(authority,))}
    section = generate_related_work(project, bibs, selection, bib_verdicts=verdicts)
    assert "smith2099fake" not in section.latex and fake.record.id not in {e.record_id for e in section.new_entries}
    assert "robertson2009bm25" in section.cited_keys
    assert any("possibly hallucinated" in w for w in section.warnings)


def test_the_draft_entries_of_selected_papers_are_verified(tmp_path: Path, records: list[PaperRecord]) -> None:
    from relatex.analysis.verification.bib_verification import AuthorityRecord as Found
    from relatex.writing.verified_citations import verify_cited_entries

    class Nothing:
        name = "nothing"
        exhaustive = True
        lookups = frozenset({"doi", "arxiv", "title"})

        def by_doi(self, doi: str) -> list[Found]:
            return []

        def by_arxiv(self, arxiv_id: str) -> list[Found]:
            return []

        def by_title(self, title: str, limit: int = 5) -> list[Found]:
            return []

    _, bibs = make_project(tmp_path)
    selection = make_selection(records, {"doi:10.1000/bm25": "robertson2009bm25"})
    verdicts = verify_cited_entries(selection, bibs, [Nothing()])  # type: ignore[list-item]
    assert set(verdicts) == {"robertson2009bm25"} and verdicts["robertson2009bm25"].status == "not_found"
    assert verify_cited_entries(selection, bibs, []) == {}
