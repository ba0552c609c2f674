"""OpenAlex and arXiv: importing their files, asking them online (recorded answers), politeness, offline."""

import json

import httpx
import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.config.settings import NetworkSettings
from scholar_tui.core.library.arxiv import ArxivFeedError, parse_feed
from scholar_tui.core.library.importer import LibraryImportError, run_import
from scholar_tui.core.library.online import (
    ArxivClient,
    OfflineError,
    OnlineSources,
    PoliteClient,
    SourceError,
)

from .library_support import arxiv_handler, fixture_path, openalex_handler, recording


def test_openalex_works_merge_with_the_library_and_link_references(imported):
    before = imported.counts()
    page = run_import("openalex", fixture_path("openalex", "works_search_page.json"), imported)
    # W9000000001 is 2212.11867 (its arXiv DOI and landing page say so): merged, not added
    assert page.records == 2 and page.added["papers"] == 1
    paper_id = imported.resolve_paper("2212.11867")
    assert imported.resolve_paper("W9000000001") == paper_id
    paper = imported.paper(paper_id)
    assert paper["openalex_id"] == "W9000000001" and paper["cited_by_count"] == 3 and paper["doi"] is None
    # the bibliography entry [1] names W4225968159, now in the library: a citation edge
    alazard = imported.resolve_paper("W4225968159")
    reference = next(r for r in imported.references(paper_id) if r["ordinal"] == 1)
    assert reference["cited_paper_id"] == alazard and imported.cited_by(alazard) == [paper_id]
    # the OpenAlex authors were recognised as the library's authors, and taught their ids
    michelen = imported.person(imported.resolve_person("A9000000001"))
    assert michelen["name"] == "Marcus Michelen" and michelen["organization"] == "University of Illinois Chicago"
    assert imported.counts()["people"] == before["people"] + 3  # only Alazard's three coauthors are new
    snapshot = run_import("openalex", fixture_path("openalex", "works_snapshot.jsonl"), imported)
    assert snapshot.added["papers"] == 2 and snapshot.new_citations == 3  # [2], [3] of 2212.11867; Hoskins -> Alazard
    again = run_import("openalex", fixture_path("openalex", "works_search_page.json"), imported)
    assert set(again.added.values()) == {0}


def test_openalex_authors_snapshot_fills_profiles(imported):
    run_import("openalex", fixture_path("openalex", "authors_snapshot.jsonl"), imported)
    michelen = imported.person(imported.resolve_person("A9000000001"))
    assert michelen["interests"] == ["Random Matrices and Applications", "Combinatorial Probability"]
    assert michelen["works_count"] == 42 and michelen["cited_by_count"] == 517
    assert michelen["organizations"] == ["University of Illinois Chicago", "University of Pennsylvania"]
    assert "M. Michelen" in michelen["names"]
    vu = imported.person(imported.resolve_person("A9000000002"))
    assert vu["organization"] == "University of Illinois Chicago"  # the older last_known_institution field


