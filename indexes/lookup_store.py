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

from collections.abc import Iterable

from scholar_tui.indexes.fuzzy import content_tokens, token_similarity, tokens
from scholar_tui.indexes.records import fold
from scholar_tui.indexes.sql_store import SQLStore

NEAR_SPELLING = 0.82  # fuzzy.token_similarity's threshold for a misspelled word
TITLE_CANDIDATES = 500  # titles scored per query, best-ranked first
NAME_CANDIDATES = 2000  # name variants scored per query ("Wang" is written by many)
PERSON_COLUMNS = """people.id as person_id, person_names.name, people.organization, people.organizations,
                    people.interests"""  # what people_names gives for each name variant
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
    def topic_people(self, text: str, columns: str) -> set[int]:
        """The people whose ``columns`` of ``person_topic_index`` ("organization organizations" or
        "interests") hold a word that ``fuzzy.overlap_score`` could match to a content word of
        ``text`` (equal, a prefix, an initial, a near spelling): every person who can score, and
        only the rows the index gives. The words are found in the index's vocabulary, not in the
        people."""
        terms = self._vocabulary_matches("person_topic_index", content_tokens(text))
        if not terms:
            return set()
        query = "{%s} : (%s)" % (columns, " OR ".join(f'"{term}"' for term in sorted(terms)))
        rows = self.conn.execute("select rowid from person_topic_index where person_topic_index match ?", (query,))
        return {person_id for (person_id,) in rows}

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

    def people_in_categories(self, categories: Iterable[str]) -> set[int]:
        wanted = list(dict.fromkeys(categories))
        people: set[int] = set()
        for start in range(0, len(wanted), 500):  # under SQLite's limit on bound parameters
            chunk = wanted[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows = self.conn.execute(
                f"select distinct person_id from person_category_counts where category in ({marks})", chunk
            )
            people.update(person_id for (person_id,) in rows)
        return people

    def people_name_rows(self, people: Iterable[int]) -> list[dict]:
        """``people_names``'s rows for these people only."""
        wanted = sorted(set(people))
        rows: list[dict] = []
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows += self._rows(
                f"""select {PERSON_COLUMNS} from person_names join people on people.id = person_names.person_id
                    where people.id in ({marks})""",
                tuple(chunk),
            )
        return rows


def _matches_any(words: list[str], term_words: list[str]) -> bool:
    return any(token_similarity(word, term) > 0 for word in words for term in term_words)
