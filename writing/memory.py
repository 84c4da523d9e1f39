"""The working memory of the Select-Read-Write agents: what is known about each paper.

A JSON document with one note per paper (its facts, each attributed to that paper, and its
relations to other papers), capped at a token budget. The reader reorganises it at every step
(keep, compress, discard); :meth:`WorkingMemory.enforce_budget` holds the cap in code whatever
the model returns, compressing the least relevant notes first.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from relatex.writing.llm import approx_tokens

MAX_FACT_CHARS = 400


@dataclass
class PaperNote:
    """Facts learned from one paper and how it relates to others (``relations``: key -> relation)."""

    key: str
    facts: list[str] = field(default_factory=list)
    relations: dict[str, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"paper": self.key, "facts": self.facts}
        if self.relations:
            out["relations"] = [{"paper": k, "relation": v} for k, v in self.relations.items()]
        return out


# the reader's answer: notes to set (replacing those papers' notes) and notes to drop
READER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "notes": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "paper": {"type": "string"},
                    "facts": {"type": "array", "items": {"type": "string"}},
                    "relations": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"paper": {"type": "string"}, "relation": {"type": "string"}},
                            "required": ["paper", "relation"],
                        },
                    },
                },
                "required": ["paper", "facts"],
            },
        },
        "discard": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["notes"],
}


class WorkingMemory:
    """Notes by paper key, in the order they were first written, within ``budget_tokens``."""

    def __init__(self, budget_tokens: int = 4096, priority: Mapping[str, float] | None = None) -> None:
        self.budget_tokens = budget_tokens
        self.notes: dict[str, PaperNote] = {}
        self.priority = dict(priority or {})  # higher: compressed later

    def to_json(self) -> str:
        return json.dumps([note.as_json() for note in self.notes.values()], ensure_ascii=False)

    def tokens(self) -> int:
        return approx_tokens(self.to_json())

    def apply(self, update: Mapping[str, Any], allowed: Collection[str]) -> list[str]:
        """Apply a reader answer; notes or relations about keys outside ``allowed`` are refused."""
        problems: list[str] = []
        for key in update.get("discard", []) or []:
            self.notes.pop(str(key), None)
        for raw in update.get("notes", []) or []:
            key = str(raw.get("paper", ""))
            if key not in allowed:
                problems.append(f"note about unknown paper '{key}' ignored")
                continue
            facts = [" ".join(str(f).split())[:MAX_FACT_CHARS] for f in raw.get("facts", []) if str(f).strip()]
            relations: dict[str, str] = {}
            for rel in raw.get("relations", []) or []:
                other = str(rel.get("paper", ""))
                if other in allowed and other != key:
                    relations[other] = " ".join(str(rel.get("relation", "related")).split())[:80]
                elif other:
                    problems.append(f"relation to unknown paper '{other}' ignored")
            if not facts and not relations:
                self.notes.pop(key, None)
                continue
            self.notes[key] = PaperNote(key=key, facts=facts, relations=relations)
        problems.extend(self.enforce_budget())
        return problems

    def add_facts(self, key: str, facts: list[str]) -> None:
        """Record facts without a model (fallback when a reader step fails)."""
        note = self.notes.setdefault(key, PaperNote(key=key))
        note.facts.extend(" ".join(f.split())[:MAX_FACT_CHARS] for f in facts if f.strip())
        self.enforce_budget()

    def enforce_budget(self) -> list[str]:
        """Compress until within budget: trim long facts, drop later facts, then whole notes."""
        actions: list[str] = []
        if self.tokens() <= self.budget_tokens:
            return actions
        order = sorted(self.notes, key=lambda k: self.priority.get(k, 0.0))  # least important first
        for limit in (240, 160):
            for key in order:
                self.notes[key].facts = [f if len(f) <= limit else f[: limit - 1].rstrip() + "\u2026"
                                         for f in self.notes[key].facts]
            if self.tokens() <= self.budget_tokens:
                return ["memory compressed: long facts shortened"]
        while self.tokens() > self.budget_tokens:
            candidates = [k for k in order if k in self.notes and len(self.notes[k].facts) > 1]
            if not candidates:
                break
            self.notes[candidates[0]].facts.pop()
            actions.append(f"memory compressed: a fact about {candidates[0]} dropped")
        while self.tokens() > self.budget_tokens and self.notes:
            victim = next(k for k in order if k in self.notes)
            del self.notes[victim]
            actions.append(f"memory full: note about {victim} discarded")
        return actions
