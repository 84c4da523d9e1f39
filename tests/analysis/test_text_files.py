"""text_files: the author's files keep their encoding, BOM, line endings, mode and owner."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from relatex.analysis.edits import TextEdit
from relatex.analysis.text_files import UnwritableText, read_text, write_edits


def _insert(path: Path, text: str, at: str, new: str) -> TextEdit:
    offset = text.index(at)
    return TextEdit(path, offset, offset, new)


def test_crlf_file_keeps_crlf_and_inserted_lines_get_crlf(tmp_path: Path) -> None:
    path = tmp_path / "main.tex"
    original = b"\\section{Intro}\r\nText.\r\n\r\n\\section{End}\r\n"
    path.write_bytes(original)
    text, fmt = read_text(path)
    assert fmt.newline == "\r\n" and text == original.decode()
    write_edits([_insert(path, text, "\\section{End}", "New line one.\nNew line two.\n\n")], {path: text})
    data = path.read_bytes()
    assert data == original.replace(b"\\section{End}", b"New line one.\r\nNew line two.\r\n\r\n\\section{End}")
    assert b"\n" not in data.replace(b"\r\n", b"")


def test_bom_and_latin1_are_kept(tmp_path: Path) -> None:
    bom = tmp_path / "a.tex"
    bom.write_bytes(b"\xef\xbb\xbfCaf\xc3\xa9.\n")
    text, fmt = read_text(bom)
    assert fmt.bom and text == "Café.\n"
    write_edits([TextEdit(bom, len(text), len(text), "More.\n")], {bom: text})
    assert bom.read_bytes() == b"\xef\xbb\xbfCaf\xc3\xa9.\nMore.\n"
    latin = tmp_path / "refs.bib"
    latin.write_bytes(b"@misc{a, title = {M\xfcller}}\n")
    text, fmt = read_text(latin)
    assert fmt.encoding == "latin-1" and "Müller" in text
    write_edits([TextEdit(latin, len(text), len(text), "@misc{b, title = {G\xf6del}}\n")], {latin: text})
    assert latin.read_bytes() == b"@misc{a, title = {M\xfcller}}\n@misc{b, title = {G\xf6del}}\n"


def test_unencodable_text_is_refused_with_a_message_and_nothing_written(tmp_path: Path) -> None:
    latin = tmp_path / "refs.bib"
    latin.write_bytes(b"@misc{a, title = {M\xfcller}}\n")
    other = tmp_path / "main.tex"
    other.write_text("x\n", encoding="utf-8")
    text, _ = read_text(latin)
    edits = [TextEdit(other, 0, 0, "y\n"), TextEdit(latin, 0, 0, "% \u2014 dash\n")]
    with pytest.raises(UnwritableText, match="latin-1.*convert the file to UTF-8"):
        write_edits(edits, {latin: text, other: "x\n"})
    assert other.read_text() == "x\n" and latin.read_bytes() == b"@misc{a, title = {M\xfcller}}\n"


def test_changed_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "main.tex"
    path.write_text("now\n", encoding="utf-8")
    with pytest.raises(UnwritableText, match="changed on disk"):
        write_edits([TextEdit(path, 0, 0, "x")], {path: "before\n"})


def test_mode_is_kept_and_new_files_follow_the_umask(tmp_path: Path) -> None:
    path = tmp_path / "main.tex"
    path.write_text("a\n", encoding="utf-8")
    os.chmod(path, 0o664)
    created = tmp_path / "references.bib"
    write_edits([TextEdit(path, 0, 0, "b\n"), TextEdit(created, 0, 0, "@misc{k,}\n")], {path: "a\n"})
    assert stat.S_IMODE(path.stat().st_mode) == 0o664
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(created.stat().st_mode) == 0o666 & ~mask
    assert path.read_text() == "b\na\n" and not list(tmp_path.glob(".*.tmp"))


def test_symbolic_link_is_written_through(tmp_path: Path) -> None:
    target = tmp_path / "real.tex"
    target.write_text("a\n", encoding="utf-8")
    link = tmp_path / "link.tex"
    link.symlink_to(target)
    write_edits([TextEdit(link, 2, 2, "b\n")], {link: "a\n"})
    assert link.is_symlink() and target.read_text() == "a\nb\n"
