"""BibTeX as people keep it (issue #27): the cases a corpus of 41 real .bib files showed, one test each."""

from __future__ import annotations

import re

from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.library.bibtex import parse_bibtex, write_bibtex
from scholar_tui.core.library.importer import run_import

COLUMNS = """
@article{intro2019, title = {Editor's introduction}, author = {Smith, Ann}, journal = {J. Columns}, year = 2019}
@article{intro2020a, title = {Editor's Introduction}, author = {Jones, Bob}, journal = {J. Columns}, year = 2020}
@article{intro2020b, title = {Editor's introduction}, author = {Lee, Carol and Smith, Ann}, journal = {J. Columns}, year = 2020}
@article{intro2020c, title = {{Editor's} introduction}, author = {Jones, Bob}, journal = {J. Columns}, year = 2020}
"""


def _bib(tmp_path, text: str, name: str = "refs.bib"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_same_title_by_different_authors_stays_apart_and_a_merge_is_named(empty_library, tmp_path):
    finished = run_import("bibtex", _bib(tmp_path, COLUMNS), empty_library)
    # three first authors, three works; Bob Jones's two 2020 entries are one work, and the summary says so
    assert finished.added["papers"] == 3
    assert len(finished.works_merged) == 1 and "Editor's introduction" in finished.works_merged[0]
    assert "same title and year, first author" in finished.works_merged[0]
    assert "1 record merged with a paper already here" in finished.summary


def test_latex_commands_never_stay_in_titles_or_names(empty_library, tmp_path):
    text = r"""
@article{q, title = {The \mkbibquote{Intention} of \texttt{Davos} and \emph{more} \unknowncommand{kept}},
  author = {M{\"u}ller, J{\"o}rg and \textsc{Doe}, Jane and Christina A. L.\ Thiele}, year = 2020}
"""
    ((_, record),) = parse_bibtex(text)
    assert record.title == "The Intention of Davos and more kept"
    assert [a.name for a in record.authors] == ["Jörg Müller", "Jane Doe", "Christina A. L. Thiele"]
    run_import("bibtex", _bib(tmp_path, text), empty_library)
    for paper in empty_library.all_papers():
        assert "\\" not in paper["title"] and not re.search(r"mkbibquote|texttt", paper["title"])
        assert all("\\" not in name for name in empty_library.paper_author_names(paper["id"]))


def test_and_others_is_not_a_person_and_a_repeated_name_is_two_people(empty_library, tmp_path):
    text = "@article{w, title = {Graph learning at scale in practice}, author = {Y Wang and D Liu and Y Wang and others}, year = 2021}"
    ((_, record),) = parse_bibtex(text)
    assert [a.name for a in record.authors] == ["Y Wang", "D Liu", "Y Wang"]
    run_import("bibtex", _bib(tmp_path, text), empty_library)
    paper = empty_library.all_papers()[0]
    assert empty_library.paper_author_names(paper["id"]) == ["Y Wang", "D Liu", "Y Wang"]
    assert "others" not in {row["name"] for row in empty_library.people_names()}


def test_crossref_gives_the_child_its_year_and_venue():
    text = """
@inproceedings{child, crossref = {proc}, title = {A child paper of the proceedings}, author = {Roe, Richard}}
@proceedings{proc, title = {Proceedings of the Big Conference}, year = 2001, publisher = {ACM}}
"""
    records = {record.title: record for _, record in parse_bibtex(text)}
    child = records["A child paper of the proceedings"]
    assert (child.year, child.venue) == (2001, "Proceedings of the Big Conference")


def test_entries_that_are_not_works_are_skipped_by_kind_and_a_titleless_one_is_named(empty_library, tmp_path):
    text = r"""
@string{jcol = "Journal of Columns"}
@preamble{"\newcommand{\noop}[1]{}"}
@IEEEtranBSTCTL{IEEEexample:BSTcontrol, CTLuse_forced_etal = "yes"}
@set{both, entryset = {one,two}}
@article{one, title = {The first of a set}, author = {Doe, Jane}, journal = jcol, year = 2020}
@article{two, title = {The second of a set}, author = {Roe, Richard}, journal = jcol # " (online)", year = 2020}
@misc{untitled, author = {Nobody, A.}, year = 2020}
"""
    finished = run_import("bibtex", _bib(tmp_path, text), empty_library)
    assert finished.added["papers"] == 2
    assert finished.skipped == ["refs.bib line 8: @misc{untitled: no title"]
    venues = sorted(paper["venue"] for paper in empty_library.all_papers())
    assert venues == ["Journal of Columns", "Journal of Columns (online)"]


def test_the_apps_own_export_reads_back_to_the_same_count(empty_library, tmp_path, where):
    text = r"""
@article{t, title = {Typesetting with \LaTeX: 50\% \& more}, author = {Christina A. L.\ Thiele and others}, year = 1999}
@article{u, title = {Another paper on typesetting}, author = {van der Waals, Johannes Diderik}, year = 1873}
"""
    run_import("bibtex", _bib(tmp_path, text), empty_library)
    exported = write_bibtex([(p, empty_library.paper_author_names(p["id"])) for p in empty_library.all_papers()])
    back = parse_bibtex(exported)
    assert len(back) == 2
    assert {a.name for _, r in back for a in r.authors} == {"Christina A. L. Thiele", "Johannes Diderik van der Waals"}
    result = CliRunner().invoke(cli, ["import", "bibtex", str(_bib(tmp_path, exported, "export.bib")), "--no-index"])
    assert result.exit_code == 0, result.output
