"""The SQLite schema, as an ordered list of named migrations.

Each migration runs once, in order, inside one transaction; applied names are recorded in
``_migrations``. Later features append their own migrations here: never edit one that shipped.
A migration uses DDL and ``db.execute`` only (sqlite-utils' bulk inserts commit on their own).

A migration is named ``mNNN_what_it_makes``, NNN its place in the run order (001, 002, …): a new
one, appended at the end, takes the next number. Until session 9 the numbers said the feature, not
the order (m001, m200, m100, m300, m210…); ``RENAMED`` maps those names to today's, and a database
that recorded them is given the new names before anything runs, so nothing is applied twice.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

import sqlite_utils

Migration = Callable[[sqlite_utils.Database], None]
MIGRATIONS: list[tuple[str, Migration]] = []


def migration(function: Migration) -> Migration:
    MIGRATIONS.append((function.__name__, function))
    return function


# The names databases recorded before the migrations were numbered in run order (session 9).
RENAMED = {
    "m200_library_schema": "m002_library_schema",
    "m100_conference_tables": "m003_conference_tables",
    "m300_autofeedback_logs": "m004_autofeedback_logs",
    "m210_person_identity": "m005_person_identity",
    "m220_pdf_pages": "m006_pdf_pages",
    "m230_paper_sources_collections": "m007_paper_sources_collections",
    "m400_history": "m008_history",
}


@migration
def m001_llm_calls(db: sqlite_utils.Database) -> None:
    """Every prompt and response, as simonw/llm logs them: enough to replay and to audit."""
    db.table("llm_calls").create(
        {
            "id": int,
            "datetime_utc": str,
            "backend": str,
            "model": str,
            "kind": str,
            "prompt": str,
            "messages_json": str,
            "options_json": str,
            "schema_json": str,
            "grammar": str,
            "response": str,
            "logprobs_json": str,
            "finish_reason": str,
            "prompt_tokens": int,
            "completion_tokens": int,
            "duration_ms": float,
        },
        pk="id",
    )
    db.table("llm_calls").create_index(["datetime_utc"])


def applied(db: sqlite_utils.Database) -> list[str]:
    if "_migrations" not in db.table_names():
        return []
    return [row["name"] for row in db.query("select name from _migrations order by rowid")]


def adopt_renamed(db: sqlite_utils.Database) -> None:
    """Record today's name for each migration a database applied under its old one (``RENAMED``)."""
    if not set(applied(db)) & set(RENAMED):
        return
    db.conn.execute("begin immediate")  # another process may rename them at the same moment: no harm
    try:
        for old, new in RENAMED.items():
            db.conn.execute("update _migrations set name = ? where name = ?", [new, old])
    except BaseException:
        db.conn.execute("rollback")
        raise
    db.conn.execute("commit")


def migrate(db: sqlite_utils.Database) -> list[str]:
    """Apply what is missing; returns the names applied now."""
    db.execute("create table if not exists _migrations (name text primary key, applied_at text)")
    adopt_renamed(db)
    done = set(applied(db))
    newly: list[str] = []
    for name, function in MIGRATIONS:
        if name in done:
            continue
        # An explicit transaction: Python's sqlite3 does not open one for DDL by itself, and a
        # failing migration must leave the schema as it was. It takes the write lock first and
        # looks again: another process opening the same new database may have applied it meanwhile.
        db.conn.execute("begin immediate")
        if db.conn.execute("select 1 from _migrations where name = ?", [name]).fetchone():
            db.conn.execute("rollback")
            continue
        try:
            function(db)
            db.conn.execute(
                "insert into _migrations (name, applied_at) values (?, ?)",
                [name, datetime.now(timezone.utc).isoformat()],
            )
        except BaseException:
            db.conn.execute("rollback")
            raise
        db.conn.execute("commit")
        newly.append(name)
    return newly


