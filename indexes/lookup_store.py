"""Finding papers by title and people by name without reading every row: the candidates of a fuzzy search.

``LookupStore`` is one of the stores ``indexes.library.Library`` is made of (see its docstring). The
fuzzy scores (``indexes.fuzzy``) match a query word to a title or name word when they are equal,
when the query word (three letters or more) begins the other, or when they are near spellings (edit
ratio 0.82 or more; a misspelling keeps one end of the word). A title or name can score only if
some word of it matches a word of the query that way, so the candidates are the rows holding such a
word: the FTS5 word indexes of migration ``m010_name_title_lookup`` give the rows holding a word or
a prefix, and their vocabularies give the near spellings — the words that begin with the query
word's first two letters and read within the edit ratio (a misspelling in the first two letters is
not looked for). The caller scores only those rows, best-ranked first (FTS5's bm25: rare words
count more), at most ``limit`` of them; so a question costs the same in a library of 1,000 papers
as in one of 100,000.
"""

from __future__ import annotations

import heapq
import sqlite3
from collections.abc import Iterable, Iterator

from scholar_tui.indexes.fuzzy import content_tokens, token_similarity, tokens
from scholar_tui.indexes.records import fold
from scholar_tui.indexes.sql_store import SQLStore

NEAR_SPELLING = 0.82  # fuzzy.token_similarity's threshold for a misspelled word
TITLE_CANDIDATES = 500  # titles scored per query, best-ranked first
NAME_CANDIDATES = 2000  # name variants scored per query ("Wang" is written by many)
RankedPerson = tuple[int, int, str | None]  # people_in_rank_order: (person, citations, name or None)
LOOKUP_COLUMNS = "id, arxiv_id, doi, openalex_id, title, year, cited_by_count"


