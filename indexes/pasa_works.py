"""The SQL that PaSa needs beyond ``Library``'s own reads: unlinked references and their links.

PaSa turns each titled bibliography entry into a library paper (a "cited work") and points the
entry at it; these are the two statements that do it, plus the read the Crawler's expand tool
makes (a section's references, with the library paper each one resolves to).
"""

from __future__ import annotations

from scholar_tui.indexes.library import Library


def _rows(library: Library, sql: str, params: tuple = ()) -> list[dict]:
    cursor = library.conn.execute(sql, params)
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row, strict=False)) for row in cursor.fetchall()]


def unlinked_references(library: Library) -> list[dict]:
    """Bibliography entries that point at no library paper yet, oldest first."""
    return _rows(
        library,
        """select id, paper_id, raw, title, year, arxiv_id, doi, openalex_id from paper_references
           where cited_paper_id is null and raw is not null order by id""",
    )


def link_reference(library: Library, reference_id: int, paper_id: int) -> None:
    library.conn.execute("update paper_references set cited_paper_id = ? where id = ?", (paper_id, reference_id))


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
