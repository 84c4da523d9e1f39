"""Real-shaped LaTeX projects: what relatex reads and writes on each, in LF and CRLF copies.

Runs over ``tests/fixtures/projects/*`` (each with ``expected.json``): cited-key sets against
the expected ones, false "undefined key" findings, error findings, abstract found, package
detected, and whether generating a related-work section (offline writer, fixture papers) only
inserted bytes into every file. Prints a table; writes ``bench/results/real_projects.json``.

    python bench/real_projects.py
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from relatex.analysis.findings import Code, Severity  # noqa: E402
from relatex.analysis.latex.latex_project import load_project  # noqa: E402
from relatex.analysis.text_files import write_edits  # noqa: E402
from relatex.analysis.verification.project_checks import check_project, load_bibliographies  # noqa: E402
from relatex.writing.generate import generate_related_work  # noqa: E402
from relatex.writing.placement import plan_insertion  # noqa: E402
from tests.writing.conftest import load_records, make_selection  # noqa: E402
from tests.writing.test_real_projects import PROJECTS, copy_project, only_insertions  # noqa: E402

OUT = REPO / "bench" / "results" / "real_projects.json"


def measure(name: str, newline: str, work: Path) -> dict[str, object]:
    expected = json.loads((PROJECTS / name / "expected.json").read_text(encoding="utf-8"))
    root = copy_project(name, work / f"{name}-{len(newline)}", newline)
    started = time.perf_counter()
    project = load_project(root)
    bibs = load_bibliographies(project)
    findings = check_project(project, bibs)
    load_s = time.perf_counter() - started
    before = {p: p.read_bytes() for p in root.parent.rglob("*") if p.is_file()}
    section = generate_related_work(project, bibs, make_selection(load_records()))
    texts = {p: f.text for p, f in project.files.items()} | {p: b.text for p, b in bibs.items()}
    write_edits(plan_insertion(project, bibs, section), texts)
    kept = all(only_insertions(data, path.read_bytes()) for path, data in before.items())
    return {
        "project": name, "newline": "crlf" if newline == "\r\n" else "lf",
        "keys_exact": set(project.cited_keys(nocite=False)) == set(expected["cited"])
        and set(project.nocite_keys()) == set(expected["nocite"]),
        "false_undefined": sum(f.code is Code.UNDEFINED_CITATION for f in findings),
        "errors": sum(f.severity is Severity.ERROR for f in findings),
        "abstract_found": project.abstract == expected["abstract"],
        "package_right": project.citation_package == expected["package"],
        "write_only_inserts": kept,
        "load_and_check_s": round(load_s, 4),
    }


def main() -> int:
    names = sorted(p.name for p in PROJECTS.iterdir() if (p / "expected.json").is_file())
    with tempfile.TemporaryDirectory() as tmp:
        rows = [measure(name, newline, Path(tmp)) for name in names for newline in ("\n", "\r\n")]
    print(f"{'project':34} {'nl':4} keys undef err abstract pkg inserts-only")
    for r in rows:
        print(f"{r['project']:34} {r['newline']:4} {'ok' if r['keys_exact'] else 'NO':4} {r['false_undefined']:5} "
              f"{r['errors']:3} {'ok' if r['abstract_found'] else 'NO':8} {'ok' if r['package_right'] else 'NO':3} "
              f"{'ok' if r['write_only_inserts'] else 'NO'}")
    summary = {
        "projects": len(names), "runs": len(rows),
        "keys_exact": sum(bool(r["keys_exact"]) for r in rows),
        "false_undefined_findings": sum(int(r["false_undefined"]) for r in rows),  # type: ignore[call-overload]
        "error_findings": sum(int(r["errors"]) for r in rows),  # type: ignore[call-overload]
        "abstract_found": sum(bool(r["abstract_found"]) for r in rows),
        "package_right": sum(bool(r["package_right"]) for r in rows),
        "write_only_inserts": sum(bool(r["write_only_inserts"]) for r in rows),
    }
    print("summary:", json.dumps(summary))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"summary": summary, "runs": rows}, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
