"""SurveyG's three layers of a literature: foundation, development, frontier.

- Frontier: recent work, ``year >= landmark_year`` (0 = derive it as the 75th percentile of
  the known years; with no spread of years there is no frontier).
- Foundation: among the rest, the ``foundation_k`` papers with the highest trend score
  ``citations / (1 + age)``, where ``citations`` is the in-graph in-degree plus the known
  citation count and ``age = current_year - year``.
  Without any citation information the oldest papers are the foundations.
- Development: everything else (including papers without a year that are not foundations).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping

import numpy as np

from relatex.retrieval.records import PaperRecord

LAYER_RANK = {"foundation": 0, "development": 1, "frontier": 2}


def derive_landmark_year(years: list[int], percentile: float = 75.0) -> int:
    """The first frontier year: the given percentile of the years, 0 when there are none.

    When every paper has the same year there is no recent subset: returns ``max + 1``.
    """
    if not years:
        return 0
    if min(years) == max(years):
        return max(years) + 1
    value = int(np.ceil(np.percentile(np.asarray(years, dtype=np.float64), percentile)))
    return max(value, min(years) + 1)


def trend_score(record: PaperRecord, in_degree: int, current_year: int) -> float:
    """``(in-graph in-degree + known citation count) / (1 + age)``."""
    citations = in_degree + (record.citation_count or 0)
    age = max(0, current_year - record.year) if record.year else 10
    return citations / (1.0 + age)


def assign_layers(
    records: Mapping[str, PaperRecord],
    in_degree: Mapping[str, int],
    foundation_k: int,
    landmark_year: int = 0,
    current_year: int | None = None,
) -> tuple[dict[str, str], int]:
    """Each paper's layer, and the landmark year used."""
    year_now = current_year or datetime.date.today().year
    years = [r.year for r in records.values() if r.year]
    landmark = landmark_year or derive_landmark_year(years)
    layers: dict[str, str] = {}
    rest: list[str] = []
    for pid, record in records.items():
        if landmark and record.year and record.year >= landmark:
            layers[pid] = "frontier"
        else:
            rest.append(pid)
    scored = sorted(
        rest,
        key=lambda p: (-trend_score(records[p], in_degree.get(p, 0), year_now), records[p].year or 9999, p),
    )
    positive = [p for p in scored if trend_score(records[p], in_degree.get(p, 0), year_now) > 0]
    if not positive:  # no citation counts at all: the oldest papers are the foundations
        positive = sorted((p for p in rest if records[p].year), key=lambda p: (records[p].year or 0, p))
    foundation = set(positive[: max(0, foundation_k)])
    for pid in rest:
        layers[pid] = "foundation" if pid in foundation else "development"
    return layers, landmark
