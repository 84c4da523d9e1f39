"""Reading and writing the author's files exactly as they are stored.

A file is decoded once, remembering its encoding (UTF-8, or Latin-1 when the bytes are not
UTF-8), its byte-order mark and its line endings. Offsets everywhere in relatex refer to the
decoded text with the BOM removed and the line endings untouched. Writing applies targeted
edits to that text, gives inserted text the file's own line endings, encodes it back with the
same encoding and BOM (refusing when a new character cannot be encoded), and keeps the file's
permissions and owner.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from relatex.analysis.edits import TextEdit, apply_edits, edits_by_path

_BOM = b"\xef\xbb\xbf"
_NEWLINE = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class TextFormat:
    """How a file's text is stored: ``encoding``, a UTF-8 ``bom``, and its ``newline``."""

    encoding: str = "utf-8"
    bom: bool = False
    newline: str = "\n"


class UnwritableText(ValueError):
    """The new text cannot be stored in the file's encoding, or the file changed on disk."""


def dominant_newline(text: str) -> str:
    """``"\\r\\n"`` when most line ends of ``text`` are CRLF, ``"\\r"`` for old Mac files, else ``"\\n"``."""
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    cr = text.count("\r") - crlf
    if crlf and crlf >= lf and crlf >= cr:
        return "\r\n"
    if cr > lf:
        return "\r"
    return "\n"


def decode_text(data: bytes) -> tuple[str, TextFormat]:
    """The text of a file's bytes and how it is stored (never raises)."""
    bom = data.startswith(_BOM)
    if bom:
        data = data[len(_BOM):]
    try:
        text = data.decode("utf-8")
        encoding = "utf-8"
    except UnicodeDecodeError:
        text = data.decode("latin-1")
        encoding = "latin-1"
    text = text.lstrip("\ufeff")
    return text, TextFormat(encoding, bom, dominant_newline(text))


def read_text(path: Path) -> tuple[str, TextFormat]:
    """A file's text and format; raises OSError when it cannot be read."""
    return decode_text(path.read_bytes())


def with_newlines(text: str, newline: str) -> str:
    """``text`` with every line end written as ``newline``."""
    return text if newline == "\n" and "\r" not in text else _NEWLINE.sub(newline, text)


def encode_text(path: Path, text: str, fmt: TextFormat) -> bytes:
    """The bytes of ``text`` stored as ``fmt``; UnwritableText names the first character that does not fit."""
    try:
        data = text.encode(fmt.encoding)
    except UnicodeEncodeError as exc:
        bad = text[exc.start:exc.end]
        line = text.count("\n", 0, exc.start) + 1
        raise UnwritableText(
            f"{path} is stored as {fmt.encoding} and the new text has {bad!r} (line {line}), which it cannot "
            f"hold; convert the file to UTF-8 or remove that character") from None
    return (_BOM if fmt.bom else b"") + data


def _new_file_mode() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def write_bytes_keeping_metadata(path: Path, data: bytes) -> None:
    """Replace ``path`` atomically (through a symbolic link, to its target), keeping mode and owner."""
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        info: os.stat_result | None = target.stat()
    except FileNotFoundError:
        info = None
    handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temp, stat.S_IMODE(info.st_mode) if info else _new_file_mode())
        if info is not None and hasattr(os, "chown"):
            try:
                os.chown(temp, info.st_uid, info.st_gid)
            except OSError:
                pass  # not ours to give away: the file keeps the writer's owner
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def edited_bytes(path: Path, edits: Sequence[TextEdit], expected: str | None) -> bytes:
    """The new bytes of ``path`` after ``edits`` (offsets into its decoded text).

    ``expected`` is the text the edits were planned on: a file that no longer has it raises
    UnwritableText. A missing file is created as UTF-8 with LF line ends."""
    try:
        current, fmt = read_text(path)
    except FileNotFoundError:
        current, fmt = "", TextFormat()
    if expected is not None and current != expected:
        raise UnwritableText(f"{path} changed on disk since it was read")
    local = [TextEdit(e.path, e.start, e.end, with_newlines(e.new_text, fmt.newline)) for e in edits]
    return encode_text(path, apply_edits(current, local), fmt)


def write_edits(edits: Sequence[TextEdit], expected: Mapping[Path, str]) -> list[Path]:
    """Apply ``edits`` to the files on disk, all or nothing: every file is checked and encoded
    before the first one is written. Raises UnwritableText, ValueError (bad edits) or OSError."""
    planned = {path: edited_bytes(path, items, expected.get(path))
               for path, items in edits_by_path(edits).items()}
    for path, data in planned.items():
        write_bytes_keeping_metadata(path, data)
    return list(planned)
