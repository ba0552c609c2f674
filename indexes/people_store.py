"""People: scholars, the names they are written under, and who wrote which paper.

``PeopleStore`` is one of the stores ``indexes.library.Library`` is made of (see its docstring). A
paper's author list finds or creates one person per written name (``person_names`` keeps every
variant); merging variants that are one person is ``identity_store``'s.
"""

from __future__ import annotations

import json
from typing import Any

from scholar_tui.indexes.db import inserted_id
from scholar_tui.indexes.paper_store import PAPER_COLUMNS
from scholar_tui.indexes.records import AuthorRecord, PersonRecord, name_key
from scholar_tui.indexes.sql_store import SQLStore, digits_fit_sqlite, json_list, utc_now


class PeopleStore(SQLStore):
    # -- writing ------------------------------------------------------------------------------
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
        now = utc_now()
        person_id = inserted_id(
            self.conn.execute(
                """insert into people (name, name_key, openalex_id, orcid, organizations, interests, source,
               added_at, updated_at) values (?, ?, ?, ?, '[]', '[]', ?, ?, ?)""",
                (name, name_key(name), openalex, orcid, source, now, now),
            )
        )
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
        current = json_list(self._one("select organizations from people where id = ?", (person_id,)))
        if organization not in current:
            self.conn.execute(
                "update people set organizations = ?, organization = coalesce(organization, ?) where id = ?",
                (json.dumps(current + [organization]), organization, person_id),
            )

    def _store_authors(self, paper_id: int, authors: list[AuthorRecord]) -> None:
        if not authors:  # a cited work: nothing to store, nor to read the stored list for
            return
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
                        (first, second, utc_now()),
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
        organizations = json_list(row["organizations"])
        merged_orgs = list(dict.fromkeys(record.organizations + organizations))
        changes: dict[str, Any] = {}
        if record.organization and record.organization != row["organization"]:
            changes["organization"] = record.organization  # a profile knows the latest one
        if merged_orgs != organizations:
            changes["organizations"] = json.dumps(merged_orgs)
        if record.interests and record.interests != json_list(row["interests"]):
            changes["interests"] = json.dumps(record.interests)
        for column in ("cited_by_count", "works_count", "homepage"):
            value = getattr(record, column)
            if value is not None and value != row[column]:
                changes[column] = value
        if changes:
            changes["updated_at"] = utc_now()
            assignments = ", ".join(f"{column} = ?" for column in changes)
            self.conn.execute(f"update people set {assignments} where id = ?", (*changes.values(), person_id))
        return person_id, created

    # -- reading ------------------------------------------------------------------------------
    def resolve_person(self, ref: str | int) -> int | None:
        from scholar_tui.indexes.records import openalex_id

        text = str(ref).strip()
        if text.startswith("person:"):
            text = text[len("person:") :]
        if text.isdigit():
            return self._one("select id from people where id = ?", (int(text),)) if digits_fit_sqlite(text) else None
        oa = openalex_id(text)
        return self._one("select id from people where openalex_id = ?", (oa,)) if oa else None

    def person(self, person_id: int) -> dict | None:
        rows = self._rows("select * from people where id = ?", (person_id,))
        if not rows:
            return None
        row = rows[0]
        row["organizations"] = json_list(row["organizations"])
        row["interests"] = json_list(row["interests"])
        row["names"] = [
            r["name"]
            for r in self._rows("select name from person_names where person_id = ? order by name", (person_id,))
        ]
        return row

    def people(self, person_ids: list[int]) -> dict[int, dict]:
        """``person`` of each of these people, read a batch at a time (searchPerson's candidates:
        thousands when a question gives only an interest)."""
        found: dict[int, dict] = {}
        for chunk in _chunks(sorted(set(person_ids))):
            marks = ", ".join("?" * len(chunk))
            for row in self._rows(f"select * from people where id in ({marks})", tuple(chunk)):
                row["organizations"] = json_list(row["organizations"])
                row["interests"] = json_list(row["interests"])
                row["names"] = []
                found[row["id"]] = row
            names = self.conn.execute(
                f"select person_id, name from person_names where person_id in ({marks}) order by person_id, name", chunk
            )
            for person_id, name in names:
                found[person_id]["names"].append(name)
        return found

    def people_paper_counts(self, person_ids: list[int]) -> dict[int, tuple[int, int | None]]:
        """(papers in the library, their summed citations; None when no paper's count is known) of
        each of these people, absent for one without a paper: one row each kept by triggers
        (migration m014), never their papers (a prolific author's are thousands)."""
        counts: dict[int, tuple[int, int | None]] = {}
        for chunk in _chunks(sorted(set(person_ids))):
            marks = ", ".join("?" * len(chunk))
            rows = self.conn.execute(
                f"select person_id, papers, cited_papers, citations from person_stats where person_id in ({marks})",
                chunk,
            )
            for person_id, papers, cited_papers, citations in rows:
                counts[person_id] = (papers, citations if cited_papers else None)
        return counts

    def people_categories(self, person_ids: list[int]) -> dict[int, list[tuple[str, int]]]:
        """``person_categories`` of each of these people (absent: none)."""
        categories: dict[int, list[tuple[str, int]]] = {}
        for chunk in _chunks(sorted(set(person_ids))):
            marks = ", ".join("?" * len(chunk))
            rows = self.conn.execute(
                f"""select person_id, category, papers from person_category_counts where person_id in ({marks})
                    order by person_id, papers desc, category""",
                chunk,
            )
            for person_id, category, papers in rows:
                categories.setdefault(person_id, []).append((category, papers))
        return categories

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
        """The categories of a person's papers, most frequent first (then by code): the counts
        kept by triggers (migration m014), never their papers."""
        rows = self.conn.execute(
            """select category, papers from person_category_counts where person_id = ?
               order by papers desc, category""",
            (person_id,),
        )
        return [(category, papers) for category, papers in rows]

    def coauthors(self, person_id: int) -> list[dict]:
        # counted over the two authorship indexes alone (m014's (person_id, paper_id) covers "mine"),
        # then each coauthor's name read once, not once per joint paper
        return self._rows(
            """select people.id as person_id, people.name, joint.papers as joint_papers
               from (select theirs.person_id, count(*) as papers
                     from authorships as mine join authorships as theirs on theirs.paper_id = mine.paper_id
                     where mine.person_id = ? and theirs.person_id != ? group by theirs.person_id) as joint
               join people on people.id = joint.person_id
               order by joint_papers desc, people.name""",
            (person_id, person_id),
        )

    def paper_authors(self, paper_id: int) -> list[dict]:
        return self._rows(
            """select people.id as person_id, people.name, authorships.position, authorships.name_as_written,
                      coalesce(authorships.affiliation, people.organization) as organization
               from authorships join people on people.id = authorships.person_id
               where authorships.paper_id = ? order by authorships.position""",
            (paper_id,),
        )

    def paper_author_names(self, paper_id: int) -> list[str]:
        return [row["name"] for row in self.paper_authors(paper_id)]


def _chunks(ids: list[int], size: int = 500) -> list[list[int]]:
    """``ids`` in lists short enough for one statement's bound parameters."""
    return [ids[start : start + size] for start in range(0, len(ids), size)]


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