class LookupStore(SQLStore):
    def title_candidates(self, text: str, limit: int = TITLE_CANDIDATES) -> list[dict]:
        """Papers whose title shares a word, a prefix or a near spelling with ``text``, best-ranked
        first: what searchPublication scores instead of every title."""
        query = self._match_query("paper_title_index", content_tokens(text))
        if not query:
            return []
        return self._rows(
            f"""select {LOOKUP_COLUMNS} from papers where id in
                (select rowid from paper_title_index where paper_title_index match ? order by rank limit ?)""",
            (query, limit),
        )

    def name_candidates(self, text: str, limit: int = NAME_CANDIDATES) -> list[dict]:
        """(person, name variant) pairs whose name shares a word, a prefix or a near spelling with
        ``text``, as ``people_names`` gives them: what searchPerson scores instead of every name."""
        query = self._match_query("person_name_index", tokens(text))
        if not query:
            return []
        return self._rows(
            """select people.id as person_id, person_names.name, people.organization, people.organizations,
                      people.interests from person_names join people on people.id = person_names.person_id
               where person_names.rowid in
                   (select rowid from person_name_index where person_name_index match ? order by rank limit ?)""",
            (query, limit),
        )

    def _match_query(self, index: str, words: list[str]) -> str:
        """An FTS5 query: any of the words, their prefixes and their near spellings in the index."""
        terms: set[str] = set()
        for word in dict.fromkeys(words):
            if len(word) < 2:  # an initial matches only beside a real word, which finds the row
                continue
            terms.add(f'"{word}"*' if len(word) >= 3 else f'"{word}"')
            terms.update(f'"{term}"' for term in self._near_spellings(index, word))
        return " OR ".join(sorted(terms))

    def _near_spellings(self, index: str, word: str) -> list[str]:
        if len(word) < 4:  # a short word's near spellings are other words ('cat' is not 'car')
            return []
        start = word[:2]
        end = start[0] + chr(ord(start[1]) + 1)
        rows = self.conn.execute(f"select term from {index}_terms where term >= ? and term < ?", (start, end))
        return [term for (term,) in rows if term != word and token_similarity(word, term) >= NEAR_SPELLING]

    # -- people by organisation or interest (migration m014) ----------------------------------------
    def topic_terms(self, text: str) -> list[str]:
        """The words of ``person_topic_index`` that ``fuzzy.overlap_score`` could match to a content
        word of ``text`` (equal, a prefix, an initial, a near spelling), found in the index's
        vocabulary, not in the people."""
        return sorted(self._vocabulary_matches("person_topic_index", content_tokens(text)))

    def topic_term_people(self, terms: list[str], columns: str) -> list[tuple[str, set[int]]]:
        """Each of these words of ``person_topic_index`` (``topic_terms``) with the people whose
        ``columns`` ("organization organizations" or "interests") hold it: every person who can
        score, and what each could score at best."""
        found = []
        for term in terms:
            rows = self.conn.execute(
                "select rowid from person_topic_index where person_topic_index match ?", (topic_match(columns, [term]),)
            )
            found.append((term, {person_id for (person_id,) in rows}))
        return found

    def _vocabulary_matches(self, index: str, words: list[str]) -> set[str]:
        """The index's terms that some of ``words`` (folded) matches with a token similarity above
        0; a term is compared as ``fold`` splits it (the index keeps 'ø', fold makes it 'o')."""
        if not words:
            return set()
        terms = (term for (term,) in self.conn.execute(f"select term from {index}_terms"))
        return {term for term in terms if _matches_any(words, fold(term).split())}

    def categories(self) -> list[str]:
        """Every category some person's papers are in: one index step per category, not per row."""
        rows = self.conn.execute(
            """with recursive next (category) as (
                   select min(category) from person_category_counts
                   union all
                   select (select min(category) from person_category_counts where category > next.category)
                   from next where next.category is not null)
               select category from next where category is not null"""
        )
        return [category for (category,) in rows]

    def category_people(self, categories: Iterable[str]) -> dict[str, set[int]]:
        """The people with a paper in each of these categories (the index of the category's rows)."""
        wanted = list(dict.fromkeys(categories))
        people: dict[str, set[int]] = {category: set() for category in wanted}
        for start in range(0, len(wanted), 500):  # under SQLite's limit on bound parameters
            chunk = wanted[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows = self.conn.execute(
                f"select category, person_id from person_category_counts where category in ({marks})", chunk
            )
            for category, person_id in rows:
                people[category].add(person_id)
        return people

    def holders_over(self, fields: list[tuple[str, list[str], list[str]]], limit: int) -> bool:
        """Whether ``people_in_rank_order`` may give more than ``limit`` people for these fields: for
        every field, its people's category rows and index matches, counted in the indexes up to
        ``limit`` only (the count costs the same in any library)."""
        for columns, terms, categories in fields:
            count = 0
            if categories:
                marks = ", ".join("?" * len(categories))
                sql = f"select count(*) from (select 1 from person_category_counts where category in ({marks}) limit ?)"
                count += self.conn.execute(sql, (*categories, limit + 1)).fetchone()[0]
            if terms:
                sql = "select count(*) from (select 1 from person_topic_index where person_topic_index match ? limit ?)"
                count += self.conn.execute(sql, (topic_match(columns, terms), limit + 1)).fetchone()[0]
            if count <= limit:
                return False
        return True

    def people_in_rank_order(self, fields: list[tuple[str, list[str], list[str]]]) -> Iterator[RankedPerson]:
        """The people who hold, for each of ``fields`` ((columns, terms, categories):
        ``person_topic_index`` words of those columns, or a paper in one of those categories), in the
        order searchPerson ranks people of equal score, read from the indexes of migration m021 a page
        at a time: (person, citations, None) most cited first, by the source's count
        (``people.cited_by_count``) where there is one, else by their papers' summed counts; then
        (person, 0, name) of those without citations, by name and id."""
        holds, parameters = _holding("people.id", fields)
        by_source = self.conn.execute(
            f"""select id, cited_by_count, null from people where cited_by_count > 0 and {holds}
                order by cited_by_count desc""",
            parameters,
        )
        holds, parameters = _holding("person_stats.person_id", fields)
        by_papers = self.conn.execute(  # cross join: person_stats first, walked in its citations index
            f"""select person_stats.person_id, person_stats.citations, null from person_stats
                cross join people on people.id = person_stats.person_id
                where person_stats.citations > 0 and person_stats.cited_papers > 0
                      and people.cited_by_count is null and {holds}
                order by person_stats.citations desc""",
            parameters,
        )
        yield from heapq.merge(_paged(by_source), _paged(by_papers), key=lambda row: -row[1])
        holds, parameters = _holding("people.id", fields)
        uncited = self.conn.execute(
            f"""select id, 0, name from people indexed by people_name
                where case when cited_by_count is not null then cited_by_count <= 0
                           else not exists (select 1 from person_stats where person_stats.person_id = people.id
                                            and person_stats.cited_papers > 0 and person_stats.citations > 0) end
                      and {holds}
                order by name, id""",
            parameters,
        )
        yield from _paged(uncited)

    def people_rank_keys(self, people: Iterable[int]) -> dict[int, tuple[int | None, str]]:
        """(citations as searchPerson reports them, name) of each of these people: what ranks
        people of equal score, read without their interests, organisations or name variants."""
        wanted = sorted(set(people))
        keys: dict[int, tuple[int | None, str]] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows = self.conn.execute(
                f"""select people.id, people.name, people.cited_by_count, person_stats.cited_papers,
                           person_stats.citations
                    from people left join person_stats on person_stats.person_id = people.id
                    where people.id in ({marks})""",
                chunk,
            )
            for person_id, name, cited_by_count, cited_papers, citations in rows:
                summed = citations if cited_papers else None  # as people_paper_counts gives them
                keys[person_id] = (cited_by_count if cited_by_count is not None else summed, name)
        return keys


def topic_match(columns: str, terms: list[str]) -> str:
    """The FTS5 query of ``person_topic_index`` for a person holding any of ``terms`` (its own words,
    quoted: ``topic_terms``) in ``columns`` ("organization organizations" or "interests"): one place
    that writes it for the count, the rank-order walk and each term's people."""
    return "{%s} : (%s)" % (columns, " OR ".join(f'"{term}"' for term in terms))


def _holding(person: str, fields: list[tuple[str, list[str], list[str]]]) -> tuple[str, list[str]]:
    """A condition on ``person`` (a column) holding a term or category of every field, checked
    through the indexes for that person only."""
    conditions, parameters = [], []
    for columns, terms, categories in fields:
        either = []
        if categories:
            marks = ", ".join("?" * len(categories))
            either.append(
                f"""exists (select 1 from person_category_counts as held
                            where held.person_id = {person} and held.category in ({marks}))"""
            )
            parameters += categories
        if terms:
            either.append(f"{person} in (select rowid from person_topic_index where person_topic_index match ?)")
            parameters.append(topic_match(columns, terms))
        conditions.append("(" + (" or ".join(either) or "0") + ")")
    return " and ".join(conditions) or "1", parameters


def _paged(cursor: sqlite3.Cursor, size: int = 64) -> Iterator[RankedPerson]:
    while page := cursor.fetchmany(size):
        yield from page


def _matches_any(words: list[str], term_words: list[str]) -> bool:
    return any(token_similarity(word, term) > 0 for word in words for term in term_words)
