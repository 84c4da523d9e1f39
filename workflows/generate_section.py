"""Write a draft's related-work section: ``relatex generate`` and the editor's "Generate related
work" / "Replace existing related work" both call :func:`generate_section`.

Steps: the selection (:mod:`relatex.workflows.related_papers`), verification of the draft's own
entries among the chosen papers (:mod:`relatex.writing.verified_citations`), the writer (the
engines' language model, or the offline writer when none is configured or ``use_llm`` is off;
a model that fails for good falls back to the offline writer only when ``fallback_offline`` is
asked for and the failure is not a configuration error), the support gate with the configured
claim judge, and the planned insertion edits (:mod:`relatex.writing.placement`). Nothing is
written: the front ends print, write or send the edits.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from relatex.analysis.bib.bibtex_model import BibFile
from relatex.analysis.cancellation import Cancel
from relatex.analysis.edits import TextEdit
from relatex.analysis.latex.project_model import LatexProject, Section
from relatex.analysis.verification.bib_verification import BibVerdict
from relatex.config.settings import Settings
from relatex.retrieval.selection import Selection
from relatex.workflows.engines import Engines
from relatex.workflows.failures import BAD_REQUEST, FAILED, MODEL_FAILED, UseCaseCancelled, UseCaseFailed
from relatex.workflows.progress import ProgressCallback, no_progress
from relatex.workflows.related_papers import Draft, RelatedRequest, SelectionKnobs, related_papers
from relatex.writing.generate import GeneratedSection, GenerationCancelled, generate_related_work
from relatex.writing.llm import LLM, LLMError
from relatex.writing.placement import PLACEMENTS, find_related_section, plan_insertion, target_bib
from relatex.writing.verified_citations import verify_cited_entries
from relatex.writing.writing_options import WritingOptions

if TYPE_CHECKING:
    from relatex.analysis.claims.claim_support import SupportJudge

log = logging.getLogger(__name__)

LABEL = "sec:related-work"


@dataclass(frozen=True)
class GenerateRequest:
    """What to write and where. ``section_title`` / ``placement`` None: ``settings.writing``;
    ``replace``: the planned edit replaces the body of the draft's related-work part instead of
    adding after it; ``on_text``: the model's text as it streams."""

    draft: Draft
    knobs: SelectionKnobs = field(default_factory=SelectionKnobs)
    use_llm: bool = True
    fallback_offline: bool = False
    section_title: str | None = None
    placement: str | None = None
    replace: bool = False
    online: bool | None = None
    on_text: Callable[[str], None] | None = None


@dataclass(frozen=True)
class GenerateResult:
    """The section and the edits that put it (and its new BibTeX entries) into the draft."""

    section: GeneratedSection
    selection: Selection
    edits: tuple[TextEdit, ...]
    section_title: str
    placement: str
    existing: Section | None  # the draft's own related-work part, kept unless replaced
    target_bib: Path | None  # where new entries go (None: a new references.bib)
    writer: str  # the model's name, or "offline writer"
    kb_records: int

    def section_text(self) -> str:
        """The whole section as printed: heading, label and body."""
        return f"\\section{{{self.section_title}}}\n\\label{{{LABEL}}}\n\n{self.section.latex.rstrip()}\n"

    def entries_text(self) -> str:
        """The new BibTeX entries, one blank line apart."""
        return "\n\n".join(entry.bibtex.strip() for entry in self.section.new_entries)


def scaled(progress: ProgressCallback, low: float, high: float) -> ProgressCallback:
    """``progress`` with the fractions of a step mapped into ``[low, high]``."""

    def report(message: str, fraction: float | None) -> None:
        progress(message, None if fraction is None else low + (high - low) * max(0.0, min(1.0, fraction)))

    return report


def writer_model(engines: Engines, use_llm: bool) -> LLM | None:
    """The configured language model (None: the offline writer). Raises :class:`UseCaseFailed`
    (``BAD_REQUEST``) when a model is configured but cannot be used (no key)."""
    if not use_llm:
        return None
    try:
        return engines.llm()
    except LLMError as exc:
        raise UseCaseFailed(str(exc), BAD_REQUEST) from exc


def claim_judge(engines: Engines) -> SupportJudge | None:
    """The configured claim judge for the support gate; None when it cannot be built here."""
    try:
        return engines.judge()
    except Exception as exc:  # a missing model must not stop the writing
        log.warning("claim judge unavailable, sentences are not checked: %s", exc)
        return None


