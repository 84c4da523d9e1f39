"""The support gate: every written sentence judged against the papers it cites, rewritten or dropped."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from relatex.analysis.claims.claim_support import (
    NOT_ADDRESSED,
    PARTIALLY_SUPPORTED,
    SUPPORTED,
    SupportVerdict,
    check_claims,
)
from relatex.analysis.claims.evidence import Evidence
from relatex.analysis.claims.offline_judge import OfflineSupportJudge
from relatex.analysis.latex.project_model import LatexProject
from relatex.retrieval.records import PaperRecord
from relatex.writing.anthropic_llm import AnthropicLLM
from relatex.writing.citation_keys import assign_keys
from relatex.writing.generate import build_plan, generate_related_work, key_index_for
from relatex.writing.latex_validator import cited_keys
from relatex.writing.offline_templates import with_pointers
from relatex.writing.support_gate import (
    WARNING_LABELS,
    evidence_lookup,
    gate_section,
    section_claims,
    without_lead_in,
)
from tests.fakes.messages_server import MessagesServer, ScriptedAgents
from tests.writing.conftest import make_project, make_selection


class WordJudge:
    """Supports a claim when at least half of its words of 6+ letters occur in the evidence."""

    judge_id = "words"

    def judge(self, claim: str, evidence: Sequence[Evidence]) -> SupportVerdict:
        text = " ".join(e.sentence.lower() for e in evidence)
        words = [w for w in claim.lower().replace(".", " ").replace(",", " ").split() if len(w) >= 6]
        ok = bool(evidence) and sum(w in text for w in words) >= 0.5 * len(words)
        return SupportVerdict(SUPPORTED if ok else NOT_ADDRESSED, 1.0 if ok else 0.0, None, None, self.judge_id)


def _warnings(text: str, papers: dict, judge: object) -> list[str]:  # type: ignore[type-arg]
    results = check_claims(section_claims(text), evidence_lookup(papers), judge)  # type: ignore[arg-type]
    return [r.claim.text for r in results if r.verdict.label in WARNING_LABELS]


def _papers(project: LatexProject, bibs: dict, records: list[PaperRecord]) -> dict:  # type: ignore[type-arg]
    """The papers of the section under the keys the generator gives them."""
    selection = make_selection(records)
    keys, _ = assign_keys([p.record for p in selection.papers], key_index_for(bibs),
                          {p.record.id: p.draft_key for p in selection.papers}, None)
    return dict(build_plan(project, selection, keys).papers)


def test_unsupported_sentences_are_rewritten_or_dropped(tmp_path: Path, records: list[PaperRecord]) -> None:
    project, _ = make_project(tmp_path)
    plan = build_plan(project, make_selection(records), {r.id: f"k{i}" for i, r in enumerate(records)})
    text = ("\\citet{k0} invented quantum teleportation. \\citet{k2} propose dense passage retrieval. "
            "Their experiments show a miracle.\n\nOverview of everything \\citep{k0,k1}.")
    rewrites = {"k0": ["\\citet{k0} describe the probabilistic relevance framework."]}
    gated, report = gate_section(text, plan.papers, WordJudge(), rewrites=lambda key: rewrites.get(key, []))
    assert "teleportation" not in gated and "\\citet{k0} describe the probabilistic relevance framework." in gated
    assert "Overview of everything" not in gated  # no verb of its own once uncited: dropped
    assert report.rewritten == 1 and report.judged == 3
    assert not _warnings(gated, plan.papers, WordJudge())


def test_a_lead_in_naming_an_unsupporting_paper_is_dropped_first() -> None:
    sentence = "Building on \\citet{a}, \\citet{b} propose a parser."
    assert without_lead_in(sentence, ["a"]) == "\\citet{b} propose a parser."
    assert without_lead_in("Citing \\citet{a}, \\citet{b} propose X.", ["a"]) == "\\citet{b} propose X."
    assert without_lead_in("Cited by \\citet{a}, \\citet{b} propose X.", ["a"]) == "\\citet{b} propose X."
    assert without_lead_in("\\citet{b}, cited by \\citet{a}, propose X.", ["a"]) == "\\citet{b} propose X."
    assert without_lead_in("\\citet{b}, cited by \\citet{a}, propose X.", ["b"]) == "\\citet{b}, cited by \\citet{a}, propose X."


def test_offline_output_gets_no_warning_from_the_judge(tmp_path: Path, records: list[PaperRecord]) -> None:
    project, bibs = make_project(tmp_path)
    judge = OfflineSupportJudge(None)
    section = generate_related_work(project, bibs, make_selection(records), judge=judge)
    gate = section.usage["support_gate"]
    assert gate["judged"] >= 8
    assert not _warnings(section.latex, _papers(project, bibs, records), judge)


def test_the_llm_path_goes_through_the_same_gate(tmp_path: Path, records: list[PaperRecord]) -> None:
    project, bibs = make_project(tmp_path)
    judge = WordJudge()
    with MessagesServer(responder=ScriptedAgents(reads=2)) as server:
        llm = AnthropicLLM("claude-sonnet-5-5", max_tokens=2048, timeout=10, base_url=server.url, api_key="k",
                           backoff_base=0.01, sleep=lambda s: None)
        section = generate_related_work(project, bibs, make_selection(records), llm=llm, judge=judge)
    assert section.used_llm
    gate = section.usage["support_gate"]
    assert gate["judged"] > 0 and gate["rewritten"] + gate["dropped"] + gate["uncited"] > 0
    assert cited_keys(section.latex) and "\\citet{xiong2021approximate} study" in section.latex  # a rewrite
    assert not _warnings(section.latex, _papers(project, bibs, records), judge)


def test_a_citation_list_loses_the_papers_that_do_not_support_it(tmp_path: Path, records: list[PaperRecord]) -> None:
    project, _ = make_project(tmp_path)
    plan = build_plan(project, make_selection(records), {r.id: f"k{i}" for i, r in enumerate(records)})
    title = plan.papers["k0"].record.title.lower().rstrip(".")
    text = f"A first line of work concerns {title} \\citep{{k0,k5}}."
    gated, report = gate_section(text, plan.papers, WordJudge())
    assert f"{title} \\citep{{k0}}." in gated and report.narrowed == 1
    # a paper the section cites nowhere else is not lost: it stays as a pointer
    assert gated.endswith("See also~\\citep{k5}.") and cited_keys(gated).count("k5") == 1
    cited_too = f"{text} \\citet{{k5}} write the related-work section of a scientific paper."
    gated, _ = gate_section(cited_too, plan.papers, WordJudge())
    assert "See also" not in gated and f"{title} \\citep{{k0}}." in gated


class _OnePaperJudge:
    """Fully supports a claim on the evidence of paper ``k0`` alone, partly on any other evidence."""

    judge_id = "one-paper"

    def judge(self, claim: str, evidence: Sequence[Evidence]) -> SupportVerdict:
        alone = {e.paper_key for e in evidence} == {"k0"}
        return SupportVerdict(SUPPORTED if alone else PARTIALLY_SUPPORTED, 0.9 if alone else 0.4, None, None,
                              self.judge_id)


def test_a_list_only_partly_supported_together_keeps_the_papers_that_support_it_alone(
        tmp_path: Path, records: list[PaperRecord]) -> None:
    project, _ = make_project(tmp_path)
    plan = build_plan(project, make_selection(records), {r.id: f"k{i}" for i, r in enumerate(records)})
    text = "Term weighting decides what a ranking function rewards \\citep{k0,k5}."
    gated, report = gate_section(text, plan.papers, _OnePaperJudge())
    assert gated.startswith("Term weighting decides what a ranking function rewards \\citep{k0}.")
    assert gated.endswith("See also~\\citep{k5}.") and report.narrowed == 1 and report.uncited == 0
    # where every paper alone supports it only in part, the list is left to the sentence's gate
    both = gate_section(text.replace("k0,", "k1,"), plan.papers, _OnePaperJudge())[1]
    assert both.narrowed == 0


def test_a_list_said_without_its_citations_keeps_its_papers_as_pointers(tmp_path: Path,
                                                                        records: list[PaperRecord]) -> None:
    project, _ = make_project(tmp_path)
    plan = build_plan(project, make_selection(records), {r.id: f"k{i}" for i, r in enumerate(records)})
    text = ("A first line of work concerns quantum teleportation experiments \\citep{k0,k2}. "
            "\\citet{k2} propose dense passage retrieval.")
    gated, report = gate_section(text, plan.papers, WordJudge())
    assert report.uncited == 1
    assert gated.startswith("A first line of work concerns quantum teleportation experiments. \\citet{k2}")
    assert gated.endswith("See also~\\citep{k0}.")  # an aside at the paragraph's end
    assert cited_keys(gated).count("k2") == 1  # cited elsewhere: no pointer needed
    assert not _warnings(gated, plan.papers, WordJudge())


def test_a_paper_whose_only_sentence_is_dropped_stays_as_a_pointer(tmp_path: Path, records: list[PaperRecord]) -> None:
    project, _ = make_project(tmp_path)
    plan = build_plan(project, make_selection(records), {r.id: f"k{i}" for i, r in enumerate(records)})
    text = "\\citet{k0} propose quantum teleportation experiments. \\citet{k2} propose dense passage retrieval."
    gated, report = gate_section(text, plan.papers, WordJudge())
    assert report.dropped == 1 and "teleportation" not in gated
    assert gated.endswith("See also~\\citep{k0}.") and cited_keys(gated).count("k0") == 1


def test_pointers_join_the_paragraphs_own_list_and_stay_in_their_paragraph() -> None:
    text = "A first line. \\citet{a} propose X. See also~\\citep{b}. Closing.\n\nNext paragraph \\citep{c}."
    assert with_pointers(text, 13, ["d"]) == text.replace("{b}", "{b,d}")
    plain = "Topic. \\citet{a} propose X.\n\nNext \\citep{c}.\n"
    assert with_pointers(plain, 6, ["d"]) == "Topic. \\citet{a} propose X. See also~\\citep{d}.\n\nNext \\citep{c}.\n"
    assert with_pointers("Only one.\n", 9, ["d"]) == "Only one. See also~\\citep{d}.\n"
