import re
import sqlite3

import pytest
import sqlite_utils

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


def test_migrations_are_named_in_the_order_they_run():
    """``mNNN_what``, NNN its place in the list: a migration appended at the end takes the next number."""
    names = [name for name, _ in migrations.MIGRATIONS]
    numbers = [int(match.group(1)) if (match := re.fullmatch(r"m(\d{3})_[a-z0-9_]+", name)) else None for name in names]
    wanted = [f"m{place:03d}_…" for place in range(1, len(names) + 1)]
    assert numbers == list(range(1, len(names) + 1)), f"{names} should be numbered {wanted}"
    assert set(migrations.RENAMED.values()) <= set(names)
    assert not set(migrations.RENAMED) & set(names)


def made_with_old_names(path, count: int) -> sqlite_utils.Database:
    """A database as an older version left it: the first ``count`` migrations applied and recorded
    under the names they had then (``RENAMED``'s keys)."""
    old_name = {new: old for old, new in migrations.RENAMED.items()}
    db = sqlite_utils.Database(sqlite3.connect(path))
    db.execute("create table _migrations (name text primary key, applied_at text)")
    for name, function in migrations.MIGRATIONS[:count]:
        function(db)
        db.execute("insert into _migrations values (?, '2026-01-01T00:00:00+00:00')", [old_name.get(name, name)])
    db.conn.commit()
    return db


def test_a_database_made_with_the_old_names_is_migrated_nothing_twice(where):
    old = made_with_old_names(where.database_file, len(migrations.RENAMED) + 1)
    assert migrations.applied(old)[:3] == ["m001_llm_calls", "m200_library_schema", "m100_conference_tables"]
    old.execute(
        "insert into history (created_at, tab, text, context, summary, ok) values ('t', 'scholar-qa', 'q', '{}', 's', 1)"
    )
    old.conn.commit()
    old.conn.close()
    db = open_database(where)  # a migration applied again would fail: its tables exist
    names = [name for name, _ in migrations.MIGRATIONS]
    assert migrations.applied(db) == names and db["_migrations"].count == len(names)
    assert db.execute("select text from history").fetchall() == [("q",)]
    assert migrations.migrate(db) == []


def test_a_database_older_than_some_migrations_gets_only_those(tmp_path):
    db = made_with_old_names(tmp_path / "old.db", 5)  # from before the PDF pages (m220, now m006)
    names = [name for name, _ in migrations.MIGRATIONS]
    assert migrations.migrate(db) == names[5:]
    assert migrations.applied(db) == names


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
