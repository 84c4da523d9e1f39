"""The on-disk cache of parsed .bib files: an unchanged file is loaded without reading or
hashing its text, a changed one is parsed again, and the cache stays bounded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from relatex.analysis.bib import bib_cache, bibtex
from relatex.analysis.bib.bibtex import load_bib_file

ENTRY = "@article{{{key}, author = {{Smith, Ann}}, title = {{On {key}}}, journal = {{J}}, year = {{2020}}}}\n"


def _write(path: Path, keys: list[str]) -> None:
    path.write_text("".join(ENTRY.format(key=key) for key in keys), encoding="utf-8")


def test_an_unchanged_file_is_loaded_from_the_cache_without_reading_it(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path, cache = tmp_path / "refs.bib", tmp_path / "cache"
    _write(path, ["a", "b", "a"])
    bibtex.clear_cache()
    parsed = load_bib_file(path, cache_dir=cache)
    summary = bib_cache.load_summary(cache, path)
    assert summary is not None and summary.keys == ("a", "b") and summary.digest == parsed.content_hash

    def no_read(_: Path) -> str:
        raise AssertionError("the text was read although the file is unchanged")

    monkeypatch.setattr(bibtex, "read_bib_text", no_read)
    bibtex.clear_cache()  # a new process: nothing in memory
    again = load_bib_file(path, cache_dir=cache)
    assert again == parsed and again is not parsed


def test_a_changed_file_is_parsed_again(tmp_path: Path) -> None:
    path, cache = tmp_path / "refs.bib", tmp_path / "cache"
    _write(path, ["a"])
    bibtex.clear_cache()
    load_bib_file(path, cache_dir=cache)
    _write(path, ["a", "b"])
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    bibtex.clear_cache()
    assert bib_cache.load_summary(cache, path) is None  # the summary no longer matches the file
    assert [e.key for e in load_bib_file(path, cache_dir=cache).entries] == ["a", "b"]
    summary = bib_cache.load_summary(cache, path)
    assert summary is not None and summary.keys == ("a", "b")
    assert len(list(cache.glob("bib-*.pickle"))) == 1  # the old version is gone


def test_a_touched_but_identical_file_refreshes_its_summary(tmp_path: Path) -> None:
    path, cache = tmp_path / "refs.bib", tmp_path / "cache"
    _write(path, ["a"])
    bibtex.clear_cache()
    first = load_bib_file(path, cache_dir=cache)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000))
    bibtex.clear_cache()
    assert load_bib_file(path, cache_dir=cache) == first
    assert bib_cache.load_summary(cache, path) is not None


def test_corrupt_cache_files_are_ignored(tmp_path: Path) -> None:
    path, cache = tmp_path / "refs.bib", tmp_path / "cache"
    _write(path, ["a"])
    bibtex.clear_cache()
    load_bib_file(path, cache_dir=cache)
    for file in cache.iterdir():
        file.write_bytes(b"\x00garbage")
    bibtex.clear_cache()
    assert bib_cache.load_summary(cache, path) is None
    assert [e.key for e in load_bib_file(path, cache_dir=cache).entries] == ["a"]


def test_the_cache_keeps_only_the_most_recently_used_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bib_cache, "MAX_PARSED_FILES", 2)
    cache = tmp_path / "cache"
    bibtex.clear_cache()
    for number in range(5):
        path = tmp_path / f"refs{number}.bib"
        _write(path, [f"k{number}"])
        load_bib_file(path, cache_dir=cache)
    assert len(list(cache.glob("bib-*.pickle"))) == 2
    assert not list(cache.glob("*.tmp"))


def test_parsed_files_are_stored_and_loaded_in_pieces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bib_cache, "ENTRIES_PER_PIECE", 2)
    monkeypatch.setattr(bib_cache, "TEXT_PER_PIECE", 7)
    path, cache = tmp_path / "refs.bib", tmp_path / "cache"
    _write(path, ["a", "b", "c", "d", "e"])
    bibtex.clear_cache()
    parsed = load_bib_file(path, cache_dir=cache)
    loaded = bib_cache.load_parsed(cache, path, parsed.content_hash)
    assert loaded == parsed and loaded is not parsed
    assert [e.key for e in loaded.entries] == ["a", "b", "c", "d", "e"]


def test_large_files_are_kept_out_of_the_cyclic_collector(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 100k-entry file is millions of long-lived objects: a full collection walking them all
    would stall the editor's requests, so parsing or loading one freezes them."""
    import gc

    monkeypatch.setattr(bib_cache, "LONG_LIVED_ENTRIES", 3)
    path, cache = tmp_path / "refs.bib", tmp_path / "cache"
    gc.unfreeze()
    try:
        _write(path, ["a", "b"])
        bibtex.clear_cache()
        load_bib_file(path, cache_dir=cache)
        assert gc.get_freeze_count() == 0  # small: left to the collector
        _write(path, ["a", "b", "c"])
        bibtex.clear_cache()
        parsed = load_bib_file(path, cache_dir=cache)  # parsed
        assert gc.get_freeze_count() > 0
        gc.unfreeze()
        assert bib_cache.load_parsed(cache, path, parsed.content_hash) == parsed  # loaded
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_two_loads_of_the_same_file_share_one_object(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two threads loading an unchanged file at once each read the disk cache; both must end up
    with the same object (consumers compare texts by identity, and a copy costs memory)."""
    path, cache = tmp_path / "refs.bib", tmp_path / "cache"
    _write(path, ["a", "b"])
    bibtex.clear_cache()
    load_bib_file(path, cache_dir=cache)
    bibtex.clear_cache()
    real = bib_cache.load_parsed
    loaded: list[bibtex.BibFile] = []

    def racing(*args, **kwargs):  # type: ignore[no-untyped-def]
        bib = real(*args, **kwargs)
        other = real(*args, **kwargs)
        if other is not None and not loaded:  # another thread finishes its own load meanwhile
            loaded.append(bibtex._remember(str(path), other, None))
        return bib

    monkeypatch.setattr(bib_cache, "load_parsed", racing)
    first = load_bib_file(path, cache_dir=cache)
    assert loaded and first is loaded[0]
    assert load_bib_file(path, cache_dir=cache) is first
