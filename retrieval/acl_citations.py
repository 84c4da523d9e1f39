"""Real citation edges between ACL Anthology papers (ScisummNet citing sentences).

The file is JSON lines ``{"citing": <ACL id>, "cited": <ACL id>, "sentence": ...}``, plain or
gzip. :class:`AclCitationIndex` keeps both directions; :class:`AclCitationSource` turns them
into a citation source for the expansion, mapping ACL ids to knowledge-base records through
the record URLs (``https://aclanthology.org/<id>``), the ``acl:<id>`` alias, or a map built
once from the knowledge base.
"""

from __future__ import annotations

import gzip
import json
import logging
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from relatex.retrieval.records import PaperRecord

log = logging.getLogger(__name__)

_ACL_URL = re.compile(r"aclanthology\.org/([A-Za-z0-9][A-Za-z0-9.\-]*[A-Za-z0-9])/?(?:\.pdf)?$")


def acl_id_of(record: PaperRecord) -> str | None:
    """The Anthology id of a record: from its URL, ``url`` field or an ``acl:`` id."""
    if record.id.startswith("acl:"):
        return record.id[4:]
    for url in (record.url, record.bibtex_fields.get("url") if record.bibtex_fields else None):
        if url and (match := _ACL_URL.search(url.strip())):
            return match.group(1)
    return None


def _open_text(path: Path) -> Any:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open("r", encoding="utf-8")


class AclCitationIndex:
    """Citing -> cited and cited -> citing sets of ACL ids."""

    def __init__(self, pairs: Iterable[tuple[str, str]] = ()) -> None:
        self.cites: dict[str, set[str]] = {}
        self.cited_by: dict[str, set[str]] = {}
        self.skipped = 0
        for citing, cited in pairs:
            self.add(citing, cited)

    def add(self, citing: str, cited: str) -> None:
        if not citing or not cited or citing == cited:
            self.skipped += 1
            return
        self.cites.setdefault(citing, set()).add(cited)
        self.cited_by.setdefault(cited, set()).add(citing)

    @classmethod
    def load(cls, path: Path) -> AclCitationIndex:
        """Read a citations file; malformed lines are counted in ``skipped``, never fatal."""
        index = cls()
        with _open_text(path) as handle:
            for line in handle:
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                    index.add(str(row["citing"]).strip(), str(row["cited"]).strip())
                except (ValueError, KeyError, TypeError):
                    index.skipped += 1
        return index

    def pairs(self) -> Iterator[tuple[str, str]]:
        for citing, cited in sorted(self.cites.items()):
            for target in sorted(cited):
                yield citing, target

    def __len__(self) -> int:
        return sum(len(v) for v in self.cites.values())


def acl_lookup_from_records(records: Iterable[PaperRecord]) -> dict[str, str]:
    """ACL id -> record id for every record that has an Anthology URL."""
    out: dict[str, str] = {}
    for record in records:
        acl = acl_id_of(record)
        if acl:
            out.setdefault(acl, record.id)
    return out


class AclCitationSource:
    """Citation neighbours from an :class:`AclCitationIndex`, as knowledge-base records.

    ``id_map`` maps ACL ids to record ids. Without it the knowledge base is asked for the alias
    ``acl:<id>`` (``find_by_alias``) and, failing that, a map is built once from its records'
    URLs. A record's own ACL id comes from its URL, its ``acl:`` alias or the inverse map.
    """

    name = "acl"
    cheap = True

    def __init__(self, index: AclCitationIndex, kb: Any, id_map: Mapping[str, str] | None = None) -> None:
        self.index = index
        self.kb = kb
        self._map: dict[str, str] | None = dict(id_map) if id_map is not None else None
        self._given_map = id_map is not None
        self._acl_of: dict[str, str] = {rid: acl for acl, rid in (id_map or {}).items()}
        self._records: dict[str, PaperRecord | None] = {}

    def _record_for(self, acl_id: str) -> PaperRecord | None:
        if not self._given_map:
            find = getattr(self.kb, "find_by_alias", None)
            if callable(find):
                found = find(f"acl:{acl_id}")
                if found is not None:
                    return found  # type: ignore[no-any-return]
            if self._map is None:
                log.info("building the ACL id map from the knowledge base")
                self._map = acl_lookup_from_records(self.kb.iter_records())
                self._acl_of.update({rid: acl for acl, rid in self._map.items()})
        rid = (self._map or {}).get(acl_id)
        return self.kb.get(rid) if rid else None  # type: ignore[no-any-return]

    def _records_for(self, acl_ids: Iterable[str]) -> list[PaperRecord]:
        out: list[PaperRecord] = []
        for acl in sorted(acl_ids):
            if acl not in self._records:
                self._records[acl] = self._record_for(acl)
            record = self._records[acl]
            if record is not None:
                out.append(record)
        return out

    def acl_id(self, record: PaperRecord) -> str | None:
        """The ACL id of a record (URL, inverse map, then the knowledge base's aliases)."""
        if (acl := acl_id_of(record)) is not None:
            return acl
        if record.id in self._acl_of:
            return self._acl_of[record.id]
        aliases = getattr(self.kb, "aliases", None)
        if not self._given_map and callable(aliases):
            for alias in aliases(record.id):
                if alias.startswith("acl:"):
                    return str(alias[4:])
        return None

    def references(self, record: PaperRecord) -> list[PaperRecord]:
        acl = self.acl_id(record)
        return self._records_for(self.index.cites.get(acl, ())) if acl else []

    def cited_by(self, record: PaperRecord) -> list[PaperRecord]:
        acl = self.acl_id(record)
        return self._records_for(self.index.cited_by.get(acl, ())) if acl else []
