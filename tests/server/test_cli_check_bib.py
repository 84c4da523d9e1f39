"""`relatex check --bib` and `--fix` end to end on a copy of a small draft, with a local knowledge base."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.retrieval.embedding import HashingEmbedder
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.records import PaperRecord
from relatex.server.cli import main
from tests.fakes import scholarly_server_fixture  # noqa: F401  (pytest fixture)
from tests.fakes.scholarly_server import ScholarlyServer

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "verify"


@pytest.fixture
def draft(tmp_path: Path) -> Path:
    target = tmp_path / "draft"
    shutil.copytree(FIXTURES / "project", target)
    return target


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    records = []
    for line in (FIXTURES / "authority_records.jsonl").read_text(encoding="utf-8").splitlines():
        raw = json.loads(line)
        records.append(PaperRecord(
            id=raw["id"], title=raw["title"], authors=tuple(raw["authors"]), year=raw["year"], venue=raw["venue"],
            doi=raw["doi"].lower(), source="fixture", bibtex_type=raw["bibtex_type"],
            bibtex_fields={"pages": raw["pages"]},
        ))
    root = tmp_path / "data"
    with KnowledgeBase.open(root / "papers", embedder=HashingEmbedder(64)) as kb:
        kb.add_records(records)
    return root


def _run(draft: Path, data_dir: Path, *extra: str) -> int:
    return main(["check", str(draft / "main.tex"), "--bib", "--offline", "--data-dir", str(data_dir),
                 "--kb-name", "papers", "--format", "json", *extra])


def test_check_bib_reports_on_entries_and_citations(
    draft: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (draft / "refs.bib").read_bytes()
    assert _run(draft, data_dir) == 0
    out = capsys.readouterr()
    rows = [r for r in json.loads(out.out) if r["code"].startswith("bib-")]
    found = sorted((Path(r["path"]).name, r["code"], r["data"]["key"]) for r in rows)
    assert found == [
        ("main.tex", "bib-mismatch", "he2015resnet"),
        ("main.tex", "bib-not-in-kb", "ghost2021"),
        ("main.tex", "bib-preprint-published", "devlin2018bert"),
        ("refs.bib", "bib-mismatch", "he2015resnet"),
        ("refs.bib", "bib-not-in-kb", "ghost2021"),
        ("refs.bib", "bib-preprint-published", "devlin2018bert"),
    ]
    mismatch = next(r for r in rows if r["code"] == "bib-mismatch" and r["path"].endswith("refs.bib"))
    assert mismatch["data"]["corrected_fields"] == {"year": "2016"}
    assert "1 verified" in out.err and "1 mismatch" in out.err
    assert "1 not in the knowledge base (not checked online)" in out.err  # offline: absent, not a suspect
    assert (draft / "refs.bib").read_bytes() == before  # --bib alone never writes


def test_check_fix_rewrites_only_the_corrected_entries(
    draft: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bib_path = draft / "refs.bib"
    before = bib_path.read_text(encoding="utf-8")
    old = parse_bib_text(before, bib_path).by_key()
    assert _run(draft, data_dir, "--fix") == 0
    out = capsys.readouterr()
    after = bib_path.read_text(encoding="utf-8")
    new = parse_bib_text(after, bib_path).by_key()
    # byte for byte identical outside the two corrected entries
    he, devlin = old["he2015resnet"], old["devlin2018bert"]
    assert after[: devlin.start] == before[: devlin.start]
    assert after[new["devlin2018bert"].end : new["he2015resnet"].start] == before[devlin.end : he.start]
    assert after[new["he2015resnet"].end :] == before[he.end :]
    assert new["he2015resnet"].year == 2016 and new["he2015resnet"].fields["note"] == "Best paper"
    assert "\tyear = {2016},\n" in after  # the user's tab layout is kept
    assert new["devlin2018bert"].entry_type == "inproceedings"
    assert new["devlin2018bert"].doi == "10.18653/v1/n19-1423"
    assert "journal" not in new["devlin2018bert"].fields
    assert "fixed 'he2015resnet' in refs.bib: year: '2015' -> '2016'" in out.err
    assert "fixed 'devlin2018bert'" in out.err
    rows = [r for r in json.loads(out.out) if r["code"].startswith("bib-")]
    assert {r["data"]["key"] for r in rows} == {"ghost2021"}  # fixed entries are no longer reported
    # a second run finds nothing left to fix
    assert _run(draft, data_dir, "--fix") == 0
    assert bib_path.read_text(encoding="utf-8") == after


def test_without_any_authority_nothing_is_verified(draft: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(draft, tmp_path / "empty") == 0
    out = capsys.readouterr()
    assert not [r for r in json.loads(out.out) if r["code"].startswith("bib-") and r["code"] != "bib-parse-error"]
    assert "was not verified" in out.err


def test_check_bib_online_against_recorded_sources(
    draft: Path, tmp_path: Path, scholarly_server: ScholarlyServer, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for api, var in (("crossref", "RELATEX_CROSSREF_URL"), ("arxiv", "RELATEX_ARXIV_URL"),
                     ("openalex", "RELATEX_OPENALEX_URL"), ("dblp", "RELATEX_DBLP_URL")):
        monkeypatch.setenv(var, scholarly_server.base_url(api))
    monkeypatch.setenv("RELATEX_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("S2_API_KEY", raising=False)
    code = main(["check", str(draft / "main.tex"), "--bib", "--online", "--data-dir", str(tmp_path / "none"),
                 "--format", "json"])
    assert code == 0
    out = capsys.readouterr()
    rows = [r for r in json.loads(out.out) if r["code"].startswith("bib-") and r["path"].endswith("refs.bib")]
    assert sorted((r["data"]["key"], r["code"]) for r in rows) == [
        ("devlin2018bert", "bib-preprint-published"),
        ("ghost2021", "bib-not-found"),
        ("he2015resnet", "bib-mismatch"),
    ]
    sources = {r["data"]["key"]: r["data"]["evidence"][0]["source"] for r in rows if r["data"]["evidence"]}
    assert sources == {"devlin2018bert": "crossref", "he2015resnet": "crossref"}
    assert (tmp_path / "cache" / "http").is_dir()  # responses were cached on disk


def test_check_fix_keeps_latin1_crlf_and_mode(draft: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bib_path = draft / "refs.bib"
    text = bib_path.read_text(encoding="utf-8").replace("\n", "\r\n") + "\r\n@misc{extra, note = {M\u00fcller}}\r\n"
    bib_path.write_bytes(text.encode("latin-1"))
    bib_path.chmod(0o644)
    assert _run(draft, data_dir, "--fix") == 0
    out = capsys.readouterr()
    assert "Traceback" not in out.err and "fixed 'he2015resnet'" in out.err
    data = bib_path.read_bytes()
    assert b"M\xfcller" in data and b"\n" not in data.replace(b"\r\n", b"")
    assert b"year = {2016}," in data and (bib_path.stat().st_mode & 0o777) == 0o644
