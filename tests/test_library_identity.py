"""Author identity: name variants that are one person are merged on evidence, kept as aliases, and can be split."""

from __future__ import annotations

from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.library.apis import local_api
from scholar_tui.core.library.identity import (
    compatible,
    delatex,
    merge_people,
    parse_name,
    queried_surnames,
    split_person,
)
from scholar_tui.core.library.importer import run_import
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.records import AuthorRecord, PaperRecord


def test_names_fold_latex_accents_hyphens_and_initials():
    assert delatex(r"Paul Erd\H{o}s, J.-P. K{\"u}hn, {\o}ksendal") == "Paul Erdős, J.-P. Kühn, øksendal"
    assert parse_name("Del Maestro, Adrian") == parse_name("Adrian Del Maestro")
    assert parse_name("Adrian Del Maestro").surname == "delmaestro"
    assert compatible("A. Del Maestro", "Adrian Del Maestro")
    assert compatible(r"J.-P. K{\"u}hn", "Jean-Pierre Kuhn")
    assert compatible("Kühn, Jean Pierre", "J. P. Kuhn")
    assert compatible("C. M. Herdman", "Christopher Herdman")  # a middle name may be missing
    assert compatible("Michel J. P. Gingras", "Michel Gingras")
    assert not compatible("Michel J. Gingras", "Michel P. Gingras")  # different middle initials
    assert not compatible("Adrian Del Maestro", "Alessandro Del Maestro")
    assert not compatible("A. Smith", "A. Smyth")
    assert not compatible("Del Maestro", "A. Del Maestro")  # a surname alone is nobody in particular
    assert queried_surnames("search_query=au:del_maestro&amp;id_list=&amp;start=0") == {"delmaestro"}
    assert queried_surnames('au:"Del Maestro" AND ti:helium') == {"delmaestro"}
    assert queried_surnames("graph neural networks") == set()


def _paper(title: str, *names: str, affiliation: str | None = None) -> PaperRecord:
    return PaperRecord(
        title=title,
        source="test",
        authors=[AuthorRecord(name, affiliation=affiliation if i == 0 else None) for i, name in enumerate(names)],
    )


def _store(library: Library, *papers: PaperRecord) -> list[int]:
    with library.transaction():
        return [library.store_paper(paper)[0] for paper in papers]


def _people(library: Library) -> dict[str, int]:
    return {row["name"]: row["id"] for row in library.identity_rows()}


def test_a_shared_coauthor_merges_the_initials_into_the_full_name(where):
    library = Library.open(where)
    _store(
        library,
        _paper("Quantum fluids in narrow pores one", "Jane Q. Rivera-Ortiz", "Tomasz Wójcik"),
        _paper("Quantum fluids in narrow pores two", "J. Rivera-Ortiz", "T. Wójcik"),
        _paper("Superfluid helium in carbon nanotubes", "J. Rivera-Ortiz", "Tomasz Wójcik"),
    )
    with library.transaction():
        merges = merge_people(library)
    people = _people(library)
    assert [m.summary() for m in merges] == [
        f"“J. Rivera-Ortiz” is “Jane Q. Rivera-Ortiz” (person:{people['Jane Q. Rivera-Ortiz']}; 1 shared coauthor)",
        f"“T. Wójcik” is “Tomasz Wójcik” (person:{people['Tomasz Wójcik']}; 1 shared coauthor)",
    ]
    jane = people["Jane Q. Rivera-Ortiz"]
    assert "J. Rivera-Ortiz" not in people
    assert library.person(jane)["names"] == ["J. Rivera-Ortiz", "Jane Q. Rivera-Ortiz"]
    found = local_api(library).searchPerson(name="J. Rivera-Ortiz")  # found by the alias
    assert found[0]["person_id"] == f"person:{jane}" and found[0]["num_pubs"] == 3
    assert found[0]["aliases"] == ["J. Rivera-Ortiz"]


def test_same_initials_and_surname_without_evidence_stay_two_people(where):
    library = Library.open(where)
    _store(
        library,
        _paper("Protein folding under crowding", "M. Okonkwo", "Lars Brandt", affiliation="Uppsala University"),
        _paper("Dark matter halos of dwarf galaxies", "Miriam Okonkwo", "Chen Wei", affiliation="Caltech"),
    )
    with library.transaction():
        assert merge_people(library) == []
    assert {"M. Okonkwo", "Miriam Okonkwo"} <= set(_people(library))
    # the same names with a shared affiliation are evidence
    _store(library, _paper("Crowding and folding again", "Miriam Okonkwo", affiliation="Uppsala University"))
    with library.transaction():
        assert [m.evidence for m in merge_people(library)] == ["same affiliation (uppsala university)"]


