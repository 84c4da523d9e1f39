"""`relatex check --claims`: findings on unsupported citations, citation recall/precision, evidence sources."""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from relatex.analysis.claims.claim_support import UNKNOWN, SupportVerdict, VerdictCache
from relatex.analysis.claims.evidence import Evidence
from relatex.analysis.claims.offline_judge import OfflineSupportJudge
from relatex.analysis.findings import Code, Finding, Severity
from relatex.config.settings import Settings, load_settings
from relatex.server.cli import main
from relatex.server.commands import check_claims
from relatex.server.commands.check_claims import make_judge
from relatex.workflows.check_claims import evidence_source
from relatex.workflows.check_project import CheckRequest, ProjectCheck, check_file
from relatex.workflows.engines import UNSET, EngineOverrides, Engines

DRAFT = Path(__file__).resolve().parents[1] / "fixtures" / "claims" / "draft"
MIKOLOV_RECORD = """@inproceedings{mikolov-kb,
  author = {Mikolov, Tomas and Chen, Kai and Corrado, Greg and Dean, Jeffrey},
  title = {Efficient Estimation of Word Representations in Vector Space},
  year = {2013},
  doi = {10.48550/arXiv.1301.3781},
  abstract = {We propose two novel model architectures for computing continuous vector representations of words
from very large data sets. Word vectors are learned from large corpora in less than a day.}
}
"""


def settings_for(tmp_path: Path, **judge: Any) -> Settings:
    layer = {"knowledgeBase": {"dataDir": str(tmp_path / "kb"), "embeddingModel": "hashing-256"},
             "online": {"cacheDir": str(tmp_path / "cache")}, "judge": {"threshold": 0.6, **judge}}
    settings, warnings = load_settings(layer, env={})
    assert warnings == []
    return settings


@pytest.fixture
def draft(tmp_path: Path) -> Path:
    target = tmp_path / "draft"
    shutil.copytree(DRAFT, target)
    return target


def load(draft: Path) -> tuple[Any, Any]:
    check = check_file(CheckRequest(draft / "main.tex"), Engines())
    return check.project, check.bibs


def claim_findings(project: Any, bibs: Any, settings: Settings,
                   judge: Any = UNSET) -> tuple[list[Finding], dict[str, Any]]:
    """What `relatex check --claims` reports, through the command's own call."""
    check = ProjectCheck(project, bibs, (), {})
    engines = Engines(settings, EngineOverrides(judge=judge))
    try:
        return check_claims.claim_findings(check, engines)
    finally:
        engines.close()


def test_findings_sit_on_the_citation_and_quote_the_evidence(draft: Path, tmp_path: Path) -> None:
    project, bibs = load(draft)
    findings, summary = claim_findings(project, bibs, settings_for(tmp_path))
    text = (draft / "main.tex").read_text(encoding="utf-8")
    rows = {row["text"][:20]: row for row in summary["verdicts"]}
    assert rows["Statistical taggers "]["label"] == "supported"
    assert rows["Word embeddings are "]["label"] == UNKNOWN  # no abstract, no knowledge base
    transformer = rows["Transformers transla"]
    assert transformer["label"] == "not_addressed"
    finding = next(f for f in findings if f.data["keys"] == ["brants2000tnt"] and f.code is Code.CLAIM_NOT_SUPPORTED
                   and "Transformer" in text[f.start - 80:f.start])
    assert text[finding.start:finding.end] == r"\citep{brants2000tnt}"
    assert finding.severity is Severity.WARNING and "does not appear to support" in finding.message
    assert "closest evidence in brants2000tnt" in finding.message
    assert all(f.code in {Code.CLAIM_NOT_SUPPORTED, Code.CLAIM_PARTIALLY_SUPPORTED} for f in findings)
    both = next(r for r in summary["verdicts"] if len(r["keys"]) == 2)
    assert set(both["per_key"]) == {"brants2000tnt", "lafferty2001crf"}
    assert transformer["location"] == "main.tex:13:64"


