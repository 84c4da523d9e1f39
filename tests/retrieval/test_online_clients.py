"""Each online client parses its API's recorded responses into exact PaperRecords."""

from __future__ import annotations

from relatex.retrieval.online.arxiv import ArxivClient
from relatex.retrieval.online.crossref import CrossrefClient, published_version_doi
from relatex.retrieval.online.dblp import DblpClient
from relatex.retrieval.online.http import ScholarlyHttp
from relatex.retrieval.online.openalex import OpenAlexClient, rebuild_abstract
from relatex.retrieval.online.semantic_scholar import SemanticScholarClient
from tests.fakes import fast_http_fixture, scholarly_server_fixture  # noqa: F401  (pytest fixtures)
from tests.fakes.scholarly_server import ScholarlyServer

BERT_TITLE = "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"
BERT_AUTHORS = ("Devlin, Jacob", "Chang, Ming-Wei", "Lee, Kenton", "Toutanova, Kristina")


def test_openalex_work_by_doi_rebuilds_abstract_and_references(
    scholarly_server: ScholarlyServer, fast_http: ScholarlyHttp
) -> None:
    client = OpenAlexClient(fast_http, base_url=scholarly_server.base_url("openalex"), mailto="me@example.org")
    record = client.work("10.18653/v1/N19-1423")
    assert record is not None
    assert record.id == "doi:10.18653/v1/n19-1423"
    assert record.title == BERT_TITLE
    assert record.authors == BERT_AUTHORS
    assert record.year == 2019
    assert record.arxiv_id == "1810.04805"
    assert record.venue is not None and record.venue.startswith("Proceedings of the 2019 Conference of the North")
    assert record.abstract is not None and record.abstract.startswith("We introduce a new language representation")
    assert record.references == ("openalex:W2626778328", "openalex:W2962739339")
    assert record.bibtex_type == "inproceedings"
    assert record.bibtex_fields["pages"] == "4171--4186"
    assert record.citation_count == 68123
    (request,) = scholarly_server.requests("/openalex/works/doi:10.18653/v1/n19-1423")
    assert request.query["mailto"] == ["me@example.org"]
    assert "relatex" in request.headers["User-Agent"]


def test_openalex_references_cited_by_and_title_search(
    scholarly_server: ScholarlyServer, fast_http: ScholarlyHttp
) -> None:
    client = OpenAlexClient(fast_http, base_url=scholarly_server.base_url("openalex"))
    refs = client.references("W2963341956")
    assert [r.title for r in refs] == ["Attention Is All You Need", "Deep Contextualized Word Representations"]
    assert refs[0].id == "arxiv:1706.03762"  # no DOI: the arXiv id names it
    assert refs[0].authors[6] == "Kaiser, Łukasz"
    assert refs[1].id == "doi:10.18653/v1/n18-1202"
    citing = client.cited_by("https://openalex.org/W2963341956", limit=5)
    assert [r.id for r in citing] == ["doi:10.48550/arxiv.1907.11692"]
    assert citing[0].arxiv_id == "1907.11692" and citing[0].bibtex_type == "misc"
    assert [r.id for r in client.search_title(BERT_TITLE, limit=3)] == ["doi:10.18653/v1/n19-1423"]
    assert client.search_title("A title nobody wrote", limit=3) == []
    assert client.work("W1") is None  # 404 -> None


def test_rebuild_abstract_orders_positions() -> None:
    assert rebuild_abstract({"world": [1], "hello": [0, 2]}) == "hello world hello"
    assert rebuild_abstract(None) is None


def test_semantic_scholar_paper_references_citations_search(
    scholarly_server: ScholarlyServer, fast_http: ScholarlyHttp
) -> None:
    client = SemanticScholarClient(fast_http, base_url=scholarly_server.base_url("semantic_scholar"), api_key="k123")
    paper = client.paper("arxiv:1810.04805")
    assert paper is not None
    assert paper.id == "doi:10.18653/v1/n19-1423"
    assert paper.authors == BERT_AUTHORS
    assert paper.venue == "North American Chapter of the Association for Computational Linguistics"
    assert paper.references == ("arxiv:1706.03762", "doi:10.18653/v1/n18-1202")
    assert paper.bibtex_fields["pages"] == "4171--4186"
    assert scholarly_server.requests()[-1].headers["x-api-key"] == "k123"
    refs = client.references("df2b0e26d0599ce3e70df8a9da02e51594e0e992")
    assert [r.id for r in refs] == ["arxiv:1706.03762", "doi:10.18653/v1/n18-1202", "s2:"]
    assert refs[0].authors[1] == "Shazeer, Noam M."
    cites = client.citations("ARXIV:1810.04805", limit=10)
    assert [(c.id, c.year) for c in cites] == [("arxiv:1907.11692", 2019)]
    found = client.search_title(BERT_TITLE, limit=5)
    assert [r.id for r in found] == ["doi:10.18653/v1/n19-1423", "arxiv:1907.11692"]
    assert client.search_title("Nothing matches this", limit=5) == []
    assert client.paper("doi:10.9999/none") is None


