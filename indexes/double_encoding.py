"""Text stored double-encoded (UTF-8 read as Latin-1 or Windows-1252 before it reached us: "Katharina GÃ¶tz"
for "Katharina Götz"), read back as written.

``undo_double_encoding`` is the one call for it: the arXiv import makes it on every field it reads
(core/library/arxiv.py), and ``repair_library`` makes it on what a library imported before that fix
stored (migration ``m020_double_encoded_text_repaired``), so both hold the same text.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any

from ftfy import fix_encoding

from scholar_tui.indexes.records import name_key, title_key
from scholar_tui.indexes.sql_store import utc_now

# What a continuation byte (0x80–0xBF) reads as: Latin-1's U+0080–U+00BF, and for 0x80–0x9F what
# Windows-1252 makes of them (€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ).
CONTINUATION = "\u0080-\u00bf€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"
# Every double-encoded character is a UTF-8 lead byte (0xC2–0xF4) read as one letter (Â … ô) followed by
# a continuation byte read as one: a GLOB on that pair leaves out, inside SQLite, every row that cannot
# be double-encoded (ASCII text, and right accents: "García" has í before an ASCII letter).
READ_AS_LATIN1 = f"*[Â-ô][{CONTINUATION}]*"
# The same pair as ``json.dumps`` writes it (ASCII escapes: "G\u00c3\u00b6tz"), for the JSON columns.
ESCAPED = "*\\u00[c-f][0-9a-f]\\u[0-9a-f][0-9a-f][0-9a-f][0-9a-f]*"
PATTERNS = {"broken": READ_AS_LATIN1, "escaped": ESCAPED}  # the selects' named parameters


def undo_double_encoding(text: str) -> str:
    """``text`` with UTF-8 that was read as Latin-1 (or Windows-1252) read back; ftfy's fix_encoding
    changes only such sequences, so text that is already right stays as it is."""
    return text if text.isascii() else fix_encoding(text)  # ASCII text holds nothing to read back


def _fixed(value: Any) -> Any:
    return undo_double_encoding(value) if isinstance(value, str) and value else value


def _fixed_json_list(text: str | None) -> str | None:
    """A JSON list of strings (``people.organizations``) with each item repaired, written as it was."""
    if not text:
        return text
    try:
        items = json.loads(text)
    except ValueError:
        return text
    if not isinstance(items, list):
        return text
    repaired = list(dict.fromkeys(_fixed(item) for item in items))  # two spellings of one place become one
    return json.dumps(repaired) if repaired != items else text


def _repair_rows(
    conn: sqlite3.Connection, select: str, repair: Callable[[sqlite3.Row], dict[str, Any] | None], update: str
) -> int:
    """Run ``repair`` on each row ``select`` finds; write the changed ones with ``update`` (named
    parameters). Returns how many rows changed."""
    factory, conn.row_factory = conn.row_factory, sqlite3.Row
    try:
        rows = conn.execute(select, PATTERNS).fetchall()
    finally:
        conn.row_factory = factory
    changes = [change for change in map(repair, rows) if change is not None]
    conn.executemany(update, changes)
    return len(changes)


def _people(row: sqlite3.Row) -> dict[str, Any] | None:
    name, organization = _fixed(row["name"]), _fixed(row["organization"])
    organizations = _fixed_json_list(row["organizations"])
    if (name, organization, organizations) == (row["name"], row["organization"], row["organizations"]):
        return None
    return {
        "id": row["id"],
        "name": name,
        "key": name_key(name),
        "organization": organization,
        "organizations": organizations,
        "now": utc_now(),
    }


def _authorship(row: sqlite3.Row) -> dict[str, Any] | None:
    written, affiliation = _fixed(row["name_as_written"]), _fixed(row["affiliation"])
    if (written, affiliation) == (row["name_as_written"], row["affiliation"]):
        return None
    return {"rowid": row["rowid"], "written": written, "affiliation": affiliation}


def _paper(row: sqlite3.Row) -> dict[str, Any] | None:
    title, abstract, venue = _fixed(row["title"]), _fixed(row["abstract"]), _fixed(row["venue"])
    if (title, abstract, venue) == (row["title"], row["abstract"], row["venue"]):
        return None
    return {"id": row["id"], "title": title, "key": title_key(title), "abstract": abstract, "venue": venue}


def _merge_journal(row: sqlite3.Row) -> dict[str, Any] | None:
    """A merge's journal with the names it keeps repaired, so that undoing the merge gives back the
    repaired person (``IdentityStore.split_merge`` matches the papers it moves back by these names)."""
    merged = json.loads(row["merged_row"])
    merged_again = dict(merged)
    for column in ("name", "organization"):
        if column in merged:
            merged_again[column] = _fixed(merged[column])
    if "organizations" in merged:
        merged_again["organizations"] = _fixed_json_list(merged["organizations"])
    if merged_again.get("name") != merged.get("name"):
        merged_again["name_key"] = name_key(merged_again["name"])
    names = json.loads(row["names"])
    names_again = list(dict.fromkeys(_fixed(name) for name in names))
    authorships = json.loads(row["authorships"])
    authorships_again = [
        {**a, "name_as_written": _fixed(a.get("name_as_written")), "affiliation": _fixed(a.get("affiliation"))}
        for a in authorships
    ]
    if (merged_again, names_again, authorships_again) == (merged, names, authorships):
        return None
    return {
        "id": row["id"],
        "merged_row": json.dumps(merged_again),
        "names": json.dumps(names_again),
        "authorships": json.dumps(authorships_again),
    }


def _person_names(conn: sqlite3.Connection) -> int:
    """Each double-encoded name variant repaired; a variant whose repaired spelling the person already
    has is dropped (``person_names`` holds a person's spelling once)."""
    rows = conn.execute("select rowid, person_id, name from person_names where name glob :broken", PATTERNS)
    changed = 0
    for rowid, person_id, name in rows.fetchall():
        repaired = undo_double_encoding(name)
        if repaired == name:
            continue
        changed += 1
        held = conn.execute("select 1 from person_names where person_id = ? and name = ?", (person_id, repaired))
        if held.fetchone():
            conn.execute("delete from person_names where rowid = ?", (rowid,))
        else:
            conn.execute(
                "update person_names set name = ?, name_key = ? where rowid = ?", (repaired, name_key(repaired), rowid)
            )
    return changed


def repair_library(conn: sqlite3.Connection) -> dict[str, int]:
    """Repair, in the caller's transaction, the double-encoded text a library stored: people's names,
    name variants and organisations, the names and affiliations written on papers, the merge journal,
    and the title, abstract and venue of the papers arXiv records wrote (the fields the arXiv import
    repairs). Only the rows that change are written, so the triggers re-index only those (the name and
    title word indexes, the organisations index, the search index's change log). Returns the rows
    changed per table.

    People are not merged here: two people whose names read alike once repaired stay two until an
    import that brings one of them weighs the evidence (``core.library.identity``)."""
    journal_rows = """select id, merged_row, names, authorships from person_merges
        where merged_row glob :escaped or names glob :escaped or authorships glob :escaped"""
    return {
        "people": _repair_rows(
            conn,
            """select id, name, organization, organizations from people where name glob :broken
                or organization glob :broken or organizations glob :escaped""",
            _people,
            """update people set name = :name, name_key = :key, organization = :organization,
               organizations = :organizations, updated_at = :now where id = :id""",
        ),
        "person_names": _person_names(conn),
        "authorships": _repair_rows(
            conn,
            """select rowid, name_as_written, affiliation from authorships
                where name_as_written glob :broken or affiliation glob :broken""",
            _authorship,
            "update authorships set name_as_written = :written, affiliation = :affiliation where rowid = :rowid",
        ),
        "papers": _repair_rows(
            conn,
            # "source != 'reference'" lets SQLite read the arXiv papers' ids from papers_own (m018)
            """select id, title, abstract, venue from papers where source = 'arxiv' and source != 'reference'
                and (title glob :broken or abstract glob :broken or venue glob :broken)""",
            _paper,
            "update papers set title = :title, title_key = :key, abstract = :abstract, venue = :venue where id = :id",
        ),
        "person_merges": _repair_rows(
            conn,
            journal_rows,
            _merge_journal,
            "update person_merges set merged_row = :merged_row, names = :names, authorships = :authorships where id = :id",
        ),
    }
