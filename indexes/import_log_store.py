"""What the library holds in figures and what each import added: the import log.

``ImportLogStore`` is one of the stores ``indexes.library.Library`` is made of (see its docstring).
"""

from __future__ import annotations

import json

from scholar_tui.indexes.bulk_writes import counted_cited_works, counted_papers
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
        """Each table's rows: the papers as migration m017's triggers keep them, the other tables by
        ``count(*)``, which reads their smallest index (milliseconds at 100 k papers)."""
        return {
            label: self.paper_count() if table == "papers" else self._one(f"select count(*) from {table}")
            for label, table in COUNTED_TABLES.items()
        }

    def paper_count(self) -> int:
        return counted_papers(self.conn)

    def cited_work_count(self) -> int:
        """Of the papers, those made from the imported papers' bibliographies (PaSa's cited works)."""
        return counted_cited_works(self.conn)

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
