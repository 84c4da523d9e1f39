"""The first diagnostics of a draft with a large, unchanged bibliography come from the .bib
key summaries, before the files are loaded, and agree with the full analysis."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from relatex.analysis.bib import bibtex
from relatex.config.settings import OnlineSettings, Settings
from relatex.workflows import check_project
from relatex.workflows.check_project import analyse_root, preview_root

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "demo"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    target = tmp_path / "demo"
    shutil.copytree(EXAMPLE, target)
    main = target / "main.tex"
    main.write_text(main.read_text(encoding="utf-8").replace(
        "\\end{document}", "Also \\cite{noSuchPaper2031}.\n\\end{document}"), encoding="utf-8")
    return main


def _settings(tmp_path: Path) -> Settings:
    return Settings(online=OnlineSettings(cache_dir=str(tmp_path / "cache")))


def test_preview_gives_the_drafts_findings_of_the_full_analysis(project: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check_project, "PREVIEW_MIN_BIB_BYTES", 0)
    settings = _settings(tmp_path)
    root = project.resolve()
    bibtex.clear_cache()
    cold = preview_root(root, {}, settings)  # nothing cached yet: the keys come from a quick scan
    full = analyse_root(root, {}, settings, 1)  # fills the on-disk cache
    bibtex.clear_cache()
    warm = preview_root(root, {}, settings)  # the keys come from the key summary
    assert cold is not None and warm is not None
    for findings, texts in (cold, warm):
        assert findings == tuple(f for f in full.findings if f.path in texts)
        assert any(f.data.get("key") == "noSuchPaper2031" for f in findings)


def test_no_preview_for_small_or_edited_bibliographies(project: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    settings = _settings(tmp_path)
    root = project.resolve()
    analyse_root(root, {}, settings, 1)
    assert preview_root(root, {}, settings) is None  # the demo .bib is small: loading it is quicker
    monkeypatch.setattr(check_project, "PREVIEW_MIN_BIB_BYTES", 0)
    bib = next(root.parent.glob("*.bib"))
    assert preview_root(root, {bib: bib.read_text(encoding="utf-8")}, settings) is None  # unsaved edits
    main = root.read_text(encoding="utf-8")
    root.write_text(main.replace("Also \\cite{noSuchPaper2031}", "Also \\cite{noSuchPaper2031,late}"), encoding="utf-8")
    bib.write_text(bib.read_text(encoding="utf-8") + "\n@misc{late, title={Late}}\n", encoding="utf-8")
    preview = preview_root(root, {}, settings)  # changed since it was cached: scanned again
    assert preview is not None
    assert {f.data.get("key") for f in preview[0] if f.data.get("key")} == {"noSuchPaper2031"}


def test_the_completion_ranking_index_is_kept_on_disk(project: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from relatex.retrieval import lexical
    from relatex.server.features import completion

    monkeypatch.setattr(completion, "PERSIST_MIN_KEYS", 1)
    monkeypatch.setattr(completion, "_rankers", {})
    snapshot = analyse_root(project.resolve(), {}, _settings(tmp_path), 1)
    cache = tmp_path / "bm25-cache"
    completion.build_index(snapshot, cache)
    built = completion.current_ranker(snapshot)
    assert built.index is not None and len(list(cache.glob("keys-bm25-*"))) == 1
    sentence = "sentence embeddings for semantic search"
    expected = built.ranked(sentence, "", set(), 5)

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("rebuilt although the index is on disk")

    monkeypatch.setattr(completion, "_rankers", {})  # a restarted server
    monkeypatch.setattr(lexical.LexicalIndex, "build", no_build)
    completion.build_index(snapshot, cache)
    assert completion.current_ranker(snapshot).ranked(sentence, "", set(), 5) == expected
