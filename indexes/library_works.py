"""One paper, one record: which stored paper a record is, where each paper came from, the merges of
works (journalled so that they can be undone), and the collections and tags of reference managers.

A record finds its paper first by its own source id (a re-import of the same Zotero item, OpenAlex
work or BibTeX key), then by a DOI, arXiv id or OpenAlex id any source gave the paper, then by a
normalised title with the year (±1) and the first author's surname. Two records with the same title
but different first authors stay two papers (ten "Editor's introduction" columns are ten works).
A preprint and its published version carry different DOIs: they merge on title, year and first
author, and the paper keeps both DOIs (``paper_ids``), so a reference to either finds it.

``WorksMixin`` is one of the stores ``indexes.library.Library`` is made of (see its docstring).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime, timezone
from typing import Any

from scholar_tui.indexes.db import inserted_id
from scholar_tui.indexes.records import (
    AuthorRecord,
    PaperRecord,
    ReferenceRecord,
    SectionRecord,
    name_key,
    title_key,
)
from scholar_tui.indexes.sql_store import SQLStore

ID_COLUMNS = (("arxiv_id", "arXiv id"), ("doi", "DOI"), ("openalex_id", "OpenAlex id"))
MIN_TITLE_KEY = 12  # "Introduction" is not an identity
FILLED_COLUMNS = (
    "arxiv_id",
    "doi",
    "openalex_id",
    "abstract",
    "url",
    "license",
    "discipline",
    "date",
    "year",
    "venue",
    "categories",
    "cited_by_count",
    "pdf_path",
)
_PREPRINT = re.compile(r"\s+(preprint|pre print|accepted manuscript|author manuscript)$")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@functools.lru_cache(maxsize=4096)
def work_key(title: str) -> str:
    """The title as works are matched: folded, math dropped, '(Preprint)' at the end ignored.
    Memoised: a stored record's title is keyed three times (its source id, the lookup, its row)."""
    return _PREPRINT.sub("", title_key(title))


def surname(name: str | None) -> str:
    """The folded last word of a written name ('Last, First' or 'First Last')."""
    if not name:
        return ""
    text = name.split(",")[0] if "," in name else name
    words = name_key(text).split()
    return words[-1] if words else ""


def native_source_id(record: PaperRecord) -> str:
    """A record's id in its own source when the importer names none: its source's id kind first."""
    preferred = {"openalex": "openalex_id", "arxiv": "arxiv_id", "unarxive": "arxiv_id"}.get(record.source)
    for column in (preferred, "openalex_id", "arxiv_id", "doi"):
        if column and getattr(record, column):
            return f"{column.removesuffix('_id')}:{getattr(record, column)}"
    first = surname(record.authors[0].name) if record.authors else ""
    return f"title:{work_key(record.title)}|{record.year or ''}|{first}"


def identity_keys(record: PaperRecord) -> set[tuple[str, str]]:
    """Every key by which ``store_paper`` could find this record's paper, or another record find its
    paper: its source id, each of its ids, and its title key where long enough to count."""
    keys = {("source", f"{record.source}|{native_source_id(record)}")}
    keys.update((column, getattr(record, column)) for column, _ in ID_COLUMNS if getattr(record, column))
    key = work_key(record.title)
    if len(key) >= MIN_TITLE_KEY:
        keys.add(("title", key))
    return keys


def record_from_json(text: str) -> PaperRecord:
    data = json.loads(text)
    data["authors"] = [AuthorRecord(**author) for author in data.get("authors", [])]
    data["sections"] = [SectionRecord(**section) for section in data.get("sections", [])]
    data["references"] = [ReferenceRecord(**reference) for reference in data.get("references", [])]
    return PaperRecord(**data)


