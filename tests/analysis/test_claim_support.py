"""Claim checking: verdict types, evidence, the verdict cache, check_claims and AutoSurvey metrics."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from relatex.analysis.claims.claim_support import (
    NOT_ADDRESSED,
    PARTIALLY_SUPPORTED,
    SUPPORTED,
    UNKNOWN,
    ClaimResult,
    SupportVerdict,
    VerdictCache,
    check_claims,
    citation_recall_precision,
)
from relatex.analysis.claims.evidence import (
    Evidence,
    clean_text,
    evidence_hash,
    paper_evidence,
    split_into_sentences,
)
from relatex.analysis.latex.project_model import Claim

ABSTRACTS = {
    "tagger": "We present a fast tagger based on Markov models. It tags 10,000 tokens per second.",
    "parser": "We describe a dependency parser trained with a perceptron. Parsing accuracy improves.",
    "title-only": "",
}


class KeywordJudge:
    """A transparent judge for the tests: supported when every claim word occurs in the evidence,
    partial when half of them do; counts its calls."""

    judge_id = "keyword/1"

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[str, ...]]] = []

    def judge(self, claim: str, evidence: Sequence[Evidence]) -> SupportVerdict:
        self.calls.append((claim, tuple(e.paper_key for e in evidence)))
        words = {w.strip(".,").lower() for w in claim.split()}
        text = " ".join(e.sentence.lower() for e in evidence)
        share = sum(w in text for w in words) / len(words)
        label = SUPPORTED if share == 1 else PARTIALLY_SUPPORTED if share >= 0.5 else NOT_ADDRESSED
        best = max(evidence, key=lambda e: sum(w in e.sentence.lower() for w in words))
        return SupportVerdict(label, share, best.sentence, best.paper_key, self.judge_id)


def evidence_for(key: str) -> tuple[Evidence, ...]:
    if key not in ABSTRACTS:
        return ()
    return paper_evidence(key, f"id:{key}", ABSTRACTS[key] or None, title=f"Title of {key}")


def claim(text: str, *keys: str, start: int = 0) -> Claim:
    return Claim(text, keys, Path("/draft/main.tex"), start, start + len(text), start + len(text),
                 start + len(text) + 10)


def test_evidence_sentences_are_numbered_with_the_title_first() -> None:
    items = paper_evidence("k", "doi:10.1/x", r"We use {\em conditional} models, e.g. CRFs. Results are good.",
                           title="{CRF} Tagging", authors=["Lafferty, John", "Andrew McCallum"])
    assert [(e.index, e.source) for e in items] == [(0, "title"), (1, "abstract"), (2, "abstract")]
    assert items[1].sentence == "We use conditional models, e.g. CRFs."
    assert items[0].sentence == "CRF Tagging"
    assert items[0].authors == ("Lafferty", "McCallum")
    assert all(e.paper_key == "k" and e.paper_id == "doi:10.1/x" for e in items)


def test_full_text_chunks_follow_the_abstract() -> None:
    items = paper_evidence("k", None, "An abstract.", full_text=["First chunk. Second sentence."])
    assert [e.source for e in items] == ["abstract", "full_text", "full_text"]


def test_clean_text_removes_latex_markup() -> None:
    assert clean_text(r"Caf\'{e} costs 5 -- {\bf really} \cite{x}~now.") == "Café costs 5 – really now."
    assert split_into_sentences("One sentence. Another one, i.e. two.") == ["One sentence.", "Another one, i.e. two."]


def test_evidence_hash_changes_with_content_only() -> None:
    a = paper_evidence("k", None, "Same text. Here.")
    assert evidence_hash(a) == evidence_hash(paper_evidence("k", None, "Same   text.  Here."))
    assert evidence_hash(a) != evidence_hash(paper_evidence("k", None, "Other text. Here."))


def test_verdict_validates_label_and_round_trips_json() -> None:
    with pytest.raises(ValueError):
        SupportVerdict("maybe", 0.5, None, None, "x")
    verdict = SupportVerdict(SUPPORTED, 0.8, "A sentence.", "k", "judge/1", "why")
    assert SupportVerdict.from_json(verdict.to_json()) == verdict


def test_check_claims_judges_jointly_and_per_key() -> None:
    judge = KeywordJudge()
    claims = [
        claim("fast tagger", "tagger"),
        claim("tagger perceptron", "tagger", "parser", start=100),
        claim("anything here", "missing", start=200),
        claim("title words only", "title-only", start=300),
    ]
    results = check_claims(claims, evidence_for, judge)
    assert [r.verdict.label for r in results] == [SUPPORTED, SUPPORTED, UNKNOWN, UNKNOWN]
    assert results[0].per_key == {"tagger": results[0].verdict}
    assert {k: v.label for k, v in results[1].per_key.items()} == {
        "tagger": PARTIALLY_SUPPORTED, "parser": PARTIALLY_SUPPORTED}
    assert results[2].per_key["missing"].label == UNKNOWN
    # one call for the first claim, three (joint + two keys) for the second, none for unknown evidence
    assert len(judge.calls) == 4
    assert judge.calls[1] == ("tagger perceptron", ("tagger",) * 3 + ("parser",) * 3)


def test_the_cache_avoids_rejudging_unchanged_claims(tmp_path: Path) -> None:
    claims = [claim("fast tagger", "tagger"), claim("tagger perceptron", "tagger", "parser")]
    first = KeywordJudge()
    cache = VerdictCache(directory=tmp_path)
    results = check_claims(claims, evidence_for, first, cache)
    assert len(first.calls) == 4
    again = KeywordJudge()
    assert [r.verdict for r in check_claims(claims, evidence_for, again, cache)] == [r.verdict for r in results]
    assert again.calls == []
    cache.close()
    # a new process: the on-disk cache answers
    fresh = KeywordJudge()
    reopened = VerdictCache(directory=tmp_path)
    assert [r.verdict for r in check_claims(claims, evidence_for, fresh, reopened)] == [r.verdict for r in results]
    assert fresh.calls == [] and reopened.hits == 4
    # a changed sentence is judged again, the other one is not
    changed = [claim("fast  tagger", "tagger"), claim("tagger parser", "tagger", "parser")]
    check_claims(changed, evidence_for, fresh, reopened)
    assert [c[0] for c in fresh.calls] == ["tagger parser"] * 3
    reopened.close()


def test_cache_is_keyed_by_judge_and_evidence_and_bounded() -> None:
    cache = VerdictCache(max_entries=2)
    evidence = evidence_for("tagger")
    verdict = SupportVerdict(SUPPORTED, 1.0, None, None, "a")
    cache.put(VerdictCache.key("claim", evidence, "a"), verdict)
    assert cache.get(VerdictCache.key("claim", evidence, "b")) is None
    assert cache.get(VerdictCache.key("claim", evidence_for("parser"), "a")) is None
    assert cache.get(VerdictCache.key(" claim ", evidence, "a")) == verdict
    cache.put("k2", verdict)
    cache.put("k3", verdict)
    assert len(cache) == 2 and cache.get(VerdictCache.key("claim", evidence, "a")) is None


def test_progress_cancel_and_failing_judges() -> None:
    seen: list[tuple[int, int]] = []
    claims = [claim("fast tagger", "tagger"), claim("parser", "parser"), claim("x", "tagger")]
    results = check_claims(claims, evidence_for, KeywordJudge(), progress=lambda d, t: seen.append((d, t)),
                           cancel=lambda: len(seen) >= 2)
    assert len(results) == 2 and seen == [(1, 3), (2, 3)]

    class Broken:
        def judge(self, claim: str, evidence: Sequence[Evidence]) -> SupportVerdict:
            raise RuntimeError("model exploded")

    def lookup(key: str) -> tuple[Evidence, ...]:
        if key == "parser":
            raise OSError("disk gone")
        return evidence_for(key)

    broken = check_claims(claims[:2], lookup, Broken())
    assert [r.verdict.label for r in broken] == [UNKNOWN, UNKNOWN]
    assert "model exploded" in (broken[0].verdict.rationale or "")


def _result(label: str, per_key: dict[str, str]) -> ClaimResult:
    def verdict(value: str) -> SupportVerdict:
        return SupportVerdict(value, 0.5, None, None, "t")

    return ClaimResult(claim("c", *per_key), verdict(label), {k: verdict(v) for k, v in per_key.items()})


def test_citation_recall_and_precision_follow_autosurvey() -> None:
    results = [
        _result(SUPPORTED, {"a": SUPPORTED}),
        _result(SUPPORTED, {"a": PARTIALLY_SUPPORTED, "b": NOT_ADDRESSED}),
        _result(NOT_ADDRESSED, {"c": NOT_ADDRESSED}),
        _result(PARTIALLY_SUPPORTED, {"d": PARTIALLY_SUPPORTED, "e": UNKNOWN}),
        _result(UNKNOWN, {"f": UNKNOWN}),
    ]
    recall, precision = citation_recall_precision(results)
    assert recall == pytest.approx(2 / 4)  # 4 judged claims, 2 jointly supported
    assert precision == pytest.approx(3 / 5)  # a, a, d relevant out of a, a, b, c, d
    assert citation_recall_precision([]) == (0.0, 0.0)


def test_leave_one_out_finds_citations_needed_for_joint_support() -> None:
    judge = KeywordJudge()
    claims = [claim("fast tagger perceptron parser", "tagger", "parser", "missing")]
    [result] = check_claims(claims, evidence_for, judge, leave_one_out=True)
    assert result.verdict.label == SUPPORTED
    # without "tagger" only the parser is left (partial), and vice versa: both are needed
    assert {k: v.label for k, v in result.without_key.items()} == {
        "tagger": PARTIALLY_SUPPORTED, "parser": PARTIALLY_SUPPORTED, "missing": SUPPORTED}
    assert citation_recall_precision([result]) == (1.0, 1.0)
    needed = ClaimResult(result.claim, result.verdict, {"a": SupportVerdict(NOT_ADDRESSED, 0.1, None, None, "t")},
                         {"a": SupportVerdict(NOT_ADDRESSED, 0.1, None, None, "t")})
    assert citation_recall_precision([needed]) == (1.0, 1.0)
    assert citation_recall_precision([ClaimResult(needed.claim, needed.verdict, needed.per_key)]) == (1.0, 0.0)


def test_judges_live_in_their_own_modules_imported_plainly() -> None:
    from relatex.analysis.claims import claim_support
    from relatex.analysis.claims.llm_judge import LlmSupportJudge
    from relatex.analysis.claims.offline_judge import OfflineSupportJudge
    from relatex.analysis.claims.onnx_judge import OnnxNliJudge

    assert [OfflineSupportJudge.__name__, OnnxNliJudge.__name__, LlmSupportJudge.__name__] == [
        "OfflineSupportJudge", "OnnxNliJudge", "LlmSupportJudge"]
    with pytest.raises(AttributeError):  # no lazy string-import hook in the protocol's module
        _ = claim_support.OfflineSupportJudge
