"""`relatex generate --write` and `check --fix` never write outside the project folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from relatex.analysis.latex.project_boundary import OutsideProjectError, check_writable, write_refusal
from relatex.server.cli import main
from tests.writing.test_generate_cli import BIB, DRAFT, knowledge_base  # noqa: F401 (fixture)

VICTIM = "#!/bin/sh\necho precious\n"


def _generate(tex: Path, kb: tuple[Path, Path]) -> int:
    data, config = kb
    return main(["generate", str(tex), "--write", "--data-dir", str(data), "--config", str(config), "--breadth", "6"])


@pytest.mark.parametrize("declaration", [r"\addbibresource{../victim.sh}", r"\bibliography{../victim}"])
def test_a_bibliography_outside_the_project_is_never_written(
    tmp_path: Path, knowledge_base: tuple[Path, Path], capsys: pytest.CaptureFixture[str],  # noqa: F811
    declaration: str,
) -> None:
    project = tmp_path / "paper"
    project.mkdir()
    victim = tmp_path / ("victim.sh" if declaration.endswith(".sh}") else "victim.bib")
    victim.write_text(VICTIM if victim.suffix == ".sh" else BIB, encoding="utf-8")
    text = DRAFT.replace(r"\bibliography{refs}", declaration)
    (project / "main.tex").write_text(text, encoding="utf-8")
    assert _generate(project / "main.tex", knowledge_base) == 1
    err = capsys.readouterr().err
    assert "nothing written" in err and str(victim) in err
    assert victim.read_text(encoding="utf-8") == (VICTIM if victim.suffix == ".sh" else BIB)
    assert (project / "main.tex").read_text(encoding="utf-8") == text  # all or nothing
    main(["check", "--format", "json", str(project / "main.tex")])
    rows = json.loads(capsys.readouterr().out)
    assert any(r["code"] == "include-outside-root" and r["severity"] == "warning" and "victim" in r["message"]
               for r in rows)


def test_a_bib_symlinked_outside_is_never_written(tmp_path: Path, knowledge_base: tuple[Path, Path],  # noqa: F811
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "paper"
    project.mkdir()
    outside = tmp_path / "shared.bib"
    outside.write_text(BIB, encoding="utf-8")
    (project / "refs.bib").symlink_to(outside)
    (project / "main.tex").write_text(DRAFT, encoding="utf-8")
    assert _generate(project / "main.tex", knowledge_base) == 1
    assert "outside the project folder" in capsys.readouterr().err
    assert outside.read_text(encoding="utf-8") == BIB and (project / "main.tex").read_text(encoding="utf-8") == DRAFT


def test_the_boundary_rule(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    assert write_refusal(tmp_path, tmp_path / "sub" / "refs.bib") is None
    assert write_refusal(tmp_path, tmp_path / "main.tex") is None
    assert "only .tex and .bib" in (write_refusal(tmp_path, tmp_path / "run.sh") or "")
    assert "outside" in (write_refusal(tmp_path, tmp_path / ".." / "x.bib") or "")
    with pytest.raises(OutsideProjectError, match="x.bib"):
        check_writable(tmp_path / "sub", [tmp_path / "sub" / "a.tex", tmp_path / "x.bib"])