def test_openalex_bad_files_name_the_problem(empty_library, tmp_path):
    page = fixture_path("openalex", "works_search_page.json").read_text()
    cut = tmp_path / "page.json"
    cut.write_text(page[: len(page) // 2])
    with pytest.raises(LibraryImportError, match=r"page.json line \d+: not valid JSON"):
        run_import("openalex", cut, empty_library)
    odd = tmp_path / "odd.jsonl"
    odd.write_text(
        '{"id": "https://openalex.org/W1", "title": "Fine"}\n{"id": "https://openalex.org/I5", "display_name": "x"}\n'
    )
    with pytest.raises(LibraryImportError, match="odd.jsonl line 2: not an OpenAlex work or author"):
        run_import("openalex", odd, empty_library)
    assert empty_library.counts()["papers"] == 0


def test_arxiv_atom_feed_is_parsed():
    records, total = parse_feed(fixture_path("arxiv", "search_feed.xml").read_bytes())
    assert total == 3 and [r.arxiv_id for r in records] == ["2212.11867", "2212.11765", "2212.11790"]
    first = records[0]
    assert first.title == "Zeros of a growing number of derivatives of random polynomials with independent roots"
    assert first.date == "2022-12-22" and first.categories == ["math.PR", "math.CA", "math.CV"]
    assert [(a.name, a.affiliation) for a in first.authors] == [
        ("Marcus Michelen", "University of Illinois Chicago"),
        ("Xuan-Truong Vu", None),
    ]
    assert records[1].date == "2022-11-13" and records[1].venue == "arXiv"
    with pytest.raises(ArxivFeedError, match="incorrect id format for 1234.12345"):
        parse_feed(fixture_path("arxiv", "error_feed.xml").read_bytes())
    with pytest.raises(ArxivFeedError) as caught:
        parse_feed(b"<?xml version='1.0'?>\n<feed xmlns='http://www.w3.org/2005/Atom'>\n<entry>\n</feed>")
    assert caught.value.line == 4


def test_arxiv_names_recorded_double_encoded_are_read_as_written():
    # UTF-8 read as Latin-1 before the feed was saved ("GÃ¶tz"), as the shared 2026 arXiv feed holds them:
    # no one can find "Katharina Götz" by her name otherwise; right text is left as it is
    feed = (
        "<?xml version='1.0' encoding='UTF-8'?>\n<feed xmlns='http://www.w3.org/2005/Atom'><entry>"
        "<id>http://arxiv.org/abs/2202.06271v1</id><title>Model-based Testing of Scratch Programs</title>"
        "<published>2022-02-13T00:00:00Z</published><summary>Tests.</summary>"
        "<author><name>Katharina G\u00c3\u00b6tz</name></author><author><name>Jos\u00c3\u00a9 Ra\u00c3\u00bal Romero</name></author>"
        "<author><name>J\u00f6rg Keller</name></author></entry></feed>"
    ).encode("utf-8")
    records, _ = parse_feed(feed)
    assert [a.name for a in records[0].authors] == ["Katharina Götz", "José Raúl Romero", "Jörg Keller"]


def test_a_double_encoded_character_whose_second_byte_reads_as_a_control_is_read_back():
    # "ß" is UTF-8 C3 9F: read as Latin-1, "Ã" and the C1 control U+009F (the shared 2026 feed's "Oliver
    # Weißl", "Florian Kroiß"); cleaning the controls first lost that byte ("Oliver WeiÃl")
    feed = (
        "<?xml version='1.0' encoding='UTF-8'?>\n<feed xmlns='http://www.w3.org/2005/Atom'><entry>"
        "<id>http://arxiv.org/abs/2601.00001v1</id><title>Flaky tests \u00e2\u0080\u0093 a study</title>"
        "<published>2026-01-02T00:00:00Z</published><summary>Tests.</summary>"
        "<author><name>Oliver Wei\u00c3\u009fl</name></author></entry></feed>"
    ).encode("utf-8")
    records, _ = parse_feed(feed)
    assert [a.name for a in records[0].authors] == ["Oliver Weißl"]
    assert records[0].title == "Flaky tests – a study"  # the en dash's second byte (0x80) is a C1 control too


def test_arxiv_import_into_an_empty_library(empty_library):
    fresh = run_import("arxiv", fixture_path("arxiv", "search_feed.xml"), empty_library)
    authors = fixture_path("arxiv", "search_feed.xml").read_text().count("<author>")
    assert fresh.added["papers"] == 3 and fresh.added["people"] == fresh.added["authorships"] == authors == 12
    assert set(run_import("arxiv", fixture_path("arxiv", "search_feed.xml"), empty_library).added.values()) == {0}


def test_arxiv_import_merges_and_learns_affiliations(imported):
    merged = run_import("arxiv", fixture_path("arxiv", "search_feed.xml"), imported)
    assert merged.added["papers"] == 0 and merged.added["people"] == 0
    assert imported.person(imported.resolve_person("1"))["organization"] == "University of Illinois Chicago"


def test_online_search_with_a_date_cutoff_is_cached(empty_library):
    transport, seen = recording(
        lambda request: arxiv_handler(request) if "arxiv" in request.url.host else openalex_handler(request)
    )
    sources = OnlineSources(
        empty_library, NetworkSettings(contact_email="lab@example.org"), transport=transport, backoff_s=0
    )
    ids = sources.search_arxiv("random polynomials", before="2022-12-01")
    query = seen[-1].url.params["search_query"]
    assert query == "(all:random AND all:polynomials) AND submittedDate:[199101010000 TO 202211302359]"
    # the answer's 2212.11867 (2022-12-22) is not before the cut-off: dropped even if the source sent it
    assert sorted(empty_library.paper(i)["arxiv_id"] for i in ids) == ["2212.11765", "2212.11790"]
    sources.search_openalex("random polynomials", before="2022-12-01")
    assert seen[-1].url.params["filter"] == "to_publication_date:2022-11-30"
    assert seen[-1].url.params["mailto"] == "lab@example.org"
    paper_id = empty_library.resolve_paper("W9000000001")
    cited = sources.fetch_references(paper_id)
    assert len(cited) == 3
    assert empty_library._one("select count(*) from citations where citing_paper_id = ?", (paper_id,)) == 3
    citing = sources.fetch_cited_by(paper_id)
    assert empty_library.cited_by(paper_id) == citing


def test_polite_client_backs_off_on_429_and_5xx():
    answers = [
        httpx.Response(429, headers={"Retry-After": "2"}),
        httpx.Response(503),
        httpx.Response(200, json={"ok": 1}),
    ]
    transport, seen = recording(lambda request: answers.pop(0))
    slept = []

    def sleep(seconds):
        slept.append(seconds)

    client = PoliteClient(NetworkSettings(), transport=transport, backoff_s=0.5, sleep=sleep)
    assert client.get_json("https://api.openalex.org/works") == {"ok": 1}
    assert slept == [2.0, 1.0] and len(seen) == 3  # Retry-After honoured, then 0.5 * 2**1
    always = PoliteClient(
        NetworkSettings(), transport=httpx.MockTransport(lambda r: httpx.Response(500)), backoff_s=0.5, sleep=sleep
    )
    with pytest.raises(SourceError, match="answered 500 after 4 tries"):
        always.get("https://api.openalex.org/works")


def test_offline_is_one_clear_message_and_no_retries():
    calls = []

    def unreachable(request):
        calls.append(request)
        raise httpx.ConnectError("[Errno -3] Temporary failure in name resolution", request=request)

    client = PoliteClient(NetworkSettings(), transport=httpx.MockTransport(unreachable))
    with pytest.raises(OfflineError) as caught:
        client.get("https://export.arxiv.org/api/query")
    assert len(calls) == 1 and str(caught.value) == (
        "cannot reach export.arxiv.org (ConnectError): working offline; import files instead; the local library still answers"
    )
    switched_off = PoliteClient(NetworkSettings(offline=True), transport=httpx.MockTransport(unreachable))
    with pytest.raises(OfflineError, match="network.offline is set"):
        ArxivClient(switched_off).search("anything")
    assert len(calls) == 1


def test_cli_online_when_offline_then_local_still_works(imported, monkeypatch):
    monkeypatch.setenv("SCHOLAR_TUI_NETWORK__OFFLINE", "1")
    runner = CliRunner()
    result = runner.invoke(cli, ["library", "online", "search", "openalex", "random polynomials"])
    assert result.exit_code == 1
    assert result.output.strip() == (
        "Error: offline (network.offline is set): api.openalex.org is not asked; "
        "import files instead; the local library still answers"
    )
    result = runner.invoke(cli, ["api", "searchPerson", "--name", "Michelen", "--backend", "openalex"])
    assert result.exit_code == 1 and result.output.startswith("Error: E_OFFLINE:")
    result = runner.invoke(cli, ["api", "searchPerson", "--name", "Michelen"])
    assert json.loads(result.output)[0]["name"] == "Marcus Michelen"
