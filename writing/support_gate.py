"""Every written sentence checked against the papers it cites before it reaches the draft.

:func:`gate_section` reads the section body the way the claim checker reads a draft (the same
sentence and citation parsing, the same evidence: each cited paper's title and abstract) and
asks the configured judge about every sentence with citations. A sentence the checker would
warn about (not addressed or contradicted) is rewritten from the candidates the writer offers
(other sentences about the same paper, built from other sentences of its abstract), or, for a
sentence citing several papers, said without its citations; when nothing passes, it is dropped.
The offline writer and the LLM writer go through the same gate, so that generating a section
and checking it agree.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from relatex.analysis.claims.claim_support import (
    CONTRADICTED,
    NOT_ADDRESSED,
    PARTIALLY_SUPPORTED,
    SUPPORTED,
    SupportJudge,
    SupportVerdict,
    check_claims,
    judge_id,
)
from relatex.analysis.claims.evidence import Evidence, evidence_hash, paper_evidence
from relatex.analysis.latex.citations import find_citations
from relatex.analysis.latex.claim_extraction import claims_for_file, source_sentences, with_sentences
from relatex.analysis.latex.latex_scan import mask_text
from relatex.analysis.latex.project_model import Claim
from relatex.writing.latex_validator import cited_keys
from relatex.writing.offline_templates import with_pointers
from relatex.writing.plan import PaperBrief
from relatex.writing.sentence_checks import well_formed

log = logging.getLogger(__name__)

WARNING_LABELS = frozenset({NOT_ADDRESSED, CONTRADICTED})  # what the checker reports as a warning
NOT_FULLY_SUPPORTED = WARNING_LABELS | {PARTIALLY_SUPPORTED}  # improved where a better sentence exists
_SECTION = Path("related-work.tex")
_CITE = re.compile(r"\s*~?\\[A-Za-z]*cite[A-Za-z]*\*?(?:\[[^\]]*\]){0,2}\{[^{}]*\}")

# candidates for one paper's sentence: (key) -> sentences, best first
Rewrites = Callable[[str], Sequence[str]]


@dataclass
class GateReport:
    """What the gate did: sentences judged, kept, rewritten, uncited, dropped (with the reasons)."""

    judged: int = 0
    supported: int = 0
    rewritten: int = 0
    uncited: int = 0
    dropped: int = 0
    kept_partial: int = 0
    narrowed: int = 0  # papers taken out of a citation list they did not support
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {"judged": self.judged, "supported": self.supported, "rewritten": self.rewritten,
                "uncited": self.uncited, "dropped": self.dropped, "kept_partial": self.kept_partial, "narrowed": self.narrowed}


def section_claims(text: str) -> list[Claim]:
    """The claims of a section body, read exactly as the claim checker reads a draft."""
    masked = mask_text(text)
    sites = find_citations(_SECTION, text, masked)
    placed = with_sentences(sites, source_sentences(text, masked))
    return claims_for_file(_SECTION, text, placed, masked)


def evidence_lookup(papers: Mapping[str, PaperBrief]) -> Callable[[str], tuple[Evidence, ...]]:
    """Each cited paper's title and abstract, as the checker sees them."""
    memo: dict[str, tuple[Evidence, ...]] = {}

    def lookup(key: str) -> tuple[Evidence, ...]:
        if key not in memo:
            brief = papers.get(key)
            record = brief.record if brief is not None else None
            memo[key] = () if record is None else paper_evidence(
                key, record.id, record.abstract, title=record.title, authors=record.authors)
        return memo[key]

    return lookup


def unsupported_sentences(text: str, judge: SupportJudge, evidence: Callable[[str], tuple[Evidence, ...]],
                          report: GateReport | None = None, labels: frozenset[str] = WARNING_LABELS,
                          ) -> dict[tuple[int, int], tuple[str, ...]]:
    """Source ranges of the sentences with a verdict in ``labels`` (by default: those the checker
    warns about), with the keys they cite."""
    claims = section_claims(text)
    bad: dict[tuple[int, int], tuple[str, ...]] = {}
    sentences: set[tuple[int, int]] = set()
    for result in check_claims(claims, evidence, judge):
        span = (result.claim.start, result.claim.end)
        sentences.add(span)
        if result.verdict.label in labels:
            bad[span] = tuple(dict.fromkeys(bad.get(span, ()) + result.claim.keys))
    if report is not None:
        report.judged += len(sentences)
        report.supported += len(sentences) - len(bad)
    return bad


