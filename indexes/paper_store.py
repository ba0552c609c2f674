"""Papers: the ``papers`` rows, written from records and read back by id.

``PaperStore`` is one of the stores ``indexes.library.Library`` is made of (see its docstring). It
owns the columns of a paper; its authors live in ``people_store``, its sections and references in
``citation_store``, the sources it came from and merges of works in ``library_works``.
"""

from __future__ import annotations

import json
from typing import Any

from scholar_tui.indexes.db import inserted_id
from scholar_tui.indexes.library_works import work_key
from scholar_tui.indexes.records import PaperRecord
from scholar_tui.indexes.sql_store import SQLStore, digits_fit_sqlite, json_list, utc_now

PAPER_COLUMNS = (
    "id, arxiv_id, doi, openalex_id, title, abstract, date, year, venue, categories, cited_by_count, "
    "url, license, discipline, source, pdf_path"
)


INSERTED = """arxiv_id, doi, openalex_id, title, title_key, abstract, date, year, venue, categories, cited_by_count,
    url, license, discipline, source, added_at, updated_at, pdf_path"""
ROW_MARKS = ", ".join("?" * 18)


def _row(record: PaperRecord) -> tuple:
    """A record's values for ``INSERTED``, in that order."""
    now = utc_now()
    return (
        record.arxiv_id,
        record.doi,
        record.openalex_id,
        record.title,
        work_key(record.title),
        record.abstract,
        record.date,
        record.year,
        record.venue,
        json.dumps(record.categories),
        record.cited_by_count,
        record.url,
        record.license,
        record.discipline,
        record.source,
        now,
        now,
        record.pdf_path,
    )


class PaperStore(SQLStore):
    # -- writing ------------------------------------------------------------------------------
    def insert_paper_row(self, record: PaperRecord) -> int:
        """A new row of ``papers`` alone (``Library.insert_paper`` adds its authors and citations)."""
        return inserted_id(self.conn.execute(f"insert into papers ({INSERTED}) values ({ROW_MARKS})", _row(record)))

    def insert_paper_rows(self, records: list[PaperRecord]) -> None:
        """New rows of ``papers``, in order, in one statement (``Library.insert_bare_papers``)."""
        marks = ", ".join(f"({ROW_MARKS})" for _ in records)
        self.conn.execute(
            f"insert into papers ({INSERTED}) values {marks}", [value for record in records for value in _row(record)]
        )

    def update_from_source(self, paper_id: int, record: PaperRecord) -> None:
        """A source that owns the record (a Zotero item edited since the last import) replaces what it
        says: title, abstract, date, venue, URL, DOI and, when they changed, the authors."""
        changes: dict[str, Any] = {
            "title": record.title,
            "title_key": work_key(record.title),
            "abstract": record.abstract,
            "date": record.date,
            "year": record.year,
            "venue": record.venue,
            "url": record.url,
            "updated_at": utc_now(),
        }
        if record.doi and self._id_is_free("doi", record.doi, paper_id):
            changes["doi"] = record.doi
        assignments = ", ".join(f"{column} = ?" for column in changes)
        self.conn.execute(f"update papers set {assignments} where id = ?", (*changes.values(), paper_id))
        written = [
            row["name_as_written"]
            for row in self._rows(
                "select name_as_written from authorships where paper_id = ? order by position", (paper_id,)
            )
        ]
        if written != [author.name for author in record.authors]:
            self.conn.execute("delete from authorships where paper_id = ?", (paper_id,))

    def _id_is_free(self, column: str, value: str, paper_id: int) -> bool:
        holder = self._one(f"select id from papers where {column} = ?", (value,))
        return holder is None or holder == paper_id

    def _merge_paper(self, paper_id: int, record: PaperRecord, now: str) -> None:
        """Fill what the library lacks; never replace a value with nothing."""
        row = self._rows("select * from papers where id = ?", (paper_id,))[0]
        changes: dict[str, Any] = {}
        for column in ("arxiv_id", "doi", "openalex_id"):
            value = getattr(record, column)
            if value and not row[column] and self._id_is_free(column, value, paper_id):
                changes[column] = value
        for column in ("abstract", "url", "license", "discipline", "pdf_path"):
            if getattr(record, column) and not row[column]:
                changes[column] = getattr(record, column)
        if record.date and (not row["date"] or len(row["date"]) < len(record.date)):
            changes["date"] = record.date
            changes["year"] = record.year
        if record.venue and (not row["venue"] or (row["venue"] == "arXiv" and record.venue != "arXiv")):
            changes["venue"] = record.venue
        if record.cited_by_count is not None and record.cited_by_count != row["cited_by_count"]:
            changes["cited_by_count"] = record.cited_by_count  # the newer count wins
        categories = json_list(row["categories"])
        merged = categories + [c for c in record.categories if c not in categories]
        if merged != categories:
            changes["categories"] = json.dumps(merged)
        if changes:
            changes["updated_at"] = now
            assignments = ", ".join(f"{column} = ?" for column in changes)
            self.conn.execute(f"update papers set {assignments} where id = ?", (*changes.values(), paper_id))

    # -- reading ------------------------------------------------------------------------------
    def resolve_paper(self, ref: str | int) -> int | None:
        """A library paper from 'paper:12', '12', an arXiv id, an OpenAlex id or a DOI."""
        from scholar_tui.indexes.records import arxiv_id, doi, openalex_id

        text = str(ref).strip()
        if text.startswith("paper:"):
            text = text[len("paper:") :]
        if text.isdigit():
            return self._one("select id from papers where id = ?", (int(text),)) if digits_fit_sqlite(text) else None
        for column, value in (("arxiv_id", arxiv_id(text)), ("openalex_id", openalex_id(text)), ("doi", doi(text))):
            if value:
                found = self._one(f"select id from papers where {column} = ?", (value,))
                if found:
                    return found
        return None

    def paper(self, paper_id: int) -> dict | None:
        rows = self._rows(f"select {PAPER_COLUMNS} from papers where id = ?", (paper_id,))
        if not rows:
            return None
        row = rows[0]
        row["categories"] = json_list(row["categories"])
        return row

    def papers(self, paper_ids: list[int]) -> dict[int, dict]:
        if not paper_ids:
            return {}
        marks = ",".join("?" * len(paper_ids))
        rows = self._rows(f"select {PAPER_COLUMNS} from papers where id in ({marks})", paper_ids)
        for row in rows:
            row["categories"] = json_list(row["categories"])
        return {row["id"]: row for row in rows}

    def recent_papers(self, limit: int = 50, *, own_only: bool = False) -> list[dict]:
        """The newest papers; ``own_only`` leaves out PaSa's cited works (source 'reference')."""
        where = "where source != 'reference' " if own_only else ""
        return self._rows(
            f"select id, arxiv_id, title, date, venue from papers {where}"
            "order by coalesce(date, '') desc, id desc limit ?",
            (limit,),
        )

    def all_papers(self) -> list[dict]:
        return self._rows(f"select {PAPER_COLUMNS} from papers order by id")