# -- the library (issue #3) --------------------------------------------------------------------
@migration
def m002_library_schema(db: sqlite_utils.Database) -> None:
    """Papers, people, authorship, sections, references and citation edges.

    Every source id has a unique index so that imports are idempotent: a paper is found again by
    its arXiv id, DOI or OpenAlex id (several NULLs are allowed by a UNIQUE index); people by
    their OpenAlex id, or by their normalised name when the source gives no id.
    """
    for statement in (
        """create table papers (
            id integer primary key,
            arxiv_id text, doi text, openalex_id text,
            title text not null, title_key text not null,
            abstract text, date text, year integer, venue text,
            categories text,            -- JSON list (arXiv categories, OpenAlex topics)
            cited_by_count integer, url text, license text, discipline text,
            source text not null, added_at text not null, updated_at text not null)""",
        "create unique index papers_arxiv on papers(arxiv_id)",
        "create unique index papers_doi on papers(doi)",
        "create unique index papers_openalex on papers(openalex_id)",
        "create index papers_title_key on papers(title_key)",
        "create index papers_date on papers(date)",
        """create table people (
            id integer primary key,
            name text not null, name_key text not null,
            openalex_id text, orcid text,
            organization text,          -- the latest known one
            organizations text,         -- JSON list, newest first
            interests text,             -- JSON list, as the source ranks them
            cited_by_count integer, works_count integer,
            position text, bio text, education text, email text, gender text, homepage text,
            source text not null, added_at text not null, updated_at text not null)""",
        "create unique index people_openalex on people(openalex_id)",
        "create index people_name_key on people(name_key)",
        """create table person_names (
            person_id integer not null references people(id) on delete cascade,
            name text not null, name_key text not null,
            primary key (person_id, name))""",
        "create index person_names_key on person_names(name_key)",
        """create table authorships (
            paper_id integer not null references papers(id) on delete cascade,
            person_id integer not null references people(id) on delete cascade,
            position integer not null,  -- 1 = first author
            name_as_written text, affiliation text,
            primary key (paper_id, person_id))""",
        "create index authorships_person on authorships(person_id)",
        """create table sections (
            id integer primary key,
            paper_id integer not null references papers(id) on delete cascade,
            ordinal integer not null,   -- order in the paper, from 1
            number text,                -- '2.1' (NULL for unnumbered sections)
            title text, level integer, text text not null,
            unique (paper_id, ordinal))""",
        """create table paper_references (
            id integer primary key,
            paper_id integer not null references papers(id) on delete cascade,
            ref_key text not null,      -- the source's key for the entry (bib hash, OpenAlex id)
            ordinal integer,            -- [n] in the citing paper's text
            raw text, title text, year integer,
            arxiv_id text, doi text, openalex_id text,
            ids text,                   -- JSON of every other linked id the source gives
            cited_paper_id integer references papers(id) on delete set null,
            source text not null,
            unique (paper_id, ref_key))""",
        "create index paper_references_arxiv on paper_references(arxiv_id)",
        "create index paper_references_doi on paper_references(doi)",
        "create index paper_references_openalex on paper_references(openalex_id)",
        "create index paper_references_cited on paper_references(cited_paper_id)",
        """create table section_references (
            section_id integer not null references sections(id) on delete cascade,
            reference_id integer not null references paper_references(id) on delete cascade,
            mentions integer not null default 1,
            primary key (section_id, reference_id))""",
        "create index section_references_reference on section_references(reference_id)",
        """create table citations (
            citing_paper_id integer not null references papers(id) on delete cascade,
            cited_paper_id integer not null references papers(id) on delete cascade,
            primary key (citing_paper_id, cited_paper_id))""",
        "create index citations_cited on citations(cited_paper_id)",
        """create table library_imports (
            id integer primary key, kind text not null, path text not null,
            started_at text not null, seconds real, summary text)""",
    ):
        db.execute(statement)


@migration
def m003_conference_tables(db: sqlite_utils.Database) -> None:
    """Conference QA (STAR): imported conferences, their tree nodes, and the description cache.

    Descriptions are cached by content hash (describer + prompt inputs), not by conference, so a
    re-import, or the same page in another conference's tree, reuses them.
    """
    db.execute(
        """create table conferences (
            name text primary key,
            source text not null,
            root text not null,
            nodes integer not null,
            leaves integer not null,
            describer text not null,
            embedder text,
            imported_at text not null,
            describe_s real,
            embed_s real,
            build_s real,
            generated integer,
            embedded integer
        )"""
    )
    db.execute(
        """create table conference_nodes (
            conference text not null references conferences(name) on delete cascade,
            id integer not null,
            parent_id integer,
            position integer not null,
            kind text not null,
            key text not null,
            label text not null,
            text text,
            depth integer not null,
            path text not null,
            description_hash text,
            primary key (conference, id)
        )"""
    )
    db.execute("create index conference_nodes_parent on conference_nodes (conference, parent_id)")
    db.execute(
        """create table conference_descriptions (
            content_hash text primary key,
            describer text not null,
            description text not null,
            created_at text not null
        )"""
    )


# -- AutoFeedback (issue #5) -------------------------------------------------------------------
@migration
def m004_autofeedback_logs(db: sqlite_utils.Database) -> None:
    """AutoFeedback's logs: a loop per API request (or program) and every round of it.

    A round is one request looked at: stopped by static scanning (kind 'static'), sent and
    assessed (kind 'dynamic'), or written and sent by a person in the API debugger ('human').
    Rounds are committed one by one, so a crash mid-loop leaves every finished round readable.
    """
    db.execute(
        """create table autofeedback_loops (
            id integer primary key,
            created_at text not null,
            updated_at text not null,
            source text not null,          -- 'soay', 'bench', 'cli', 'debugger', …
            mode text not null,            -- 'request' or 'program'
            instruction text not null,
            status text not null,          -- 'running', 'solved', 'limit_hit', 'fixed_by_hand', 'failed'
            static_limit integer, dynamic_limit integer,
            static_rounds integer not null default 0,
            dynamic_rounds integer not null default 0,
            final_request text,
            final_response text            -- JSON
        )"""
    )
    db.execute("create index autofeedback_loops_status on autofeedback_loops (status, updated_at)")
    db.execute(
        """create table autofeedback_rounds (
            id integer primary key,
            loop_id integer not null references autofeedback_loops(id) on delete cascade,
            round integer not null,        -- 1, 2, … within the loop
            kind text not null,            -- 'static', 'dynamic', 'human'
            created_at text not null,
            request text,
            error_type text,               -- 'E1' … 'E4', NULL when none was found
            sub_type text,                 -- 'E2.3', 'E3.other', 'E4.other', …
            returns text,                  -- JSON: what SSC returned (Table 2)
            feedback text,                 -- the feedback given to the model after this round
            response text,                 -- JSON: the API response or error, for sent requests
            ok integer,                    -- the response met the instruction (1) or not (0)
            thought text,
            observation text,
            prompt_tokens integer, completion_tokens integer,
            duration_s real,
            unique (loop_id, round)
        )"""
    )


