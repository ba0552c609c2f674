"""Issue 17, items 5-16: hostile and broken input ends in one line (or the right figure), never a
traceback, a lie or a wedge. Each test drives the real command (CliRunner) or the real function."""

from __future__ import annotations

import json
import socket
import threading
import time
import tracemalloc

import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.library.importer import READERS, LibraryImportError, import_file, run_import
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.records import AuthorRecord, PaperRecord

from .library_support import HashingEmbedder, fixture_path

NESTED = "[" * 100_000 + "]" * 100_000
EVIL_TITLE = "Evil \033]0;PWNED\007\033[2J title"


def one_line_failure(result) -> str:
    """The command failed with exit 1 and one 'Error:' line, no traceback; returns that line."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, result.output
    return errors[0]


def no_embedder(*args, **kwargs):
    raise AssertionError("the embedder was loaded for input that should have been refused")


# -- 5. deeply nested JSON -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "command, name",
    [
        (["import", "unarxive"], "f.jsonl"),
        (["import", "openalex"], "f.json"),
        (["conf", "import"], "f.json"),
    ],
)
def test_deeply_nested_json_is_one_line(where, tmp_path, monkeypatch, command, name):
    monkeypatch.setattr("scholar_tui.models.load_embedder", no_embedder)
    path = tmp_path / name
    path.write_text(NESTED + "\n")
    line = one_line_failure(
        CliRunner().invoke(cli, [*command, str(path), *(["--no-index"] if command[0] == "import" else [])])
    )
    assert name in line and "nested too deeply" in line


# -- 6. fields of the wrong type ---------------------------------------------------------------------
UNARXIVE_TITLE_NUMBER = {"paper_id": "2212.00001", "metadata": {"title": 5}, "body_text": []}
UNARXIVE_VERSIONS_DICT = {
    "paper_id": "2212.00001",
    "metadata": {"title": "A title", "versions": {"v1": 1}},
    "body_text": [],
}


@pytest.mark.parametrize(
    "kind, name, content, expected",
    [
        (
            "openalex",
            "bad.json",
            '{"results": [{"id": 123, "title": null}]}',
            "bad.json results[0]: not an OpenAlex work or author: field id: expected a string, found integer",
        ),
        (
            "unarxive",
            "title.jsonl",
            json.dumps(UNARXIVE_TITLE_NUMBER),
            "title.jsonl line 1: not an unarXive paper: field metadata.title: expected a string, found integer",
        ),
        (
            "unarxive",
            "versions.jsonl",
            json.dumps(UNARXIVE_VERSIONS_DICT),
            "versions.jsonl line 1: not an unarXive paper: field metadata.versions: expected a list, found object",
        ),
        (
            "openalex",
            "authors.jsonl",
            '{"id": "https://openalex.org/A1", "display_name": "X", "affiliations": [{"years": "2020"}]}',
            "authors.jsonl line 1: not an OpenAlex work or author: field affiliations[0].years: expected a list, found string",
        ),
        (
            "openalex",
            "works.json",
            '[{"id": "https://openalex.org/W1", "title": "T", "authorships": [{"author": []}]}]',
            "works.json object 1: not an OpenAlex work or author: field authorships[0].author: expected an object, found list",
        ),
    ],
)
def test_a_field_of_the_wrong_type_names_file_place_and_field(where, tmp_path, kind, name, content, expected):
    path = tmp_path / name
    path.write_text(content + "\n")
    line = one_line_failure(CliRunner().invoke(cli, ["import", kind, str(path), "--no-index"]))
    assert expected in line and "the library is unchanged" in line


MIXED = [
    {"id": "https://openalex.org/W1", "title": "Good one"},
    {"id": 5, "title": "bad"},
    {"id": "https://openalex.org/W2", "title": "Bad year", "publication_year": "2020"},
    {"id": "https://openalex.org/W3", "title": "Good three"},
]


def test_malformed_records_stop_the_import_or_with_skip_bad_are_left_out_and_counted(where, tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(item) + "\n" for item in MIXED))
    runner = CliRunner()
    line = one_line_failure(runner.invoke(cli, ["import", "openalex", str(path), "--no-index"]))
    assert "mixed.jsonl line 2: not an OpenAlex work or author: field id" in line
    result = runner.invoke(cli, ["import", "openalex", str(path), "--no-index", "--skip-bad", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["added"]["papers"] == 2 and summary["records"] == 2
    assert summary["skipped"] == [
        "mixed.jsonl line 2: not an OpenAlex work or author: field id: expected a string, found integer",
        "mixed.jsonl line 3: not an OpenAlex work or author: field publication_year: expected an integer, found string",
    ]
    library = Library.open(where)
    assert library.recent_imports()[0]["summary"]["skipped_records"] == 2
    library.close()
    only_bad = tmp_path / "bad.jsonl"
    only_bad.write_text(json.dumps(MIXED[1]) + "\n")
    line = one_line_failure(runner.invoke(cli, ["import", "openalex", str(only_bad), "--no-index", "--skip-bad"]))
    assert "all 1 records were malformed" in line


def test_the_arxiv_entry_schema_names_the_entry_and_field(where, tmp_path):
    feed = fixture_path("arxiv", "search_feed.xml").read_text()
    broken = tmp_path / "feed.xml"
    broken.write_text(feed.replace("<published>2022-12-22", "<published>sometime", 1))
    line = one_line_failure(CliRunner().invoke(cli, ["import", "arxiv", str(broken), "--no-index"]))
    assert "feed.xml: entry 1: entry 2212.11867: field published: expected an ISO date, found 'sometime" in line


# -- 7. zero records from a file --------------------------------------------------------------------
@pytest.mark.parametrize(
    "kind, name, content",
    [
        ("bibtex", "lines.bib", b'{"paper_id": "2212.00001"}\n{"paper_id": "2212.00002"}\n'),
        ("bibtex", "nul.bib", b"a\x00b\x00c" * 100),
        ("bibtex", "empty.bib", b""),
        ("unarxive", "empty.jsonl", b""),
        ("unarxive", "blank.jsonl", b"\n\n  \n"),
        ("openalex", "empty.json", b"[]"),
    ],
)
def test_zero_records_is_an_error_and_logs_no_import(where, tmp_path, kind, name, content):
    path = tmp_path / name
    path.write_bytes(content)
    line = one_line_failure(CliRunner().invoke(cli, ["import", kind, str(path), "--no-index"]))
    assert name in line and ("no " in line or "empty" in line)
    library = Library.open(where)
    assert library.recent_imports() == [] and library.counts()["papers"] == 0
    library.close()


# -- 8. conf import refuses what is not a conference tree ----------------------------------------------
@pytest.mark.parametrize(
    "name, content, expected",
    [
        ("string.json", b'"just a string"', "expected a JSON object of pages and headings, found a string"),
        ("list.json", b"[1, 2, 3]", "expected a JSON object of pages and headings, found a list"),
        ("random.html", bytes(range(256)) * 40, "not an HTML page"),
    ],
)
def test_conf_import_refuses_non_trees_before_loading_the_embedder(
    where, tmp_path, monkeypatch, name, content, expected
):
    monkeypatch.setattr("scholar_tui.models.load_embedder", no_embedder)
    path = tmp_path / name
    path.write_bytes(content)
    started = time.monotonic()
    line = one_line_failure(CliRunner().invoke(cli, ["conf", "import", str(path)]))
    assert expected in line and time.monotonic() - started < 5


# -- 9. a big OpenAlex list is streamed ----------------------------------------------------------------
def _work(number: int) -> dict:
    return {
        "id": f"https://openalex.org/W{number}",
        "title": f"Work number {number} " + "x" * 400,
        "publication_year": 2020,
        "authorships": [{"author": {"display_name": f"Author {number}"}}],
    }


def test_an_openalex_list_is_read_a_record_at_a_time(tmp_path):
    page = tmp_path / "big.json"
    with page.open("w") as handle:
        handle.write('{"meta": {"count": 30000}, "results": [')
        handle.write(",".join(json.dumps(_work(number)) for number in range(1, 30_001)))
        handle.write('], "group_by": []}')
    size = page.stat().st_size
    assert size > 14_000_000
    tracemalloc.start()
    count = sum(len(records) for _, _, records in READERS["openalex"](page))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert count == 30_000
    # one read chunk (1 MB) as bytes and text, and one record; reading it whole takes twice the file
    assert peak < 8_000_000, f"peak {peak / 1e6:.1f} MB for a {size / 1e6:.1f} MB file: the document was read whole"


def test_streamed_pages_equal_whole_reads_at_any_chunk_size(tmp_path, monkeypatch):
    import scholar_tui.core.library.json_stream as json_stream

    monkeypatch.setattr(json_stream, "CHUNK", 7)  # every value crosses chunk boundaries
    for name in ("works_search_page.json", "authors_search_michelen.json", "work_W9000000001.json"):
        records = [record for _, _, batch in READERS["openalex"](fixture_path("openalex", name)) for record in batch]
        document = json.loads(fixture_path("openalex", name).read_text())
        expected = document["results"] if "results" in document else [document]
        assert [record.openalex_id for record in records] == [item["id"].rsplit("/", 1)[-1] for item in expected]
    cut = tmp_path / "cut.json"
    cut.write_text(fixture_path("openalex", "works_search_page.json").read_text()[:3000])
    with pytest.raises(LibraryImportError, match=r"cut.json line \d+: not valid JSON"):
        list(READERS["openalex"](cut))


# -- 10. and 11. two imports at once -------------------------------------------------------------------
def _bib(path, *titles: str):
    path.write_text(
        "\n".join(
            f"@article{{k{index}, title = {{{title}}}, author = {{Doe, Jane}}, year = 2020}}"
            for index, title in enumerate(titles)
        )
    )
    return path


def test_the_added_count_is_taken_under_the_write_lock(where, tmp_path):
    both = _bib(tmp_path / "both.bib", "A first paper about sparse graphs", "A second paper about dense graphs")
    holder, importer = Library.open(where), Library.open(where)
    results: list = []
    with holder.transaction():
        holder.store_paper(
            PaperRecord(
                title="A first paper about sparse graphs",
                source="bibtex",
                year=2020,
                authors=[AuthorRecord("Jane Doe")],
            )
        )
        worker = threading.Thread(target=lambda: results.append(run_import("bibtex", both, importer)))
        worker.start()
        time.sleep(0.5)  # the import now waits for the lock this transaction holds
    worker.join(30)
    assert results and results[0].added["papers"] == 1  # only the second paper is new
    assert importer.recent_imports()[0]["summary"]["papers"] == 1
    holder.close(), importer.close()


def test_connections_opening_a_new_database_at_once_all_open_it(tmp_path):
    """Two imports into a fresh home: both switched the new file to WAL and ran its migrations at once;
    one failed with "database is locked" or "table papers already exists" (12 of 40 processes)."""
    from concurrent.futures import ThreadPoolExecutor

    from scholar_tui.config.locations import Locations
    from scholar_tui.indexes.db import open_database

    def open_and_close(where: Locations) -> str:
        try:
            open_database(where).conn.close()
            return "ok"
        except Exception as error:
            return f"{type(error).__name__}: {error}"

    outcomes = []
    for attempt in range(4):
        home = tmp_path / str(attempt)
        where = Locations(home, home / "data", home / "cache", home / "logs")
        with ThreadPoolExecutor(4) as pool:
            outcomes += list(pool.map(open_and_close, [where] * 4))
    assert outcomes == ["ok"] * 16, sorted(set(outcomes))


def test_waiting_too_long_for_the_write_lock_is_one_line(where, tmp_path, monkeypatch):
    import scholar_tui.indexes.db as db

    monkeypatch.setattr(db, "LOCK_WAIT_S", 0.3)
    holder = Library.open(where)
    holder.conn.execute("begin immediate")
    try:
        line = one_line_failure(
            CliRunner().invoke(cli, ["import", "bibtex", str(_bib(tmp_path / "one.bib", "A paper")), "--no-index"])
        )
    finally:
        holder.conn.execute("rollback")
    assert "another import" in line and "try again" in line
    assert holder.recent_imports() == []
    holder.close()


# -- 12. huge integer ids -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command, expected",
    [
        (["api", "getPublication", "--pub-id", "paper:99999999999999999999999"], "E_NOT_FOUND"),
        (["api", "getCoauthors", "--person-id", "99999999999999999999999"], "E_NOT_FOUND"),
        (["library", "show", "paper:99999999999999999999999"], "no paper"),
        (["library", "show", "9" * 5000], "no paper"),
    ],
)
def test_huge_ids_are_not_found(where, command, expected):
    assert expected in one_line_failure(CliRunner().invoke(cli, command))


@pytest.mark.parametrize(
    "command",
    [
        ["logs", "--loop", "99999999999999999999"],
        ["logs", "--loop", "-99999999999999999999"],
        ["feedback", "send", "x = 1", "--loop", "99999999999999999999"],
    ],
)
def test_a_huge_loop_id_is_no_such_loop(where, command):
    assert "no AutoFeedback loop" in one_line_failure(CliRunner().invoke(cli, command))


def test_a_huge_loop_limit_lists_every_loop(where):
    from scholar_tui.indexes.autofeedback_log import FeedbackLog

    log = FeedbackLog(where)
    assert log.loops(limit=10**20) == [] and log.loops(limit=-(10**20)) == []
    result = CliRunner().invoke(cli, ["logs", "--limit", "99999999999999999999"])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output


# -- 13. an argument that is not UTF-8 -------------------------------------------------------------------
def test_search_with_bytes_that_are_not_utf8(where, monkeypatch):
    monkeypatch.setattr("scholar_tui.models.load_embedder", lambda settings: HashingEmbedder())
    _bib_path = where.data_dir / "one.bib"
    assert (
        CliRunner().invoke(cli, ["import", "bibtex", str(_bib(_bib_path, "Random matrices")), "--no-index"]).exit_code
        == 0
    )
    # Python hands a shell's $'\xff random' to the program as a lone surrogate.
    result = CliRunner().invoke(cli, ["library", "search", "\udcff random"])
    assert result.exit_code == 0, result.output
    assert "Random matrices" in result.output


# -- 14. terminal escapes in imported data -------------------------------------------------------------------
def test_control_characters_are_stripped_at_import_and_escaped_on_output(where, tmp_path):
    evil = tmp_path / "evil.bib"
    evil.write_text(f"@article{{x, title = {{{EVIL_TITLE}}}, author = {{Doe, J\033[31mane}}, year = 2020}}\n")
    runner = CliRunner()
    assert runner.invoke(cli, ["import", "bibtex", str(evil), "--no-index"]).exit_code == 0
    library = Library.open(where)
    assert library.paper(1)["title"] == "Evil title" and library.paper_author_names(1) == ["Jane Doe"]
    # a row written before import stripped them (or by another tool) is escaped on the way out
    library.conn.execute("update papers set abstract = ? where id = 1", (EVIL_TITLE,))
    library.conn.commit()
    library.close()
    for command in (
        ["library", "show", "paper:1"],
        ["library", "export-bibtex"],
        ["library", "show", "paper:1", "--json"],
    ):
        output = runner.invoke(cli, command).output
        assert "\033" not in output and "\007" not in output, command
    assert "\\x1b]0;PWNED\\x07" in runner.invoke(cli, ["library", "show", "paper:1"]).output


@pytest.mark.parametrize(
    "command",
    [
        ["library", "search", "anything", "--collection", "Biology\033[2J"],
        ["search", "anything", "--offline", "--collection", "Biology\033[2J"],
    ],
)
def test_a_wrong_collection_lists_stored_names_escaped(where, command):
    """The message names the collections there are, as stored (one written before import stripped
    control characters): core says it, the CLI shows it as outside text."""
    library = Library.open(where)
    with library.transaction():
        library.store_paper(PaperRecord(title="Plain title", source="bibtex"))
    library.conn.execute(
        "insert into collections (origin, key, path) values ('zotero:1/1', 'K', ?)", ("Evil \033]0;PWNED\007",)
    )
    library.conn.commit()
    library.close()
    line = one_line_failure(CliRunner().invoke(cli, command))
    assert "\033" not in line and "\007" not in line
    assert "no collection 'Biology\\x1b[2J'; collections: Evil \\x1b]0;PWNED\\x07" in line


async def test_the_library_tab_shows_markup_and_escapes_as_text(where, make_app):
    from textual.widgets import DataTable, Static

    library = Library.open(where)
    with library.transaction():
        library.store_paper(PaperRecord(title="Plain title", source="bibtex"))
    library.conn.execute("update papers set title = ?, abstract = ? where id = 1", ("[b]Bold?[/b] \033[2J", EVIL_TITLE))
    library.conn.commit()
    library.close()
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f5")
        await pilot.pause()
        results = app.query_one("#library-results", DataTable)
        title_cell = results.get_cell_at((0, 2))
        results.move_cursor(row=0)
        await pilot.pause()
        header = str(app.query_one("#paper-header", Static).render())
    assert "\033" not in header and "\\x1b]0;PWNED\\x07" in header
    assert header.splitlines()[0] == "[b]Bold?[/b] \\x1b[2J"  # as written: no tag read, nothing swallowed
    assert "\033" not in title_cell and "[b]Bold?" in title_cell


# -- 15. settings validated on set and on load ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "key, value, allowed",
    [
        ("embeddings.device", "quantum", "cpu, cuda, cuda:N or mps"),
        ("llm.temperature", "Infinity", "from 0.0 to 2.0"),
        ("network.timeout_s", "Infinity", "at most 600"),
        ("llm.n_ctx", "99999999999999999999", "from 256 to 1048576"),
        ("embeddings.n_gpu_layers", "all", "from -1 to 100000"),
        ("network.contact_email", "lab@example.org\r\nX-Injected: 1", "name@example.org"),
        ("network.probe_urls", '["file:///etc/passwd"]', "http:// or https://"),
        ("autofeedback.static_rounds", "1000000000", "from 0 to 20"),
    ],
)
def test_config_set_refuses_values_that_fail_later(where, key, value, allowed):
    line = one_line_failure(CliRunner().invoke(cli, ["config", "set", key, value]))
    assert key in line and "allowed: " in line and allowed in line
    assert not where.config_file.exists()


def test_a_bad_config_file_is_one_line_for_any_command(where):
    where.config_file.write_text("[llm]\ntemperature = inf\n")
    for command in (
        ["config", "show"],
        ["models", "list"],
        ["api", "getPublication", "--pub-id", "x", "--backend", "openalex"],
    ):
        line = one_line_failure(CliRunner().invoke(cli, command))
        assert "setting llm.temperature" in line and "allowed: a number from 0.0 to 2.0" in line


# -- 16. time limits on the network -------------------------------------------------------------------------------
@pytest.fixture
def silent_server():
    """A loopback port that accepts connections and never answers a byte."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join(2)
    for connection in held:
        connection.close()
    listener.close()


