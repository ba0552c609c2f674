"""Sections, bibliography entries and citation edges: what a paper cites and where.

``CitationStore`` is one of the stores ``indexes.library.Library`` is made of (see its docstring).
A paper's references (``paper_references``) point at library papers when their ids or title match
one (``relink``); ``citations`` holds the resulting edges; ``section_references`` says which
section cites which entry.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from scholar_tui.indexes.db import inserted_id
from scholar_tui.indexes.library_works import MIN_TITLE_KEY, work_key
from scholar_tui.indexes.records import PaperRecord
from scholar_tui.indexes.sql_store import SQLStore

WHOLE_PASS_SHARE = 4  # relink everything when an import's papers are a quarter of the library or more


def reference_title_key(title: str | None) -> str | None:
    """The key a titled entry is linked by (``papers.title_key``); None when too short to name a work."""
    key = work_key(title) if title else ""
    return key if len(key) >= MIN_TITLE_KEY else None


class CitationStore(SQLStore):
    # -- writing ------------------------------------------------------------------------------
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
            cursor = self.conn.execute(
                """insert into paper_references (paper_id, ref_key, ordinal, raw, title, title_key, year, arxiv_id,
                   doi, openalex_id, ids, source, authors, venue) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                   on conflict (paper_id, ref_key) do nothing""",
                (
                    paper_id,
                    reference.ref_key,
                    reference.ordinal,
                    reference.raw,
                    reference.title,
                    reference_title_key(reference.title),
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
            # the new row's id, or (an entry this paper already had) the stored one's
            reference_ids[reference.ref_key] = (
                inserted_id(cursor)
                if cursor.rowcount == 1
                else self._one(
                    "select id from paper_references where paper_id = ? and ref_key = ?", (paper_id, reference.ref_key)
                )
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
            cursor = self.conn.execute(
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
            section_id = (
                inserted_id(cursor)
                if cursor.rowcount == 1
                else self._one(
                    "select id from sections where paper_id = ? and ordinal = ?", (paper_id, section.ordinal)
                )
            )
            for ref_key, mentions in section.reference_keys.items():
                reference_id = reference_ids.get(ref_key)
                if reference_id is not None:
                    self.conn.execute(
                        """insert or ignore into section_references (section_id, reference_id, mentions)
                           values (?, ?, ?)""",
                        (section_id, reference_id, mentions),
                    )

    def relink(self, paper_ids: Iterable[int] | None = None) -> int:
        """Point references at library papers that match their ids or title; add citation edges.
        Returns the new edges.

        With ``paper_ids`` (the papers an import stored or merged into) only the references those
        papers make and the unlinked references naming them are looked at, through the indexes on the
        id and title-key columns: an import costs what its own records touch, not the library's size.
        Without, or when the papers are a good part of the library, every unlinked reference is looked
        at in one pass."""
        ids = set(paper_ids) if paper_ids is not None else None
        if ids is None or len(ids) * WHOLE_PASS_SHARE >= self._one("select count(*) from papers"):
            # an import that brings a good part of the library (the first one) touches nearly every
            # entry anyway: one set-based pass is cheaper than lookups paper by paper
            return self._relink_everything()
        self.conn.execute("create temp table if not exists relinked_papers (id integer primary key)")
        self.conn.execute("delete from relinked_papers")
        self.conn.executemany("insert or ignore into relinked_papers (id) values (?)", ((i,) for i in ids))
        # CROSS JOIN keeps the few relinked papers as the outer loop, and '+cited_paper_id' keeps the
        # planner off the index of unlinked entries (most entries of a big library): each statement
        # goes through the index of the column it matches, a lookup per relinked paper.
        papers = self._rows(
            """select papers.id, papers.arxiv_id, papers.openalex_id, papers.doi, papers.title_key
               from relinked_papers cross join papers on papers.id = relinked_papers.id"""
        )
        for column in ("arxiv_id", "openalex_id", "doi"):
            match = f"(select papers.id from papers where papers.{column} = paper_references.{column})"
            self.conn.executemany(  # what the relinked papers cite
                f"""update paper_references set cited_paper_id = {match}
                    where paper_id = ? and +cited_paper_id is null and {column} is not null""",
                [(paper["id"],) for paper in papers],
            )
            self.conn.executemany(  # what cites them
                f"update paper_references set cited_paper_id = ? where {column} = ? and +cited_paper_id is null",
                [(paper["id"], paper[column]) for paper in papers if paper[column]],
            )
        for paper in papers:
            self._link_by_title("paper_id = ?", (paper["id"],))
            self._link_by_title("title_key = ?", (paper["title_key"],))
        added = 0
        for touching in ("paper_id", "cited_paper_id"):
            added += self.conn.execute(
                f"""insert or ignore into citations (citing_paper_id, cited_paper_id)
                    select paper_id, cited_paper_id from relinked_papers
                    cross join paper_references on paper_references.{touching} = relinked_papers.id
                    where cited_paper_id is not null and cited_paper_id != paper_id"""
            ).rowcount
        return added

    def _relink_everything(self) -> int:
        for column in ("arxiv_id", "openalex_id", "doi"):
            self.conn.execute(
                f"""update paper_references set cited_paper_id =
                    (select papers.id from papers where papers.{column} = paper_references.{column})
                    where cited_paper_id is null and {column} is not null"""
            )
        self._link_by_title("1", ())
        before = self._one("select count(*) from citations")
        self.conn.execute(
            """insert or ignore into citations (citing_paper_id, cited_paper_id)
               select paper_id, cited_paper_id from paper_references
               where cited_paper_id is not null and cited_paper_id != paper_id"""
        )
        return self._one("select count(*) from citations") - before

    def _link_by_title(self, which: str, params: tuple) -> None:
        """Entries read with a title (PDF reference lists, GROBID) point at the library paper of the
        same normalised title and year (±1), as ``_find_paper`` matches papers without a shared id.
        ``which`` (with ``params``): an SQL condition on ``paper_references`` choosing the entries."""
        for row in self._rows(
            f"""select id, paper_id, title_key, year from paper_references
                where +cited_paper_id is null and title_key is not null and {which}""",
            params,
        ):
            for paper in self._rows("select id, year from papers where title_key = ?", (row["title_key"],)):
                if paper["id"] != row["paper_id"] and (
                    not row["year"] or not paper["year"] or abs(row["year"] - paper["year"]) <= 1
                ):
                    self.conn.execute(
                        "update paper_references set cited_paper_id = ? where id = ?", (paper["id"], row["id"])
                    )
                    break

    # -- reading ------------------------------------------------------------------------------
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