# -- author identity (issue #16) -----------------------------------------------------------------
@migration
def m005_person_identity(db: sqlite_utils.Database) -> None:
    """Merged name variants, journalled so a merge can be undone, and pairs a person split apart.

    A merge moves the merged person's authorships and names to the kept person and deletes the
    merged row; ``person_merges`` keeps that row, its names and its authorships as JSON. A split
    restores them under the same id and adds the pair to ``people_apart`` so that no later
    import merges them again.
    """
    db.execute(
        """create table person_merges (
            id integer primary key,
            kept_id integer not null,
            merged_id integer not null,
            evidence text not null,
            merged_row text not null,      -- JSON: the people row as it was
            names text not null,           -- JSON: [name, …] that came with it
            authorships text not null,     -- JSON: [{paper_id, position, name_as_written, affiliation}, …]
            merged_at text not null,
            split_at text                  -- set when the merge was undone
        )"""
    )
    db.execute("create index person_merges_kept on person_merges (kept_id)")
    db.execute(
        """create table people_apart (
            first_id integer not null, second_id integer not null, decided_at text not null,
            primary key (first_id, second_id))"""
    )


# -- PDFs: pages and printed reference fields (issue #27) ------------------------------------------
@migration
def m006_pdf_pages(db: sqlite_utils.Database) -> None:
    """What a paper read from a PDF adds: the local file (``papers.pdf_path``, opened by `o`), the page
    each section starts on and where its later pages begin in its text (``sections.pages``, JSON
    ``[[offset, page], …]``: a paragraph or citing sentence is cited as "p. 7"), and the authors and
    venue printed in each reference entry."""
    for statement in (
        "alter table papers add column pdf_path text",
        "alter table sections add column page integer",
        "alter table sections add column pages text",
        "alter table paper_references add column authors text",  # JSON list, as printed
        "alter table paper_references add column venue text",
    ):
        db.execute(statement)


# -- one paper, one record; Zotero's collections and tags (issue #27) ---------------------------------
@migration
def m007_paper_sources_collections(db: sqlite_utils.Database) -> None:
    """Where each paper came from, the merges of works (journalled, so they can be undone), and the
    collections and tags a reference manager keeps.

    ``paper_sources`` has one row per (source, id in that source): a Zotero item, an OpenAlex work,
    an arXiv id, a BibTeX key, a PDF file. A re-import finds its paper there first, so nothing
    duplicates; ``stamp`` is what the source says changes with the record (Zotero's version and
    dateModified). ``paper_merges`` keeps each record that was merged into a paper that already
    existed, with what the merge filled in, so ``split`` can give it back its own paper; the pair
    then goes to ``papers_apart``. Collections are paths ('Computer Science/Distributed Systems').
    """
    db.execute(
        """create table paper_sources (
            id integer primary key,
            paper_id integer not null references papers(id) on delete cascade,
            source text not null,          -- 'zotero', 'openalex', 'arxiv', 'bibtex', 'unarxive', 'pdf'
            source_id text not null,       -- the id within that source
            library text,                  -- Zotero's library name, the file a record came from
            item_type text,                -- Zotero's item type ('journalArticle', …)
            stamp text,                    -- what changes when the source's record does
            added_at text not null, updated_at text not null,
            unique (source, source_id))"""
    )
    db.execute("create index paper_sources_paper on paper_sources (paper_id)")
    # Every id any source gave a paper: a merged work keeps the DOI and OpenAlex id of each copy
    # (papers.doi holds one), so references to any of them find it.
    db.execute(
        """create table paper_ids (
            kind text not null,            -- 'doi', 'arxiv_id', 'openalex_id'
            value text not null,
            paper_id integer not null references papers(id) on delete cascade,
            primary key (kind, value))"""
    )
    db.execute("create index paper_ids_paper on paper_ids (paper_id)")
    db.execute(
        """create table paper_merges (
            id integer primary key,
            kept_id integer not null,
            source_row_id integer,         -- the paper_sources row that arrived and was merged
            evidence text not null,        -- 'same DOI …', 'same arXiv id …', 'same title, year and first author'
            record text not null,          -- JSON: the merged record as its source gave it
            changes text not null,         -- JSON: {column: value before}, sections/references it added
            merged_at text not null,
            split_at text)"""
    )
    db.execute("create index paper_merges_kept on paper_merges (kept_id)")
    db.execute(
        """create table papers_apart (
            first_id integer not null, second_id integer not null, decided_at text not null,
            primary key (first_id, second_id))"""
    )
    db.execute(
        """create table collections (
            id integer primary key,
            origin text not null,          -- 'zotero:<installation>/<library>'
            key text not null,             -- the collection's key in its origin
            path text not null,            -- 'Computer Science/Distributed Systems'
            unique (origin, key))"""
    )
    db.execute(
        """create table paper_collections (
            paper_id integer not null references papers(id) on delete cascade,
            collection_id integer not null references collections(id) on delete cascade,
            primary key (paper_id, collection_id))"""
    )
    db.execute(
        """create table paper_tags (
            paper_id integer not null references papers(id) on delete cascade,
            tag text not null, origin text not null,
            primary key (paper_id, tag, origin))"""
    )
    db.execute("create index paper_tags_tag on paper_tags (tag)")


# -- history that lasts (issue #26) -----------------------------------------------------------------
@migration
def m008_history(db: sqlite_utils.Database) -> None:
    """Every query, question and conference question a person ran, with its result as JSON, so a
    past session reopens as it was (indexes/history.py)."""
    db.execute(
        """create table history (
            id integer primary key,
            created_at text not null,
            tab text not null,             -- paper-search | scholar-qa | conference-qa
            text text not null,            -- the query or question as typed
            context text not null,         -- JSON: the cut-off date, the conference, the method
            summary text not null,         -- one line: what came back
            ok integer not null,
            result text                    -- JSON: the finished run, enough to show it again
        )"""
    )
    db.execute("create index history_tab on history (tab, id)")


