"""Migration m020: a library imported before the arXiv import read double-encoded text back ("Katharina
GÃ¶tz") gets its names and arXiv text repaired when the new code opens it, and a question about the
person is answered."""

import pytest

from scholar_tui.config.settings import load_settings
from scholar_tui.core.services import Services
from scholar_tui.core.soay import open_soay
from scholar_tui.core.soay.engine import final_answer
from scholar_tui.indexes import migrations
from scholar_tui.indexes.db import open_database
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.records import AuthorRecord, PaperRecord

from .conftest import ScriptedLLM
from .library_support import HashingEmbedder

OURS = "m020_double_encoded_text_repaired"
SCRATCH = "Model-based Testing of Scratch Programs"


def _records() -> list[PaperRecord]:
    return [
        PaperRecord(
            SCRATCH,
            "arxiv",
            arxiv_id="2202.06271",
            abstract="Scratch programs with $Î±$ sprites",  # Greek read as Latin-1, as the 2026 feed has it
            date="2022-02-12",
            authors=[
                AuthorRecord("Katharina GÃ¶tz", affiliation="UniversitÃ¤t Passau"),
                AuthorRecord("Gordon Fraser"),
                AuthorRecord("Aurora RamÃ­rez"),
            ],
        ),
        PaperRecord(
            "Flaky tests in industry",
            "arxiv",
            arxiv_id="2203.00001",
            date="2022-03-01",
            authors=[AuthorRecord("Mika V. MÃ¤ntylÃ¤"), AuthorRecord("José García")],  # García is right as it is
        ),
        PaperRecord("Test smells revisited", "bibtex", date="2021-05-01", authors=[AuthorRecord("Mika Mantyla")]),
    ]


@pytest.fixture
def library_from_before(where, monkeypatch):
    """A library as the code before m020 left it: double-encoded names stored, one of them merged."""
    with monkeypatch.context() as patch:
        patch.setattr(migrations, "MIGRATIONS", [item for item in migrations.MIGRATIONS if item[0] != OURS])
        old = Library(open_database(where))
        with old.transaction():
            for record in _records():
                old.store_paper(record)
            gotz = old._one("select id from people where name = 'Katharina GÃ¶tz'")
            old.conn.execute(  # a variant spelled right beside the broken one: one of them must go
                "insert into person_names (person_id, name, name_key) values (?, 'Katharina Götz', 'katharina gotz')",
                (gotz,),
            )
            kept = old._one("select id from people where name = 'Mika Mantyla'")
            merged = old._one("select id from people where name = 'Mika V. MÃ¤ntylÃ¤'")
            merge_id = old.merge_people(kept, merged, "same surname, shared coauthor")
        old.conn.close()
    return merge_id


def test_a_library_imported_before_gets_its_double_encoded_names_repaired(where, library_from_before):
    library = Library.open(where)  # the new code opens it: m020 runs once
    assert OURS in migrations.applied(library.db)
    person = library._one("select id from people where name = 'Katharina Götz'")
    assert person is not None
    assert library._rows("select name, name_key from person_names where person_id = ?", (person,)) == [
        {"name": "Katharina Götz", "name_key": "katharina gotz"}  # the broken variant is gone, the right one kept
    ]
    found = library._rows(  # the name index follows the repaired key
        "select rowid from person_name_index where person_name_index match 'gotz'"
    )
    assert len(found) == 1
    assert library._rows("select name_as_written, affiliation from authorships where person_id = ?", (person,)) == [
        {"name_as_written": "Katharina Götz", "affiliation": "Universität Passau"}
    ]
    assert (
        library._one("select abstract from papers where arxiv_id = '2202.06271'") == "Scratch programs with $α$ sprites"
    )
    assert library._one("select count(*) from people where name = 'José García'") == 1  # right text left alone
    assert not library._rows("select name from person_names where name glob '*Ã*'")
    # the merge journal holds the repaired names: undoing the merge gives back the repaired person
    restored = library.split_merge(library_from_before)
    assert restored["restored_name"] == "Mika V. Mäntylä"
    assert (
        library._one(
            "select count(*) from authorships where person_id = ? and name_as_written = 'Mika V. Mäntylä'",
            (restored["restored_id"],),
        )
        == 1
    )
    library.conn.close()


def test_a_question_about_a_repaired_name_is_answered(where, library_from_before):
    services = Services(
        where,
        load_settings(where),
        llm_factory=lambda settings, where: ScriptedLLM(),
        embedder_factory=lambda settings: HashingEmbedder(),
    )
    with open_soay(services, feedback=False) as engine:
        papers = final_answer(engine.run("What did Katharina Götz publish?"))
        coauthors = final_answer(engine.run("Who did Aurora Ramírez write with?"))
    for answer, expected in ((papers, SCRATCH), (coauthors, "Katharina Götz")):
        assert answer.ok and not answer.abstained, answer.error
        assert expected in (answer.answer or ""), answer.answer
        assert "Ã" not in (answer.answer or ""), answer.answer


def test_the_repair_runs_once_and_changes_nothing_right(where, library_from_before):
    Library.open(where).conn.close()
    library = Library.open(where)
    assert migrations.migrate(library.db) == []
    from scholar_tui.indexes.double_encoding import repair_library

    with library.transaction():  # run again on repaired text: nothing left to change
        assert set(repair_library(library.conn).values()) == {0}
    library.conn.close()
