"""workflows.check_claims with a fake judge: evidence order, one finding convention, incremental runs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from relatex.analysis.claims.claim_support import NOT_ADDRESSED, SUPPORTED, SupportVerdict
from relatex.analysis.claims.evidence import Evidence
from relatex.analysis.findings import Code, Severity
from relatex.config.settings import Settings
from relatex.retrieval.records import PaperRecord
from relatex.workflows.check_claims import ClaimCache, ClaimCheckRequest, check_claims, evidence_source
from relatex.workflows.check_project import CheckRequest, ProjectCheck, check_file
from relatex.workflows.engines import EngineOverrides, Engines

BIB = """@article{good2020,
  author = {Good, Ann},
  title = {Graph Retrieval},
  abstract = {Graph retrieval finds related papers through citation links.},
  year = {2020},
}

@article{bare2019,
  author = {Bare, Bob},
  title = {Quantum Tagging},
  year = {2019},
}
"""
TEX = r"""\documentclass{article}
\begin{document}
Graph retrieval finds related papers \cite{good2020}.
Oracles tag sentences instantly \cite{good2020}.
Quantum tagging is fast \cite{bare2019}.
\bibliography{refs}
\end{document}
"""


class FakeJudge:
    """Supported when every word of the claim occurs in the evidence; counts its calls."""

    judge_id = "fake/1"

    def __init__(self) -> None:
        self.calls = 0

    def judge(self, claim: str, evidence: Sequence[Evidence]) -> SupportVerdict:
        self.calls += 1
        words = " ".join(e.sentence.lower() for e in evidence)
        hits = [w for w in claim.lower().rstrip(".").split() if w in words]
        score = round(len(hits) / max(1, len(claim.split())), 4)
        best = evidence[-1] if evidence else None
        return SupportVerdict(SUPPORTED if score > 0.6 else NOT_ADDRESSED, score,
                              best.sentence if best else None, best.paper_key if best else None, self.judge_id)


def draft(tmp_path: Path, tex: str = TEX) -> ProjectCheck:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    (tmp_path / "main.tex").write_text(tex, encoding="utf-8")
    return check_file(CheckRequest(tmp_path / "main.tex"), Engines())


def engines(judge: FakeJudge) -> Engines:
    return Engines(Settings(), EngineOverrides(judge=judge, knowledge_base=None, authorities=[]))


def test_findings_sit_on_the_citation_with_one_message(tmp_path: Path) -> None:
    check = draft(tmp_path)
    result = check_claims(ClaimCheckRequest(check.project, check.bibs), engines(FakeJudge()))
    assert [r.verdict.label for r in result.results] == [SUPPORTED, NOT_ADDRESSED, "unknown"]
    [finding] = result.findings
    text = check.texts[tmp_path / "main.tex"]
    assert text[finding.start:finding.end] == r"\cite{good2020}"
    assert "Oracles" in text[finding.start - 40:finding.start]
    assert finding.code is Code.CLAIM_NOT_SUPPORTED and finding.severity is Severity.WARNING
    assert finding.message.startswith("The cited abstract (good2020) does not appear to support this sentence "
                                      "(support 0.")
    assert "fake judge); closest evidence in good2020: \u201c" in finding.message
    assert finding.data["claim"].startswith("Oracles") and finding.data["score"] == result.results[1].verdict.score
    assert text[finding.data["claim_start"]:finding.data["claim_end"]].startswith("Oracles")
    assert result.summary["claims_checked"] == 3 and result.summary["claims_without_evidence"] == 1
    assert result.summary["judge"] == "fake/1" and result.complete


def test_the_entry_abstract_comes_before_the_knowledge_base_record(tmp_path: Path) -> None:
    check = draft(tmp_path)
    records = {key: PaperRecord(id=f"kb-{key}", title="Other", authors=("X, Y",), year=2020,
                                abstract="A record abstract about quantum tagging speed.")
               for key in ("good2020", "bare2019")}
    lookup = evidence_source(check.bibs, records)
    assert all(e.paper_id is None for e in lookup("good2020"))  # the entry's own abstract
    assert any("record abstract" in e.sentence for e in lookup("bare2019"))  # no abstract: the record
    assert evidence_source(check.bibs)("bare2019") == () and lookup("undefined") == ()


def test_only_changed_claims_are_judged_again(tmp_path: Path) -> None:
    check = draft(tmp_path)
    judge, cache = FakeJudge(), ClaimCache()
    first = check_claims(ClaimCheckRequest(check.project, check.bibs), engines(judge), cache=cache)
    judged = judge.calls
    again = check_claims(ClaimCheckRequest(check.project, check.bibs), engines(judge), cache=cache)
    assert judge.calls == judged and again.findings == first.findings
    edited = draft(tmp_path, TEX.replace("Oracles tag sentences instantly", "Citation links find related papers"))
    changed = check_claims(ClaimCheckRequest(edited.project, edited.bibs), engines(judge), cache=cache)
    assert judge.calls == judged + 1 and changed.findings == ()


def test_cancellation_returns_what_was_judged(tmp_path: Path) -> None:
    check = draft(tmp_path)
    result = check_claims(ClaimCheckRequest(check.project, check.bibs), engines(FakeJudge()), cancel=lambda: True)
    assert not result.complete and result.results == () and result.findings == ()
