"""Synthetic but realistic BibTeX libraries for the knowledge-base tests."""

from __future__ import annotations

import random
from pathlib import Path

TOPICS = [
    ("neural ranking", "learning to rank documents with deep neural networks for ad hoc retrieval"),
    ("query expansion", "pseudo relevance feedback expands queries with terms from top ranked documents"),
    ("citation recommendation", "recommending papers to cite from the context of a manuscript sentence"),
    ("dense retrieval", "dual encoders embed questions and passages for nearest neighbour search"),
    ("click models", "modelling user clicks on search engine result pages to infer relevance"),
    ("entity linking", "linking mentions in text to entries of a knowledge base such as Wikipedia"),
    ("summarization", "abstractive summarization of scientific articles with sequence to sequence models"),
    ("machine translation", "statistical and neural machine translation between language pairs"),
]
SURNAMES = ["Smith", "Garcia", "Chen", "Müller", "Okafor", "Tanaka", "Rossi", "Novak", "Haddad", "Silva"]


def entry_text(i: int, abstract_suffix: str = "", venue: str | None = None) -> str:
    rng = random.Random(i)
    topic, sentence = TOPICS[i % len(TOPICS)]
    a, b = rng.sample(SURNAMES, 2)
    title = f"On {topic} {i}: {rng.choice(['a study', 'revisited', 'at scale', 'in practice'])} number {i}"
    return (
        f"@inproceedings{{paper{i},\n"
        f"  title = {{{title}}},\n"
        f"  author = {{{a}, Alex and {b}, Kim}},\n"
        f"  booktitle = {{{venue or 'Proceedings of the Conference on Retrieval ' + str(2000 + i % 20)}}},\n"
        f"  year = {{{2000 + i % 20}}},\n"
        f"  doi = {{10.5555/test.{i}}},\n"
        f"  abstract = {{We study {topic} (item {i}). In this work {sentence}. {abstract_suffix}}}\n"
        "}\n\n"
    )


def write_library(path: Path, ids: list[int], changes: dict[int, str] | None = None,
                  venues: dict[int, str] | None = None) -> Path:
    changes = changes or {}
    venues = venues or {}
    path.write_text("".join(entry_text(i, changes.get(i, ""), venues.get(i)) for i in ids), encoding="utf-8")
    return path