def test_crossref_work_and_search(scholarly_server: ScholarlyServer, fast_http: ScholarlyHttp) -> None:
    client = CrossrefClient(fast_http, base_url=scholarly_server.base_url("crossref"), mailto="me@example.org")
    work = client.work("https://doi.org/10.18653/v1/N19-1423")
    assert work is not None
    assert (work.id, work.title, work.authors, work.year) == (
        "doi:10.18653/v1/n19-1423", BERT_TITLE, BERT_AUTHORS, 2019,
    )
    assert work.venue is not None and work.venue.endswith("Volume 1 (Long and Short Papers)")
    assert work.bibtex_type == "inproceedings"
    assert work.bibtex_fields["pages"] == "4171--4186"
    assert work.bibtex_fields["publisher"] == "Association for Computational Linguistics"
    assert work.references == ("doi:10.18653/v1/n18-1202",)
    resnet = client.work("10.1109/CVPR.2016.90")
    assert resnet is not None and resnet.abstract is not None
    assert resnet.abstract.startswith("Deeper neural networks are more difficult to train.")
    assert "<jats" not in resnet.abstract
    preprint = client.work_message("10.48550/arXiv.1810.04805")
    assert preprint is not None and published_version_doi(preprint) == "10.18653/v1/n19-1423"
    hits = client.search_title(BERT_TITLE, author="Devlin", limit=5)
    assert [h.id for h in hits] == ["doi:10.18653/v1/n19-1423", "doi:10.48550/arxiv.1810.04805"]
    assert hits[1].arxiv_id == "1810.04805" and hits[1].bibtex_type == "misc"
    last = scholarly_server.requests("/crossref/works")[-1]
    assert last.query["query.author"] == ["Devlin"] and last.query["rows"] == ["5"]
    assert client.work("10.1000/does-not-exist") is None


def test_arxiv_paper_and_search(scholarly_server: ScholarlyServer, fast_http: ScholarlyHttp) -> None:
    client = ArxivClient(fast_http, base_url=scholarly_server.base_url("arxiv"))
    entry = client.entry("arXiv:1810.04805v2")
    assert entry is not None
    record = entry.record
    assert record.id == "arxiv:1810.04805"
    assert record.title == BERT_TITLE  # the feed's line break is collapsed
    assert record.authors == BERT_AUTHORS
    assert record.year == 2018
    assert record.bibtex_fields["primaryclass"] == "cs.CL"
    assert entry.published_doi == "10.18653/v1/n19-1423"
    assert entry.journal_ref == "NAACL-HLT 2019, pages 4171-4186"
    attention = client.paper("https://arxiv.org/abs/1706.03762")
    assert attention is not None and attention.authors[0] == "Vaswani, Ashish"
    assert client.paper("9999.99999") is None  # arXiv's error entry is not a paper
    assert [r.id for r in client.search_title("Attention Is All You Need")] == ["arxiv:1706.03762"]
    assert client.search_title("Completely unknown words here") == []


def test_dblp_search(scholarly_server: ScholarlyServer, fast_http: ScholarlyHttp) -> None:
    client = DblpClient(fast_http, base_url=scholarly_server.base_url("dblp"))
    hits = client.search_title(BERT_TITLE, limit=5)
    assert [h.id for h in hits] == ["doi:10.18653/v1/n19-1423", "arxiv:1810.04805"]
    assert hits[0].title == BERT_TITLE  # DBLP's trailing period removed
    assert hits[0].authors == BERT_AUTHORS  # homonym number "0001" dropped
    assert (hits[0].venue, hits[0].year, hits[0].bibtex_type) == ("NAACL-HLT (1)", 2019, "inproceedings")
    assert hits[1].bibtex_type == "misc" and hits[1].venue == "CoRR"
    (tnt,) = client.search_title("TnT - A Statistical Part-of-Speech Tagger")
    assert tnt.authors == ("Brants, Thorsten",)  # a single author is a dict, not a list
    assert tnt.doi == "10.3115/974147.974178" and tnt.bibtex_fields["pages"] == "224--231"
    assert client.search_title("A Completely Invented Paper Title") == []


def test_names_become_last_first() -> None:
    from relatex.retrieval.online.common import last_first

    assert [last_first(n) for n in ("Martin Luther King Jr.", "Ludwig van Beethoven", "Wei Li 0001", "Plato",
                                    "Le, Quoc V.")] == [
        "King, Jr., Martin Luther", "van Beethoven, Ludwig", "Li, Wei", "Plato", "Le, Quoc V."]
