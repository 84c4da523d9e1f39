"""Targeted .bib edits: only the edited range changes, byte for byte."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from relatex.analysis.bib.bib_edits import (
    append_entry_edit,
    format_entry,
    remove_entry_edit,
    replace_entry_edit,
)
from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.analysis.edits import TextEdit, apply_edits

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "analysis" / "bib"


def test_apply_edits_in_any_order_and_rejects_overlaps() -> None:
    path = Path("f")
    text = "0123456789"
    edits = [TextEdit(path, 8, 10, "XY"), TextEdit(path, 0, 1, "a"), TextEdit(path, 4, 4, "++")]
    assert apply_edits(text, edits) == "a123++4567XY"
    assert apply_edits(text, list(reversed(edits))) == "a123++4567XY"
    with pytest.raises(ValueError, match="overlapping"):
        apply_edits(text, [TextEdit(path, 0, 5, ""), TextEdit(path, 4, 6, "")])
    with pytest.raises(ValueError, match="beyond"):
        apply_edits(text, [TextEdit(path, 9, 12, "")])
    with pytest.raises(ValueError):
        TextEdit(path, 5, 2, "")


def test_format_entry_is_canonical_and_parses_back() -> None:
    fields = {
        "abstract": "We show {things}.",
        "Title": "{BERT}: Pre-training",
        "year": "2019",
        "author": "Devlin, Jacob and Chang, Ming-Wei",
        "archivePrefix": "arXiv",
        "eprint": "1810.04805",
        "booktitle": "Proc. of NAACL",
        "empty": "  ",
    }
    text = format_entry("InProceedings", "devlin2019bert", fields)
    assert text.splitlines()[0] == "@inproceedings{devlin2019bert,"
    assert text.splitlines()[1] == "  author        = {Devlin, Jacob and Chang, Ming-Wei},"
    assert text.endswith("  abstract      = {We show {things}.}\n}")
    assert "empty" not in text
    (entry,) = parse_bib_text(text, Path("x.bib")).entries
    assert entry.fields == {
        "author": "Devlin, Jacob and Chang, Ming-Wei", "title": "{BERT}: Pre-training",
        "booktitle": "Proc. of NAACL", "year": "2019", "eprint": "1810.04805", "archiveprefix": "arXiv",
        "abstract": "We show {things}.",
    }
    assert entry.arxiv_id == "1810.04805"


def test_format_entry_escapes_unbalanced_braces_and_rejects_bad_keys() -> None:
    text = format_entry("misc", "k", {"title": "a } b {"})
    (entry,) = parse_bib_text(text, Path("x.bib")).entries
    assert entry.key == "k"
    with pytest.raises(ValueError):
        format_entry("misc", "bad key", {})
    with pytest.raises(ValueError):
        format_entry("mi sc", "k", {})


def _assert_only_range_changed(old: str, new: str, start: int, end: int, inserted: str) -> None:
    assert new[:start] == old[:start]
    assert new[start:start + len(inserted)] == inserted
    assert new[start + len(inserted):] == old[end:]


def _edit_round_trip(path: Path, text: str) -> None:
    bib = parse_bib_text(text, path)
    assert len(bib.entries) >= 3
    target = bib.entries[len(bib.entries) // 2]
    replacement = format_entry(target.entry_type, target.key, {**target.fields, "note": "edited"})
    edit = replace_entry_edit(target, replacement)
    new_text = apply_edits(text, [edit])
    _assert_only_range_changed(text, new_text, target.start, target.end, replacement)
    # bytes too (UTF-8), not only characters
    old_bytes, new_bytes = text.encode(), new_text.encode()
    prefix = text[:target.start].encode()
    suffix = text[target.end:].encode()
    assert new_bytes.startswith(prefix) and new_bytes.endswith(suffix)
    assert old_bytes.startswith(prefix) and old_bytes.endswith(suffix)
    reparsed = parse_bib_text(new_text, path)
    assert [e.key for e in reparsed.entries] == [e.key for e in bib.entries]
    assert reparsed.by_key()[target.key].fields["note"] == "edited"

    appended = format_entry("misc", "zz-new-entry", {"title": "Appended", "year": "2024"})
    append = append_entry_edit(bib, appended)
    with_new = apply_edits(text, [append])
    assert with_new.startswith(text)
    assert parse_bib_text(with_new, path).entries[-1].key == "zz-new-entry"

    both = apply_edits(text, [append, edit])
    assert both == new_text + append.new_text

    removal = remove_entry_edit(target, text)
    removed = apply_edits(text, [removal])
    assert removed == text[:target.start] + text[removal.end:]
    assert target.key not in {e.key for e in parse_bib_text(removed, path).entries} or \
        sum(e.key == target.key for e in bib.entries) > 1


def test_edits_on_fixture_keep_every_other_byte() -> None:
    path = FIXTURES / "sample.bib"
    _edit_round_trip(path, path.read_text(encoding="utf-8"))


def test_edits_on_the_demo_library_keep_every_other_byte(example_dir: Path) -> None:
    path = example_dir / "library.bib"
    _edit_round_trip(path, path.read_text(encoding="utf-8"))


def test_append_to_files_without_trailing_newline_and_empty_files() -> None:
    path = Path("x.bib")
    entry = format_entry("misc", "b", {"title": "B"})
    no_newline = parse_bib_text("@misc{a, title={A}}", path)
    result = apply_edits(no_newline.text, [append_entry_edit(no_newline, entry)])
    assert result == "@misc{a, title={A}}\n\n" + entry + "\n"
    empty = parse_bib_text("", path)
    assert apply_edits("", [append_entry_edit(empty, entry)]) == entry + "\n"
    crlf = parse_bib_text("@misc{a, title={A}}\r\n", path)
    assert apply_edits(crlf.text, [append_entry_edit(crlf, entry)]).endswith(entry.replace("\n", "\r\n") + "\r\n")


def test_edits_on_real_acl_anthology_entries(shared_data: Path) -> None:
    source = shared_data / "acl-anthology" / "anthology+abstracts.bib.gz"
    if not source.exists():
        pytest.skip("ACL Anthology file absent")
    lines: list[str] = []
    count = 0
    with gzip.open(source, "rt", encoding="utf-8", newline="") as handle:
        for line in handle:
            if line.startswith("@"):
                count += 1
                if count > 200:
                    break
            lines.append(line)
    text = "".join(lines)
    _edit_round_trip(source, text)
