"""The Select-Read-Write pipeline on a language model.

Select and Read alternate under the Graph-Ci constraint (the next paper is an unread neighbour
of the current one in the citation graph, or any unread paper once the neighbourhood is
exhausted) until the selector says "End" or every paper is read; the reader keeps the working
memory within its token budget. Then Write: for short sections one streamed call; for longer
ones, each theme's paragraph is drafted in parallel (thread pool) and a refinement pass
(streamed) joins them for flow and removes redundancy. The output is validated (keys, braces,
forbidden commands); invalid text gets one repair round, then offending citations are dropped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from relatex.writing.agents import (
    END,
    WRITER_SYSTEM,
    library_block,
    read_paper,
    refine_prompt,
    repair_prompt,
    select_next,
    writer_prompt,
)
from relatex.writing.latex_validator import validate_latex
from relatex.writing.llm import LLM, LLMError, LLMResponse, UsageMeter
from relatex.writing.memory import WorkingMemory
from relatex.writing.plan import WritingPlan
from relatex.writing.writing_options import WritingOptions

log = logging.getLogger(__name__)

PARALLEL_MIN_PAPERS = 8  # from this many papers (and two themes) paragraphs are drafted in parallel


class WritingCancelled(Exception):
    """Raised between agent steps when the cancellation token fires."""


@dataclass
class LLMWriteResult:
    text: str
    usage: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)  # selector/reader steps, for the user


def allowed_next(plan: WritingPlan, history: list[str]) -> list[str]:
    """Graph-Ci: unread neighbours of the current paper, else every unread paper (reading order)."""
    read = set(history)
    order = list(plan.reading_order) + [k for k in plan.papers if k not in plan.reading_order]
    unread = [k for k in order if k not in read and k in plan.papers]
    if history:
        around = plan.neighbours(history[-1])
        near = [k for k in unread if k in around]
        if near:
            return near
    return unread


def _collect(llm: LLM, system: str, prompt: str, cache_prefix: str, max_tokens: int,
             on_text: Callable[[str], None] | None) -> str:
    chunks: list[str] = []
    for chunk in llm.stream(system, [{"role": "user", "content": prompt}], max_tokens=max_tokens,
                            cache_prefix=cache_prefix):
        chunks.append(chunk)
        if on_text is not None:
            on_text(chunk)
    return "".join(chunks)


def write_with_llm(
    plan: WritingPlan,
    llm: LLM,
    options: WritingOptions,
    progress: Callable[[str, float], None] | None = None,
    cancel: Callable[[], bool] | None = None,
) -> LLMWriteResult:
    """Run Select, Read and Write; raises :class:`LLMError` when the model cannot be used."""
    report = progress or (lambda message, fraction: None)
    cancelled = cancel or (lambda: False)
    responses: list[LLMResponse] = []
    meter = getattr(llm, "meter", None)
    before = meter.summary() if isinstance(meter, UsageMeter) else None
    result = LLMWriteResult(text="", usage={})
    priority = {k: b.relevance for k, b in plan.papers.items()}
    memory = WorkingMemory(options.memory_tokens, priority)
    history = _select_and_read(plan, llm, options, memory, responses, result, report, cancelled)
    unread = [k for k in plan.papers if k not in history and k not in memory.notes]
    for key in unread:  # papers the selector never reached still appear in the outline
        memory.add_facts(key, list(plan.papers[key].sentences[:1]))
    if cancelled():
        raise WritingCancelled("writing cancelled")
    text = _write(plan, llm, options, memory, responses, report, cancelled)
    result.text = _validated(text, plan, llm, responses, result, report).strip() + "\n"
    result.usage = _usage(responses, meter, before)
    result.usage["papers_read"] = len(history)
    result.usage["memory_tokens"] = memory.tokens()
    return result


def _select_and_read(plan: WritingPlan, llm: LLM, options: WritingOptions, memory: WorkingMemory,
                     responses: list[LLMResponse], result: LLMWriteResult,
                     report: Callable[[str, float], None], cancelled: Callable[[], bool]) -> list[str]:
    """Select and Read alternate until the selector says End or the steps run out; the keys read."""
    history: list[str] = []
    steps = options.max_reader_steps or len(plan.papers)
    while len(history) < steps:
        if cancelled():
            raise WritingCancelled("writing cancelled")
        allowed = allowed_next(plan, history)
        if not allowed:
            break
        choice = select_next(llm, plan, memory, history, allowed, responses)
        if choice.key == END:
            result.trace.append(f"selector: End ({choice.reason})")
            break
        result.trace.append(f"selector: {choice.key} ({choice.reason})")
        report(f"reading {choice.key}", 0.1 + 0.5 * len(history) / max(1, steps))
        try:
            problems = read_paper(llm, plan, memory, choice, responses)
        except LLMError as error:
            if error.kind != "invalid_output":
                raise
            problems = [f"reader output invalid for {choice.key}; its sentences were kept as notes"]
            memory.add_facts(choice.key, list(plan.papers[choice.key].sentences[:2]))
        result.warnings.extend(problems)
        history.append(choice.key)
    return history


def _write(plan: WritingPlan, llm: LLM, options: WritingOptions, memory: WorkingMemory,
           responses: list[LLMResponse], report: Callable[[str, float], None],
           cancelled: Callable[[], bool]) -> str:
    """Write: one streamed call, or parallel theme paragraphs joined by a refinement pass."""
    shared = library_block(plan)
    keys = list(plan.papers)
    themes = [t for t in plan.themes if t.keys]
    max_tokens = getattr(llm, "max_tokens", 4096)
    if not (len(plan.papers) >= PARALLEL_MIN_PAPERS and len(themes) > 1):
        report("writing the section", 0.7)
        return _collect(llm, WRITER_SYSTEM, writer_prompt(plan, memory, keys, None), shared, max_tokens,
                        options.on_text)
    report("drafting theme paragraphs in parallel", 0.65)

    def draft(theme_index: int) -> str:
        theme = themes[theme_index]
        response = llm.complete(WRITER_SYSTEM, [{"role": "user", "content": writer_prompt(
            plan, memory, list(theme.keys), theme.label)}], max_tokens=min(1500, max_tokens),
            cache_prefix=shared)
        responses.append(response)
        return response.text.strip()

    with ThreadPoolExecutor(max_workers=max(1, options.parallel_workers)) as pool:
        paragraphs = list(pool.map(draft, range(len(themes))))
    if cancelled():
        raise WritingCancelled("writing cancelled")
    if not options.refine:
        return "\n\n".join(paragraphs)
    report("refining the section", 0.85)
    return _collect(llm, WRITER_SYSTEM, refine_prompt(paragraphs, keys), shared, max_tokens, options.on_text)


def _validated(text: str, plan: WritingPlan, llm: LLM, responses: list[LLMResponse], result: LLMWriteResult,
               report: Callable[[str, float], None]) -> str:
    """The text with valid keys and LaTeX: one repair round, then offending parts dropped."""
    keys = list(plan.papers)
    checked = validate_latex(text, keys)
    if not checked.problems:
        return checked.text
    report("repairing the section", 0.95)
    result.warnings.append("writer output repaired: " + "; ".join(checked.problems))
    fixed = llm.complete(WRITER_SYSTEM, [{"role": "user", "content": repair_prompt(
        text, checked.problems, keys)}], max_tokens=getattr(llm, "max_tokens", 4096),
        cache_prefix=library_block(plan))
    responses.append(fixed)
    again = validate_latex(fixed.text, keys)
    if again.problems:
        result.warnings.append("still invalid after repair, offending parts dropped: " + "; ".join(again.problems))
    return again.text


def _usage(responses: list[LLMResponse], meter: object, before: dict[str, Any] | None) -> dict[str, Any]:
    """Token counts of this run: the model's meter difference when it has one, else the responses."""
    if isinstance(meter, UsageMeter) and before is not None:
        after = meter.summary()
        delta = UsageMeter(model=after["model"])
        for name in ("calls", "input_tokens", "output_tokens", "cache_read_tokens", "cache_creation_tokens"):
            setattr(delta, name, after[name] - before[name])
        return delta.summary()
    local = UsageMeter()
    for response in responses:
        local.record(response)
    return local.summary()
