"""Claim support: does the cited paper say what the citing sentence says it does?

A :class:`SupportJudge` labels one claim against evidence sentences (offline scorer, ONNX NLI
model or LLM). :func:`check_claims` judges every claim of a draft against the evidence of its cited
keys, jointly and per key, through a :class:`VerdictCache` so that unchanged sentences are never
judged twice. :func:`citation_recall_precision` computes AutoSurvey's citation recall (eq. 2) and
citation precision (eq. 3) over the results.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Protocol

from relatex.analysis.claims.claim_scope import citation_scopes
from relatex.analysis.claims.evidence import Evidence, evidence_hash, has_body
from relatex.analysis.claims.topic_claims import names_term, titles_name_topic, topic_terms
from relatex.analysis.latex.project_model import Claim

log = logging.getLogger(__name__)

SUPPORTED = "supported"
PARTIALLY_SUPPORTED = "partially_supported"
NOT_ADDRESSED = "not_addressed"
CONTRADICTED = "contradicted"
UNKNOWN = "unknown"
LABELS: tuple[str, ...] = (SUPPORTED, PARTIALLY_SUPPORTED, NOT_ADDRESSED, CONTRADICTED, UNKNOWN)

__all__ = [
    "CONTRADICTED", "LABELS", "NOT_ADDRESSED", "PARTIALLY_SUPPORTED", "SUPPORTED", "UNKNOWN",
    "ClaimResult", "Evidence", "SupportJudge", "SupportVerdict", "VerdictCache", "check_claims",
    "citation_recall_precision", "judge_id", "unknown_verdict",
]


@dataclass(frozen=True)
class SupportVerdict:
    """How well the evidence supports a claim.

    ``score`` is in [0, 1] (support probability or entailment); ``evidence`` the best evidence
    sentence found (quoted verbatim), ``evidence_paper`` its citation key; ``judge`` the judge id.
    """

    label: str
    score: float
    evidence: str | None
    evidence_paper: str | None
    judge: str
    rationale: str | None = None

    def __post_init__(self) -> None:
        if self.label not in LABELS:
            raise ValueError(f"unknown support label {self.label!r}")

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> SupportVerdict:
        score = data.get("score", 0.0)
        return cls(
            label=str(data["label"]),
            score=float(score) if isinstance(score, int | float) else 0.0,
            evidence=None if data.get("evidence") is None else str(data["evidence"]),
            evidence_paper=None if data.get("evidence_paper") is None else str(data["evidence_paper"]),
            judge=str(data.get("judge", "")),
            rationale=None if data.get("rationale") is None else str(data["rationale"]),
        )


class SupportJudge(Protocol):
    """Labels a claim given evidence sentences (from one or several cited papers)."""

    def judge(self, claim: str, evidence: Sequence[Evidence]) -> SupportVerdict: ...


def judge_id(judge: SupportJudge) -> str:
    """The judge's id for caching: its ``judge_id`` attribute, else its class name."""
    return str(getattr(judge, "judge_id", type(judge).__name__))


def unknown_verdict(judge: str, reason: str = "no abstract available") -> SupportVerdict:
    return SupportVerdict(UNKNOWN, 0.0, None, None, judge, reason)


