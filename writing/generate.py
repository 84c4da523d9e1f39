"""Writing the related-work section: keys, BibTeX entries, the writer, and output integrity.

:func:`generate_related_work` turns a :class:`~relatex.retrieval.selection.Selection` into a
section body whose every citation is one of the selected papers, cited by the draft's existing
key when its .bib already holds the paper, with new entries (in the user's key style) for the
rest. With a model it runs the Select-Read-Write agents (:mod:`relatex.writing.srw`); without,
the rule-based offline writer.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from relatex.analysis.bib.bibliography_index import ContentMemo, bibs_key
from relatex.analysis.bib.bibtex_model import BibEntry, BibFile
from relatex.analysis.cancellation import Cancel, is_cancelled
from relatex.analysis.claims.claim_support import SupportJudge
from relatex.analysis.latex.latex_sanitiser import plain_label
from relatex.analysis.latex.project_model import LatexProject
from relatex.analysis.verification.bib_verification import BibVerdict
from relatex.retrieval.abstract_text import without_debris
from relatex.retrieval.selection import Selection
from relatex.writing.bibtex_render import render_entry
from relatex.writing.citation_keys import KeyIndex, assign_keys
from relatex.writing.copied_sentences import section_without_copies
from relatex.writing.latex_validator import CITE_COMMAND, cited_keys, validate_latex
from relatex.writing.llm import LLM, LLMError
from relatex.writing.offline_rewrites import rewrite_candidates
from relatex.writing.offline_writer import section_guard, write_offline
from relatex.writing.plan import PaperBrief, ThemeOutline, WritingPlan, reading_sentences
from relatex.writing.srw import WritingCancelled, write_with_llm
from relatex.writing.support_gate import gate_section
from relatex.writing.verified_citations import verified_selection
from relatex.writing.writing_options import WritingOptions

log = logging.getLogger(__name__)

Progress = Callable[[str, float], None]

# errors that mean the configuration is wrong: reported, never papered over by the offline writer
FATAL_LLM_ERRORS = frozenset({"authentication", "permission", "not_found", "missing_key", "invalid_request"})


class GenerationCancelled(Exception):
    """The cancellation token fired between two steps."""


@dataclass(frozen=True)
class NewEntry:
    """A BibTeX entry the draft's bibliography lacks, for a paper the section cites."""

    key: str
    bibtex: str
    record_id: str


