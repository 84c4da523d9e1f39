"""workflows.verify_bibliography with fake authorities: which entries, caching, findings, --fix."""

from __future__ import annotations

from pathlib import Path

from relatex.analysis.findings import Code
from relatex.analysis.verification.bib_verdicts import AuthorityRecord
from relatex.config.settings import Settings
from relatex.workflows.check_project import CheckRequest, ProjectCheck, check_file
from relatex.workflows.engines import EngineOverrides, Engines
from relatex.workflows.verify_bibliography import (
    EntryVerdicts,
    VerifyRequest,
    entries_to_verify,
    verify_bibliography,
)

BIB = """@article{smith2020graphs,
  author = {Smith, Jane},
  title = {Graphs for Citation Analysis},
  journal = {Journal of Graphs},
  year = {2019},
}

@article{doe2018spare,
  author = {Doe, John},
  title = {An Uncited Paper},
  journal = {Journal of Nothing},
  year = {2018},
}
"""
TEX = r"""\documentclass{article}
\begin{document}
Graphs help citation analysis \cite{smith2020graphs}.
\bibliographystyle{plain}
\bibliography{refs}
\end{document}
"""


class FakeAuthority:
    """Knows one paper (the 2020 one); counts the questions."""

    name = "fake"

    def __init__(self) -> None:
        self.calls = 0
        self.record = AuthorityRecord("fake", "1", "Graphs for Citation Analysis", ("Smith, Jane",), 2020,
                                      "Journal of Graphs")

    def by_doi(self, doi: str) -> list[AuthorityRecord]:
        self.calls += 1
        return []

    def by_arxiv(self, arxiv_id: str) -> list[AuthorityRecord]:
        self.calls += 1
        return []

    def by_title(self, title: str, limit: int = 5) -> list[AuthorityRecord]:
        self.calls += 1
        return [self.record] if "graphs" in title.lower() else []


def project(tmp_path: Path, tex: str = TEX) -> ProjectCheck:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    (tmp_path / "main.tex").write_text(tex, encoding="utf-8")
    return check_file(CheckRequest(tmp_path / "main.tex"), Engines())


def engines(authority: FakeAuthority | None) -> Engines:
    return Engines(Settings(), EngineOverrides(knowledge_base=None, judge=None,
                                               authorities=[authority] if authority else []))


def test_only_cited_entries_unless_nocite_star_or_a_bib_alone(tmp_path: Path) -> None:
    check = project(tmp_path)
    assert [e.key for e in entries_to_verify(check.project, check.bibs)] == ["smith2020graphs"]
    (tmp_path / "star").mkdir()
    star = project(tmp_path / "star",
                   TEX.replace(r"\bibliographystyle", r"\nocite{*}\bibliographystyle"))
    assert [e.key for e in entries_to_verify(star.project, star.bibs)] == ["smith2020graphs", "doe2018spare"]
    alone = check_file(CheckRequest(tmp_path / "refs.bib"), Engines())
    assert alone.bib_only and len(entries_to_verify(alone.project, alone.bibs)) == 2


def test_mismatch_findings_on_the_entry_and_its_citation(tmp_path: Path) -> None:
    check = project(tmp_path)
    result = verify_bibliography(VerifyRequest(check.project, check.bibs), engines(FakeAuthority()))
    assert result.counts == {"mismatch": 1} and result.verdicts["smith2020graphs"].corrected_fields == {"year": "2020"}
    places = sorted((f.path.name, f.code) for f in result.findings)
    assert places == [("main.tex", Code.BIB_MISMATCH), ("refs.bib", Code.BIB_MISMATCH)]


def test_verdicts_are_cached_by_entry_text(tmp_path: Path) -> None:
    check = project(tmp_path)
    authority, cache = FakeAuthority(), EntryVerdicts()
    first = verify_bibliography(VerifyRequest(check.project, check.bibs), engines(authority), cache=cache)
    asked = authority.calls
    again = verify_bibliography(VerifyRequest(check.project, check.bibs), engines(authority), cache=cache)
    assert asked > 0 and authority.calls == asked and again.findings == first.findings


def test_without_authorities_nothing_is_verified(tmp_path: Path) -> None:
    check = project(tmp_path)
    result = verify_bibliography(VerifyRequest(check.project, check.bibs), engines(None))
    assert not result.had_authorities and result.findings == ()


def test_cancelled_before_the_first_entry(tmp_path: Path) -> None:
    check = project(tmp_path)
    result = verify_bibliography(VerifyRequest(check.project, check.bibs), engines(FakeAuthority()),
                                 cancel=lambda: True)
    assert not result.complete and result.verdicts == {}


def test_fix_writes_the_correction_and_reports_it(tmp_path: Path) -> None:
    check = project(tmp_path)
    result = verify_bibliography(VerifyRequest(check.project, check.bibs, fix=True), engines(FakeAuthority()))
    assert [f.description for f in result.fixed] == ["fixed 'smith2020graphs' in refs.bib: year: '2019' -> '2020'"]
    assert result.findings == ()
    text = (tmp_path / "refs.bib").read_text(encoding="utf-8")
    assert "year = {2020}" in text and "year = {2018}" in text
