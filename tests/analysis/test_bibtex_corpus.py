"""Every .bib file of the shared data parses, with the documented entry counts (streaming)."""

from __future__ import annotations

from pathlib import Path

import pytest

from relatex.analysis.bib.bibtex import iter_bib_blocks
from relatex.analysis.bib.bibtex_model import BibEntry

EXPECTED = {
    "anthology+abstracts.bib.gz": {"entries": 102_937, "distinct_keys": 102_937, "with_doi": 46_932},
    "acm-dl.bib.gz": {"entries": 113_512, "distinct_keys": 113_222},
}


@pytest.mark.slow
@pytest.mark.shared_data
def test_every_shared_bib_file_streams_with_the_documented_counts(shared_data: Path) -> None:
    files = sorted(p for p in shared_data.rglob("*") if p.name.endswith((".bib", ".bib.gz")))
    assert files, "no .bib files in the shared data"
    for path in files:
        entries = findings = with_doi = 0
        keys: set[str] = set()
        last_end = -1
        for item in iter_bib_blocks(path):
            if isinstance(item, BibEntry):
                entries += 1
                keys.add(item.key)
                raw_doi = item.fields.get("doi")
                with_doi += raw_doi is not None
                if raw_doi is not None and raw_doi.strip().startswith("10."):
                    assert item.doi == raw_doi.strip().lower(), item.key  # real DOIs are kept

                assert item.start > last_end and item.key_start > item.start
                last_end = item.end
            else:
                findings += 1
        expected = EXPECTED.get(path.name)
        if expected is not None:
            assert entries == expected["entries"], path.name
            assert len(keys) == expected["distinct_keys"], path.name
            assert findings == 0, path.name
            if "with_doi" in expected:
                assert with_doi == expected["with_doi"], path.name
        else:
            assert entries > 0
