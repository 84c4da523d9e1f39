"""`relatex generate` end to end: index a small library, write the section, print or insert it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from relatex.server.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "writing"

DRAFT = r"""\documentclass{article}
\usepackage{natbib}
\begin{document}
\begin{abstract}
We present a language server that retrieves related papers with dense passage retrieval and BM25 and
writes the related-work section of a draft, with citation-aware generation grounded in abstracts.
\end{abstract}
\section{Introduction}
Ranking with BM25 is a strong baseline \citep{robertson2009bm25}.

\section{Method}
Our method.

\bibliography{refs}
\end{document}
"""
BIB = """@article{robertson2009bm25,
  author = {Robertson, Stephen and Zaragoza, Hugo},
  title = {The Probabilistic Relevance Framework: {BM25} and Beyond},
  journal = {Foundations and Trends in Information Retrieval},
  year = {2009},
  doi = {10.1000/bm25}
}
"""


@pytest.fixture(scope="module")
def knowledge_base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("kb")
    config = base / "settings.json"
    config.write_text(json.dumps({"knowledgeBase": {"embeddingModel": "hashing-256"}}), encoding="utf-8")
    assert main(["index", str(FIXTURES / "library.bib"), "--data-dir", str(base / "data"), "--config", str(config)]) == 0
    return base / "data", config


def draft(tmp_path: Path, text: str = DRAFT) -> Path:
    (tmp_path / "main.tex").write_text(text, encoding="utf-8")
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    return tmp_path / "main.tex"


def test_prints_section_and_new_entries(tmp_path: Path, knowledge_base: tuple[Path, Path],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    data, config = knowledge_base
    tex = draft(tmp_path)
    code = main(["generate", str(tex), "--data-dir", str(data), "--config", str(config), "--breadth", "6"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith("\\section{Related Work}") and "without a language model" in out
    assert "\\citet{robertson2009bm25}" in out or "\\citep{robertson2009bm25" in out or "robertson2009bm25," in out
    assert "new BibTeX entries for refs.bib" in out and "@" in out.split("new BibTeX entries")[1]
    assert "papers cited" in err and "new entries" in err
    assert tex.read_text(encoding="utf-8") == DRAFT  # nothing written without --write


def test_write_inserts_section_and_entries(tmp_path: Path, knowledge_base: tuple[Path, Path],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    data, config = knowledge_base
    tex = draft(tmp_path)
    assert main(["generate", str(tex), "--data-dir", str(data), "--config", str(config), "--breadth", "6",
                 "--write"]) == 0
    err = capsys.readouterr().err
    text = tex.read_text(encoding="utf-8")
    assert text.index("\\section{Introduction}") < text.index("\\section{Related Work}") < text.index("\\section{Method}")
    bib = (tmp_path / "refs.bib").read_text(encoding="utf-8")
    assert bib.startswith(BIB) and bib.count("@") > 1
    assert f"{tex}:" in err and "added" in err and "BibTeX entries" in err


def test_clear_errors(tmp_path: Path, knowledge_base: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    data, config = knowledge_base
    assert main(["generate", str(tmp_path / "missing.tex"), "--data-dir", str(data), "--config", str(config)]) == 2
    assert "does not exist" in capsys.readouterr().err
    no_abstract = draft(tmp_path, DRAFT.replace("\\begin{abstract}", "").replace("\\end{abstract}", ""))
    assert main(["generate", str(no_abstract), "--data-dir", str(data), "--config", str(config)]) == 2
    assert "has no abstract" in capsys.readouterr().err
    tex = draft(tmp_path)
    assert main(["generate", str(tex), "--data-dir", str(tmp_path / "nokb"), "--config", str(config)]) == 2
    assert "relatex index" in capsys.readouterr().err


def test_llm_writer_through_the_cli_reports_usage(tmp_path: Path, knowledge_base: tuple[Path, Path],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from tests.fakes.messages_server import MessagesServer, ScriptedAgents

    data, _ = knowledge_base
    tex = draft(tmp_path)
    with MessagesServer(responder=ScriptedAgents(reads=3)) as server:
        config = tmp_path / "llm.json"
        config.write_text(json.dumps({"knowledgeBase": {"embeddingModel": "hashing-256"},
                                      "llm": {"provider": "anthropic", "baseUrl": server.url,
                                              "model": "claude-sonnet-5-5"}}), encoding="utf-8")
        code = main(["generate", str(tex), "--data-dir", str(data), "--config", str(config), "--breadth", "5"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "without a language model" not in out and "\\citet{" in out
    assert "LLM usage:" in err and "estimated cost $" in err and "with claude-sonnet-5-5" in err


def test_write_keeps_an_existing_related_work_in_a_crlf_draft_and_replace_is_explicit(
        tmp_path: Path, knowledge_base: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    data, config = knowledge_base
    mine = "\\subsection{Related Work}\nThe author's own paragraph about BM25.\n"
    text = DRAFT.replace("\\section{Method}", mine + "\\section{Method}").replace("\n", "\r\n")
    tex = draft(tmp_path)
    tex.write_bytes(text.encode("utf-8"))
    args = ["generate", str(tex), "--data-dir", str(data), "--config", str(config), "--breadth", "6", "--write"]
    assert main(args) == 0
    err = capsys.readouterr().err
    written = tex.read_bytes().decode("utf-8")
    assert "kept the existing \"Related Work\"" in err and "added" in err
    assert "The author's own paragraph about BM25.\r\n\r\n% relatex: generated related work begins" in written
    assert written.count("Related Work}") == 1 and "\n" not in written.replace("\r\n", "")
    tex.write_bytes(text.encode("utf-8"))
    assert main([*args, "--replace"]) == 0
    err = capsys.readouterr().err
    assert "replaced 1 lines" in err and "- The author's own paragraph about BM25." in err
    assert "The author's own paragraph" not in tex.read_text(encoding="utf-8")


def test_one_new_entry_is_said_in_the_singular() -> None:
    from relatex.server.commands.generate import _entries

    assert _entries(1) == "1 new BibTeX entry" and _entries(1, "") == "1 new entry"
    assert _entries(3) == "3 new BibTeX entries" and _entries(0, "") == "0 new entries"
