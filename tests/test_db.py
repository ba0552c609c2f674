import sqlite3

import pytest

from scholar_tui.indexes import migrations
from scholar_tui.indexes.db import open_database, open_vectors
from scholar_tui.indexes.prompt_log import PromptLog
from scholar_tui.models.base import Completion, Request


def test_database_is_wal_and_migrated_once(where):
    db = open_database(where)
    assert db.execute("pragma journal_mode").fetchone()[0] == "wal"
    names = [name for name, _ in migrations.MIGRATIONS]
    assert migrations.applied(db) == names
    db.conn.close()
    db = open_database(where)  # a second open applies nothing again
    assert migrations.migrate(db) == []
    assert db["_migrations"].count == len(names)


def test_a_failing_migration_leaves_the_schema_as_it_was(where, monkeypatch):
    open_database(where).conn.close()

    def broken(db):
        db["half_made"].create({"id": int}, pk="id")
        raise RuntimeError("boom")

    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS + [("m999_broken", broken)])
    with pytest.raises(RuntimeError):
        open_database(where)
    db = sqlite3.connect(where.database_file)
    tables = {row[0] for row in db.execute("select name from sqlite_master where type='table'")}
    assert "half_made" not in tables
    assert "m999_broken" not in {row[0] for row in db.execute("select name from _migrations")}


def test_prompt_log_rows_survive_a_new_connection(where):
    log = PromptLog(where)
    completion = Completion(
        text="True",
        model="m",
        backend="b",
        request=Request(prompt="Is it?", logprobs=1),
        prompt_tokens=3,
        completion_tokens=1,
        duration_s=0.01,
    )
    log.record(completion)
    # another process (a fresh connection) sees it at once: it was committed, not buffered
    rows = list(sqlite3.connect(where.database_file).execute("select prompt, response from llm_calls"))
    assert rows == [("Is it?", "True")]
    assert log.recent(1)[0]["response"] == "True"


def test_lancedb_opens_under_the_data_dir(where):
    connection = open_vectors(where)
    table = connection.create_table("probe", data=[{"vector": [0.1, 0.2], "text": "x"}])
    assert table.count_rows() == 1
    assert (where.lancedb_dir / "probe.lance").exists()