class VerdictCache:
    """Verdicts per (claim text, evidence hash, judge id): an in-memory LRU, optionally on disk.

    The disk layer is one SQLite file in ``directory``; it survives restarts so that re-checking
    an unchanged draft costs nothing. Thread-safe.
    """

    FILE_NAME = "claim-verdicts.sqlite"

    def __init__(self, max_entries: int = 4096, directory: Path | None = None) -> None:
        self.max_entries = max_entries
        self._memory: OrderedDict[str, SupportVerdict] = OrderedDict()
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self.hits = 0
        self.misses = 0
        if directory is not None:
            try:
                directory.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(directory / self.FILE_NAME, check_same_thread=False, timeout=5.0)
                self._db.execute("CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                self._db.commit()
            except (OSError, sqlite3.Error) as exc:
                log.warning("claim verdict cache in %s unavailable (%s); using memory only", directory, exc)
                self._db = None

    @staticmethod
    def key(claim: str, evidence: Sequence[Evidence], judge: str) -> str:
        text = " ".join(claim.split())
        return hashlib.sha256(f"{judge}\x1f{text}\x1f{evidence_hash(evidence)}".encode()).hexdigest()

    def get(self, key: str) -> SupportVerdict | None:
        with self._lock:
            verdict = self._memory.get(key)
            if verdict is not None:
                self._memory.move_to_end(key)
                self.hits += 1
                return verdict
            if self._db is not None:
                try:
                    row = self._db.execute("SELECT value FROM verdicts WHERE key = ?", (key,)).fetchone()
                except sqlite3.Error as exc:
                    log.warning("claim verdict cache read failed: %s", exc)
                    row = None
                if row is not None:
                    try:
                        verdict = SupportVerdict.from_json(json.loads(row[0]))
                    except (ValueError, KeyError, TypeError):
                        verdict = None
                    if verdict is not None:
                        self._remember(key, verdict)
                        self.hits += 1
                        return verdict
            self.misses += 1
            return None

    def put(self, key: str, verdict: SupportVerdict) -> None:
        with self._lock:
            self._remember(key, verdict)
            if self._db is not None:
                try:
                    self._db.execute(
                        "INSERT OR REPLACE INTO verdicts (key, value) VALUES (?, ?)",
                        (key, json.dumps(verdict.to_json(), ensure_ascii=False)),
                    )
                    self._db.commit()
                except sqlite3.Error as exc:
                    log.warning("claim verdict cache write failed: %s", exc)

    def _remember(self, key: str, verdict: SupportVerdict) -> None:
        self._memory[key] = verdict
        self._memory.move_to_end(key)
        while len(self._memory) > self.max_entries:
            self._memory.popitem(last=False)

    def __len__(self) -> int:
        return len(self._memory)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


@dataclass(frozen=True)
class ClaimResult:
    """A claim with its joint verdict (all cited papers together) and one verdict per cited key.

    ``without_key`` (filled by ``check_claims(..., leave_one_out=True)`` for claims citing
    several keys) holds the verdict on the evidence of all the other keys, to tell whether a key
    is needed for the joint support (AutoSurvey's precision, eq. 3).
    """

    claim: Claim
    verdict: SupportVerdict
    per_key: Mapping[str, SupportVerdict] = field(default_factory=dict)
    without_key: Mapping[str, SupportVerdict] = field(default_factory=dict)


def _judge_cached(
    judge: SupportJudge, name: str, claim: str, evidence: Sequence[Evidence], cache: VerdictCache | None
) -> SupportVerdict:
    if not evidence or not has_body(evidence):
        return unknown_verdict(name)
    key = VerdictCache.key(claim, evidence, name) if cache is not None else ""
    if cache is not None and (cached := cache.get(key)) is not None:
        return cached
    try:
        verdict = judge.judge(claim, evidence)
    except Exception as exc:  # a judge failure must not lose the rest of the check
        log.warning("claim judge %s failed: %s", name, exc)
        return unknown_verdict(name, f"judge failed: {exc}")
    if cache is not None and verdict.label != UNKNOWN:
        cache.put(key, verdict)
    return verdict


_RANK = {SUPPORTED: 4, PARTIALLY_SUPPORTED: 3, NOT_ADDRESSED: 2, CONTRADICTED: 1, UNKNOWN: 0}


def _judge_scoped(judge: SupportJudge, name: str, claim: str, scope: str | None, evidence: Sequence[Evidence],
                  cache: VerdictCache | None) -> SupportVerdict:
    """The verdict on the whole sentence or, when that is not "supported", on the part of it the
    citation speaks for (:mod:`claim_scope`), whichever is better."""
    verdict = _judge_cached(judge, name, claim, evidence, cache)
    if scope is None or verdict.label in (SUPPORTED, CONTRADICTED, UNKNOWN):  # a contradiction stands
        return verdict
    part = _judge_cached(judge, name, scope, evidence, cache)
    return part if (_RANK[part.label], part.score) > (_RANK[verdict.label], verdict.score) else verdict


def _by_titles(verdict: SupportVerdict, claim: str, evidence: Mapping[str, Sequence[Evidence]], judge: str,
               whole: bool = True) -> SupportVerdict:
    """``verdict``, or "supported" where it is unknown, not addressed or partial and ``claim`` only
    names a topic that the cited papers' titles name (:func:`_title_topic_verdict`): a title says
    what its paper is about, with or without an abstract. A contradiction stands."""
    if verdict.label not in (UNKNOWN, NOT_ADDRESSED, PARTIALLY_SUPPORTED):
        return verdict
    return _title_topic_verdict(claim, evidence, judge, whole) or verdict


def _title_topic_verdict(claim: str, evidence: Mapping[str, Sequence[Evidence]], judge: str,
                         whole: bool = True) -> SupportVerdict | None:
    """"supported" when ``claim`` only names a topic and the cited papers' titles name it
    (:mod:`topic_claims`); ``whole=False`` asks only that each title name one of its terms. None
    when the claim says more than a topic or a title does not name it."""
    terms = topic_terms(claim)
    titles = {key: next((e.sentence for e in items if e.source == "title"), "")
              for key, items in evidence.items()}
    if not terms or not all(titles.values()):
        return None
    ok = titles_name_topic(terms, titles) if whole else all(
        any(names_term(title, term) for term in terms) for title in titles.values())
    if not ok:
        return None
    key, title = next(iter(titles.items()))
    return SupportVerdict(SUPPORTED, 1.0, title, key, f"{judge}+titles",
                          "the claim names only the papers' topic, and their titles name it")


def check_claims(
    claims: Sequence[Claim],
    evidence_for_key: Callable[[str], Sequence[Evidence]],
    judge: SupportJudge,
    cache: VerdictCache | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    leave_one_out: bool = False,
    scopes: Sequence[str | None] | None = None,
) -> list[ClaimResult]:
    """Judge each claim against its cited keys' evidence, jointly and per key.

    Keys without evidence give "unknown" per-key verdicts and are left out of the joint
    evidence; a claim none of whose keys has evidence is "unknown". With ``leave_one_out``, a
    jointly supported claim citing several keys is also judged without each key (more judge
    calls, exact AutoSurvey precision). ``progress(done, total)`` is called after each claim;
    ``cancel()`` returning True stops early (results so far are returned). ``scopes``: the part of
    each claim's sentence its citation speaks for (default: :func:`citation_scopes` of ``claims``).
    """
    name = judge_id(judge)
    evidence_memo: dict[str, tuple[Evidence, ...]] = {}
    scopes = citation_scopes(claims) if scopes is None else scopes

    def evidence_of(key: str) -> tuple[Evidence, ...]:
        if key not in evidence_memo:
            try:
                evidence_memo[key] = tuple(evidence_for_key(key))
            except Exception as exc:  # a lookup failure is "unknown", not a crash
                log.warning("no evidence for %s: %s", key, exc)
                evidence_memo[key] = ()
        return evidence_memo[key]

    results: list[ClaimResult] = []
    total = len(claims)
    for done, (claim, scope) in enumerate(zip(claims, scopes, strict=True), 1):
        if cancel is not None and cancel():
            break
        keys = tuple(dict.fromkeys(k for k in claim.keys if k and k != "*"))
        joint = [item for key in keys if has_body(items := evidence_of(key)) for item in items]
        verdict = _judge_scoped(judge, name, claim.text, scope, joint, cache)
        # titles suffice for a claim that says no more than the papers' topic
        verdict = _by_titles(verdict, claim.text, {key: evidence_of(key) for key in keys}, name)
        if len(keys) == 1:
            per_key = {keys[0]: verdict}
        else:
            per_key = {key: _judge_scoped(judge, name, claim.text, scope, evidence_of(key), cache)
                       for key in keys}
            per_key = {key: _by_titles(v, claim.text, {key: evidence_of(key)}, name, whole=False)
                       for key, v in per_key.items()}
        without: dict[str, SupportVerdict] = {}
        if leave_one_out and len(keys) > 1 and verdict.label == SUPPORTED:
            for key in keys:
                others = [k for k in keys if k != key]
                if len(others) == 1:
                    without[key] = per_key[others[0]]
                else:
                    rest = [item for k in others if has_body(items := evidence_of(k)) for item in items]
                    without[key] = _judge_cached(judge, name, claim.text, rest, cache)
        results.append(ClaimResult(claim, verdict, per_key, without))
        if progress is not None:
            progress(done, total)
    return results


def citation_recall_precision(results: Sequence[ClaimResult]) -> tuple[float, float]:
    """AutoSurvey's citation recall and precision over claims with a known verdict.

    Recall (eq. 2): the share of claims whose cited papers, jointly, support the claim.
    Precision (eq. 3): the share of individual citations that are relevant: the citation supports
    or partially supports its claim by itself, or (when ``without_key`` verdicts are known) the
    jointly supported claim is no longer supported without it. Claims and citations whose
    evidence is unknown are left out of both; with nothing to count the value is 0.0.
    """
    judged = [r for r in results if r.verdict.label != UNKNOWN]
    recall = sum(r.verdict.label == SUPPORTED for r in judged) / len(judged) if judged else 0.0
    citations = relevant = 0
    for result in judged:
        for key, verdict in result.per_key.items():
            if verdict.label == UNKNOWN:
                continue
            citations += 1
            alone = verdict.label in (SUPPORTED, PARTIALLY_SUPPORTED)
            needed = key in result.without_key and result.without_key[key].label != SUPPORTED
            relevant += alone or needed
    precision = relevant / citations if citations else 0.0
    return recall, precision
