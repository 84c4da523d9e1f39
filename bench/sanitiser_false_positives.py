"""How often the LaTeX sanitiser escapes a command in real bibliography data (false positives).

Every title, author, editor, booktitle, journal and publisher value of the ACL Anthology and ACM DL
exports (../shared/data) goes through :func:`relatex.analysis.latex.latex_sanitiser.sanitise_latex`;
the table lists how many values had a command escaped, and which commands.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import re
import time
from pathlib import Path

from relatex.analysis.latex.latex_sanitiser import sanitise_latex

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
FILES = {"acl": DATA / "acl-anthology" / "anthology+abstracts.bib.gz", "acm": DATA / "acm-cr" / "acm-dl.bib.gz"}
FIELD = re.compile(r'\s*(title|author|editor|booktitle|journal|publisher)\s*=\s*[{"](.*)[}"],?\s*$')


def scan(path: Path) -> dict[str, object]:
    """Fields read, values with an escape, and the escaped commands of one .bib.gz file."""
    values = escaped_values = 0
    commands: collections.Counter[str] = collections.Counter()
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            match = FIELD.match(line)
            if not match:
                continue
            values += 1
            _, escaped = sanitise_latex(match.group(2))
            if escaped:
                escaped_values += 1
                commands.update(escaped)
    return {"values": values, "escaped_values": escaped_values, "rate": escaped_values / max(values, 1),
            "commands": dict(commands.most_common(20))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "sanitiser.json")
    args = parser.parse_args()
    started = time.perf_counter()
    results = {name: scan(path) for name, path in FILES.items() if path.exists()}
    print(f"{'corpus':<8}{'values':>12}{'escaped':>10}{'rate':>12}  commands")
    for name, row in results.items():
        print(f"{name:<8}{row['values']:>12,}{row['escaped_values']:>10,}{row['rate']:>12.6f}  "
              + ", ".join(f"{c} {n}" for c, n in row["commands"].items()))  # type: ignore[attr-defined]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"corpora": results, "seconds": time.perf_counter() - started}, indent=2) + "\n",
                        encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
