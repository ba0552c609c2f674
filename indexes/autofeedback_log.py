"""AutoFeedback's logs in SQLite: loops and their rounds, for people to read and fix (§3.1, §5).

"Our framework also provides support for human-machine collaboration, recording all information
in feedback as the logs." Every round is its own committed transaction, so what a crash leaves
is exactly the rounds that finished. A log belongs to the thread that opened it (one SQLite
connection per thread); the TUI's workers each open their own.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from scholar_tui.config.locations import Locations
from scholar_tui.indexes.db import fits_sqlite, inserted_id, open_database

STATUSES = ("running", "solved", "limit_hit", "fixed_by_hand", "failed")
KINDS = ("static", "dynamic", "human")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False, default=str)


class FeedbackLog:
    def __init__(self, where: Locations) -> None:
        self.db = open_database(where)

    def close(self) -> None:
        self.db.conn.close()

    # -- writing -------------------------------------------------------------------------------
    def start_loop(
        self,
        instruction: str,
        *,
        source: str,
        mode: str = "request",
        static_limit: int | None = None,
        dynamic_limit: int | None = None,
    ) -> int:
        now = _now()
        with self.db.conn:
            cursor = self.db.conn.execute(
                "insert into autofeedback_loops (created_at, updated_at, source, mode, instruction, status, "
                "static_limit, dynamic_limit) values (?, ?, ?, ?, ?, 'running', ?, ?)",
                [now, now, source, mode, instruction, static_limit, dynamic_limit],
            )
        return inserted_id(cursor)

    def add_round(
        self,
        loop_id: int,
        kind: str,
        *,
        request: str | None,
        error_type: str | None = None,
        sub_type: str | None = None,
        returns: Any = None,
        feedback: str | None = None,
        response: Any = None,
        ok: bool | None = None,
        thought: str | None = None,
        observation: str | None = None,
        prompt_tokens: int | None = None,
        completion_tokens: int | None = None,
        duration_s: float | None = None,
    ) -> int:
        """Append a round (numbered after the loop's last) and commit it at once."""
        assert kind in KINDS, kind
        with self.db.conn:
            number = self.db.conn.execute(
                "select coalesce(max(round), 0) + 1 from autofeedback_rounds where loop_id = ?", [loop_id]
            ).fetchone()[0]
            self.db.conn.execute(
                "insert into autofeedback_rounds (loop_id, round, kind, created_at, request, error_type, sub_type, "
                "returns, feedback, response, ok, thought, observation, prompt_tokens, completion_tokens, duration_s) "
                "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    loop_id,
                    number,
                    kind,
                    _now(),
                    request,
                    error_type,
                    sub_type,
                    _json(returns),
                    feedback,
                    _json(response),
                    None if ok is None else int(ok),
                    thought,
                    observation,
                    prompt_tokens,
                    completion_tokens,
                    None if duration_s is None else round(duration_s, 4),
                ],
            )
            column = {"static": "static_rounds", "dynamic": "dynamic_rounds"}.get(kind)
            if column and feedback:
                self.db.conn.execute(f"update autofeedback_loops set {column} = {column} + 1 where id = ?", [loop_id])
            self.db.conn.execute("update autofeedback_loops set updated_at = ? where id = ?", [_now(), loop_id])
        return int(number)

    def finish_loop(
        self, loop_id: int, status: str, *, final_request: str | None = None, final_response: Any = None
    ) -> None:
        assert status in STATUSES, status
        with self.db.conn:
            self.db.conn.execute(
                "update autofeedback_loops set status = ?, updated_at = ?, final_request = ?, final_response = ? where id = ?",
                [status, _now(), final_request, _json(final_response), loop_id],
            )

    # -- reading -------------------------------------------------------------------------------
    def loop(self, loop_id: int) -> dict | None:
        if not fits_sqlite(loop_id):  # `logs --loop 99999999999999999999`: no such loop, not an OverflowError
            return None
        rows = list(self.db.query("select * from autofeedback_loops where id = ?", [loop_id]))
        return rows[0] if rows else None

    def loops(self, *, status: str | None = None, limit: int = 200) -> list[dict]:
        """Newest first, with how many rounds each has; ``status='limit_hit'`` lists those waiting for a person."""
        limit = limit if fits_sqlite(limit) else -1  # beyond SQLite's integers: no limit, as a negative one
        where = "where l.status = ?" if status else ""
        parameters: list[Any] = [status] if status else []
        return list(
            self.db.query(
                f"""select l.*, (select count(*) from autofeedback_rounds r where r.loop_id = l.id) as rounds
                from autofeedback_loops l {where} order by l.id desc limit ?""",
                [*parameters, limit],
            )
        )

    def rounds(self, loop_id: int) -> list[dict]:
        rows = list(self.db.query("select * from autofeedback_rounds where loop_id = ? order by round", [loop_id]))
        for row in rows:
            for key in ("returns", "response"):
                if row[key] is not None:
                    row[key] = json.loads(row[key])
        return rows
