"""The per-content index of bibliographies: the same findings as checking from scratch, cheap
re-checks after an edit of the draft, and file findings kept on disk for large files."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from relatex.analysis.bib import bibliography_index as index_module
from relatex.analysis.bib.bibliography_index import bibliography_index, clear_memo, compute_file_findings
from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.analysis.findings import Code
from relatex.analysis.latex.project_model import (
    BibResource,
    CitationKey,
    CitationSite,
    LatexProject,
    SourceFile,
)
from relatex.analysis.verification.project_checks import check_citations_against_keys, check_project

TEX = Path("/draft/main.tex")
BIB_A = Path("/draft/a.bib")
BIB_B = Path("/draft/b.bib")


def _bib(keys: list[str], path: Path) -> str:
    return "".join(f"@misc{{{key}, title = {{Title of {key}}}, year = {{2020}}}}\n" for key in keys)


def _project(cited: list[str]) -> LatexProject:
    text = "".join(f"\\cite{{{key}}} " for key in cited)
    sites, offset = [], 0
    for key in cited:
        start = offset + len("\\cite{")
        sites.append(CitationSite("cite", (CitationKey(key, TEX, start, start + len(key)),), TEX, offset,
                                  start + len(key) + 1))
        offset = start + len(key) + 2
    resources = tuple(BibResource("bibliography", p, TEX, 0, 0) for p in (BIB_A, BIB_B))
    return LatexProject(root=TEX, root_dir=TEX.parent, files={TEX: SourceFile(TEX, text)}, file_order=(TEX,),
                        citations=tuple(sites), bib_resources=resources)


def _naive_unused(bibs: dict[Path, object], cited: set[str]) -> int:
    seen = set()
    for path, bib in bibs.items():
        for entry in bib.entries:  # type: ignore[attr-defined]
            if entry.key not in cited:
                seen.add((path, entry.key))
    return len(seen)


@pytest.mark.parametrize("seed", range(5))
def test_unused_counts_match_a_scan_of_every_entry(seed: int) -> None:
    rng = random.Random(seed)
    pool = [f"k{i}" for i in range(40)]
    keys_a = [rng.choice(pool) for _ in range(30)]  # duplicates within a file on purpose
    keys_b = [rng.choice(pool) for _ in range(20)]
    bibs = {BIB_A: parse_bib_text(_bib(keys_a, BIB_A), BIB_A), BIB_B: parse_bib_text(_bib(keys_b, BIB_B), BIB_B)}
    cited = rng.sample(pool, 10) + ["missing"]
    findings = check_project(_project(cited), bibs, max_unused=5)
    unused = [f for f in findings if f.code is Code.UNUSED_ENTRY]
    listed = [f for f in unused if not f.data.get("summary")]
    summary = [f for f in unused if f.data.get("summary")]
    total = _naive_unused(bibs, set(cited))
    assert len(listed) == min(5, total)
    assert all(f.data["key"] not in cited for f in listed)
    if total > 5:
        assert summary and summary[0].data["hidden"] == total - 5
    else:
        assert not summary
    undefined = [f for f in findings if f.code is Code.UNDEFINED_CITATION]
    assert {f.data["key"] for f in undefined} == set(cited) - set(keys_a) - set(keys_b)


def test_the_draft_findings_from_keys_alone_equal_those_of_the_full_check() -> None:
    bibs = {BIB_A: parse_bib_text(_bib(["a1", "a2"], BIB_A), BIB_A), BIB_B: parse_bib_text(_bib(["b1"], BIB_B), BIB_B)}
    project = _project(["a1", "b1", "a3", "zz"])
    full = [f for f in check_project(project, bibs) if f.path == TEX]
    quick = check_citations_against_keys(project, [BIB_A, BIB_B], {"a1", "a2", "b1"})
    assert quick == full
    assert {f.data["key"] for f in quick} == {"a3", "zz"}


def test_the_index_is_built_once_per_content() -> None:
    clear_memo()
    bibs = {BIB_A: parse_bib_text(_bib(["a1"], BIB_A), BIB_A)}
    first = bibliography_index(bibs)
    assert bibliography_index(dict(bibs)) is first
    changed = {BIB_A: parse_bib_text(_bib(["a1", "a2"], BIB_A), BIB_A)}
    assert bibliography_index(changed) is not first


def test_file_findings_of_large_files_are_kept_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_module, "PERSIST_MIN_ENTRIES", 2)
    text = _bib(["a1", "a1", "a2"], BIB_A)  # a duplicate key: a finding worth keeping
    bibs = {BIB_A: parse_bib_text(text, BIB_A)}
    clear_memo()
    computed = bibliography_index(bibs, tmp_path).file_findings
    assert any(f.code is Code.DUPLICATE_KEY for f in computed)
    assert list(tmp_path.glob("findings-*.pickle"))

    def fail(_: object) -> list[object]:
        raise AssertionError("recomputed although the findings are on disk")

    monkeypatch.setattr(index_module, "compute_file_findings", fail)
    clear_memo()
    assert bibliography_index({BIB_A: parse_bib_text(text, BIB_A)}, tmp_path).file_findings == computed


def test_a_corrupt_findings_file_is_recomputed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_module, "PERSIST_MIN_ENTRIES", 1)
    bibs = {BIB_A: parse_bib_text(_bib(["a1", "a1"], BIB_A), BIB_A)}
    clear_memo()
    expected = bibliography_index(bibs, tmp_path).file_findings
    for path in tmp_path.glob("findings-*.pickle"):
        path.write_bytes(b"not a pickle")
    clear_memo()
    assert bibliography_index(bibs, tmp_path).file_findings == expected
    assert tuple(compute_file_findings(bibs)) == expected


def test_findings_files_are_pruned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_module, "PERSIST_MIN_ENTRIES", 1)
    monkeypatch.setattr(index_module, "MAX_FINDINGS_FILES", 3)
    for number in range(6):
        clear_memo()
        bibliography_index({BIB_A: parse_bib_text(_bib([f"k{number}"], BIB_A), BIB_A)}, tmp_path)
    assert len(list(tmp_path.glob("findings-*.pickle"))) == 3