# -- the prompt log, linked to its runs (issue #23) -------------------------------------------------
@migration
def m009_llm_call_origins(db: sqlite_utils.Database) -> None:
    """What made each logged model call (``models.origin``): its kind ('pasa', 'soay', 'conference',
    'autofeedback'), the run's id (an AutoFeedback loop's row id; a short id for a crawl or a
    question), what was asked, and the run around it (a question's loop has the question as parent).
    Calls logged before stay NULL there: their origin was never known."""
    for statement in (
        "alter table llm_calls add column origin text",
        "alter table llm_calls add column origin_run text",
        "alter table llm_calls add column origin_text text",
        "alter table llm_calls add column parent_origin text",
        "alter table llm_calls add column parent_run text",
        "create index llm_calls_origin_run on llm_calls (origin_run)",
        "create index llm_calls_parent_run on llm_calls (parent_run)",
    ):
        db.execute(statement)


# -- lookups that do not scan the library (issue #28) ---------------------------------------------
@migration
def m010_name_title_lookup(db: sqlite_utils.Database) -> None:
    """Word indexes over the folded titles (``papers.title_key``) and name variants
    (``person_names.name_key``), so that searchPublication and searchPerson score only the papers and
    people sharing a word (or a prefix, or a near spelling found in the vocabulary) with the query,
    not every row (indexes/lookup_store.py). External-content FTS5 tables, kept level by triggers;
    their ``*_terms`` vocabularies list the words. ``person_names`` has no integer key, so its index
    follows its rowid: a VACUUM could renumber those (the app never runs one;
    ``insert into person_name_index(person_name_index) values ('rebuild')`` repairs it)."""
    for index, table, column, key in (
        ("paper_title_index", "papers", "title_key", "id"),
        ("person_name_index", "person_names", "name_key", "rowid"),
    ):
        # keys are folded ASCII words (indexes.records.fold): the plain unicode61 tokenizer splits them
        db.execute(
            f"""create virtual table {index} using fts5({column}, content='{table}', content_rowid='{key}',
                tokenize='unicode61', prefix='3')"""
        )
        db.execute(f"create virtual table {index}_terms using fts5vocab({index}, 'row')")
        db.execute(
            f"""create trigger {index}_insert after insert on {table} begin
                insert into {index} (rowid, {column}) values (new.{key}, new.{column}); end"""
        )
        db.execute(
            f"""create trigger {index}_delete after delete on {table} begin
                insert into {index} ({index}, rowid, {column}) values ('delete', old.{key}, old.{column}); end"""
        )
        db.execute(
            f"""create trigger {index}_update after update of {column} on {table} begin
                insert into {index} ({index}, rowid, {column}) values ('delete', old.{key}, old.{column});
                insert into {index} (rowid, {column}) values (new.{key}, new.{column}); end"""
        )
        db.execute(f"insert into {index} ({index}) values ('rebuild')")


@migration
def m011_reference_title_key(db: sqlite_utils.Database) -> None:
    """``paper_references.title_key``: a titled entry's normalised title, indexed, so that an import
    links the entries naming its new papers by an index lookup instead of reading every unlinked
    entry (``CitationStore.relink``). Filled here for the entries already stored."""
    from scholar_tui.indexes.citation_store import reference_title_key

    db.execute("alter table paper_references add column title_key text")
    rows = db.execute("select id, title from paper_references where title is not null").fetchall()
    for reference_id, title in rows:
        db.execute("update paper_references set title_key = ? where id = ?", (reference_title_key(title), reference_id))
    db.execute("create index paper_references_title_key on paper_references(title_key)")


@migration
def m012_reference_titles_read(db: sqlite_utils.Database) -> None:
    """The title read out of a raw bibliography entry (``read_title``; null when it names none) and
    whether it was read (``title_read``): an import reads its new entries once (core/pasa/works.py),
    and PaSa's preparation makes cited works from those titles instead of re-reading every unlinked
    entry at every search. Entries stored before are read by the next preparation, once."""
    db.execute("alter table paper_references add column read_title text")
    db.execute("alter table paper_references add column title_read integer not null default 0")
    db.execute(
        """create index paper_references_to_prepare on paper_references(id)
           where cited_paper_id is null and raw is not null and (title_read = 0 or read_title is not null)"""
    )


# -- a search index that knows what changed (issue #28) ----------------------------------------------
@migration
def m013_search_changes(db: sqlite_utils.Database) -> None:
    """What the search index needs to stay level without re-reading the library.

    ``search_counter`` is bumped and ``search_changes`` notes the paper for every insert, delete and
    change of a paper's title, abstract, date (or id): the index compares the counter with the one
    it was written at and re-reads only the papers noted since. ``papers_fts`` (FTS5 over titles and
    abstracts, kept by the same triggers) makes an import searchable by words the moment it ends,
    before any vector is computed."""
    for statement in (
        """create table search_counter (
            id integer primary key check (id = 1),
            seq integer not null,
            origin text not null             -- random, once: a search index made from another database is known
        )""",
        "insert into search_counter (id, seq, origin) values (1, 0, lower(hex(randomblob(8))))",
        "create table search_changes (paper_id integer primary key, seq integer not null)",
        "create index search_changes_seq on search_changes (seq)",
        """create virtual table papers_fts using fts5(
            title, abstract, content='papers', content_rowid='id',
            tokenize='porter unicode61 remove_diacritics 2')""",
        "insert into papers_fts (papers_fts) values ('rebuild')",
        """create trigger papers_search_insert after insert on papers begin
            insert into papers_fts (rowid, title, abstract) values (new.id, new.title, new.abstract);
            update search_counter set seq = seq + 1;
            insert or replace into search_changes (paper_id, seq) values (new.id, (select seq from search_counter));
        end""",
        """create trigger papers_search_delete after delete on papers begin
            insert into papers_fts (papers_fts, rowid, title, abstract) values ('delete', old.id, old.title, old.abstract);
            update search_counter set seq = seq + 1;
            insert or replace into search_changes (paper_id, seq) values (old.id, (select seq from search_counter));
        end""",
        """create trigger papers_search_update after update of id, title, abstract, date on papers
        when old.id is not new.id or old.title is not new.title or old.abstract is not new.abstract
            or old.date is not new.date
        begin
            insert into papers_fts (papers_fts, rowid, title, abstract) values ('delete', old.id, old.title, old.abstract);
            insert into papers_fts (rowid, title, abstract) values (new.id, new.title, new.abstract);
            update search_counter set seq = seq + 1;
            insert or replace into search_changes (paper_id, seq) values (old.id, (select seq from search_counter));
            insert or replace into search_changes (paper_id, seq) values (new.id, (select seq from search_counter));
        end""",
    ):
        db.execute(statement)