def verify_draft_entries(engines: Engines, selection: Selection,
                         bibs: Mapping[Path, BibFile]) -> dict[str, BibVerdict]:
    """Verdicts for the draft's own entries of the chosen papers (the engines' authorities)."""
    with engines.using_knowledge_base():
        return verify_cited_entries(selection, bibs, engines.authorities())


def plan_section_edits(project: LatexProject, bibs: Mapping[Path, BibFile], section: GeneratedSection,
                       settings: Settings, replace: bool = False, section_title: str | None = None,
                       placement: str | None = None) -> list[TextEdit]:
    """The insertion edits on the texts ``project`` and ``bibs`` were read from (the editor calls
    it again on a newer text). Raises :class:`UseCaseFailed` when no place can be found."""
    try:
        return plan_insertion(project, bibs, section, placement=placement or settings.writing.placement,
                              section_title=section_title or settings.writing.section_title, replace=replace)
    except (ValueError, LookupError) as exc:
        raise UseCaseFailed(f"cannot place the section in the current text: {exc}", FAILED) from exc


def _check_request(request: GenerateRequest, placement: str) -> None:
    project = request.draft.project
    if placement not in PLACEMENTS:
        raise UseCaseFailed(f"unknown placement {placement!r}: use one of {', '.join(PLACEMENTS)}", BAD_REQUEST)
    if not (project.abstract or "").strip():
        raise UseCaseFailed(f"{project.root.name} has no abstract: write \\begin{{abstract}} ... \\end{{abstract}} "
                            "first; the papers are chosen and positioned against it", BAD_REQUEST)


def _write(request: GenerateRequest, engines: Engines, selection: Selection, llm: LLM | None, title: str,
           depth: int, cancel: Cancel, progress: ProgressCallback) -> GeneratedSection:
    draft = request.draft
    progress("verifying the draft's entries", 0.5)
    verdicts = verify_draft_entries(engines, selection, draft.bibs)
    options = WritingOptions(section_title=title, depth=depth, memory_tokens=engines.settings.writing.memory_tokens,
                             on_text=request.on_text, fallback_offline=request.fallback_offline)
    try:
        return generate_related_work(draft.project, draft.bibs, selection, llm=llm, options=options,
                                     progress=scaled(progress, 0.5, 0.95), cancel=cancel,
                                     judge=claim_judge(engines), bib_verdicts=verdicts)
    except GenerationCancelled as exc:
        raise UseCaseCancelled(str(exc)) from exc
    except LLMError as exc:
        raise UseCaseFailed(str(exc), MODEL_FAILED) from exc
    except ValueError as exc:  # every chosen paper was left out by verification
        raise UseCaseFailed(str(exc), FAILED) from exc


def generate_section(request: GenerateRequest, engines: Engines, cancel: Cancel = None,
                     progress: ProgressCallback = no_progress) -> GenerateResult:
    """Choose, verify, write and place (see the module docstring). Raises :class:`UseCaseFailed`
    with a clear message, or :class:`UseCaseCancelled`."""
    settings = engines.settings
    title = request.section_title or settings.writing.section_title
    placement = request.placement or settings.writing.placement
    _check_request(request, placement)
    llm = writer_model(engines, request.use_llm)
    related = related_papers(RelatedRequest(request.draft, request.knobs, online=request.online,
                                            require_query=False), engines, cancel, scaled(progress, 0.02, 0.5))
    selection = related.selection
    if not selection.papers:
        raise UseCaseFailed("no related papers were found in the knowledge base", FAILED)
    writer = str(getattr(llm, "model", "a language model")) if llm is not None else "offline writer"
    how = f" with {writer}" if llm is not None else f" ({writer})"
    progress(f"writing about {len(selection.papers)} papers in {len(selection.themes)} themes{how}", 0.5)
    section = _write(request, engines, selection, llm, title, related.params.depth, cancel, progress)
    progress("placing the section", 0.96)
    project, bibs = request.draft.project, request.draft.bibs
    edits = plan_section_edits(project, bibs, section, settings, request.replace, title, placement)
    return GenerateResult(section=section, selection=selection, edits=tuple(edits), section_title=title,
                          placement=placement, existing=find_related_section(project, title),
                          target_bib=target_bib(project, bibs), writer=writer, kb_records=related.kb_records)
