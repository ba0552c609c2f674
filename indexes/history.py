"""What a person asked, kept across sessions: every query (Paper search), question (Scholar Q&A) and
conference question, with its result summary and what is needed to show the result again.

``result`` is the finished run as JSON (the engine's own ``to_json`` form), so a past session reopens
as it was, without running anything. One row per run; ``inputs`` gives the distinct texts, newest
first, for recall (Up/Down) and suggestions. A store belongs to the thread that opened it.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from scholar_tui.config.locations import Locations
from scholar_tui.indexes.db import inserted_id, open_database

TABS = ("paper-search", "scholar-qa", "conference-qa")


class HistoryStore:
    def __init__(self, where: Locations) -> None:
        self.db = open_database(where)

    def close(self) -> None:
        self.db.conn.close()

    def add(self, tab: str, text: str, summary: str, result: Any, context: dict | None = None, ok: bool = True) -> int:
        """Keep one run; returns its id."""
        if tab not in TABS:
            raise ValueError(f"history is kept for {', '.join(TABS)}, not {tab!r}")
        with self.db.conn:
            cursor = self.db.conn.execute(
                "insert into history (created_at, tab, text, context, summary, ok, result) values (?, ?, ?, ?, ?, ?, ?)",
                [
                    datetime.now(timezone.utc).isoformat(timespec="seconds"),
                    tab,
                    text,
                    json.dumps(context or {}, ensure_ascii=False),
                    summary,
                    int(ok),
                    json.dumps(result, ensure_ascii=False, default=str),
                ],
            )
        return inserted_id(cursor)

    def entries(self, tab: str | None = None, limit: int = 100) -> list[dict]:
        """The newest runs first (without their stored result: a list need not read it)."""
        where, args = ("where tab = ?", [tab]) if tab else ("", [])
        rows = self.db.conn.execute(
            f"select id, created_at, tab, text, context, summary, ok from history {where} order by id desc limit ?",
            [*args, limit],
        ).fetchall()
        return [_row(row, ("id", "created_at", "tab", "text", "context", "summary", "ok")) for row in rows]

    def entry(self, entry_id: int) -> dict | None:
        """One run with its stored result, or None."""
        row = self.db.conn.execute(
            "select id, created_at, tab, text, context, summary, ok, result from history where id = ?", [entry_id]
        ).fetchone()
        if row is None:
            return None
        entry = _row(row, ("id", "created_at", "tab", "text", "context", "summary", "ok", "result"))
        entry["result"] = json.loads(entry["result"]) if entry["result"] else None
        return entry

    def inputs(self, tab: str, limit: int = 200) -> list[str]:
        """The distinct texts asked on ``tab``, the most recent first."""
        rows = self.db.conn.execute(
            "select text from history where tab = ? group by text order by max(id) desc limit ?", [tab, limit]
        )
        return [row[0] for row in rows]


def _row(row: tuple, names: tuple[str, ...]) -> dict:
    entry = dict(zip(names, row, strict=False))
    entry["context"] = json.loads(entry["context"]) if entry.get("context") else {}
    entry["ok"] = bool(entry["ok"])
    return entry