# -- person questions that do not read every paper or person (issue #28) ------------------------------
def _categories_of(paper: str) -> str:
    """The category codes of ``paper`` (a row alias or ``old``/``new``) as json_each rows; a
    ``categories`` value that is not a JSON list (NULL, '') has none."""
    return f"json_each(case when json_valid({paper}.categories) then {paper}.categories else '[]' end)"


def _authorship_counted(sign: str, person: str, paper: str) -> list[str]:
    """SQL adding (``+``) or taking away (``-``) one authorship of ``person`` on ``paper`` (SQL
    expressions) from that person's counts; nothing when the paper is gone (a paper's own delete
    trigger has already taken its authors' counts away)."""
    take = sign == "-"
    paper_row = f"select * from papers where id = {paper}"
    statements = (
        []
        if take
        else [
            f"""insert into person_stats (person_id, papers, cited_papers, citations)
            select {person}, 0, 0, 0 where exists ({paper_row}) on conflict (person_id) do nothing"""
        ]
    )
    statements += [
        f"""update person_stats set
                papers = papers {sign} 1,
                cited_papers = cited_papers {sign} (select cited_by_count is not null from papers where id = {paper}),
                citations = citations {sign} (select coalesce(cited_by_count, 0) from papers where id = {paper})
            where person_id = {person} and exists ({paper_row})""",
    ]
    if take:
        statements += [
            f"""update person_category_counts set papers = papers - (
                    select count(*) from papers, {_categories_of("papers")} as category
                    where papers.id = {paper} and category.value = person_category_counts.category)
                where person_id = {person}""",
            f"delete from person_category_counts where person_id = {person} and papers <= 0",
        ]
    else:
        statements.append(
            f"""insert into person_category_counts (person_id, category, papers)
                select {person}, category.value, 1 from papers, {_categories_of("papers")} as category
                where papers.id = {paper} and category.type = 'text'
                on conflict (person_id, category) do update set papers = papers + 1"""
        )
    return statements


def _trigger(name: str, when: str, body: list[str]) -> str:
    return f"create trigger {name} {when} begin " + "; ".join(body) + "; end"


