"""The SQL that PaSa needs beyond ``Library``'s own reads: unlinked references and their links.

PaSa turns each titled bibliography entry into a library paper (a "cited work") and points the
entry at it; these are the statements that do it (the titles read at import, the entries still to
prepare, a batch at a time), plus the reads the Crawler's expand tool makes (a section's
references, with the library paper each one resolves to).
"""

from __future__ import annotations

import json

from scholar_tui.indexes.library import Library


def _rows(library: Library, sql: str, params: tuple = ()) -> list[dict]:
    cursor = library.conn.execute(sql, params)
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row, strict=False)) for row in cursor.fetchall()]


# The unlinked entries PaSa's preparation still has to look at: not read yet, or read with a title
# and not yet pointing at a paper (the condition of the partial index paper_references_to_prepare).
TO_PREPARE = "cited_paper_id is null and raw is not null and (title_read = 0 or read_title is not null)"


def references_to_prepare(library: Library, after_id: int, limit: int) -> list[dict]:
    """The next ``limit`` entries to prepare after ``after_id``, oldest first: read a batch at a time,
    so memory holds one batch whatever the library's size."""
    return _rows(
        library,
        f"""select id, paper_id, raw, title, read_title, title_read, year, arxiv_id, doi, openalex_id
            from paper_references where {TO_PREPARE} and id > ? order by id limit ?""",
        (after_id, limit),
    )


def references_of_papers_to_prepare(library: Library, paper_ids: list[int]) -> list[dict]:
    """These papers' entries still to prepare (an import's own), through the index on their paper."""
    return _rows(
        library,
        f"""select paper_references.id, paper_id, raw, title, read_title, title_read, year, arxiv_id, doi,
                   openalex_id
            from json_each(?) cross join paper_references on paper_references.paper_id = json_each.value
            where {TO_PREPARE} order by paper_references.id""",
        (json.dumps(paper_ids),),
    )


def unread_references(library: Library, paper_ids: list[int]) -> list[dict]:
    """These papers' unlinked entries whose title was not read yet (an import's new entries)."""
    return _rows(
        library,
        """select paper_references.id, paper_references.raw, paper_references.title
           from json_each(?) cross join paper_references on paper_references.paper_id = json_each.value
           where paper_references.cited_paper_id is null and paper_references.raw is not null
           and paper_references.title_read = 0""",
        (json.dumps(paper_ids),),
    )


def note_read_titles(library: Library, titles: list[tuple[str | None, int]]) -> None:
    """(title or None, reference id): the entries' titles as read, never to be read again."""
    library.conn.executemany("update paper_references set read_title = ?, title_read = 1 where id = ?", titles)


def link_references(library: Library, links: list[tuple[int, int]]) -> None:
    """(paper id, reference id): each entry pointed at its cited work, in one statement run."""
    library.conn.executemany("update paper_references set cited_paper_id = ? where id = ?", links)


def section_citations(library: Library, section_id: int) -> list[dict]:
    """(reference id, ordinal, cited library paper or None, OpenAlex id) for one section, in order."""
    return _rows(
        library,
        """select paper_references.id, paper_references.ordinal, paper_references.cited_paper_id,
                  paper_references.openalex_id, section_references.mentions
           from section_references join paper_references on paper_references.id = section_references.reference_id
           where section_references.section_id = ? order by coalesce(paper_references.ordinal, 1e9), paper_references.id""",
        (section_id,),
    )


def paper_citations(library: Library, paper_id: int) -> list[dict]:
    """Every reference of a paper with the library paper it resolves to (OpenAlex-only papers)."""
    return _rows(
        library,
        """select id, ordinal, cited_paper_id, openalex_id from paper_references where paper_id = ?
           order by coalesce(ordinal, 1e9), id""",
        (paper_id,),
    )


def expandable_sections(library: Library, paper_id: int) -> list[dict]:
    """A paper's sections with how many of their references resolve to library papers."""
    return _rows(
        library,
        """select sections.id, sections.ordinal, sections.number, sections.title, sections.level,
                  count(section_references.reference_id) as reference_count,
                  count(paper_references.cited_paper_id) as resolved_count
           from sections
           left join section_references on section_references.section_id = sections.id
           left join paper_references on paper_references.id = section_references.reference_id
           where sections.paper_id = ? group by sections.id order by sections.ordinal""",
        (paper_id,),
    )


def source_counts(library: Library) -> dict[str, int]:
    return {
        row["source"]: row["n"] for row in _rows(library, "select source, count(*) as n from papers group by source")
    }


def section_text(library: Library, section_id: int) -> str:
    """One section's text (citation markers in place: '[3]')."""
    row = library.conn.execute("select text from sections where id = ?", (section_id,)).fetchone()
    return (row[0] or "") if row else ""


def citing_papers(library: Library, paper_ids: list[int]) -> dict[int, set[int]]:
    """For each paper, the library papers whose bibliographies point at it."""
    if not paper_ids:
        return {}
    marks = ",".join("?" * len(paper_ids))
    cited: dict[int, set[int]] = {}
    for row in _rows(
        library,
        f"""select cited_paper_id, paper_id from paper_references
                                   where cited_paper_id in ({marks})""",
        tuple(paper_ids),
    ):
        cited.setdefault(row["cited_paper_id"], set()).add(row["paper_id"])
    return cited