@dataclass(frozen=True)
class GeneratedSection:
    """The section body (no ``\\section`` line), new entries, the keys it cites and run details."""

    latex: str
    new_entries: tuple[NewEntry, ...]
    cited_keys: tuple[str, ...]
    used_llm: bool
    usage: dict[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


def check_cancel(cancel: Cancel) -> None:
    if is_cancelled(cancel):
        raise GenerationCancelled("generation cancelled")


def _all_entries(bibs: Mapping[Path, BibFile]) -> list[BibEntry]:
    return [entry for bib in bibs.values() for entry in bib.entries]


_KEY_INDEXES: ContentMemo[KeyIndex] = ContentMemo(4)


def key_index_for(bibs: Mapping[Path, BibFile]) -> KeyIndex:
    """The lookup of the draft's existing entries (built once per .bib contents: seconds for a
    100k-entry file, and a draft gets many sections generated against the same files)."""
    return _KEY_INDEXES.get(bibs_key(bibs), lambda: KeyIndex(_all_entries(bibs)))


def build_plan(
    project: LatexProject, selection: Selection, keys: Mapping[str, str], depth: int = 3
) -> WritingPlan:
    """The writers' view of the selection, with final citation keys."""
    papers: dict[str, PaperBrief] = {}
    for item in selection.papers:
        key = keys[item.record.id]
        record = without_debris(item.record)  # an abstract that is a PDF's table or bibliography is not read
        read = item.read_sentences if record is item.record or record.full_text else ()
        papers[key] = PaperBrief(
            key=key, record=record, layer=item.layer, theme=item.theme, relevance=item.relevance,
            reasons=item.reasons, sentences=reading_sentences(record, read, depth),
        )
    themes: list[ThemeOutline] = []
    covered: set[str] = set()
    for theme, members in selection.by_theme():
        member_keys = tuple(keys[p.record.id] for p in members if p.record.id in keys)
        covered.update(member_keys)
        if member_keys:
            terms = tuple(t for t in (plain_label(term) for term in theme.terms) if t)
            label = plain_label(theme.label) or (terms[0] if terms else "related work")
            themes.append(ThemeOutline(id=theme.id, label=label, terms=terms, keys=member_keys))
    leftovers = tuple(k for k in papers if k not in covered)
    if leftovers:  # papers outside every theme still get written about
        themes.append(ThemeOutline(id=-1, label="further related work", terms=("further related work",),
                                   keys=leftovers))
    relations: dict[tuple[str, str], tuple[str, ...]] = {}
    graph = selection.graph
    for u, v, data in graph.edges(data=True):
        if u in keys and v in keys:
            kinds = data.get("kinds", {}) if isinstance(data, Mapping) else {}
            relations[(keys[u], keys[v])] = tuple(kinds) or ("related",)
    order = tuple(keys[pid] for pid in selection.reading_order if pid in keys)
    return WritingPlan(
        draft_title=project.title or "", draft_abstract=project.abstract or "", papers=papers,
        themes=tuple(themes), reading_order=order, relations=relations,
    )


def convert_citations(text: str, package: str, papers: Mapping[str, PaperBrief]) -> str:
    """Natbib-style ``\\citet``/``\\citep`` to the draft's convention (biblatex or plain ``\\cite``)."""
    if package == "natbib":
        return text

    def fix(match: re.Match[str]) -> str:
        command = match.group("cmd")
        keys = [k.strip() for k in match.group("keys").split(",") if k.strip()]
        textual = command.lower() == "citet"
        if package == "biblatex":
            name = "textcite" if textual else "parencite" if command.lower() == "citep" else command
            return f"\\{name}{match.group('star')}{match.group('opts')}{{{','.join(keys)}}}"
        if textual:  # plain LaTeX: "Smith et al.~\cite{k}"
            parts = [f"{papers[k].author_phrase() if k in papers else 'The authors'}~\\cite{{{k}}}" for k in keys]
            return " and ".join(parts)
        if command.lower() in {"citep", "citealp"}:
            return f"\\cite{match.group('opts')}{{{','.join(keys)}}}"
        return match.group(0)

    return CITE_COMMAND.sub(fix, text)


def generate_related_work(
    project: LatexProject,
    bibs: Mapping[Path, BibFile],
    selection: Selection,
    llm: LLM | None = None,
    options: WritingOptions | None = None,
    progress: Progress | None = None,
    cancel: Cancel = None,
    judge: SupportJudge | None = None,
    bib_verdicts: Mapping[str, BibVerdict] | None = None,
) -> GeneratedSection:
    """Write the related-work section body for ``selection``; see the module docstring. With a
    ``judge`` (the configured claim judge), every sentence with citations is judged against the
    abstracts of the papers it cites and rewritten or dropped when unsupported. ``bib_verdicts``
    (verification of the draft's entries, by key): papers cited through a not-found entry are left
    out, mismatched ones described with the authority's data."""
    options = options or WritingOptions()
    report = progress or (lambda message, fraction: None)
    warnings: list[str] = []
    if bib_verdicts:
        selection, notes = verified_selection(selection, bib_verdicts)
        warnings.extend(notes)
    if not selection.papers:
        raise ValueError("no papers were selected: index papers first (relatex index ...) or widen the search")
    check_cancel(cancel)
    records = [p.record for p in selection.papers]
    draft_keys = {p.record.id: p.draft_key for p in selection.papers}
    keys, new_ids = assign_keys(records, key_index_for(bibs), draft_keys, options.key_style)
    plan = build_plan(project, selection, keys, options.depth)
    report("planning the section", 0.05)
    usage: dict[str, Any] = {}
    used_llm = False
    body: str | None = None
    if llm is not None:

        try:
            result = write_with_llm(plan, llm, options, progress=report, cancel=lambda: is_cancelled(cancel))
            body, usage = result.text, result.usage
            warnings.extend(result.warnings)
            used_llm = True
        except WritingCancelled as error:
            raise GenerationCancelled(str(error)) from error
        except LLMError as error:
            if error.kind in FATAL_LLM_ERRORS or not options.fallback_offline:
                raise
            warnings.append(f"the language model failed ({error}); the offline writer was used instead")
            log.warning("%s", warnings[-1])
    check_cancel(cancel)
    guard = section_guard(plan)  # one no-copy rule for the offline writer and the gate's rewrites
    if body is None:
        report("writing the section offline", 0.5)
        body = write_offline(plan, seed=options.seed, guard=guard)
    if judge is not None:
        report("checking every sentence against its sources", 0.9)
        body, gate = gate_section(body, plan.papers, judge, rewrites=rewrite_candidates(plan, guard))
        if not used_llm:
            body = section_without_copies(body, guard)
        usage["support_gate"] = gate.as_dict()
        for note in gate.notes:
            log.info("%s", note)
    body = convert_citations(body, project.citation_package, plan.papers)
    checked = validate_latex(body, set(plan.papers))
    if checked.problems:
        warnings.extend(checked.problems)
    cited = tuple(dict.fromkeys(cited_keys(checked.text)))
    key_to_id = {key: brief.id for key, brief in plan.papers.items()}
    new_entries = tuple(
        NewEntry(key=key, bibtex=render_entry(plan.papers[key].record, key), record_id=key_to_id[key])
        for key in cited
        if key_to_id.get(key) in new_ids
    )
    report("section written", 1.0)
    return GeneratedSection(
        latex=checked.text, new_entries=new_entries, cited_keys=cited, used_llm=used_llm,
        usage=usage, warnings=tuple(warnings),
    )