@migration
def m014_person_counts_and_topics(db: sqlite_utils.Database) -> None:
    """What searchPerson and the person APIs need without reading all of a person's papers, nor
    every person when a question gives only an organisation or an interest.

    ``authorships_person_paper`` replaces ``authorships_person``: a person's papers (their
    coauthors' count) read from the index alone. ``person_stats``: per person, their papers, how many of those have a known citation count, and
    the sum of those counts; ``person_category_counts``: per person and category (an arXiv code or
    an OpenAlex topic), their papers in it — the interests the library derives for a person whose
    source gave none (core/library/api_backends.py ``_interests``). Both are kept by triggers on
    authorships and papers and filled here for the library already stored. A paper's delete takes
    its authors' counts away before its authorships cascade (SQLite deletes the paper's row first:
    their own triggers then find it gone and do nothing). ``person_topic_index``: FTS5 over each
    person's organisations and stated interests (external content on ``people``, kept by triggers,
    as ``m010_name_title_lookup`` does for names), with its vocabulary ``person_topic_index_terms``.
    """
    statements = [
        """create table person_stats (
            person_id integer primary key references people(id) on delete cascade,
            papers integer not null,
            cited_papers integer not null,   -- papers whose citation count is known
            citations integer not null)""",
        """create table person_category_counts (
            person_id integer not null references people(id) on delete cascade,
            category text not null,
            papers integer not null,
            primary key (person_id, category)) without rowid""",
        "create index person_category_counts_category on person_category_counts (category, person_id)",
        # a person's papers straight from the index (coauthors, counts): it serves all authorships_person did
        "create index authorships_person_paper on authorships (person_id, paper_id)",
        "drop index authorships_person",
        _trigger(
            "authorships_counted_insert",
            "after insert on authorships",
            _authorship_counted("+", "new.person_id", "new.paper_id"),
        ),
        _trigger(
            "authorships_counted_delete",
            "after delete on authorships",
            _authorship_counted("-", "old.person_id", "old.paper_id"),
        ),
        _trigger(
            "authorships_counted_update",
            """after update of person_id, paper_id on authorships
               when old.person_id is not new.person_id or old.paper_id is not new.paper_id""",
            _authorship_counted("-", "old.person_id", "old.paper_id")
            + _authorship_counted("+", "new.person_id", "new.paper_id"),
        ),
        _trigger(
            "papers_counted_delete",
            "before delete on papers",
            [
                """update person_stats set papers = papers - 1,
                       cited_papers = cited_papers - (old.cited_by_count is not null),
                       citations = citations - coalesce(old.cited_by_count, 0)
                   where person_id in (select person_id from authorships where paper_id = old.id)""",
                f"""update person_category_counts set papers = papers - (
                        select count(*) from {_categories_of("old")} as category
                        where category.value = person_category_counts.category)
                    where person_id in (select person_id from authorships where paper_id = old.id)""",
                """delete from person_category_counts
                   where papers <= 0 and person_id in (select person_id from authorships where paper_id = old.id)""",
            ],
        ),
        _trigger(
            "papers_counted_citations",
            "after update of cited_by_count on papers when old.cited_by_count is not new.cited_by_count",
            [
                """update person_stats set
                       cited_papers = cited_papers - (old.cited_by_count is not null) + (new.cited_by_count is not null),
                       citations = citations - coalesce(old.cited_by_count, 0) + coalesce(new.cited_by_count, 0)
                   where person_id in (select person_id from authorships where paper_id = new.id)""",
            ],
        ),
        _trigger(
            "papers_counted_categories",
            "after update of categories on papers when old.categories is not new.categories",
            [
                f"""update person_category_counts set papers = papers - (
                        select count(*) from {_categories_of("old")} as category
                        where category.value = person_category_counts.category)
                    where person_id in (select person_id from authorships where paper_id = new.id)""",
                """delete from person_category_counts
                   where papers <= 0 and person_id in (select person_id from authorships where paper_id = new.id)""",
                f"""insert into person_category_counts (person_id, category, papers)
                    select authorships.person_id, category.value, 1 from authorships, {_categories_of("new")} as category
                    where authorships.paper_id = new.id and category.type = 'text'
                    on conflict (person_id, category) do update set papers = papers + 1""",
            ],
        ),
        """insert into person_stats (person_id, papers, cited_papers, citations)
           select authorships.person_id, count(*), count(papers.cited_by_count), coalesce(sum(papers.cited_by_count), 0)
           from authorships join papers on papers.id = authorships.paper_id group by authorships.person_id""",
        f"""insert into person_category_counts (person_id, category, papers)
            select authorships.person_id, category.value, count(*)
            from authorships join papers on papers.id = authorships.paper_id, {_categories_of("papers")} as category
            where category.type = 'text' group by authorships.person_id, category.value""",
        # organisations and stated interests: the words fold (indexes.records) would give, diacritics removed
        """create virtual table person_topic_index using fts5(organization, organizations, interests,
            content='people', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='3')""",
        "create virtual table person_topic_index_terms using fts5vocab(person_topic_index, 'row')",
        """create trigger person_topic_index_insert after insert on people begin
            insert into person_topic_index (rowid, organization, organizations, interests)
            values (new.id, new.organization, new.organizations, new.interests); end""",
        """create trigger person_topic_index_delete after delete on people begin
            insert into person_topic_index (person_topic_index, rowid, organization, organizations, interests)
            values ('delete', old.id, old.organization, old.organizations, old.interests); end""",
        """create trigger person_topic_index_update after update of organization, organizations, interests on people
        begin
            insert into person_topic_index (person_topic_index, rowid, organization, organizations, interests)
            values ('delete', old.id, old.organization, old.organizations, old.interests);
            insert into person_topic_index (rowid, organization, organizations, interests)
            values (new.id, new.organization, new.organizations, new.interests); end""",
        "insert into person_topic_index (person_topic_index) values ('rebuild')",
    ]
    for statement in statements:
        db.execute(statement)


# -- the old BM25's corpus statistics from FTS5's own tables (issue #24) --------------------------
@migration
def m015_papers_fts_terms(db: sqlite_utils.Database) -> None:
    """The vocabulary of ``papers_fts`` (``fts5vocab``, 'row': each stemmed word, the papers that hold
    it and how often it occurs). The words ranking re-scores FTS5's candidates with the library's
    BM25 (indexes/text_rank.py); this table gives it each query word's document frequency and the
    stop words' share of all words, read by key, so no statistic needs a pass over the papers. A
    virtual table over FTS5's own index: nothing to fill, nothing to keep level."""
    db.execute("create virtual table papers_fts_terms using fts5vocab(papers_fts, 'row')")


# -- an import's word indexes and counts written once at its end (issue #28) ---------------------------
def _unless_deferred(table: str, key: str) -> str:
    """SQL true unless the row of ``table`` whose rowid is ``key`` (an SQL expression: ``new.id``)
    arrived during a bulk write (``bulk_writes``): such rows are indexed and counted at its end."""
    return f"{key} <= coalesce((select after_rowid from bulk_writes where content = '{table}'), {key})"


def _fts_upkeep(index: str, table: str, key: str, columns: list[str], changed: list[str]) -> list[str]:
    """The insert, delete and update triggers keeping the external-content FTS5 ``index`` level with
    ``table`` (rowid ``key``), each statement skipped for a row a bulk write indexes at its end."""
    names = ", ".join(columns)

    def added(row: str) -> str:
        values = ", ".join(f"{row}.{column}" for column in columns)
        return f"insert into {index} (rowid, {names}) select {row}.{key}, {values} where {_unless_deferred(table, f'{row}.{key}')}"

    def removed(row: str) -> str:
        values = ", ".join(f"{row}.{column}" for column in columns)
        return (
            f"insert into {index} ({index}, rowid, {names}) select 'delete', {row}.{key}, {values} "
            f"where {_unless_deferred(table, f'{row}.{key}')}"
        )

    return [
        f"drop trigger {index}_insert",
        f"drop trigger {index}_delete",
        f"drop trigger {index}_update",
        _trigger(f"{index}_insert", f"after insert on {table}", [added("new")]),
        _trigger(f"{index}_delete", f"after delete on {table}", [removed("old")]),
        _trigger(f"{index}_update", f"after update of {', '.join(changed)} on {table}", [removed("old"), added("new")]),
    ]