def _passes(sentence: str, judge: SupportJudge, evidence: Callable[[str], tuple[Evidence, ...]]) -> bool:
    """Whether the judge fully supports every citation of the sentence."""
    return not unsupported_sentences(sentence, judge, evidence, labels=NOT_FULLY_SUPPORTED)


def without_lead_in(sentence: str, keys: Sequence[str]) -> str:
    """The sentence without the phrases that relate it to ``keys`` ("Citing \\citet{k}, ...",
    "\\citet{b}, cited by \\citet{k}, ..."): whole modifiers, dropped when those papers do not support it."""
    for key in keys:
        cite = rf"\\citet\{{{re.escape(key)}\}}"
        opening = "Building on|Citing|In work that cites|Cited by|Closely related to|Along the same lines as"
        sentence = re.sub(rf"^\s*(?:{opening}) {cite},\s*", "", sentence)
        sentence = re.sub(rf"^(\s*\\citet\{{[^}}]+\}}), cited by {cite},", r"\1", sentence)
    return sentence


def _replacement(sentence: str, keys: tuple[str, ...], judge: SupportJudge,
                 evidence: Callable[[str], tuple[Evidence, ...]], rewrites: Rewrites | None,
                 report: GateReport, partial: bool = False) -> str:
    """A supported version of ``sentence``: without the lead-in naming an unsupporting paper, a
    rewrite about its one paper, the sentence without its citation list (a topic sentence that
    still reads whole), or "" (dropped)."""
    cited = tuple(dict.fromkeys(cited_keys(sentence)))
    shorter = without_lead_in(sentence, keys)
    if shorter != sentence and well_formed(shorter) and _passes(shorter, judge, evidence):
        report.rewritten += 1
        return shorter
    if rewrites is not None and len(cited) == 1:
        for candidate in rewrites(cited[0]):
            if candidate.strip() and candidate.strip() != sentence.strip() and _passes(candidate, judge, evidence):
                report.rewritten += 1
                return candidate
    if len(cited) > 1 and "\\citet" not in sentence:
        bare = _CITE.sub("", sentence)
        if well_formed(bare) and not re.search(r"\b(?:these|their|they|includes?)\b", bare, re.I):
            report.uncited += 1
            return bare
    if partial:  # supported in part: kept when nothing better is found (the checker only informs)
        report.kept_partial += 1
        return sentence
    report.dropped += 1
    report.notes.append(f"dropped (not supported by {', '.join(keys)}): {sentence.strip()}")
    return ""


_CONTINUATION = re.compile(r"\s*(?:Their|They|It|According to their|The approach|The evaluation in that work)\b")


def _continuations_end(text: str, end: int) -> int:
    """The end of the uncited sentences that go on about the paper of the sentence ending at ``end``."""
    while True:
        match = _CONTINUATION.match(text, end)
        if match is None:
            return end
        stop = text.find(".", match.end())
        newline = text.find("\n", match.end())
        if stop < 0 or (0 <= newline < stop) or "\\cite" in text[end:stop]:
            return end
        end = stop + 1


def _cited_only_in(text: str, start: int, end: int, keys: Sequence[str]) -> list[str]:
    """Those of ``keys`` that the text cites nowhere outside ``start:end``: taking that span's
    citations away would lose them."""
    elsewhere = set(cited_keys(text[:start] + text[end:]))
    return [k for k in keys if k not in elsewhere]