def test_recall_and_precision_agree_with_the_verdicts(draft: Path, tmp_path: Path) -> None:
    project, bibs = load(draft)
    _, summary = claim_findings(project, bibs, settings_for(tmp_path))
    judged = [r for r in summary["verdicts"] if r["label"] != UNKNOWN]
    assert summary["claims_checked"] == len(project.claims) == 7
    assert summary["claims_without_evidence"] == 1
    assert summary["citation_recall"] == round(sum(r["label"] == "supported" for r in judged) / len(judged), 4)
    citations = [(r, k, v) for r in judged for k, v in r["per_key"].items() if v != UNKNOWN]
    relevant = sum(v in ("supported", "partially_supported") or r["without_key"].get(k, "supported") != "supported"
                   for r, k, v in citations)
    assert summary["citation_precision"] == round(relevant / len(citations), 4)
    assert summary["judge"].startswith("offline/1/lexical/t0.6")


def test_knowledge_base_records_supply_missing_abstracts(draft: Path, tmp_path: Path) -> None:
    from relatex.retrieval.embedding import HashingEmbedder
    from relatex.retrieval.knowledge_base import KnowledgeBase
    from relatex.retrieval.sources import open_source

    library = tmp_path / "library.bib"
    library.write_text(MIKOLOV_RECORD, encoding="utf-8")
    settings = settings_for(tmp_path)
    with KnowledgeBase.open(settings.knowledge_base.resolved_data_dir(), embedder=HashingEmbedder(256)) as kb:
        kb.index(open_source(library))
    project, bibs = load(draft)
    _, summary = claim_findings(project, bibs, settings)
    mikolov = next(r for r in summary["verdicts"] if r["keys"] == ["mikolov2013"])
    assert mikolov["label"] != UNKNOWN
    assert summary["claims_without_evidence"] == 0
    entry_evidence = evidence_source(bibs)("brants2000tnt")
    assert entry_evidence[0].source == "title" and "Markov models" in entry_evidence[2].sentence
    assert evidence_source(bibs)("undefined-key") == ()


class CountingJudge:
    """Delegates to the offline judge and counts the calls."""

    def __init__(self) -> None:
        self.inner = OfflineSupportJudge(None)
        self.judge_id = self.inner.judge_id
        self.calls = 0

    def judge(self, claim: str, evidence: Sequence[Evidence]) -> SupportVerdict:
        self.calls += 1
        return self.inner.judge(claim, evidence)


def test_rechecking_an_unchanged_draft_costs_nothing(draft: Path, tmp_path: Path) -> None:
    project, bibs = load(draft)
    settings = settings_for(tmp_path)
    first = CountingJudge()
    findings, summary = claim_findings(project, bibs, settings, judge=first)
    assert first.calls > 0
    again = CountingJudge()
    assert claim_findings(project, bibs, settings, judge=again) == (findings, summary)
    assert again.calls == 0  # answered by the on-disk cache under the cache directory
    assert (tmp_path / "cache" / "claims" / VerdictCache.FILE_NAME).is_file()


def test_unavailable_judges_fall_back_to_the_offline_judge(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        judge = make_judge(settings_for(tmp_path, kind="onnx", onnxModel=str(tmp_path / "no-model")))
    assert isinstance(judge, OfflineSupportJudge)
    assert "ONNX claim judge unavailable" in caplog.text
    assert isinstance(make_judge(settings_for(tmp_path, kind="llm")), OfflineSupportJudge)


def test_the_cli_prints_metrics_and_verdicts(draft: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "settings.json"
    config.write_text(json.dumps({"knowledgeBase": {"dataDir": str(tmp_path / "kb"), "embeddingModel": "hashing-256"},
                                  "online": {"cacheDir": str(tmp_path / "cache")}, "judge": {"threshold": 0.6}}),
                      encoding="utf-8")
    code = main(["check", "--claims", str(draft / "main.tex"), "--config", str(config)])
    out = capsys.readouterr().out
    assert code == 0
    assert "[claim-not-supported]" in out
    assert "citation_recall: " in out and "citation_precision: " in out
    assert "location=main.tex:13:64; label=not_addressed" in out
    code = main(["check", "--claims", "--format", "json", str(draft / "main.tex"), "--config", str(config)])
    payload = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {"citation_recall", "citation_precision", "verdicts"} <= set(payload["claims"])
    assert len(payload["claims"]["verdicts"]) == 7
