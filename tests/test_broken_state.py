"""Issue 29, defects 8, 9 and 11: damaged or unwritable state, special files and smaller lies end
in one line naming the file and what to do — from every command and when the app starts — never
a traceback, a hang or a wrong answer. Whatever could block (a FIFO, /dev/zero) runs in a
subprocess with a time limit."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.library.importer import run_import
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.library_search import sync_index

from .conftest import fake_gguf
from .library_support import HashingEmbedder, fixture_path

HANG_LIMIT_S = 60  # a refused file answers in about a second; an opened FIFO never does
SAMPLE_BIB = fixture_path("bibtex", "sample.bib")


def one_line_failure(result) -> str:
    """The command failed with exit 1 and one 'Error:' line, no traceback; returns that line."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, result.output
    return errors[0]


def invoke(*args: str, env: dict | None = None):
    return CliRunner().invoke(cli, list(args), env=env)


def run_process(
    *args: str, home: Path | None = None, extra_env: dict | None = None, prefix: list[str] | None = None
) -> subprocess.CompletedProcess:
    """The real command as a process, killed after HANG_LIMIT_S (a hang fails the test)."""
    env = {**os.environ, **(extra_env or {})}
    if home is not None:
        env["SCHOLAR_TUI_HOME"] = str(home)
    command = [sys.executable, "-c", "from scholar_tui.app.cli import main; main()", *args]
    return subprocess.run([*(prefix or []), *command], capture_output=True, text=True, env=env, timeout=HANG_LIMIT_S)


def one_line_process_failure(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, result.stderr
    return errors[0]


@pytest.fixture
def hashing_embedder(monkeypatch):
    embedder = HashingEmbedder()
    monkeypatch.setattr("scholar_tui.models.load_embedder", lambda *args, **kwargs: embedder)
    return embedder


# -- 8. a broken config file ---------------------------------------------------------------------
NESTED_TOML = "a = " + "[" * 2000 + "]" * 2000 + "\n"


@pytest.mark.parametrize(
    "spoil, command, env, expected",
    [
        ("directory", ["config", "show"], {}, "is a directory, not a file"),
        ("directory", ["config", "set", "llm.n_ctx", "1024"], {}, "is a directory, not a file"),
        ("invalid", ["config", "set", "llm.n_ctx", "1024"], {}, "not valid TOML"),
        ("scalar section", ["config", "show"], {"SCHOLAR_TUI_LLM__MODEL": "x"}, "setting llm: must be a table"),
        ("scalar section", ["config", "set", "llm.n_ctx", "1024"], {}, "setting llm: must be a table"),
        ("nested", ["config", "show"], {}, "nested too deeply"),
        ("nested", ["config", "set", "llm.n_ctx", "1024"], {}, "not valid TOML"),
    ],
)
def test_a_broken_config_file_is_one_line(where, spoil, command, env, expected):
    path = where.config_file
    if spoil == "directory":
        path.mkdir()
    else:
        path.write_text({"invalid": "[llm\nn_ctx = = 3\n", "scalar section": "llm = 5\n", "nested": NESTED_TOML}[spoil])
    line = one_line_failure(invoke(*command, env=env))
    assert expected in line and str(path) in line


@pytest.mark.parametrize("spoil, kind", [("fifo", "a FIFO"), ("/dev/zero", "a character device")])
def test_a_config_file_that_is_a_special_file_is_refused_without_reading_it(where, spoil, kind):
    if spoil == "fifo":
        os.mkfifo(where.config_file)
    else:
        where.config_file.symlink_to("/dev/zero")
    for command in (["config", "show"], ["config", "set", "llm.n_ctx", "1024"]):
        line = one_line_process_failure(run_process(*command))
        assert f"{where.config_file} is {kind}, not a file" in line
    assert where.config_file.is_symlink() or where.config_file.is_fifo()  # left where it was


def test_config_set_writes_through_a_symlinked_config_file(where, tmp_path):
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "scholar.toml"
    target.write_text("# mine\n[llm]\nn_ctx = 2048\n")
    where.config_file.symlink_to(target)
    assert invoke("config", "set", "llm.n_ctx", "8192").exit_code == 0
    assert where.config_file.is_symlink() and where.config_file.resolve() == target.resolve()
    assert "# mine" in target.read_text() and "n_ctx = 8192" in target.read_text()
    assert json.loads(invoke("config", "show").output)["llm"]["n_ctx"] == 8192


# -- 8. a broken home ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "home, expected",
    [
        ("file", "is a file, not a folder"),
        ("/proc/self", "cannot create the folder"),
        ("newline", "control character"),
    ],
)
@pytest.mark.parametrize("command", [["library", "stats"], ["config", "show"], ["import", "bibtex", str(SAMPLE_BIB)]])
def test_a_home_that_cannot_be_one_is_one_line(tmp_path, home, expected, command):
    if home == "/proc/self" and command[0] == "config":
        pytest.skip("config show only reads: a home it cannot write does not stop it")
    if home == "file":
        home_path = tmp_path / "home-file"
        home_path.write_text("not a folder")
    elif home == "newline":
        home_path = tmp_path / "new\nline"
    else:
        home_path = Path(home)
    line = one_line_failure(invoke(*command, env={"SCHOLAR_TUI_HOME": str(home_path)}))
    assert expected in line and "SCHOLAR_TUI_HOME" in line
    assert "\n" not in line


