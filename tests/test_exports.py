"""core/exports.py: BibTeX a person can paste into a paper, RIS, CSL-JSON, Markdown; the CLI's exports."""

from __future__ import annotations

import json

import bibtexparser
import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.exports import (
    Reference,
    assign_keys,
    cited_paper_ids,
    export_papers,
    export_path,
    gather,
    latex_value,
    reference_from_row,
    to_bibtex,
    to_csl_json,
    to_ris,
)
from scholar_tui.core.library.importer import run_import
from scholar_tui.indexes.library import Library

from .conftest import SHARED_DATA

ONLINE = SHARED_DATA / "online"


def test_math_is_left_alone_and_only_text_is_escaped():
    assert latex_value(r"Zeros of $f_n'(z)$ for 50% of #x_y & more") == r"Zeros of $f_n'(z)$ for 50\% of \#x\_y \& more"
    assert (
        latex_value(r"A $\mathbb{Z}_2$ index and \(a_1\) and $$b_2$$")
        == r"A $\mathbb{Z}_2$ index and \(a_1\) and $$b_2$$"
    )
    assert latex_value(r"already \_ escaped") == r"already \_ escaped"
    assert latex_value("an {unbalanced title") == "an unbalanced title"  # would swallow the rest of the file


def test_keys_are_surname_year_first_word_and_unique():
    papers = [
        Reference(1, "Mind the gap: a study", ["Ahmed Hassen"], 2022),
        Reference(2, "Mind the gap again", ["Ahmed Hassen"], 2022),
        Reference(3, "The roots of random polynomials", [], 2021),
        Reference(4, "Über $\\alpha$-stable laws", ["Jürgen Müller"], 2020),
    ]
    assign_keys(papers)
    assert [paper.key for paper in papers] == ["hassen2022mind", "hassen2022minda", "roots2021random", "muller2020uber"]


def test_a_stored_category_list_gives_primaryclass_not_a_bracket():
    row = {
        "id": 7,
        "title": "T",
        "year": 2022,
        "date": "2022-12-05",
        "venue": "arXiv",
        "arxiv_id": "2212.01234",
        "doi": None,
        "url": None,
        "abstract": "mail me at someone@example.org",
        "categories": '["math.PR", "math.CA"]',
    }
    reference = reference_from_row(row, ["Marcus Michelen"])
    assign_keys([reference])
    text, count = to_bibtex([reference])
    assert "primaryclass = {math.PR}" in text and "{[}" not in text
    assert count == 1 == len(bibtexparser.parse_string(text).entries)  # the @ in the abstract is not an entry
    assert "author = {Michelen, Marcus}" in text


def test_ris_and_csl_json_carry_authors_and_dates():
    reference = Reference(
        1,
        "Mind the gap",
        ["Ahmed Hassen", "Johannes van der Waals"],
        2022,
        "2022-12-05",
        venue="Physical Review B",
        doi="10.1/x",
    )
    assign_keys([reference])
    ris, count = to_ris([reference])
    assert count == 1 and "AU  - Hassen, Ahmed" in ris and "AU  - van der Waals, Johannes" in ris
    assert "TY  - JOUR" in ris and "DA  - 2022/12/05" in ris and ris.rstrip().endswith("ER  -")
    items = json.loads(to_csl_json([reference])[0])
    assert items[0]["author"][1] == {"family": "van der Waals", "given": "Johannes"}
    assert items[0]["issued"] == {"date-parts": [[2022, 12, 5]]} and items[0]["type"] == "article-journal"


def test_paper_ids_named_by_a_program_value():
    value = [{"pub_id": "paper:3", "title": "x"}, {"pub_id": "paper:9"}, "paper:3", "not paper:4"]
    assert cited_paper_ids(value) == [3, 9]


def test_export_paths_default_to_the_data_folder(where):
    assert export_path(where, "", "search", "bib").parent == where.data_dir / "exports"
    assert export_path(where, "mine", "search", "bib") == where.data_dir / "exports" / "mine.bib"
    assert export_path(where, "/tmp/x/mine.bib", "search", "bib").as_posix() == "/tmp/x/mine.bib"


def test_an_unwritable_path_is_one_clear_error(where, tmp_path):
    from scholar_tui.core.exports import ExportError

    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ExportError, match="cannot write"):
        export_papers(blocker / "out.bib", "bib", [])


@pytest.mark.shared_data
def test_the_whole_shared_library_round_trips_through_a_bibtex_parser(imported, where, tmp_path):
    """Done when: BibTeX of the whole shared library parses back to the same number of entries,
    every entry with authors where the library has them; the CLI says the count it wrote."""
    for name in ("arxiv-atom-au-del_maestro.xml", "arxiv-atom-2026-search-testing.xml"):
        run_import("arxiv", ONLINE / name, imported)
    run_import("openalex", ONLINE / "openalex-works-search.json", imported)
    # the library's own papers: the cited works its bibliographies became at import are left out
    papers = [paper for paper in imported.all_papers() if paper["source"] != "reference"]
    with_authors = {paper["id"] for paper in papers if imported.paper_author_names(paper["id"])}
    output = tmp_path / "library.bib"
    result = CliRunner().invoke(cli, ["library", "export-bibtex", str(output)])
    assert result.exit_code == 0, result.output
    parsed = bibtexparser.parse_string(output.read_text(encoding="utf-8"))
    assert not parsed.failed_blocks
    assert len(parsed.entries) == len(papers) > 200
    assert f"wrote {len(papers)} entries" in result.output
    keys = {reference.key: reference.paper_id for reference in gather(imported)}
    missing = [
        entry.key for entry in parsed.entries if keys[entry.key] in with_authors and "author" not in entry.fields_dict
    ]
    assert not missing
    assert not [entry.key for entry in parsed.entries if entry.key.startswith("anon")]
    assert "{[}" not in output.read_text(encoding="utf-8")
    # math stays as written: no \_ between dollars
    for entry in parsed.entries:
        for piece in entry.fields_dict["title"].value.split("$")[1::2]:
            assert "\\_" not in piece, entry.key


def test_cli_export_writes_ris_and_csl_json_into_the_exports_folder(where):
    library = Library.open(where)
    from scholar_tui.indexes.records import AuthorRecord, PaperRecord

    with library.transaction():
        library.store_paper(
            PaperRecord(
                title="Zeros of random polynomials",
                source="bibtex",
                year=2021,
                authors=[AuthorRecord(name="Marcus Michelen")],
            )
        )
    library.close()
    runner = CliRunner()
    for fmt in ("ris", "json"):
        result = runner.invoke(cli, ["export", fmt, "--to", "mine"])
        assert result.exit_code == 0, result.output
        written = where.data_dir / "exports" / f"mine.{fmt}"
        assert "wrote 1 entry" in result.output and str(written) in result.output
        assert "Michelen" in written.read_text(encoding="utf-8")
    result = runner.invoke(cli, ["export", "md"])
    assert result.exit_code != 0 and "--history ID" in result.output