def test_a_short_form_that_fits_two_people_is_left_alone(where):
    library = Library.open(where)
    _store(
        library,
        _paper("Paper of Adam", "Adam Kowalczyk", "Rui Tanabe"),
        _paper("Paper of Anna", "Anna Kowalczyk", "Rui Tanabe"),
        _paper("Paper of A.", "A. Kowalczyk", "Rui Tanabe"),
    )
    with library.transaction():
        assert merge_people(library) == []  # Rui Tanabe is evidence for both: ambiguous
    assert {"Adam Kowalczyk", "Anna Kowalczyk", "A. Kowalczyk"} <= set(_people(library))


def test_an_author_query_is_evidence_but_not_for_a_common_surname(where):
    library = Library.open(where)
    _store(
        library,
        _paper("Helium one", "Bea Lindqvist"),
        _paper("Helium two", "B. Lindqvist"),
        _paper("Graphs one", "Yan Wang"),
        _paper("Graphs two", "Y. Wang"),
    )
    with library.transaction():
        assert merge_people(library, queried={"wang"}) == []  # a query for 'wang' proves nothing
        merges = merge_people(library, queried={"lindqvist"})
    assert [(m.merged_name, m.kept_name, m.evidence) for m in merges] == [
        ("B. Lindqvist", "Bea Lindqvist", "same author query")
    ]


def test_different_openalex_ids_are_different_people(where):
    library = Library.open(where)
    with library.transaction():
        library.store_paper(
            PaperRecord(
                "One",
                "openalex",
                openalex_id="W1",
                authors=[AuthorRecord("Gregory Butler", openalex_id="A1"), AuthorRecord("Ines Faro", openalex_id="A3")],
            )
        )
        library.store_paper(
            PaperRecord(
                "Two",
                "openalex",
                openalex_id="W2",
                authors=[AuthorRecord("G. Butler", openalex_id="A2"), AuthorRecord("Ines Faro", openalex_id="A3")],
            )
        )
        assert merge_people(library) == []


def test_split_undoes_a_merge_and_later_imports_keep_them_apart(where):
    library = Library.open(where)
    _store(library, _paper("Ice one", "Oskar Halvorsen", "Pia Lund"), _paper("Ice two", "O. Halvorsen", "Pia Lund"))
    with library.transaction():
        [merge] = merge_people(library)
    oskar = merge.kept_id
    assert len(library.person_papers(oskar)) == 2
    _store(library, _paper("Ice three", "O. Halvorsen"))  # a later paper under the alias joins the person
    assert len(library.person_papers(oskar)) == 3
    with library.transaction():
        [restored] = split_person(library, oskar)
    assert restored["restored_id"] == merge.merged_id and restored["restored_name"] == "O. Halvorsen"
    assert [p["title"] for p in library.person_papers(oskar)] == ["Ice one"]
    assert sorted(p["title"] for p in library.person_papers(merge.merged_id)) == ["Ice three", "Ice two"]
    assert library.person(oskar)["names"] == ["Oskar Halvorsen"]
    with library.transaction():
        assert merge_people(library) == []  # the split is remembered


def test_del_maestro_feed_gives_one_person_with_ten_papers_and_the_cli_splits_it(where, shared_data):
    library = Library.open(where)
    finished = run_import("arxiv", shared_data / "online" / "arxiv-atom-au-del_maestro.xml", library)
    assert len(finished.merged) == 1 and "same author query" in finished.merged[0]
    [person] = local_api(library).searchPerson(name="Adrian Del Maestro")
    assert person["name"] == "Adrian Del Maestro" and person["num_pubs"] == 10
    assert person["aliases"] == ["A. Del Maestro"]
    assert local_api(library).searchPerson(name="A. Del Maestro")[0]["num_pubs"] == 10
    library.close()
    runner = CliRunner()
    result = runner.invoke(cli, ["library", "person", "split", "Adrian Del Maestro"])
    assert result.exit_code == 0, result.output
    assert "“A. Del Maestro” is its own person again (4 papers); person:1 keeps 6" in result.output
    result = runner.invoke(cli, ["library", "person", "split", "Adrian Del Maestro"])
    assert result.exit_code == 1 and "has no merge to undo" in result.output


def test_unarxive_sample_and_recorded_feeds_merge_nobody_falsely(where, shared_data):
    """Read by hand: the compatible pairs in these files all carry different OpenAlex ids (two people)."""
    library = Library.open(where)
    merged = []
    for kind, path in (
        ("unarxive", shared_data / "unarxive" / "arXiv_src_2212_086.jsonl"),
        ("arxiv", shared_data / "online" / "arxiv-atom-2026-search-testing.xml"),
        ("openalex", shared_data / "online" / "openalex-works-search.json"),
    ):
        merged += run_import(kind, path, library).merged
    assert merged == []
