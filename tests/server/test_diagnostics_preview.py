"""The first diagnostics of a draft with a large, unchanged bibliography come from the .bib
key summaries, before the files are loaded, and agree with the full analysis."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from relatex.analysis import bibtex
from relatex.server import workspace_state
from relatex.server.config import OnlineSettings, RelatexSettings
from relatex.server.workspace_state import analyse_root, preview_root

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "demo"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    target = tmp_path / "demo"
    shutil.copytree(EXAMPLE, target)
    main = target / "main.tex"
    main.write_text(main.read_text(encoding="utf-8").replace(
        "\\end{document}", "Also \\cite{noSuchPaper2031}.\n\\end{document}"), encoding="utf-8")
    return main


def _settings(tmp_path: Path) -> RelatexSettings:
    return RelatexSettings(online=OnlineSettings(cache_dir=str(tmp_path / "cache")))


def test_preview_gives_the_drafts_findings_of_the_full_analysis(project: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workspace_state, "PREVIEW_MIN_BIB_BYTES", 0)
    settings = _settings(tmp_path)
    root = project.resolve()
    bibtex.clear_cache()
    assert preview_root(root, {}, settings) is None  # nothing cached yet: no preview
    full = analyse_root(root, {}, settings, 1)  # fills the on-disk cache
    bibtex.clear_cache()
    preview = preview_root(root, {}, settings)
    assert preview is not None
    findings, texts = preview
    expected = tuple(f for f in full.findings if f.path in texts)
    assert findings == expected
    assert any(f.data.get("key") == "noSuchPaper2031" for f in findings)


def test_no_preview_for_small_or_edited_bibliographies(project: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    settings = _settings(tmp_path)
    root = project.resolve()
    analyse_root(root, {}, settings, 1)
    assert preview_root(root, {}, settings) is None  # the demo .bib is small: loading it is quicker
    monkeypatch.setattr(workspace_state, "PREVIEW_MIN_BIB_BYTES", 0)
    bib = next(root.parent.glob("*.bib"))
    assert preview_root(root, {bib: bib.read_text(encoding="utf-8")}, settings) is None  # unsaved edits
    bib.write_text(bib.read_text(encoding="utf-8") + "\n@misc{late, title={Late}}\n", encoding="utf-8")
    assert preview_root(root, {}, settings) is None  # changed on disk since it was cached


def test_large_bibliographies_are_kept_out_of_the_cyclic_collector(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from relatex.analysis.bibtex import parse_bib_text

    monkeypatch.setattr(workspace_state, "LONG_LIVED_ENTRIES", 2)
    monkeypatch.setattr(workspace_state, "_frozen", set())
    path = tmp_path / "big.bib"
    bib = parse_bib_text("@misc{a, title={A}}\n@misc{b, title={B}}\n", path)
    small = parse_bib_text("@misc{c, title={C}}\n", tmp_path / "small.bib")
    gc.unfreeze()
    try:
        workspace_state.keep_out_of_collector({small.path: small})
        assert gc.get_freeze_count() == 0
        workspace_state.keep_out_of_collector({path: bib})
        frozen = gc.get_freeze_count()
        assert frozen > 0
        workspace_state.keep_out_of_collector({path: bib})  # already frozen: nothing more to do
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