@migration
def m016_bulk_writes(db: sqlite_utils.Database) -> None:
    """A bulk write (an import's records, its cited works) fills the word indexes once at its end.

    Each statement on a table an FTS5 index follows made FTS5 flush its pending words to a new
    segment, and merge segments (~30 SQLite statements a paper; 254 s of a 100 k import's 312 s
    went to writing its records). ``bulk_writes`` names, for the duration of one transaction only
    (``indexes.bulk_writes.deferred_upkeep`` adds and removes its rows), each content table's last
    rowid before the bulk write: the triggers below leave the rows above it alone, and the bulk
    write indexes them in one ``insert … select`` each before it commits. Outside a bulk write the
    table is empty and every trigger does what it did. The same triggers as m010, m013 and m014
    otherwise; m013's papers_search_* keep their change counter and log as they were, less the
    FTS5 statements, which move to papers_fts_* triggers of their own."""
    statements = [
        """create table bulk_writes (
            content text primary key,        -- a table whose rows word indexes follow (or that is counted)
            after_rowid integer not null     -- its rows above this arrived during the bulk write
        ) without rowid""",
        *_fts_upkeep("paper_title_index", "papers", "id", ["title_key"], ["title_key"]),
        *_fts_upkeep("person_name_index", "person_names", "rowid", ["name_key"], ["name_key"]),
        *_fts_upkeep(
            "person_topic_index",
            "people",
            "id",
            ["organization", "organizations", "interests"],
            ["organization", "organizations", "interests"],
        ),
        "drop trigger papers_search_insert",
        "drop trigger papers_search_delete",
        "drop trigger papers_search_update",
        """create trigger papers_search_insert after insert on papers begin
            update search_counter set seq = seq + 1;
            insert or replace into search_changes (paper_id, seq) values (new.id, (select seq from search_counter));
        end""",
        """create trigger papers_search_delete after delete on papers begin
            update search_counter set seq = seq + 1;
            insert or replace into search_changes (paper_id, seq) values (old.id, (select seq from search_counter));
        end""",
        """create trigger papers_search_update after update of id, title, abstract, date on papers
        when old.id is not new.id or old.title is not new.title or old.abstract is not new.abstract
            or old.date is not new.date
        begin
            update search_counter set seq = seq + 1;
            insert or replace into search_changes (paper_id, seq) values (old.id, (select seq from search_counter));
            insert or replace into search_changes (paper_id, seq) values (new.id, (select seq from search_counter));
        end""",
    ]
    # papers_fts: the statements m013's triggers held, under triggers of their own (same index, same rows)
    fts = _fts_upkeep("papers_fts", "papers", "id", ["title", "abstract"], ["id", "title", "abstract"])
    statements += [statement for statement in fts if not statement.startswith("drop trigger")]
    for statement in statements:
        db.execute(statement)


# -- the library's counts without a pass over the papers (issue #28) -----------------------------------
@migration
def m017_library_counts(db: sqlite_utils.Database) -> None:
    """``library_counts``: the papers, and as ``cited_works`` those PaSa made of bibliography entries
    (source 'reference'), kept by triggers and filled here. The Library tab's counts line counted
    the cited works by a pass over ``papers`` (2.0 s at 100 k papers, 376 k rows); the other tables'
    ``count(*)`` reads their smallest index (5–17 ms at 100 k) and stays. Triggers on the big tables
    (sections, references, citations) would have cost more than they save: each row's statement then
    needs a statement journal (5.5 s of CPU a 10 k import). A bulk write (m016) counts its papers once
    at its end: by rowid (the app never changes a paper's id, so a row above the mark arrived during
    the bulk write)."""
    statements = [
        "create table library_counts (name text primary key, rows integer not null) without rowid",
        "insert into library_counts (name, rows) select 'papers', count(*) from papers",
        "insert into library_counts (name, rows) select 'cited_works', count(*) from papers where source = 'reference'",
    ]
    for event, row, sign in (("insert", "new", "+"), ("delete", "old", "-")):
        statements.append(
            _trigger(
                f"papers_rows_{event}",
                f"after {event} on papers when {_unless_deferred('papers', f'{row}.id')}",
                [
                    f"update library_counts set rows = rows {sign} 1 where name = 'papers'",
                    f"update library_counts set rows = rows {sign} 1 where name = 'cited_works' and {row}.source = 'reference'",
                ],
            )
        )
    statements.append(
        _trigger(
            "papers_rows_source",
            f"""after update of source on papers when (old.source = 'reference') is not (new.source = 'reference')
                and {_unless_deferred("papers", "new.id")}""",
            [
                """update library_counts set rows = rows + (new.source = 'reference') - (old.source = 'reference')
                   where name = 'cited_works'""",
            ],
        )
    )
    for statement in statements:
        db.execute(statement)


