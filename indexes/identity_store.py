"""Identity: merging people who are one person, journalled so that a merge can be undone.

``IdentityStore`` is one of the stores ``indexes.library.Library`` is made of (see its docstring).
``core.library.identity`` decides which people are one; this store reads the evidence it weighs
(names, coauthors, affiliations), applies a merge (``merge_people``) and undoes one
(``split_merge``), after which the pair is kept apart (``people_apart``).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from scholar_tui.indexes.db import inserted_id
from scholar_tui.indexes.people_store import PeopleStore
from scholar_tui.indexes.records import name_key
from scholar_tui.indexes.sql_store import json_list, utc_now

WORDS_PER_QUERY = 200  # words OR'ed in one query of the name index


class IdentityStore(PeopleStore):
    def identity_rows(
        self, *, ids: Collection[int] | None = None, name_words: Collection[str] | None = None
    ) -> list[dict]:
        """Every person; or these ``ids``; or (``name_words``) those with a name variant holding one of
        these folded words, found through the name index: the people an import's authors could be."""
        if ids is not None:
            found = self._rows(
                "select id, name, openalex_id, orcid from people where id in (select value from json_each(?))",
                (json.dumps(sorted(ids)),),
            )
            return sorted(found, key=lambda row: row["id"])
        if name_words is None:
            return self._rows("select id, name, openalex_id, orcid from people order by id")
        rows: dict[int, dict] = {}
        words = sorted(name_words)
        for start in range(0, len(words), WORDS_PER_QUERY):
            query = " OR ".join(f'"{word}"' for word in words[start : start + WORDS_PER_QUERY])
            for row in self._rows(
                """select id, name, openalex_id, orcid from people where id in
                   (select person_id from person_names where rowid in
                       (select rowid from person_name_index where person_name_index match ?))""",
                (query,),
            ):
                rows[row["id"]] = row
        return [rows[person_id] for person_id in sorted(rows)]

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

    def person_count(self) -> int:
        return self._one("select count(*) from people")

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
        merge_id = inserted_id(
            self.conn.execute(
                """insert into person_merges (kept_id, merged_id, evidence, merged_row, names, authorships, merged_at)
               values (?, ?, ?, ?, ?, ?, ?)""",
                (kept_id, merged_id, evidence, json.dumps(row), json.dumps(names), json.dumps(authorships), utc_now()),
            )
        )
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
        for organization in json_list(row["organizations"]):
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
            (name, name_key(name), utc_now(), person_id),
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
        self.conn.execute("update person_merges set split_at = ? where id = ?", (utc_now(), merge_id))
        first, second = sorted((kept_id, merged_id))
        self.conn.execute(
            "insert or ignore into people_apart (first_id, second_id, decided_at) values (?, ?, ?)",
            (first, second, utc_now()),
        )
        return {"kept_id": kept_id, "restored_id": merged_id, "restored_name": row["name"], "names": names}
