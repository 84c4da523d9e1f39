"""The parsers never raise: random text, truncations, unbalanced braces, random edits of real files."""

from __future__ import annotations

import gzip
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relatex.analysis.bib.bibtex import decode_latex, iter_bib_blocks, parse_bib_text, split_names
from relatex.analysis.bib.bibtex_model import BibEntry

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "analysis" / "bib"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "demo"
SAMPLE = (FIXTURES / "sample.bib").read_text(encoding="utf-8")
LIBRARY = (EXAMPLE / "library.bib").read_text(encoding="utf-8")
P = Path("random.bib")

BIB_ALPHABET = st.sampled_from(list("@{}()\"=,#%\\ \n\tabcxyz019_-:'`^~$") + ["@article", "@string", "and", "\r\n"])
bib_like = st.lists(BIB_ALPHABET, max_size=300).map("".join)


def _check(text: str) -> None:
    bib = parse_bib_text(text, P)
    for entry in bib.entries:
        assert 0 <= entry.start < entry.end <= len(text)
        assert text[entry.start] == "@"
        assert text[entry.key_start:entry.key_end] == entry.key
    for finding in bib.findings:
        assert 0 <= finding.start <= finding.end <= len(text)
    previous = -1
    for entry in bib.entries:
        assert entry.start > previous
        previous = entry.end - 1


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_random_unicode_never_raises(text: str) -> None:
    _check(text)


@settings(max_examples=400, deadline=None)
@given(bib_like)
def test_bib_like_noise_never_raises(text: str) -> None:
    _check(text)
    decode_latex(text)
    split_names(text)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_never_raise(data: bytes) -> None:
    _check(data.decode("utf-8", errors="replace"))
    _check(data.decode("latin-1"))


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=len(SAMPLE)))
def test_truncated_files_never_raise(cut: int) -> None:
    _check(SAMPLE[:cut])


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=len(LIBRARY) - 1), st.sampled_from(["{", "}", "", "@", '"', ",", "("]))
def test_unbalanced_braces_and_random_edits_of_a_real_file(position: int, insert: str) -> None:
    text = LIBRARY[:position] + insert + LIBRARY[position + 1:]
    _check(text)
    bib = parse_bib_text(text, P)
    # damage is local: almost every entry still loads
    assert len(bib.entries) >= LIBRARY.count("\n@") - 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(min_value=0, max_value=len(SAMPLE)), st.integers(min_value=1, max_value=97),
       st.text(alphabet="{}@\n ,=", max_size=5))
def test_streaming_equals_full_parse_for_any_chunking(position: int, chunk: int, noise: str) -> None:
    import tempfile

    text = SAMPLE[:position] + noise + SAMPLE[position:]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.bib.gz"
        with gzip.open(path, "wt", encoding="utf-8", newline="") as handle:
            handle.write(text)
        streamed = list(iter_bib_blocks(path, chunk_size=chunk))
    full = parse_bib_text(text, path)
    assert [e for e in streamed if isinstance(e, BibEntry)] == [
        BibEntry(**{**e.__dict__, "path": path}) for e in full.entries]
    assert len([f for f in streamed if not isinstance(f, BibEntry)]) == len(full.findings)


def _acl_head(shared_data: Path, entries: int = 60) -> str:
    lines: list[str] = []
    count = 0
    with gzip.open(shared_data / "acl-anthology" / "anthology+abstracts.bib.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("@"):
                count += 1
                if count > entries:
                    break
            lines.append(line)
    return "".join(lines)


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_random_edits_of_real_acl_entries_never_raise(shared_data: Path, data: st.DataObject) -> None:
    text = _ACL_CACHE.setdefault("text", _acl_head(shared_data))
    for _ in range(data.draw(st.integers(min_value=1, max_value=4))):
        position = data.draw(st.integers(min_value=0, max_value=len(text)))
        length = data.draw(st.integers(min_value=0, max_value=20))
        insert = data.draw(st.text(alphabet="{}@\"(),=#\\ \nab", max_size=4))
        text = text[:position] + insert + text[position + length:]
    _check(text)


_ACL_CACHE: dict[str, str] = {}
