"""The prompt log: every completion, written to SQLite the moment it finishes."""

from __future__ import annotations

import threading
from datetime import datetime, timezone
from typing import Any

from scholar_tui.config.locations import Locations
from scholar_tui.indexes.db import open_database


class PromptLog:
    """A completion sink (``LLM.add_sink``); thread-safe, one committed row per call."""

    def __init__(self, where: Locations) -> None:
        self._where = where
        self._db = None
        self._lock = threading.Lock()

    def record(self, completion: Any) -> None:
        row = completion.as_log_record()
        row["datetime_utc"] = datetime.now(timezone.utc).isoformat()
        with self._lock:
            if self._db is None:
                self._db = open_database(self._where)
            with self._db.conn:  # committed at once: a crash later loses nothing logged
                self._db["llm_calls"].insert(row)

    def recent(self, limit: int = 20) -> list[dict[str, Any]]:
        with self._lock:
            if self._db is None:
                self._db = open_database(self._where)
            return list(self._db.query("select * from llm_calls order by id desc limit ?", [limit]))
