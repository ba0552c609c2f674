"""What the library holds in figures and what each import added: the import log.

``ImportLogStore`` is one of the stores ``indexes.library.Library`` is made of (see its docstring).
"""

from __future__ import annotations

import json

from scholar_tui.indexes.bulk_writes import CITED_WORK_SOURCE, COUNTED, in_bulk_write
from scholar_tui.indexes.sql_store import SQLStore

COUNTED_TABLES = {
    "papers": "papers",
    "people": "people",
    "authorships": "authorships",
    "sections": "sections",
    "references": "paper_references",
    "section_references": "section_references",
    "citations": "citations",
}


class ImportLogStore(SQLStore):
    def counts(self) -> dict[str, int]:
        """Each table's rows, as the triggers of migration m017 keep them (eight rows read, nothing counted)."""
        stored = self._stored_counts()
        return {label: stored[table] for label, table in COUNTED_TABLES.items()}

    def paper_count(self) -> int:
        return self._stored_counts()["papers"]

    def cited_work_count(self) -> int:
        """Of the papers, those made from the imported papers' bibliographies (PaSa's cited works)."""
        return self._stored_counts()["cited_works"]

    def _stored_counts(self) -> dict[str, int]:
        """``library_counts`` by name. In the middle of a bulk write (``bulk_writes``) its rows are
        not counted yet: the tables are counted instead (no caller of the app asks then)."""
        if in_bulk_write(self.conn):
            return {
                **{table: self._one(f"select count(*) from {table}") for table in COUNTED},
                "cited_works": self._one("select count(*) from papers where source = ?", (CITED_WORK_SOURCE,)),
            }
        return dict(self.conn.execute("select name, rows from library_counts").fetchall())

    def record_import(self, kind: str, path: str, started_at: str, seconds: float, summary: dict) -> None:
        self.conn.execute(
            "insert into library_imports (kind, path, started_at, seconds, summary) values (?, ?, ?, ?, ?)",
            (kind, path, started_at, seconds, json.dumps(summary)),
        )

    def recent_imports(self, limit: int = 5) -> list[dict]:
        rows = self._rows(
            "select kind, path, started_at, seconds, summary from library_imports order by id desc limit ?", (limit,)
        )
        for row in rows:
            row["summary"] = json.loads(row["summary"]) if row["summary"] else {}
        return rows