# -- 8. a damaged database -----------------------------------------------------------------------
def spoil_database(where, how: str) -> None:
    database = where.database_file
    if how == "directory":
        database.unlink(missing_ok=True)
        database.mkdir()
    elif how == "garbage":
        database.write_bytes(os.urandom(8192))
    elif how == "truncated":
        database.write_bytes(database.read_bytes()[: database.stat().st_size // 3])
    elif how == "papers missing":
        connection = sqlite3.connect(database)
        connection.execute("pragma foreign_keys = off")
        connection.execute("drop table papers")
        connection.commit()
        connection.close()


@pytest.fixture
def filled(where, hashing_embedder):
    """A library of four papers from BibTeX, its search index built; no connection left open (the
    last one to close folds the WAL into the file, which the tests then spoil)."""
    library = Library.open(where)
    run_import("bibtex", SAMPLE_BIB, library)
    sync_index(where, library, hashing_embedder)
    library.close()
    return where


@pytest.mark.parametrize(
    "how, expected",
    [
        ("truncated", "database disk image is malformed"),
        ("garbage", "file is not a database"),
        ("directory", "is a directory, not a file"),
        ("papers missing", "papers"),
    ],
)
@pytest.mark.parametrize(
    "command",
    [
        ["library", "stats"],
        ["library", "search", "polynomials"],
        ["import", "bibtex", str(SAMPLE_BIB)],
        ["ask", "Who wrote about roots?"],
    ],
)
def test_a_damaged_database_is_one_line_naming_the_file_and_what_to_do(filled, how, expected, command):
    spoil_database(filled, how)
    line = one_line_failure(invoke(*command))
    assert str(filled.database_file) in line and expected in line
    assert "backup" in line and "doctor --repair" in line


def test_the_app_shows_a_damaged_database_instead_of_a_traceback(filled):
    import asyncio

    from textual.widgets import Static

    from scholar_tui.app.tui import StateProblemApp
    from scholar_tui.core.doctor import state_problem

    spoil_database(filled, "papers missing")
    assert "lacks the table papers" in state_problem(filled)
    spoil_database(filled, "garbage")
    problem = state_problem(filled)
    assert problem is not None and str(filled.database_file) in problem

    async def shown() -> str:
        app = StateProblemApp(problem)
        async with app.run_test(size=(160, 30)) as pilot:
            text = str(app.query_one("#state-problem", Static).render())
            await pilot.press("q")
        return text

    text = asyncio.run(shown())
    assert "file is not a database" in text and "backup" in text


def test_a_read_only_data_folder_is_one_line_from_every_command(filled):
    """A read-only bind mount in a private mount namespace (root writes through chmod)."""
    data = filled.data_dir
    mount = f"mount --bind '{data}' '{data}' && mount -o remount,bind,ro '{data}'"
    probe = subprocess.run(["unshare", "-m", "sh", "-c", f"{mount} && ! touch '{data}/probe'"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("cannot mount a read-only folder here (needs unshare -m and mount)")
    for command in (
        ["library", "stats"],
        ["library", "search", "polynomials"],
        ["import", "bibtex", str(SAMPLE_BIB)],
        ["logs"],
        ["conf", "list"],
    ):
        script = f'{mount} && exec "$@"'
        result = run_process(*command, prefix=["unshare", "-m", "sh", "-c", script, "sh"])
        line = one_line_process_failure(result)
        assert f"the data folder {data} is read-only" in line and "make it writable" in line


def test_doctor_repair_says_what_it_cannot_fix(filled):
    spoil_database(filled, "garbage")
    result = invoke("doctor", "--repair")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "not fixed" in result.output and "file is not a database" in result.output


# -- 9. special files are refused by their kind, without being opened ---------------------------
@pytest.mark.parametrize(
    "command, special, kind",
    [
        (["import", "bibtex"], "fifo", "a FIFO"),
        (["import", "unarxive"], "/dev/null", "a character device"),
        (["import", "openalex"], "/dev/zero", "a character device"),
        (["conf", "import"], "fifo", "a FIFO"),
    ],
)
def test_special_files_are_refused_by_kind_without_hanging(where, tmp_path, command, special, kind):
    if special == "fifo":
        path = tmp_path / "records.json"
        os.mkfifo(path)
    else:
        path = Path(special)
    line = one_line_process_failure(run_process(*command, str(path)))
    assert f"{path} is {kind}, not a file" in line and "no such file" not in line


# -- 11. smaller lies ----------------------------------------------------------------------------
HUGE = "9" * 5000


@pytest.mark.parametrize(
    "command, name, content",
    [
        (["conf", "import"], "site.json", '{"ICML": {"Dates": {"deadline": %s}}}' % HUGE),
        (
            ["import", "openalex"],
            "works.json",
            '{"results": [{"id": "https://openalex.org/W1", "cited_by_count": %s}]}' % HUGE,
        ),
        (["import", "openalex"], "works.jsonl", '{"id": "https://openalex.org/W1", "cited_by_count": %s}\n' % HUGE),
    ],
)
def test_a_number_of_over_4300_digits_is_one_line(where, tmp_path, command, name, content):
    path = tmp_path / name
    path.write_text(content)
    line = one_line_failure(invoke(*command, str(path)))
    assert name in line and "4,300 digits" in line


@pytest.mark.parametrize(
    "command",
    [
        ["library", "search", "x", "--limit", "-5"],
        ["library", "search", "x", "--limit", "0"],
        ["prompt", "hi", "--max-tokens", "-1"],
        ["conf", "ask", "ICML", "when?", "-k", "-3"],
        ["logs", "--limit", "-1"],
    ],
)
def test_numeric_options_outside_their_range_are_refused(where, command):
    result = invoke(*command)
    assert result.exit_code == 2 and "is not in the range" in result.output, result.output


@pytest.mark.parametrize("content", [b"", b"just some text, named .gguf\n", b"GGUF"])
def test_models_use_refuses_a_file_that_is_not_a_gguf_model(where, tmp_path, content):
    path = tmp_path / "model.gguf"
    path.write_bytes(content)
    line = one_line_failure(invoke("models", "use", str(path)))
    assert str(path) in line and "not a GGUF model" in line
    assert not where.config_file.exists() or str(path) not in where.config_file.read_text()
    assert invoke("models", "use", str(fake_gguf(tmp_path / "real.gguf"))).exit_code == 0


def test_stats_do_not_count_an_index_of_papers_the_database_no_longer_has(filled):
    filled.database_file.write_bytes(b"")  # a 0-byte scholar.db: SQLite starts an empty library in it
    result = invoke("library", "stats", "--json")
    stats = json.loads(result.output)
    assert stats["papers"] == 0 and stats["indexed_for_search"] == 0 and stats["search_index_extra"] == 4
    text = invoke("library", "stats").output
    assert "indexed for search   0  (stale: 4 indexed papers no longer in the library" in text
