"""SurveyG layers: frontier by landmark year, foundation by trend score."""

from __future__ import annotations

from relatex.retrieval.layers import assign_layers, derive_landmark_year, trend_score
from relatex.retrieval.records import PaperRecord


def _rec(pid: str, year: int | None, citations: int | None = None) -> PaperRecord:
    return PaperRecord(id=pid, title=pid, year=year, citation_count=citations)


def test_trend_score_divides_citations_by_age() -> None:
    assert trend_score(_rec("a", 2020, 10), in_degree=2, current_year=2025) == 12 / 6
    assert trend_score(_rec("b", 2025), in_degree=0, current_year=2025) == 0.0


def test_landmark_year_is_the_75th_percentile() -> None:
    assert derive_landmark_year([2000, 2001, 2002, 2003, 2004]) == 2003
    assert derive_landmark_year([2010, 2010]) == 2011  # no spread: no frontier
    assert derive_landmark_year([]) == 0


def test_assign_layers_with_explicit_landmark() -> None:
    records = {
        "old-classic": _rec("old-classic", 2005, 900),
        "old-minor": _rec("old-minor", 2006, 3),
        "mid": _rec("mid", 2015, 50),
        "recent": _rec("recent", 2023, 500),
        "undated": _rec("undated", None),
    }
    layers, landmark = assign_layers(records, {"mid": 4}, foundation_k=1, landmark_year=2022, current_year=2025)
    assert landmark == 2022
    assert layers == {
        "old-classic": "foundation",
        "old-minor": "development",
        "mid": "development",
        "recent": "frontier",
        "undated": "development",
    }


def test_in_graph_degree_can_make_a_foundation() -> None:
    records = {"a": _rec("a", 2010), "b": _rec("b", 2011), "c": _rec("c", 2024)}
    layers, landmark = assign_layers(records, {"b": 5}, foundation_k=1, current_year=2025)
    assert landmark == 2018  # ceil of the 75th percentile of (2010, 2011, 2024)
    assert layers == {"a": "development", "b": "foundation", "c": "frontier"}


def test_without_citations_the_oldest_are_foundations() -> None:
    records = {p: _rec(p, y) for p, y in (("a", 2001), ("b", 1999), ("c", 2005), ("d", 2006))}
    layers, _ = assign_layers(records, {}, foundation_k=1, landmark_year=2006, current_year=2025)
    assert layers == {"a": "development", "b": "foundation", "c": "development", "d": "frontier"}
