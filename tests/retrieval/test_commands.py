"""`relatex index` and `relatex search` end to end (model-free embedder), including a SIGKILL
in the middle of indexing followed by a resuming run, and the writer-lock message."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from relatex.config.settings import load_settings
from relatex.retrieval.embedding import HashingEmbedder
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.sources import open_source
from relatex.server.cli import main
from relatex.workflows.knowledge_bases import make_embedder, open_knowledge_base

from .kb_library import write_library

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "retrieval"


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["RELATEX_EMBEDDING_MODEL"] = "hashing-64"
    env["RELATEX_DATA_DIR"] = str(tmp_path / "data")
    env["RELATEX_KB_NAME"] = "test"
    return env


def test_index_then_search_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in _env(tmp_path).items():
        if key.startswith("RELATEX_"):
            monkeypatch.setenv(key, value)
    assert main(["index", str(FIXTURES / "library.bib"), str(FIXTURES / "s2.jsonl"), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "library: read 8, added 6, updated 0, merged 0, unchanged 0, removed 0, skipped 2" in out
    assert "skipped 1: missing title" in out
    assert "s2: read 6, added 1, updated 0, merged 2, unchanged 0, removed 0, skipped 3" in out
    assert "skipped 1: malformed JSON line" in out
    assert main(["search", "automatic evaluation of machine translation", "-k", "2", "--format", "json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits[0]["id"] == "doi:10.3115/1073083.1073135" and hits[0]["year"] == 2002 and hits[0]["rank"] == 1
    assert main(["search", "Okapi", "--mode", "bm25"]) == 0
    text = capsys.readouterr().out
    assert "Okapi at TREC-3" in text and "1995" in text
    assert main(["index", str(tmp_path / "missing.bib")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_components_open_from_settings(tmp_path: Path) -> None:
    settings, _ = load_settings({"knowledgeBase": {"dataDir": str(tmp_path), "name": "kb1",
                                                    "embeddingModel": "hashing-32"}}, env={})
    assert isinstance(make_embedder(settings), HashingEmbedder)
    with pytest.raises(FileNotFoundError, match="relatex index"):
        open_knowledge_base(settings, read_only=True)
    with open_knowledge_base(settings) as kb:
        kb.add_records(list(open_source(FIXTURES / "arxiv.jsonl")))
    with open_knowledge_base(settings, read_only=True) as kb:
        assert len(kb) == 4 and kb.data_dir == tmp_path / "kb1"
    other, _ = load_settings({"knowledgeBase": {"dataDir": str(tmp_path), "name": "kb1",
                                                 "embeddingModel": "hashing-16"}}, env={})
    with pytest.raises(ValueError, match="built with the embedding model"):
        open_knowledge_base(other, read_only=True)
    served, _ = load_settings({"knowledgeBase": {"dataDir": str(tmp_path), "name": "kb2", "qdrantUrl": ":memory:",
                                                  "embeddingModel": "hashing-32"}}, env={})
    with open_knowledge_base(served) as kb:
        kb.add_records(list(open_source(FIXTURES / "openalex.jsonl")))
        assert kb.search("long short-term memory", k=1, mode="dense")[0].record.title == "Long Short-Term Memory"


def _index_cmd(lib: Path) -> list[str]:
    return [sys.executable, "-m", "relatex.server.cli", "index", str(lib), "--name", "lib", "--batch-size", "25"]


#: Records of the killed run: enough that an idle machine (thousands of records/s with the hashing
#: embedder, a progress line every 0.5 s) is still indexing when the first line past 200 comes.
KILLED_RUN_RECORDS = 12_000


def test_sigkill_mid_run_then_resume(tmp_path: Path) -> None:
    total = KILLED_RUN_RECORDS
    lib = write_library(tmp_path / "lib.bib", list(range(total)))
    env = _env(tmp_path)
    proc = subprocess.Popen(_index_cmd(lib), env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    assert proc.stderr is not None
    processed = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        if line.startswith("[lib]"):
            processed = int(line.split()[1].split("/")[0].replace(",", ""))
            if processed >= 200:
                proc.send_signal(signal.SIGKILL)
                break
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the run finished before it could be killed"
    assert processed >= 200
    done = subprocess.run([*_index_cmd(lib), "--format", "json", "--no-progress"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)["sources"][0]
    assert summary["unchanged"] >= processed - 25  # committed batches are not redone
    assert summary["added"] + summary["unchanged"] == total and summary["added"] == summary["embedded"]
    with KnowledgeBase.open(tmp_path / "data" / "test", embedder=HashingEmbedder(64)) as kb:
        assert len(kb) == total and kb.stats()["vectors"] == total
        assert len({r.id for r in kb.iter_records()}) == total


def test_second_writer_gets_a_clear_message(tmp_path: Path) -> None:
    env = _env(tmp_path)
    kb = KnowledgeBase.open(tmp_path / "data" / "test", embedder=HashingEmbedder(64))
    try:
        result = subprocess.run(_index_cmd(FIXTURES / "library.bib"), env=env, capture_output=True, text=True,
                                timeout=60)
        assert result.returncode == 1
        assert f"is being updated by another relatex process (pid {os.getpid()})" in result.stderr
        search = subprocess.run([sys.executable, "-m", "relatex.server.cli", "search", "anything"], env=env,
                                capture_output=True, text=True, timeout=60)
        assert search.returncode == 0  # readers are never blocked
    finally:
        kb.close()


def test_ctrl_c_stops_cleanly_and_a_rerun_resumes(tmp_path: Path) -> None:
    lib = write_library(tmp_path / "lib.bib", list(range(1500)))
    env = _env(tmp_path)
    proc = subprocess.Popen(_index_cmd(lib), env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line or line.startswith("[lib]"):
            proc.send_signal(signal.SIGINT)
            break
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "run the same command again to resume" in err
    done = subprocess.run([*_index_cmd(lib), "--format", "json", "--no-progress"], env=env,
                          capture_output=True, text=True, timeout=120)
    summary = json.loads(done.stdout)["sources"][0]
    assert done.returncode == 0 and summary["unchanged"] >= 25 and summary["added"] + summary["unchanged"] == 1500


def test_progress_rate_follows_the_recent_pace_after_a_resumed_skip() -> None:
    from relatex.server.commands.index import ProgressLine

    line = ProgressLine(enabled=False, window=30.0)
    # a resumed run skips 50,000 indexed records in 10 s, then embeds 20 records/s
    assert line.rate(10.0, 50_000) == pytest.approx(5000.0)
    rate = 0.0
    for second in range(11, 200):
        rate = line.rate(float(second), 50_000 + 20 * (second - 10))
    assert rate == pytest.approx(20.0)
