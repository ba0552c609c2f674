"""The library in SQLite: papers, people, authorship, sections, references and citation edges.

``Library`` writes the records that importers produce (``indexes.records``) and answers the
reads that the API library, the search index and the TUI need. Writes happen inside
``transaction()``: an import either lands whole or not at all. Plain SQL throughout, because
sqlite-utils' bulk helpers commit on their own and would break that promise.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any

import sqlite_utils

from scholar_tui.config.locations import Locations
from scholar_tui.indexes.db import fits_sqlite, inserted_id, open_database
from scholar_tui.indexes.library_works import WorksMixin, native_source_id, work_key
from scholar_tui.indexes.records import AuthorRecord, PaperRecord, PersonRecord, name_key

COUNTED_TABLES = {
    "papers": "papers",
    "people": "people",
    "authorships": "authorships",
    "sections": "sections",
    "references": "paper_references",
    "section_references": "section_references",
    "citations": "citations",
}
PAPER_COLUMNS = (
    "id, arxiv_id, doi, openalex_id, title, abstract, date, year, venue, categories, cited_by_count, "
    "url, license, discipline, source, pdf_path"
)


class LibraryBusy(Exception):
    """Another connection held the write lock for longer than we wait; one line for the user."""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _json_list(value: str | None) -> list:
    return json.loads(value) if value else []


class Library(WorksMixin):
    """One connection's view of the library; open one per thread."""

    def __init__(self, db: sqlite_utils.Database) -> None:
        self.db = db
        self.conn: sqlite3.Connection = db.conn

    @classmethod
    def open(cls, where: Locations) -> "Library":
        return cls(open_database(where))

    def close(self) -> None:
        self.conn.close()

    def _one(self, sql: str, params: tuple | list = ()) -> Any:
        row = self.conn.execute(sql, params).fetchone()
        return row[0] if row else None

    def _rows(self, sql: str, params: tuple | list = ()) -> list[dict]:
        cursor = self.conn.execute(sql, params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=False)) for row in cursor.fetchall()]

    # -- transactions --------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator["Library"]:
        """All or nothing: an exception rolls every write back."""
        from scholar_tui.indexes.db import LOCK_WAIT_S

        try:
            self.conn.execute("begin immediate")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) and "busy" not in str(error):
                raise
            raise LibraryBusy(
                f"the library is busy: another import (or the app) has held its write lock for over "
                f"{LOCK_WAIT_S:.0f} s; try again when it has finished"
            ) from error
        try:
            yield self
        except BaseException:
            self.conn.execute("rollback")
            raise
        self.conn.execute("commit")

    def counts(self) -> dict[str, int]:
        return {label: self._one(f"select count(*) from {table}") for label, table in COUNTED_TABLES.items()}

    def paper_count(self) -> int:
        return self._one("select count(*) from papers")

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

    # -- writing papers ------------------------------------------------------------------------
    def store_paper(
        self,
        record: PaperRecord,
        *,
        source_id: str | None = None,
        library: str | None = None,
        item_type: str | None = None,
        stamp: str | None = None,
    ) -> tuple[int, bool]:
        """Insert or merge one paper with its authors, sections and references: (id, created).

        The record's own source id (``source_id``; by default its source's native id) finds the paper a
        re-import stored; otherwise ``find_work`` looks for the same work from another source, and a
        merge into it is journalled (``paper_merges``) so that ``split_work_merge`` can undo it."""
        source_id = source_id or native_source_id(record)
        paper_id = self.paper_of_source(record.source, source_id)
        evidence = None
        if paper_id is None:
            paper_id, evidence = self.find_work(record)
        created = paper_id is None
        before = self.contributions(paper_id) if evidence and paper_id is not None else None
        if paper_id is None:
            paper_id = self.insert_paper(record)
        else:
            self._merge_paper(paper_id, record, _now())
            self._store_authors(paper_id, record.authors)
            self._store_sections_and_references(paper_id, record)
        source_row = self.note_source(paper_id, record, source_id, library=library, item_type=item_type, stamp=stamp)
        if evidence and before is not None:
            self.log_work_merge(paper_id, source_row, evidence, record, before)
        return paper_id, created

    def insert_paper(self, record: PaperRecord) -> int:
        """A new paper row with its authors, sections and references (no identity lookup)."""
        now = _now()
        cursor = self.conn.execute(
            """insert into papers (arxiv_id, doi, openalex_id, title, title_key, abstract, date, year,
               venue, categories, cited_by_count, url, license, discipline, source, added_at, updated_at, pdf_path)
               values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (
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
            ),
        )
        paper_id = inserted_id(cursor)
        self._store_authors(paper_id, record.authors)
        self._store_sections_and_references(paper_id, record)
        return paper_id

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
            "updated_at": _now(),
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
        categories = _json_list(row["categories"])
        merged = categories + [c for c in record.categories if c not in categories]
        if merged != categories:
            changes["categories"] = json.dumps(merged)
        if changes:
            changes["updated_at"] = now
            assignments = ", ".join(f"{column} = ?" for column in changes)
            self.conn.execute(f"update papers set {assignments} where id = ?", (*changes.values(), paper_id))

    # -- people ----------------------------------------------------------------------------------
    def _find_person(self, name: str, openalex: str | None) -> int | None:
        if openalex:
            found = self._one("select id from people where openalex_id = ?", (openalex,))
            if found:
                return found
        key = name_key(name)
        if not key:
            return None
        # Without an id, the same written name is the same person; a person who already has a
        # different OpenAlex id is someone else.
        candidates = self._rows(
            """select people.id, people.openalex_id from person_names join people on people.id = person_names.person_id
               where person_names.name_key = ? order by people.id""",
            (key,),
        )
        for candidate in candidates:
            if not openalex or not candidate["openalex_id"]:
                return candidate["id"]
        return None

    def _add_name(self, person_id: int, name: str) -> None:
        self.conn.execute(
            "insert or ignore into person_names (person_id, name, name_key) values (?, ?, ?)",
            (person_id, name, name_key(name)),
        )

    def _new_person(self, name: str, source: str, openalex: str | None = None, orcid: str | None = None) -> int:
        now = _now()
        cursor = self.conn.execute(
            """insert into people (name, name_key, openalex_id, orcid, organizations, interests, source,
               added_at, updated_at) values (?, ?, ?, ?, '[]', '[]', ?, ?, ?)""",
            (name, name_key(name), openalex, orcid, source, now, now),
        )
        person_id = inserted_id(cursor)
        self._add_name(person_id, name)
        return person_id

    def _adopt_ids(self, person_id: int, openalex: str | None, orcid: str | None) -> None:
        if openalex and not self._one("select 1 from people where openalex_id = ?", (openalex,)):
            self.conn.execute(
                "update people set openalex_id = ? where id = ? and openalex_id is null", (openalex, person_id)
            )
        if orcid:
            self.conn.execute("update people set orcid = ? where id = ? and orcid is null", (orcid, person_id))

    def _note_organization(self, person_id: int, organization: str | None) -> None:
        if not organization:
            return
        current = _json_list(self._one("select organizations from people where id = ?", (person_id,)))
        if organization not in current:
            self.conn.execute(
                "update people set organizations = ?, organization = coalesce(organization, ?) where id = ?",
                (json.dumps(current + [organization]), organization, person_id),
            )

    def _store_authors(self, paper_id: int, authors: list[AuthorRecord]) -> None:
        existing = self._rows(
            """select authorships.position, authorships.person_id, people.name from authorships
               join people on people.id = authorships.person_id where authorships.paper_id = ?
               order by authorships.position""",
            (paper_id,),
        )
        if existing:
            # The paper came from another source first: keep its author list and only learn the
            # new source's ids, name variants and affiliations for the same positions.
            by_position = {row["position"]: row for row in existing}
            for position, author in enumerate(authors, start=1):
                row = by_position.get(position)
                if row and _same_person(row["name"], author.name):
                    self._adopt_ids(row["person_id"], author.openalex_id, author.orcid)
                    self._add_name(row["person_id"], author.name)
                    self._note_organization(row["person_id"], author.affiliation)
            return
        seen: set[int] = set()
        for position, author in enumerate(authors, start=1):
            person_id = self._find_person(author.name, author.openalex_id)
            if person_id is None:
                person_id = self._new_person(author.name, "paper", author.openalex_id, author.orcid)
            else:
                self._adopt_ids(person_id, author.openalex_id, author.orcid)
                self._add_name(person_id, author.name)
            if person_id in seen:
                # the same name twice in one author list ('Y Wang and D Liu and Y Wang') is two
                # people who share it: the second gets a person of its own, kept apart from the first
                person_id = self._new_person(author.name, "paper")
                namesakes = self._rows(
                    "select distinct person_id from person_names where name_key = ? and person_id != ?",
                    (name_key(author.name), person_id),
                )
                for other in namesakes:  # nothing but the name links them: no later merge on coauthors
                    first, second = sorted((other["person_id"], person_id))
                    self.conn.execute(
                        "insert or ignore into people_apart (first_id, second_id, decided_at) values (?, ?, ?)",
                        (first, second, _now()),
                    )
            seen.add(person_id)
            self._note_organization(person_id, author.affiliation)
            self.conn.execute(
                """insert or ignore into authorships (paper_id, person_id, position, name_as_written, affiliation)
                   values (?, ?, ?, ?, ?)""",
                (paper_id, person_id, position, author.name, author.affiliation),
            )

    def store_person(self, record: PersonRecord) -> tuple[int, bool]:
        """Insert or merge a scholar profile (OpenAlex authors): (id, created)."""
        person_id = self._find_person(record.name, record.openalex_id)
        created = person_id is None
        if person_id is None:
            person_id = self._new_person(record.name, record.source, record.openalex_id, record.orcid)
        else:
            self._adopt_ids(person_id, record.openalex_id, record.orcid)
        for name in [record.name, *record.alternative_names]:
            self._add_name(person_id, name)
        row = self._rows("select * from people where id = ?", (person_id,))[0]
        organizations = _json_list(row["organizations"])
        merged_orgs = list(dict.fromkeys(record.organizations + organizations))
        changes: dict[str, Any] = {}
        if record.organization and record.organization != row["organization"]:
            changes["organization"] = record.organization  # a profile knows the latest one
        if merged_orgs != organizations:
            changes["organizations"] = json.dumps(merged_orgs)
        if record.interests and record.interests != _json_list(row["interests"]):
            changes["interests"] = json.dumps(record.interests)
        for column in ("cited_by_count", "works_count", "homepage"):
            value = getattr(record, column)
            if value is not None and value != row[column]:
                changes[column] = value
        if changes:
            changes["updated_at"] = _now()
            assignments = ", ".join(f"{column} = ?" for column in changes)
            self.conn.execute(f"update people set {assignments} where id = ?", (*changes.values(), person_id))
        return person_id, created

    # -- identity: merging name variants and undoing it (core.library.identity decides) ------------
    def identity_rows(self) -> list[dict]:
        return self._rows("select id, name, openalex_id, orcid from people order by id")

    def identity_context(self, person_ids: list[int]) -> dict[str, dict[int, Any]]:
        """Names, coauthor ids and affiliations of these people: the evidence identity weighs."""
        marks = ",".join("?" * len(person_ids))
        names: dict[int, list[str]] = {}
        for row in self._rows(f"select person_id, name from person_names where person_id in ({marks})", person_ids):
            names.setdefault(row["person_id"], []).append(row["name"])
        coauthors: dict[int, set[int]] = {}
        for row in self._rows(
            f"""select mine.person_id as person_id, theirs.person_id as other from authorships as mine
                join authorships as theirs on theirs.paper_id = mine.paper_id and theirs.person_id != mine.person_id
                where mine.person_id in ({marks})""",
            person_ids,
        ):
            coauthors.setdefault(row["person_id"], set()).add(row["other"])
        affiliations: dict[int, set[str]] = {}
        for row in self._rows(
            f"select person_id, affiliation from authorships where affiliation is not null and person_id in ({marks})",
            person_ids,
        ):
            affiliations.setdefault(row["person_id"], set()).add(row["affiliation"])
        return {"names": names, "coauthors": coauthors, "affiliations": affiliations}

    def people_kept_apart(self) -> set[frozenset[int]]:
        return {frozenset((row["first_id"], row["second_id"])) for row in self._rows("select * from people_apart")}

    def authors_of(self, paper_ids: list[int]) -> list[int]:
        if not paper_ids:
            return []
        marks = ",".join("?" * len(paper_ids))
        return [
            row["person_id"]
            for row in self._rows(f"select distinct person_id from authorships where paper_id in ({marks})", paper_ids)
        ]

    def merge_people(self, kept_id: int, merged_id: int, evidence: str) -> int:
        """Move ``merged_id``'s papers and names to ``kept_id``, journalled; returns the merge's id."""
        row = self._rows("select * from people where id = ?", (merged_id,))[0]
        names = [r["name"] for r in self._rows("select name from person_names where person_id = ?", (merged_id,))]
        authorships = self._rows(
            "select paper_id, position, name_as_written, affiliation from authorships where person_id = ?", (merged_id,)
        )
        cursor = self.conn.execute(
            """insert into person_merges (kept_id, merged_id, evidence, merged_row, names, authorships, merged_at)
               values (?, ?, ?, ?, ?, ?, ?)""",
            (kept_id, merged_id, evidence, json.dumps(row), json.dumps(names), json.dumps(authorships), _now()),
        )
        merge_id = inserted_id(cursor)
        for authorship in authorships:  # a paper both were on keeps the kept person's row
            self.conn.execute(
                """insert or ignore into authorships (paper_id, person_id, position, name_as_written, affiliation)
                   values (?, ?, ?, ?, ?)""",
                (
                    authorship["paper_id"],
                    kept_id,
                    authorship["position"],
                    authorship["name_as_written"],
                    authorship["affiliation"],
                ),
            )
        for name in names:
            self._add_name(kept_id, name)
        for organization in _json_list(row["organizations"]):
            self._note_organization(kept_id, organization)
        self.conn.execute("delete from people where id = ?", (merged_id,))  # cascades its names and authorships
        self._adopt_ids(kept_id, row["openalex_id"], row["orcid"])
        self.conn.execute(
            "update person_merges set kept_id = ? where kept_id = ? and split_at is null", (kept_id, merged_id)
        )
        return merge_id

    def rename_person(self, person_id: int, name: str) -> None:
        self.conn.execute(
            "update people set name = ?, name_key = ?, updated_at = ? where id = ?",
            (name, name_key(name), _now(), person_id),
        )

    def person_merges(self, person_id: int | None = None, *, include_split: bool = False) -> list[dict]:
        where = [] if include_split else ["split_at is null"]
        params: list = []
        if person_id is not None:
            where.append("kept_id = ?")
            params.append(person_id)
        clause = f"where {' and '.join(where)}" if where else ""
        rows = self._rows(f"select * from person_merges {clause} order by id", params)
        for row in rows:
            row["merged_name"] = json.loads(row["merged_row"])["name"]
            row["names"] = json.loads(row["names"])
            del row["merged_row"], row["authorships"]
        return rows

    def split_merge(self, merge_id: int) -> dict:
        """Undo one merge: the merged person comes back under its old id with its names and papers
        (and the papers added later under those names); the pair is kept apart from now on."""
        rows = self._rows("select * from person_merges where id = ? and split_at is null", (merge_id,))
        if not rows:
            raise KeyError(f"no merge {merge_id} to undo")
        merge = rows[0]
        kept_id, merged_id = merge["kept_id"], merge["merged_id"]
        row = json.loads(merge["merged_row"])
        names = json.loads(merge["names"])
        # the kept person adopted the merged one's ids only where it had none: hand them back
        if row["openalex_id"]:
            self.conn.execute(
                "update people set openalex_id = null where id = ? and openalex_id = ?", (kept_id, row["openalex_id"])
            )
        if row["orcid"] and merge["evidence"] != "same ORCID":
            self.conn.execute("update people set orcid = null where id = ? and orcid = ?", (kept_id, row["orcid"]))
        columns = ", ".join(row)
        self.conn.execute(f"insert into people ({columns}) values ({', '.join('?' * len(row))})", list(row.values()))
        keys = {name_key(name) for name in names}
        kept_names = [r["name"] for r in self._rows("select name from person_names where person_id = ?", (kept_id,))]
        for name in names:
            self._add_name(merged_id, name)
        for name in kept_names:  # names that came with the merge leave the kept person
            if name in names:
                self.conn.execute("delete from person_names where person_id = ? and name = ?", (kept_id, name))
        moved = {(a["paper_id"], a["position"]) for a in json.loads(merge["authorships"])}
        for authorship in self._rows(
            "select paper_id, position, name_as_written, affiliation from authorships where person_id = ?", (kept_id,)
        ):
            if (authorship["paper_id"], authorship["position"]) in moved or name_key(
                authorship["name_as_written"] or ""
            ) in keys:
                self.conn.execute(
                    "delete from authorships where paper_id = ? and person_id = ?", (authorship["paper_id"], kept_id)
                )
                self.conn.execute(
                    """insert or ignore into authorships (paper_id, person_id, position, name_as_written, affiliation)
                       values (?, ?, ?, ?, ?)""",
                    (
                        authorship["paper_id"],
                        merged_id,
                        authorship["position"],
                        authorship["name_as_written"],
                        authorship["affiliation"],
                    ),
                )
        self.conn.execute("update person_merges set split_at = ? where id = ?", (_now(), merge_id))
        first, second = sorted((kept_id, merged_id))
        self.conn.execute(
            "insert or ignore into people_apart (first_id, second_id, decided_at) values (?, ?, ?)",
            (first, second, _now()),
        )
        return {"kept_id": kept_id, "restored_id": merged_id, "restored_name": row["name"], "names": names}

    # -- sections and references -------------------------------------------------------------------
    def _store_sections_and_references(self, paper_id: int, record: PaperRecord) -> None:
        reference_ids: dict[str, int] = {}
        for reference in record.references:
            if reference.openalex_id:
                # A bibliography entry replaces the bare OpenAlex "referenced work" row it names.
                if reference.ref_key != f"openalex:{reference.openalex_id}":
                    self.conn.execute(
                        "delete from paper_references where paper_id = ? and ref_key = ?",
                        (paper_id, f"openalex:{reference.openalex_id}"),
                    )
                elif self._one(
                    "select 1 from paper_references where paper_id = ? and openalex_id = ? and ref_key != ?",
                    (paper_id, reference.openalex_id, reference.ref_key),
                ):
                    continue  # the bibliography already has it
            self.conn.execute(
                """insert into paper_references (paper_id, ref_key, ordinal, raw, title, year, arxiv_id, doi,
                   openalex_id, ids, source, authors, venue) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                   on conflict (paper_id, ref_key) do nothing""",
                (
                    paper_id,
                    reference.ref_key,
                    reference.ordinal,
                    reference.raw,
                    reference.title,
                    reference.year,
                    reference.arxiv_id,
                    reference.doi,
                    reference.openalex_id,
                    json.dumps(reference.ids) if reference.ids else None,
                    record.source,
                    json.dumps(reference.authors) if reference.authors else None,
                    reference.venue,
                ),
            )
            reference_ids[reference.ref_key] = self._one(
                "select id from paper_references where paper_id = ? and ref_key = ?", (paper_id, reference.ref_key)
            )
        for cited in record.cites_openalex:
            if not self._one(
                "select 1 from paper_references where paper_id = ? and openalex_id = ?", (paper_id, cited)
            ):
                self.conn.execute(
                    """insert into paper_references (paper_id, ref_key, openalex_id, source)
                       values (?, ?, ?, ?) on conflict (paper_id, ref_key) do nothing""",
                    (paper_id, f"openalex:{cited}", cited, record.source),
                )
        for section in record.sections:
            self.conn.execute(
                """insert into sections (paper_id, ordinal, number, title, level, text, page, pages)
                   values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (paper_id, ordinal) do nothing""",
                (
                    paper_id,
                    section.ordinal,
                    section.number,
                    section.title,
                    section.level,
                    section.text,
                    section.page,
                    json.dumps(section.pages) if section.pages else None,
                ),
            )
            section_id = self._one(
                "select id from sections where paper_id = ? and ordinal = ?", (paper_id, section.ordinal)
            )
            for ref_key, mentions in section.reference_keys.items():
                reference_id = reference_ids.get(ref_key)
                if reference_id is not None:
                    self.conn.execute(
                        """insert or ignore into section_references (section_id, reference_id, mentions)
                           values (?, ?, ?)""",
                        (section_id, reference_id, mentions),
                    )

    def relink(self) -> int:
        """Point references at library papers that match their ids; add citation edges. Returns new edges."""
        for column in ("arxiv_id", "openalex_id", "doi"):
            self.conn.execute(
                f"""update paper_references set cited_paper_id =
                    (select papers.id from papers where papers.{column} = paper_references.{column})
                    where cited_paper_id is null and {column} is not null"""
            )
        self._link_by_title()
        before = self._one("select count(*) from citations")
        self.conn.execute(
            """insert or ignore into citations (citing_paper_id, cited_paper_id)
               select paper_id, cited_paper_id from paper_references
               where cited_paper_id is not null and cited_paper_id != paper_id"""
        )
        return self._one("select count(*) from citations") - before

    def _link_by_title(self) -> None:
        """Entries read with a title (PDF reference lists, GROBID) point at the library paper of the
        same normalised title and year (±1), as ``_find_paper`` matches papers without a shared id."""
        for row in self._rows(
            "select id, paper_id, title, year from paper_references where cited_paper_id is null and title is not null"
        ):
            key = work_key(row["title"])
            if len(key) < 12:
                continue
            for paper in self._rows("select id, year from papers where title_key = ?", (key,)):
                if paper["id"] != row["paper_id"] and (
                    not row["year"] or not paper["year"] or abs(row["year"] - paper["year"]) <= 1
                ):
                    self.conn.execute(
                        "update paper_references set cited_paper_id = ? where id = ?", (paper["id"], row["id"])
                    )
                    break

    # -- reading -----------------------------------------------------------------------------------
    def resolve_paper(self, ref: str | int) -> int | None:
        """A library paper from 'paper:12', '12', an arXiv id, an OpenAlex id or a DOI."""
        from scholar_tui.indexes.records import arxiv_id, doi, openalex_id

        text = str(ref).strip()
        if text.startswith("paper:"):
            text = text[len("paper:") :]
        if text.isdigit():
            return self._one("select id from papers where id = ?", (int(text),)) if _digits_fit_sqlite(text) else None
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
        row["categories"] = _json_list(row["categories"])
        return row

    def papers(self, paper_ids: list[int]) -> dict[int, dict]:
        if not paper_ids:
            return {}
        marks = ",".join("?" * len(paper_ids))
        rows = self._rows(f"select {PAPER_COLUMNS} from papers where id in ({marks})", paper_ids)
        for row in rows:
            row["categories"] = _json_list(row["categories"])
        return {row["id"]: row for row in rows}

    def recent_papers(self, limit: int = 50) -> list[dict]:
        return self._rows(
            "select id, arxiv_id, title, date, venue from papers order by coalesce(date, '') desc, id desc limit ?",
            (limit,),
        )

    def all_papers(self) -> list[dict]:
        return self._rows(f"select {PAPER_COLUMNS} from papers order by id")

    def paper_authors(self, paper_id: int) -> list[dict]:
        return self._rows(
            """select people.id as person_id, people.name, authorships.position, authorships.name_as_written,
                      coalesce(authorships.affiliation, people.organization) as organization
               from authorships join people on people.id = authorships.person_id
               where authorships.paper_id = ? order by authorships.position""",
            (paper_id,),
        )

    def sections(self, paper_id: int) -> list[dict]:
        rows = self._rows(
            """select sections.id, ordinal, number, title, level, text, page, pages,
                      (select count(*) from section_references where section_id = sections.id) as reference_count
               from sections where paper_id = ? order by ordinal""",
            (paper_id,),
        )
        for row in rows:
            row["pages"] = json.loads(row["pages"]) if row["pages"] else []
        return rows

    def find_sections(self, paper_id: int, name: str) -> list[dict]:
        """Sections a (sub)section name points at — '2.1', 'Related Work', 'related work section' —
        best first; what PaSa's [Expand] resolves before taking the section's references."""
        from scholar_tui.indexes.fuzzy import title_score

        wanted = name.strip().lower()
        scored = []
        for section in self.sections(paper_id):
            if section["number"] and wanted in (section["number"].lower(), f"section {section['number']}".lower()):
                score = 2.0
            else:
                score = title_score(name, section["title"] or "")
            if score >= 0.6:
                scored.append((score, section))
        scored.sort(key=lambda item: (-item[0], item[1]["ordinal"]))
        return [section for _, section in scored]

    def references(self, paper_id: int, section_id: int | None = None) -> list[dict]:
        """The paper's references (or one section's), each with its links and library match."""
        if section_id is None:
            where, params = "paper_references.paper_id = ?", (paper_id,)
        else:
            where = "paper_references.id in (select reference_id from section_references where section_id = ?)"
            params = (section_id,)
        rows = self._rows(
            f"""select paper_references.id, ref_key, ordinal, raw, paper_references.title, paper_references.year,
                       paper_references.arxiv_id, paper_references.doi, paper_references.openalex_id, ids,
                       paper_references.authors, paper_references.venue,
                       cited_paper_id, cited.title as cited_title
                from paper_references left join papers as cited on cited.id = paper_references.cited_paper_id
                where {where} order by coalesce(ordinal, 1e9), paper_references.id""",
            params,
        )
        for row in rows:
            row["ids"] = json.loads(row["ids"]) if row["ids"] else {}
            row["authors"] = json.loads(row["authors"]) if row["authors"] else []
        return rows

    def sections_citing(self, reference_id: int) -> list[dict]:
        return self._rows(
            """select sections.id, sections.number, sections.title from section_references
               join sections on sections.id = section_references.section_id where reference_id = ? order by ordinal""",
            (reference_id,),
        )

    def cited_by(self, paper_id: int) -> list[int]:
        return [
            row["citing_paper_id"]
            for row in self._rows("select citing_paper_id from citations where cited_paper_id = ?", (paper_id,))
        ]

    # people
    def resolve_person(self, ref: str | int) -> int | None:
        from scholar_tui.indexes.records import openalex_id

        text = str(ref).strip()
        if text.startswith("person:"):
            text = text[len("person:") :]
        if text.isdigit():
            return self._one("select id from people where id = ?", (int(text),)) if _digits_fit_sqlite(text) else None
        oa = openalex_id(text)
        return self._one("select id from people where openalex_id = ?", (oa,)) if oa else None

    def person(self, person_id: int) -> dict | None:
        rows = self._rows("select * from people where id = ?", (person_id,))
        if not rows:
            return None
        row = rows[0]
        row["organizations"] = _json_list(row["organizations"])
        row["interests"] = _json_list(row["interests"])
        row["names"] = [
            r["name"]
            for r in self._rows("select name from person_names where person_id = ? order by name", (person_id,))
        ]
        return row

    def people_names(self) -> list[dict]:
        """Every (person, name variant) pair: what fuzzy name search scans."""
        return self._rows(
            """select people.id as person_id, person_names.name, people.organization, people.organizations,
                      people.interests from person_names join people on people.id = person_names.person_id"""
        )

    def person_papers(self, person_id: int) -> list[dict]:
        return self._rows(
            f"""select {", ".join("papers." + c.strip() for c in PAPER_COLUMNS.split(","))}, authorships.position
                from authorships join papers on papers.id = authorships.paper_id
                where authorships.person_id = ?
                order by coalesce(papers.cited_by_count, -1) desc, coalesce(papers.date, '') desc""",
            (person_id,),
        )

    def person_categories(self, person_id: int) -> list[tuple[str, int]]:
        """The categories of a person's papers, most frequent first."""
        counts: dict[str, int] = {}
        for row in self._rows(
            """select papers.categories from authorships join papers on papers.id = authorships.paper_id
               where authorships.person_id = ?""",
            (person_id,),
        ):
            for category in _json_list(row["categories"]):
                counts[category] = counts.get(category, 0) + 1
        return sorted(counts.items(), key=lambda item: (-item[1], item[0]))

    def coauthors(self, person_id: int) -> list[dict]:
        return self._rows(
            """select people.id as person_id, people.name, count(*) as joint_papers
               from authorships as mine join authorships as theirs on theirs.paper_id = mine.paper_id
               join people on people.id = theirs.person_id
               where mine.person_id = ? and theirs.person_id != ?
               group by people.id order by joint_papers desc, people.name""",
            (person_id, person_id),
        )

    def paper_author_names(self, paper_id: int) -> list[str]:
        return [row["name"] for row in self.paper_authors(paper_id)]


def _digits_fit_sqlite(digits: str) -> bool:
    """An id SQLite can hold (a 64-bit integer); larger ones name nothing and would overflow."""
    return digits.isascii() and len(digits) <= 19 and fits_sqlite(int(digits))


def _same_person(first: str, second: str) -> bool:
    """Two spellings of one author at the same position: same surname, compatible initials."""
    a, b = name_key(first).split(), name_key(second).split()
    if not a or not b:
        return False
    if a == b:
        return True
    if a[-1] != b[-1] and a[0] != b[-1] and a[-1] != b[0]:
        return False
    return a[0][0] == b[0][0] or a[-1][0] == b[0][0]