def narrow_citation_lists(text: str, judge: SupportJudge, evidence: Callable[[str], tuple[Evidence, ...]],
                          report: GateReport) -> str:
    """Each citation list without the papers that, judged alone, do not address the sentence
    ("A first line of work concerns X \\citep{a,b,c}" keeps only the papers about X), or, where
    the papers together do not support it, without those that alone do not support it fully; a
    list none of whose papers passes is left to the sentence-level gate. A paper taken out that
    the section cites nowhere else stays in its paragraph's "See also" pointers."""
    edits: list[tuple[int, int, str, list[str]]] = []
    for result in check_claims(section_claims(text), evidence, judge):
        keys = result.claim.keys
        failing = [k for k in keys if result.per_key.get(k) is not None and result.per_key[k].label in WARNING_LABELS]
        if not failing and result.verdict.label != SUPPORTED:  # "partially supported" together
            failing = [k for k in keys
                       if result.per_key.get(k) is None or result.per_key[k].label != SUPPORTED]
        if len(keys) < 2 or not failing or len(failing) == len(keys):
            continue
        start, end = result.claim.cite_start, result.claim.cite_end
        kept = [k for k in keys if k not in failing]
        narrowed = re.sub(r"\{[^{}]*\}$", "{" + ",".join(kept) + "}", text[start:end])
        edits.append((start, end, narrowed, _cited_only_in(text, start, end, failing)))
        report.narrowed += len(failing)
    for start, end, replacement, lost in sorted(edits, reverse=True):
        if lost:
            text = with_pointers(text, end, lost)
        text = text[:start] + replacement + text[end:]
    return text


class _Remembering:
    """The judge with its verdicts remembered for one gate run (the same claim is asked about
    several times: per citation list, per sentence, for warnings and for full support)."""

    def __init__(self, judge: SupportJudge) -> None:
        self.judge_id = judge_id(judge)
        self._judge = judge
        self._memo: dict[tuple[str, str], SupportVerdict] = {}

    def judge(self, claim: str, evidence: Sequence[Evidence]) -> SupportVerdict:
        key = (claim, evidence_hash(evidence))
        if key not in self._memo:
            self._memo[key] = self._judge.judge(claim, evidence)
        return self._memo[key]


def gate_section(text: str, papers: Mapping[str, PaperBrief], judge: SupportJudge,
                 rewrites: Rewrites | None = None) -> tuple[str, GateReport]:
    """The section with every sentence the checker would warn about rewritten or dropped, and every
    sentence supported only in part rewritten where a fully supported version exists. Citation
    lists lose the papers that alone do not address their sentence first. A paper that loses its
    last citation on the way stays in its paragraph's "See also" pointers, which claim nothing."""
    report = GateReport()
    evidence = evidence_lookup(papers)
    prepare = getattr(judge, "prepare", None)
    if callable(prepare):  # one batch for every evidence sentence and claim instead of one per claim
        prepare([item.sentence for key in papers for item in evidence(key)] + [c.text for c in section_claims(text)])
    prepare_papers = getattr(judge, "prepare_papers", None)
    if callable(prepare_papers):  # the same for a judge that also embeds each paper's whole text
        prepare_papers([evidence(key) for key in papers])
    judge = _Remembering(judge)
    text = narrow_citation_lists(text, judge, evidence, report)
    weak = unsupported_sentences(text, judge, evidence, report, labels=NOT_FULLY_SUPPORTED)
    warned = unsupported_sentences(text, judge, evidence, labels=WARNING_LABELS)
    for (start, end), keys in sorted(weak.items(), reverse=True):
        partial = (start, end) not in warned
        uncited = report.uncited
        replacement = _replacement(text[start:end], keys, judge, evidence, rewrites, report, partial)
        if replacement == text[start:end]:
            continue
        lost: list[str] = []
        if report.uncited > uncited or not replacement:  # papers cited nowhere else stay as pointers
            lost = _cited_only_in(text, start, end, list(dict.fromkeys(cited_keys(text[start:end]))))
        if not replacement or cited_keys(replacement)[-1:] != cited_keys(text[start:end])[-1:]:
            end = _continuations_end(text, end)  # "Their experiments show ...": said of the sentence's paper
        if lost:
            text = with_pointers(text, end, lost)
        if replacement:
            text = text[:start] + replacement + text[end:]
        else:
            tail = end
            while tail < len(text) and text[tail] in " \t":
                tail += 1
            text = text[:start] + text[tail:]
    text = re.sub(r"[ \t]+\n", "\n", text)
    return text, report