def _allow_hub(monkeypatch):
    import huggingface_hub.constants

    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)


def test_models_pull_gives_up_on_a_silent_hub_within_the_timeout(where, silent_server, monkeypatch):
    _allow_hub(monkeypatch)
    monkeypatch.setenv("SCHOLAR_TUI_NETWORK__TIMEOUT_S", "1")
    started = time.monotonic()
    line = one_line_failure(CliRunner().invoke(cli, ["models", "pull", "--endpoint", silent_server, "a/b", "m.gguf"]))
    assert time.monotonic() - started < 10  # 1 s of waiting, the rest is importing huggingface_hub; before: 399 s
    assert "did not answer within 1 s" in line and "network.timeout_s" in line


def test_models_pull_offline_fails_within_the_timeout(where, monkeypatch):
    from scholar_tui.models.pull import PullError, pull

    _allow_hub(monkeypatch)
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there: connection refused, as with no network
    started = time.monotonic()
    with pytest.raises(PullError, match="offline"):
        pull("a/b", "m.gguf", where, endpoint=f"http://127.0.0.1:{port}", timeout_s=1)
    assert time.monotonic() - started < 3


def test_an_online_lookup_against_a_silent_server_is_bounded_and_says_so_early(silent_server):
    from scholar_tui.config.settings import NetworkSettings
    from scholar_tui.core.library.online import OfflineError, PoliteClient

    notices: list[str] = []
    client = PoliteClient(NetworkSettings(timeout_s=1), backoff_s=0.2, notice=notices.append)
    started = time.monotonic()
    with pytest.raises(OfflineError, match=r"did not answer within 2 s \(2 tries"):
        client.get(f"{silent_server}/works")
    elapsed = time.monotonic() - started
    assert elapsed < 4, elapsed  # 2 s; before: 4 tries x 1 s + 0.2 + 0.4 + 0.8 s of back-off = 5.4 s
    assert len(notices) == 1 and "not answering" in notices[0]