@migration
def m018_own_papers_index(db: sqlite_utils.Database) -> None:
    """Two partial indexes that part the library's own papers from PaSa's cited works (source
    'reference') without reading a paper's row (its title and abstract), for the Library tab's
    search at 100 k papers (376 k rows, 276 k of them cited works). ``papers_own``: the own papers'
    ids, whose vectors alone an own-papers search scores (indexes/library_search.py ``OwnRows``;
    a pass over ``papers`` took 0.3–0.9 s, the index 30–40 ms). It holds the source: an index of
    the ids alone is not covering. ``papers_cited``: the cited works' ids, which the words ranking
    looks each match up in (indexes/search_changes.py ``_matching``: 170 ms -> 75 ms a query)."""
    db.execute("create index papers_own on papers (source) where source != 'reference'")
    db.execute("create index papers_cited on papers (id) where source = 'reference'")


# -- the own papers' words searched without the cited works' (issue #28) -------------------------------
# A cited work's row in papers_fts_own_first: its id moved above every own paper's (ids stay far below).
# Written here as a number: a migration that shipped never changes (indexes/bulk_writes.py names it).
_CITED_ROWID_OFFSET = 1 << 40
_WORD_ID = f"case when source = 'reference' then id + {_CITED_ROWID_OFFSET} else id end"


def _own_first_row(row: str) -> str:
    """The FTS5 rowid of ``row`` (``old``, ``new``) in papers_fts_own_first."""
    return f"case when {row}.source = 'reference' then {row}.id + {_CITED_ROWID_OFFSET} else {row}.id end"


@migration
def m019_papers_fts_own_first(db: sqlite_utils.Database) -> None:
    """``papers_fts_own_first``: the words of ``papers_fts`` (every paper's title and abstract, the
    same tokenizer) with PaSa's cited works (source 'reference') at rowid id + 2^40 and the own
    papers at their id. A search of the library's own papers (the Library tab, ``library search``)
    asks FTS5 for the rows below 2^40: FTS5 stops reading each word's postings there, so the cited
    works' matches (most matches of a common word at 100 k papers: 276 k of the 376 k rows) are
    neither read nor scored, and the scores are papers_fts's to the last bit, as the index holds the
    same rows (bm25's row count, mean length and each word's paper count are the whole library's).
    An index of the own papers alone would have scored them by the own papers' statistics and
    changed which 200 candidates the words ranking re-scores. External content over the view
    ``papers_own_first_rows`` (FTS5's 'rebuild' and 'integrity-check' read it); kept by triggers,
    and by a bulk write at its end (``indexes.bulk_writes``), like papers_fts."""
    statements = [
        f"create view papers_own_first_rows as select {_WORD_ID} as word_id, title, abstract from papers",
        """create virtual table papers_fts_own_first using fts5(
            title, abstract, content='papers_own_first_rows', content_rowid='word_id',
            tokenize='porter unicode61 remove_diacritics 2')""",
        # by an insert from ``papers`` (the view's key is computed: FTS5's 'rebuild' would sort it)
        f"insert into papers_fts_own_first (rowid, title, abstract) select {_WORD_ID}, title, abstract from papers",
    ]

    def added(row: str) -> str:
        return (
            f"insert into papers_fts_own_first (rowid, title, abstract) select {_own_first_row(row)}, "
            f"{row}.title, {row}.abstract where {_unless_deferred('papers', f'{row}.id')}"
        )

    def removed(row: str) -> str:
        return (
            "insert into papers_fts_own_first (papers_fts_own_first, rowid, title, abstract) select 'delete', "
            f"{_own_first_row(row)}, {row}.title, {row}.abstract where {_unless_deferred('papers', f'{row}.id')}"
        )

    statements += [
        _trigger("papers_fts_own_first_insert", "after insert on papers", [added("new")]),
        _trigger("papers_fts_own_first_delete", "after delete on papers", [removed("old")]),
        _trigger(
            "papers_fts_own_first_update",
            """after update of id, title, abstract, source on papers
            when old.id is not new.id or old.title is not new.title or old.abstract is not new.abstract
                or (old.source = 'reference') is not (new.source = 'reference')""",
            [removed("old"), added("new")],
        ),
    ]
    for statement in statements:
        db.execute(statement)


# -- double-encoded text stored before the arXiv import read it back (issue #24) -------------------------
@migration
def m020_double_encoded_text_repaired(db: sqlite_utils.Database) -> None:
    """Names and text stored double-encoded ("Katharina GÃ¶tz": UTF-8 read as Latin-1 before a feed was
    saved, 13 of the 100 entries of the shared 2026 arXiv feed) are read back as written, with the call
    the arXiv import makes since session 12 (``indexes.double_encoding.undo_double_encoding``, ftfy's
    fix_encoding): a library imported before keeps them otherwise, and no one finds "Katharina Götz" by
    her name. People's names, name variants (their name index follows, by its triggers) and
    organisations, the names and affiliations written on papers, the merge journal (so that undoing a
    merge gives back the repaired names), and the title, abstract and venue of arXiv's papers; only the
    rows that change are written (``repair_library``)."""
    from scholar_tui.indexes.double_encoding import repair_library

    repair_library(db.conn)


# -- searchPerson by interest reads the most cited people first (issue #28) ------------------------------
@migration
def m021_person_citation_order(db: sqlite_utils.Database) -> None:
    """The people in the order searchPerson ranks equal scores, read from indexes
    (``LookupStore.people_in_rank_order``): most cited first by the source's count
    (``people.cited_by_count``), else their papers' summed counts (``person_stats.citations``, kept by
    m014's triggers), then those without citations by name. A question that gives only an interest
    scores people in that order until none after can enter the top ten, instead of every person whose
    papers' categories match (thousands at 100,000 papers)."""
    db.execute("create index if not exists people_cited_by_count on people (cited_by_count)")
    db.execute("create index if not exists person_stats_citations on person_stats (citations)")
    db.execute("create index if not exists people_name on people (name)")