class WorksMixin(SQLStore):
    # Undoing a merge stores the record as a paper again, with its authors and citations: the one
    # write that spans every store, so ``Library`` provides it (declared here, not defined).
    insert_paper: Callable[[PaperRecord], int]

    # -- which paper is this record -------------------------------------------------------------------
    def paper_of_source(self, source: str, source_id: str) -> int | None:
        return self._one("select paper_id from paper_sources where source = ? and source_id = ?", (source, source_id))

    def paper_with_id(self, column: str, value: str) -> int | None:
        """The paper holding this DOI / arXiv id / OpenAlex id, as its own or from a merged copy."""
        return self._one(f"select id from papers where {column} = ?", (value,)) or self._one(
            "select paper_id from paper_ids where kind = ? and value = ?", (column, value)
        )

    def first_author_surname(self, paper_id: int) -> str:
        name = self._one(
            "select name_as_written from authorships where paper_id = ? order by position limit 1", (paper_id,)
        )
        return surname(name)

    def find_work(self, record: PaperRecord) -> tuple[int | None, str | None]:
        """The stored paper this record is and the evidence, or (None, None)."""
        for column, label in ID_COLUMNS:
            value = getattr(record, column)
            if value:
                found = self.paper_with_id(column, value)
                if found:
                    return found, f"same {label} {value}"
        key = work_key(record.title)
        if len(key) < MIN_TITLE_KEY:
            return None, None
        first = surname(record.authors[0].name) if record.authors else ""
        for row in self._rows(
            "select id, arxiv_id, doi, openalex_id, year from papers where title_key = ? order by id", (key,)
        ):
            if record.year and row["year"] and abs(record.year - row["year"]) > 1:
                continue
            # read only when the record names a first author (a cited work names none): each test below
            # needs both surnames
            theirs = self.first_author_surname(row["id"]) if first else ""
            if first and theirs and first != theirs:
                continue  # the same title by someone else: another work
            if record.arxiv_id and row["arxiv_id"] and record.arxiv_id != row["arxiv_id"]:
                continue  # two arXiv ids are two works
            other_ids = any(
                getattr(record, column) and row[column] and getattr(record, column) != row[column]
                for column in ("doi", "openalex_id")
            )
            if other_ids and not (first and theirs):
                continue  # a preprint and its journal version differ in DOI: the first author must say so
            year = " and year" if record.year and row["year"] else ""
            author = ", first author" if first and theirs else ""
            return row["id"], f"same title{year}{author}"
        return None, None

    # -- where papers came from ---------------------------------------------------------------------
    def note_source(
        self,
        paper_id: int,
        record: PaperRecord,
        source_id: str,
        *,
        library: str | None = None,
        item_type: str | None = None,
        stamp: str | None = None,
        want_row: bool = True,
    ) -> int | None:
        """The record noted as a source of the paper, and its ids; the ``paper_sources`` row's id
        when ``want_row`` (read back: an upsert's lastrowid does not say it)."""
        now = _now()
        self.conn.execute(
            """insert into paper_sources (paper_id, source, source_id, library, item_type, stamp, added_at, updated_at)
               values (?, ?, ?, ?, ?, ?, ?, ?)
               on conflict (source, source_id) do update set library = coalesce(excluded.library, library),
                   item_type = coalesce(excluded.item_type, item_type), stamp = coalesce(excluded.stamp, stamp),
                   updated_at = excluded.updated_at""",
            (paper_id, record.source, source_id, library, item_type, stamp, now, now),
        )
        for column, _ in ID_COLUMNS:
            value = getattr(record, column)
            if value:
                self.conn.execute(
                    "insert or ignore into paper_ids (kind, value, paper_id) values (?, ?, ?)",
                    (column, value, paper_id),
                )
        if not want_row:
            return None
        return self._one("select id from paper_sources where source = ? and source_id = ?", (record.source, source_id))

    def source_stamp(self, source: str, source_id: str) -> str | None:
        return self._one("select stamp from paper_sources where source = ? and source_id = ?", (source, source_id))

    def sources_with_prefix(self, source: str, prefix: str) -> list[dict]:
        return self._rows(
            """select paper_sources.*, papers.title from paper_sources join papers on papers.id = paper_sources.paper_id
               where paper_sources.source = ? and substr(source_id, 1, ?) = ? order by paper_sources.id""",
            (source, len(prefix), prefix),
        )

    def forget_source(self, source: str, source_id: str) -> None:
        self.conn.execute("delete from paper_sources where source = ? and source_id = ?", (source, source_id))

    def paper_sources(self, paper_id: int) -> list[dict]:
        return self._rows(
            """select source, source_id, library, item_type, stamp, added_at from paper_sources
               where paper_id = ? order by id""",
            (paper_id,),
        )

    # -- merges of works ----------------------------------------------------------------------------
    def contributions(self, paper_id: int) -> dict[str, Any]:
        """What a paper holds now, to tell afterwards what a merge added."""
        row = self._rows(f"select {', '.join(FILLED_COLUMNS)} from papers where id = ?", (paper_id,))[0]
        return {
            "columns": row,
            "sections": {
                r["ordinal"] for r in self._rows("select ordinal from sections where paper_id = ?", (paper_id,))
            },
            "references": {
                r["ref_key"] for r in self._rows("select ref_key from paper_references where paper_id = ?", (paper_id,))
            },
            "authors": bool(self._one("select 1 from authorships where paper_id = ? limit 1", (paper_id,))),
        }

    def log_work_merge(
        self, kept_id: int, source_row_id: int | None, evidence: str, record: PaperRecord, before: dict[str, Any]
    ) -> int:
        after = self.contributions(kept_id)
        changes = {
            "columns": {
                column: value for column, value in before["columns"].items() if after["columns"][column] != value
            },
            "sections": sorted(after["sections"] - before["sections"]),
            "references": sorted(after["references"] - before["references"]),
            "authors": after["authors"] and not before["authors"],
        }
        return inserted_id(
            self.conn.execute(
                """insert into paper_merges (kept_id, source_row_id, evidence, record, changes, merged_at)
               values (?, ?, ?, ?, ?, ?)""",
                (kept_id, source_row_id, evidence, json.dumps(asdict(record)), json.dumps(changes), _now()),
            )
        )

    def last_work_merge_id(self) -> int:
        return self._one("select coalesce(max(id), 0) from paper_merges")

    def work_merges(self, *, after_id: int = 0, paper_id: int | None = None) -> list[dict]:
        """Merges in force (newest last): each with the merged record's title, source and evidence."""
        where, params = ["paper_merges.split_at is null", "paper_merges.id > ?"], [after_id]
        if paper_id is not None:
            where.append("paper_merges.kept_id = ?")
            params.append(paper_id)
        rows = self._rows(
            f"""select paper_merges.id, kept_id, evidence, record, merged_at, paper_sources.source,
                       paper_sources.source_id
                from paper_merges left join paper_sources on paper_sources.id = paper_merges.source_row_id
                where {" and ".join(where)} order by paper_merges.id""",
            params,
        )
        for row in rows:
            record = json.loads(row.pop("record"))
            row["title"], row["record_source"] = record["title"], record["source"]
        return rows

    def split_work_merge(self, merge_id: int) -> dict:
        """Undo one merge: what it filled in leaves the kept paper, and the merged record becomes its
        own paper again, with its source row, ids, collections and tags; the two are kept apart."""
        rows = self._rows("select * from paper_merges where id = ? and split_at is null", (merge_id,))
        if not rows:
            raise KeyError(f"no merge {merge_id} of works to undo")
        merge = rows[0]
        kept_id, changes = merge["kept_id"], json.loads(merge["changes"])
        record = record_from_json(merge["record"])
        if changes["columns"]:
            assignments = ", ".join(f"{column} = ?" for column in changes["columns"])
            self.conn.execute(f"update papers set {assignments} where id = ?", (*changes["columns"].values(), kept_id))
        for ordinal in changes["sections"]:
            self.conn.execute("delete from sections where paper_id = ? and ordinal = ?", (kept_id, ordinal))
        for ref_key in changes["references"]:
            self.conn.execute("delete from paper_references where paper_id = ? and ref_key = ?", (kept_id, ref_key))
        if changes["authors"]:
            self.conn.execute("delete from authorships where paper_id = ?", (kept_id,))
        for column, _ in ID_COLUMNS:  # ids are unique: the kept paper keeps the one it holds itself
            value = getattr(record, column)
            if value and self._one(f"select 1 from papers where {column} = ?", (value,)):
                setattr(record, column, None)
        restored = self.insert_paper(record)
        self.conn.execute("update paper_sources set paper_id = ? where id = ?", (restored, merge["source_row_id"]))
        for column, _ in ID_COLUMNS:
            original = json.loads(merge["record"]).get(column)
            if original:
                self.conn.execute(
                    "update paper_ids set paper_id = ? where kind = ? and value = ? and paper_id = ?",
                    (restored, column, original, kept_id),
                )
        self._move_labels(kept_id, restored, merge["source_row_id"])
        self.conn.execute("update paper_merges set split_at = ? where id = ?", (_now(), merge_id))
        first, second = sorted((kept_id, restored))
        self.conn.execute(
            "insert or ignore into papers_apart (first_id, second_id, decided_at) values (?, ?, ?)",
            (first, second, _now()),
        )
        return {"kept_id": kept_id, "restored_id": restored, "title": record.title}

    def papers_kept_apart(self, paper_id: int) -> set[int]:
        return {
            row["first_id"] if row["second_id"] == paper_id else row["second_id"]
            for row in self._rows(
                "select first_id, second_id from papers_apart where first_id = ? or second_id = ?", (paper_id, paper_id)
            )
        }

    def _move_labels(self, kept_id: int, restored_id: int, source_row_id: int | None) -> None:
        """Collections and tags came with a Zotero item: they follow it to its own paper."""
        row = self._rows("select source, source_id from paper_sources where id = ?", (source_row_id,))
        if not row or row[0]["source"] != "zotero":
            return
        origin = "zotero:" + row[0]["source_id"].rsplit("/", 1)[0]
        self.conn.execute(
            "update paper_tags set paper_id = ? where paper_id = ? and origin = ?", (restored_id, kept_id, origin)
        )
        self.conn.execute(
            """update paper_collections set paper_id = ? where paper_id = ?
               and collection_id in (select id from collections where origin = ?)""",
            (restored_id, kept_id, origin),
        )

    # -- collections and tags -----------------------------------------------------------------------
    def store_collection(self, origin: str, key: str, path: str) -> int:
        self.conn.execute(
            """insert into collections (origin, key, path) values (?, ?, ?)
               on conflict (origin, key) do update set path = excluded.path""",
            (origin, key, path),
        )
        return self._one("select id from collections where origin = ? and key = ?", (origin, key))

    def set_labels(self, paper_id: int, origin: str, collection_paths: list[str], tags: list[str]) -> None:
        """This origin's collections and tags of a paper become exactly these (a re-import replaces them)."""
        self.conn.execute(
            """delete from paper_collections where paper_id = ?
               and collection_id in (select id from collections where origin = ?)""",
            (paper_id, origin),
        )
        self.conn.execute("delete from paper_tags where paper_id = ? and origin = ?", (paper_id, origin))
        for path in collection_paths:
            for collection_id in [
                r["id"] for r in self._rows("select id from collections where origin = ? and path = ?", (origin, path))
            ]:
                self.conn.execute(
                    "insert or ignore into paper_collections (paper_id, collection_id) values (?, ?)",
                    (paper_id, collection_id),
                )
        for tag in tags:
            self.conn.execute(
                "insert or ignore into paper_tags (paper_id, tag, origin) values (?, ?, ?)", (paper_id, tag, origin)
            )

    def paper_labels(self, paper_id: int) -> dict[str, list[str]]:
        """A paper's collections (paths) and tags, from every reference manager it came from."""
        return {
            "collections": [
                row["path"]
                for row in self._rows(
                    """select distinct collections.path from paper_collections
                   join collections on collections.id = paper_collections.collection_id
                   where paper_collections.paper_id = ? order by collections.path""",
                    (paper_id,),
                )
            ],
            "tags": [
                row["tag"]
                for row in self._rows(
                    "select distinct tag from paper_tags where paper_id = ? order by tag", (paper_id,)
                )
            ],
        }

    def collections(self) -> list[dict]:
        return self._rows(
            """select collections.path, collections.origin, count(paper_collections.paper_id) as papers
               from collections left join paper_collections on paper_collections.collection_id = collections.id
               group by collections.id order by collections.path"""
        )

    def tags(self) -> list[dict]:
        return self._rows("select tag, count(distinct paper_id) as papers from paper_tags group by tag order by tag")

    def papers_labelled(self, *, collection: str | None = None, tag: str | None = None) -> set[int]:
        """Papers in a collection (by name or path, sub-collections included) and/or with a tag
        (case-insensitive)."""
        chosen: set[int] | None = None
        if collection is not None:
            wanted = collection.strip().strip("/").lower()
            ids = {
                row["paper_id"]
                for row in self._rows(
                    """select paper_collections.paper_id, collections.path from paper_collections
                   join collections on collections.id = paper_collections.collection_id"""
                )
                if _in_collection(row["path"].lower(), wanted)
            }
            chosen = ids
        if tag is not None:
            ids = {
                row["paper_id"]
                for row in self._rows("select paper_id from paper_tags where lower(tag) = ?", (tag.strip().lower(),))
            }
            chosen = ids if chosen is None else chosen & ids
        return chosen or set()

    def has_collection(self, name: str) -> bool:
        wanted = name.strip().strip("/").lower()
        return any(_in_collection(row["path"].lower(), wanted) for row in self._rows("select path from collections"))


def _in_collection(path: str, wanted: str) -> bool:
    """'computer science/distributed systems' is in 'computer science', in 'distributed systems' and
    in itself; 'physics/space' is not in 'computer science'."""
    parts = path.split("/")
    for start in range(len(parts)):
        tail = "/".join(parts[start:])
        if tail == wanted or tail.startswith(wanted + "/"):
            return True
    return False
