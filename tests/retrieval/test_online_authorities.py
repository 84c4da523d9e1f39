"""Authorities for verification: the knowledge base and the online sources (fake server)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.analysis.verification.bib_verification import AuthorityUnavailable, verify_entry
from relatex.retrieval.authorities import (
    ArxivAuthority,
    CrossrefAuthority,
    DblpAuthority,
    KnowledgeBaseAuthority,
    OpenAlexAuthority,
    online_authorities,
)
from relatex.retrieval.embedding import HashingEmbedder
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.online.arxiv import ArxivClient
from relatex.retrieval.online.crossref import CrossrefClient
from relatex.retrieval.online.dblp import DblpClient
from relatex.retrieval.online.http import OnlineStatus
from relatex.retrieval.online.openalex import OpenAlexClient
from relatex.retrieval.records import PaperRecord
from tests.fakes import make_fast_http, scholarly_server_fixture  # noqa: F401  (pytest fixture)
from tests.fakes.scholarly_server import ScholarlyServer

BIB = Path("/draft/refs.bib")
BERT_TITLE = "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"


def entry(text: str) -> BibEntry:
    return parse_bib_text(text, BIB).entries[0]


PUBLISHED = r"""@inproceedings{devlin2019, title = {{BERT}: Pre-training of Deep Bidirectional Transformers
  for Language Understanding}, author = {Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova,
  Kristina}, booktitle = {NAACL}, year = {2019}, pages = {4171--4186}, doi = {10.18653/v1/N19-1423}}"""
PREPRINT = r"""@misc{devlin2018, title = {BERT: Pre-training of Deep Bidirectional Transformers for Language
  Understanding}, author = {Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina},
  eprint = {1810.04805}, archivePrefix = {arXiv}, year = {2018}}"""


def test_knowledge_base_authority(tmp_path: Path) -> None:
    records = [
        PaperRecord(id="doi:10.18653/v1/n19-1423", title=BERT_TITLE,
                    authors=("Devlin, Jacob", "Chang, Ming-Wei", "Lee, Kenton", "Toutanova, Kristina"), year=2019,
                    venue="Proceedings of NAACL-HLT 2019", doi="10.18653/v1/n19-1423", source="test",
                    bibtex_type="inproceedings", bibtex_fields={"pages": "4171--4186"}),
        PaperRecord(id="acl:A00-1031", title="TnT - A Statistical Part-of-Speech Tagger", authors=("Brants, Thorsten",),
                    year=2000, venue="ANLP", source="test", bibtex_type="inproceedings"),
    ]
    with KnowledgeBase.open(tmp_path / "kb", embedder=HashingEmbedder(64)) as kb:
        kb.add_records(records)
    with KnowledgeBase.open(tmp_path / "kb", read_only=True) as kb:
        authority = KnowledgeBaseAuthority(kb)
        (by_doi,) = authority.by_doi("10.18653/v1/N19-1423")
        assert (by_doi.record_id, by_doi.pages, by_doi.entry_type, by_doi.is_preprint) == (
            "doi:10.18653/v1/n19-1423", "4171--4186", "inproceedings", False)
        assert [r.record_id for r in authority.by_title("TnT: a statistical part of speech tagger")] == ["acl:A00-1031"]
        assert verify_entry(entry(PUBLISHED), [authority]).status == "verified"
        wrong_year = entry(r"@inproceedings{b, title={{TnT} -- A Statistical Part-of-Speech Tagger}, "
                           r"author={Brants, Thorsten}, year={2001}}")
        verdict = verify_entry(wrong_year, [authority])
        assert verdict.status == "mismatch" and verdict.corrected_fields == {"year": "2000"}
        # a near title is found by BM25 but only accepted because the authors agree
        altered = entry(r"@inproceedings{b, title={TnT - A Statistical Part-of-Speech Parser}, "
                        r"author={Brants, Thorsten}, year={2000}}")
        assert [m.field for m in verify_entry(altered, [authority]).mismatches] == ["title"]
        made_up = entry(r"@article{z, title={Quantum Tagging with Statistical Oracles}, author={Nobody, Ann}, "
                        r"year={2021}, journal={Journal of Imaginary Results}}")
        # the local base is not a registry: a work it lacks is absent, not a suspect
        assert verify_entry(made_up, [authority]).status == "absent"


def _authorities(server: ScholarlyServer, tmp_path: Path, status: OnlineStatus) -> list[object]:
    def http():  # type: ignore[no-untyped-def]
        return make_fast_http(tmp_path / "cache", status=status)

    return [
        CrossrefAuthority(CrossrefClient(http(), base_url=server.base_url("crossref")), status),
        ArxivAuthority(ArxivClient(http(), base_url=server.base_url("arxiv")), status),
        OpenAlexAuthority(OpenAlexClient(http(), base_url=server.base_url("openalex")), status),
        DblpAuthority(DblpClient(http(), base_url=server.base_url("dblp")), status),
    ]


def test_crossref_verifies_by_doi(scholarly_server: ScholarlyServer, tmp_path: Path) -> None:
    authorities = _authorities(scholarly_server, tmp_path, OnlineStatus())
    verdict = verify_entry(entry(PUBLISHED), authorities)  # type: ignore[arg-type]
    assert verdict.status == "verified"
    assert verdict.evidence[0].source == "crossref" and verdict.checked == ("crossref",)


def test_arxiv_preprint_points_to_the_published_version(scholarly_server: ScholarlyServer, tmp_path: Path) -> None:
    status = OnlineStatus()
    crossref, arxiv, *_ = _authorities(scholarly_server, tmp_path, status)
    # Crossref knows the arXiv DOI and links the published version
    verdict = verify_entry(entry(PREPRINT), [crossref])  # type: ignore[list-item]
    assert verdict.status == "preprint"
    assert verdict.corrected_fields["doi"] == "10.18653/v1/n19-1423"
    assert verdict.corrected_fields["@type"] == "inproceedings"
    assert verdict.corrected_fields["pages"] == "4171--4186"
    # the arXiv API alone gives the published DOI the authors declared
    only_arxiv = verify_entry(entry(PREPRINT), [arxiv])  # type: ignore[list-item]
    assert only_arxiv.status == "preprint" and only_arxiv.corrected_fields == {"doi": "10.18653/v1/n19-1423"}


def test_title_search_through_openalex_and_dblp(scholarly_server: ScholarlyServer, tmp_path: Path) -> None:
    _, _, openalex, dblp = _authorities(scholarly_server, tmp_path, OnlineStatus())
    no_doi = entry(r"""@inproceedings{d, title={{BERT}: Pre-Training of Deep Bidirectional Transformers for
      Language Understanding}, author={Devlin, J. and Chang, M.-W. and Lee, K. and Toutanova, K.},
      booktitle={NAACL-HLT}, year={2019}}""")
    for authority in (openalex, dblp):
        verdict = verify_entry(no_doi, [authority])  # type: ignore[list-item]
        assert verdict.status == "verified", (authority, verdict)
        assert verdict.evidence[0].doi == "10.18653/v1/n19-1423"
    fabricated = entry(r"""@inproceedings{f, title={A Completely Invented Paper Title About Quantum Tagging},
      author={Nobody, Ann}, booktitle={ACL}, year={2021}}""")
    assert verify_entry(fabricated, [openalex, dblp]).status == "not_found"  # type: ignore[list-item]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_offline_sources_leave_entries_unchecked_and_say_so_once(tmp_path: Path) -> None:
    notices: list[str] = []
    status = OnlineStatus(notify=notices.append)
    dead = f"http://127.0.0.1:{_closed_port()}"
    authorities = online_authorities(
        tmp_path / "cache", timeout=0.5, status=status, max_retries=1,
        base_urls={name: dead for name in ("crossref", "arxiv", "openalex", "dblp")},
    )
    for text in (PUBLISHED, PREPRINT, PUBLISHED):
        verdict = verify_entry(entry(text), authorities)
        assert verdict.status == "unchecked"
    assert sorted(notices) == sorted(f"relatex: {name} is offline ({status.offline[name]}); continuing without it"
                                     for name in ("crossref", "arxiv", "openalex", "dblp"))
    with pytest.raises(AuthorityUnavailable):
        authorities[0].by_doi("10.1/x")


def test_online_authorities_from_settings(tmp_path: Path) -> None:
    from relatex.config.settings import load_settings

    settings, _ = load_settings({"online": {"enabled": True, "cacheDir": str(tmp_path), "timeout": 2.5,
                                            "mailto": "me@example.org"}})
    authorities = online_authorities(settings)
    assert [a.name for a in authorities][:4] == ["crossref", "arxiv", "openalex", "dblp"]
    crossref = authorities[0]
    assert isinstance(crossref, CrossrefAuthority)
    assert crossref.client.http.cache_dir == tmp_path / "http" and crossref.client.http.timeout == 2.5
    assert crossref.client.mailto == "me@example.org"
