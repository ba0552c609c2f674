"""BibTeX: bibtexparser v2 + pylatexenc (a broken entry is named with its line and the rest imports),
import that merges only the same work, export that reads back the same."""

import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.library.bibtex import (
    BibtexError,
    bibtex_name,
    latex_to_text,
    parse_bibtex,
    parse_entries,
    split_authors,
    write_bibtex,
)
from scholar_tui.core.library.importer import run_import

from .library_support import fixture_path

SAMPLE = fixture_path("bibtex", "sample.bib")


def test_parser_understands_what_real_files_contain():
    entries = parse_entries(SAMPLE.read_text())
    assert [(e.type, e.key, e.line) for e in entries] == [
        ("article", "Kabluchko2015", 9),
        ("article", "hoskins2022semicircle", 23),
        ("misc", "michelen2022zeros", 33),
        ("inproceedings", "goedel1931", 42),
    ]
    records = dict((record.title[:12], record) for _, record in parse_bibtex(SAMPLE.read_text()))
    kabluchko = records["Critical poi"]
    assert kabluchko.venue == "Proc. Amer. Math. Soc."  # @string macro joined with '#'
    assert kabluchko.date == "2015-02" and kabluchko.arxiv_id == "1206.6692"
    assert kabluchko.doi == "10.1090/s0002-9939-2014-12258-1"
    assert records["A Semicircle"].venue == "International Mathematics Research Notices"
    assert records["A Semicircle"].abstract.endswith("& prove a semicircle law; 50% of the roots$\\ldots$")
    michelen = records["Zeros of a g"]  # @misc( … ) with quoted values
    assert [a.name for a in michelen.authors] == ["Marcus Michelen", "Xuan-Truong Vu"]
    assert michelen.arxiv_id == "2212.11867" and michelen.categories == ["math.PR"]
    goedel = records["Über formal "]
    assert goedel.title == "Über formal unentscheidbare Sätze: a test of LaTeX accents – and $\\alpha$-math"
    assert [a.name for a in goedel.authors] == [
        "Kurt Gödel",
        "Johann A. Preuß",
        "Émile Borel",
        "Johannes Diderik van der Waals",
        "Barack Obama Foundation",
    ]
    assert goedel.categories == ["logic", "incompleteness"]


@pytest.mark.parametrize(
    "text, line, words",
    [
        (
            fixture_path("bibtex", "broken.bib").read_text(),
            7,
            "@article{second, title = {This entry nev…: unexpected block start",
        ),
        ("@article{x,\n  title = {open\n", 1, "unexpectedly reached end of file"),
        ("\n\n@article{x, title = {a}\n", 3, "unexpectedly reached end of file"),
        (
            "@article{x, title = {a} year = 1}",
            1,
            "field 'title': '{a} year = 1' is not a BibTeX value (is a ',' missing",
        ),
        ("@article{x,\n title {a}}", 1, "expected a '=' after entry key"),
        ('@article{x,\n title = "a}', 1, "unexpectedly reached end of file"),
        ("@article{x, author = {Doe, J.}}", 1, "no title"),
    ],
)
def test_errors_name_the_line(text, line, words):
    with pytest.raises(BibtexError) as caught:
        parse_bibtex(text)
    assert caught.value.line == line and words in str(caught.value) and "\n" not in str(caught.value)


def test_names_and_latex():
    assert split_authors("A and {B and C} and D AND E") == ["A", "{B and C}", "D", "E"]
    assert bibtex_name("Johannes Diderik van der Waals") == "van der Waals, Johannes Diderik"
    assert (
        latex_to_text(r"Erd\H{o}s, \v{S}va\v{c}, Ko\c{c}, \o{}ster, na\"{\i}ve, 10\% \& $\mu_{n}$")
        == "Erdős, Švač, Koç, øster, naïve, 10% & $\\mu_{n}$"
    )


def test_round_trip_through_the_library(empty_library, tmp_path):
    first = run_import("bibtex", SAMPLE, empty_library)
    assert first.added["papers"] == 4
    exported = tmp_path / "out.bib"
    exported.write_text(
        write_bibtex([(p, empty_library.paper_author_names(p["id"])) for p in empty_library.all_papers()])
    )
    original = {r.title: r for _, r in parse_bibtex(SAMPLE.read_text())}
    again = {r.title: r for _, r in parse_bibtex(exported.read_text())}
    assert set(again) == set(original)
    for title, record in original.items():
        back = again[title]
        assert [a.name for a in back.authors] == [a.name for a in record.authors]
        assert (back.year, back.date, back.venue, back.arxiv_id, back.doi, back.abstract) == (
            record.year,
            record.date,
            record.venue,
            record.arxiv_id,
            record.doi,
            record.abstract,
        )
    assert set(run_import("bibtex", exported, empty_library).added.values()) == {0}


def local_person(library, name):
    return next(row["person_id"] for row in library.people_names() if row["name"] == name)


def test_import_merges_with_unarxive_and_a_broken_file_changes_nothing(imported):
    before = imported.counts()
    added = run_import("bibtex", SAMPLE, imported)
    assert added.added["papers"] == 3  # the Michelen entry is 2212.11867, already there
    # seven new people; "Johann A. Preuß" is already an author of 2212.11895, and a name is all BibTeX gives
    assert imported.counts()["people"] == before["people"] + 7
    preuss = imported.person(imported.resolve_person(local_person(imported, "Johann A. Preuß")))
    assert len(imported.person_papers(preuss["id"])) == 2
    broken = run_import("bibtex", fixture_path("bibtex", "broken.bib"), imported)
    assert broken.skipped == [
        "broken.bib line 7: @article{second, title = {This entry nev…: unexpected block start: "
        "'@article'. Was still looking for field-value closing ',' or '}'"
    ]
    assert imported.counts()["papers"] == before["papers"] + 5  # 'first' and 'third' import, 'second' is named


def test_cli_exports_the_whole_library(imported, tmp_path):
    target = tmp_path / "library.bib"
    result = CliRunner().invoke(cli, ["library", "export-bibtex", str(target)])
    assert result.exit_code == 0
    records = parse_bibtex(target.read_text())
    assert len(records) == 49
    zeros = next(r for _, r in records if r.arxiv_id == "2212.11867")
    assert [a.name for a in zeros.authors] == ["Marcus Michelen", "Xuan-Truong Vu"] and zeros.date == "2022-12-22"