@pytest.mark.parametrize(
    "command",
    [
        ["api", "searchPerson", "--name", "Ada", "--backend", "openalex"],
        ["library", "online", "search", "openalex", "graph", "--list-only"],
    ],
)
def test_a_command_waiting_on_a_silent_source_says_so_before_it_gives_up(where, silent_server, monkeypatch, command):
    monkeypatch.setenv("SCHOLAR_TUI_NETWORK__TIMEOUT_S", "2")  # 2 s, then a second try within the 4 s bound
    monkeypatch.setenv("HTTPS_PROXY", silent_server)  # api.openalex.org through a proxy that never answers
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    started = time.monotonic()
    result = CliRunner().invoke(cli, command)
    assert time.monotonic() - started < 8
    line = one_line_failure(result)
    assert "did not answer within 4 s" in line
    notice = result.output.index("api.openalex.org is not answering")  # told while it still waited
    assert notice < result.output.index(line)


def test_an_import_into_a_busy_library_from_the_function(where, tmp_path, monkeypatch):
    import scholar_tui.indexes.db as db

    monkeypatch.setattr(db, "LOCK_WAIT_S", 0.2)
    holder, importer = Library.open(where), Library.open(where)
    holder.conn.execute("begin immediate")
    try:
        with pytest.raises(LibraryImportError, match="library is busy: another import"):
            list(import_file("bibtex", _bib(tmp_path / "one.bib", "A paper"), importer))
    finally:
        holder.conn.execute("rollback")
    holder.close(), importer.close()


def test_a_models_escape_sequences_reach_the_terminal_visible_not_raw(where, monkeypatch):
    """A model's output is outside text like any other: `prompt` shows its ESC and BEL, never sends them."""
    import scholar_tui.models as models

    from .conftest import ScriptedLLM

    monkeypatch.setattr(
        models, "load_llm", lambda settings, where=None: ScriptedLLM("\x1b]0;PWNED\x07 \x1b[2J \x9b2J done")
    )
    result = CliRunner().invoke(cli, ["prompt", "say hi"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert not set(result.stdout) & {"\x1b", "\x07", "\x9b"}
    assert "\\x1b]0;PWNED\\x07" in result.stdout and "done" in result.stdout
