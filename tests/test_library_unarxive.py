"""unarXive import on the real sample: 49 papers with sections and references, idempotent, transactional."""

import json

import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.library.importer import LibraryImportError, run_import
from scholar_tui.core.library.unarxive import parse_paper

from .library_support import UNARXIVE


def _raw_papers():
    return [json.loads(line) for line in UNARXIVE.read_text(encoding="utf-8").splitlines()]


def _section_runs(paper: dict) -> int:
    """Sections as runs of consecutive paragraphs naming the same section, counted independently."""
    keys = [(p["section"], p["sec_number"], p["sec_type"]) for p in paper["body_text"]]
    return sum(1 for index, key in enumerate(keys) if index == 0 or keys[index - 1] != key)


def test_imports_all_papers_sections_and_references(imported):
    raw = _raw_papers()
    counts = imported.counts()
    assert counts["papers"] == len(raw) == 49
    assert counts["sections"] == sum(_section_runs(paper) for paper in raw) == 698
    assert counts["references"] == sum(len(paper["bib_entries"]) for paper in raw) == 1786
    names = {
        " ".join(part for part in (a[1], a[0], a[2]) if part) for p in raw for a in p["metadata"]["authors_parsed"]
    }
    assert counts["people"] == len(names) == 196
    # every {{cite:…}} span of the body, and of a section's title, counts for the section it is in
    body = sum(len(p["cite_spans"]) for paper in raw for p in paper["body_text"])
    titles = sum(
        (p["section"] or "").count("{{cite:")
        for paper in raw
        for index, p in enumerate(paper["body_text"])
        if index == 0 or paper["body_text"][index - 1]["section"] != p["section"]
    )
    mentions = imported._one("select sum(mentions) from section_references")
    assert (body, titles) == (3042, 11) and mentions == body + titles


def test_a_paper_keeps_its_sections_numbers_and_linked_references(imported):
    paper_id = imported.resolve_paper("2212.11867")
    paper = imported.paper(paper_id)
    assert paper["title"] == "Zeros of a growing number of derivatives of random polynomials with independent roots"
    assert paper["date"] == "2022-12-22" and paper["categories"] == ["math.PR", "math.CA", "math.CV"]
    assert [a["name"] for a in imported.paper_authors(paper_id)] == ["Marcus Michelen", "Xuan-Truong Vu"]
    sections = imported.sections(paper_id)
    assert [(s["number"], s["title"]) for s in sections] == [
        ("1", "Introduction"),
        ("1.1", "Notation"),
        ("2", "Proof of the main result"),
        ("3", "Anticoncentration of elementary symmetric polynomials"),
        ("4", "Comments and Open Problems"),
        (None, "Acknowledgments"),
    ]
    introduction = imported.references(paper_id, sections[0]["id"])
    assert len(introduction) == 10
    byun = next(r for r in introduction if r["ordinal"] == 2)
    assert byun["doi"] == "10.1090/tran/8674" and byun["openalex_id"] == "W4283717483"
    # an arXiv id printed in the entry links it even where unarXive found no id
    kabluchko = next(r for r in imported.references(paper_id) if r["ordinal"] == 7)
    assert "arXiv:2112.14729" in kabluchko["raw"] and kabluchko["arxiv_id"] == "2112.14729"
    assert "[14]" in sections[0]["text"] and "{{cite:" not in sections[0]["text"]


def test_subsection_numbers_restart_and_cited_titles_render(imported):
    """Real quirks: local subsection numbers, repeated titles, citations inside section titles."""
    sections = imported.sections(imported.resolve_paper("2212.11774"))
    by_number = {s["number"]: s for s in sections}
    assert by_number["4.1"]["title"] == "BLUiR [10]"
    assert by_number["4.1.1"]["title"] == by_number["4.2.1"]["title"] == "Methodology"
    cited = [r["ordinal"] for r in imported.references(imported.resolve_paper("2212.11774"), by_number["4.1"]["id"])]
    assert 10 in cited


def test_second_run_adds_nothing(imported):
    before = imported.counts()
    finished = run_import("unarxive", UNARXIVE, imported)
    assert finished.records == 49
    assert set(finished.added.values()) == {0}
    assert imported.counts() == before


def test_truncated_copy_fails_naming_the_line_and_changes_nothing(imported, tmp_path):
    truncated = tmp_path / "truncated.jsonl"
    truncated.write_bytes(UNARXIVE.read_bytes()[:10_000_000])
    lines = truncated.read_bytes().count(b"\n") + 1
    before = imported.counts()
    with pytest.raises(LibraryImportError) as caught:
        run_import("unarxive", truncated, imported)
    message = str(caught.value)
    assert f"truncated.jsonl line {lines}:" in message and "truncated" in message.split(":", 1)[1]
    assert "\n" not in message
    assert imported.counts() == before


def test_a_bad_line_rolls_back_the_lines_before_it(shared_data, empty_library, tmp_path):
    lines = UNARXIVE.read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([lines[0], lines[1], '{"paper_id": "2212.99999", "metadata": {}}', lines[3]]) + "\n")
    with pytest.raises(
        LibraryImportError, match=r"broken.jsonl line 3: not an unarXive paper: paper 2212.99999 has no title"
    ):
        run_import("unarxive", broken, empty_library)
    assert set(empty_library.counts().values()) == {0}


def test_parser_refuses_what_is_not_a_paper():
    with pytest.raises(ValueError, match="no valid arXiv id"):
        parse_paper({"paper_id": "nonsense", "metadata": {"title": "x"}, "body_text": []})


def test_cli_import_then_again_then_truncated(shared_data, where, tmp_path):
    runner = CliRunner()
    first = runner.invoke(cli, ["import", "unarxive", str(UNARXIVE), "--no-index", "--json"])
    assert first.exit_code == 0, first.output
    summary = json.loads(first.output)
    assert summary["added"]["papers"] == 49 and summary["added"]["sections"] == 698
    again = runner.invoke(cli, ["import", "unarxive", str(UNARXIVE), "--no-index"])
    assert again.exit_code == 0 and "added:   0 papers, 0 people" in again.output
    truncated = tmp_path / "cut.jsonl"
    truncated.write_bytes(UNARXIVE.read_bytes()[:10_000_000])
    failed = runner.invoke(cli, ["import", "unarxive", str(truncated), "--no-index"])
    assert failed.exit_code == 1 and "Traceback" not in failed.output
    error_lines = [line for line in failed.output.splitlines() if line.startswith("Error")]
    assert len(error_lines) == 1 and "cut.jsonl line 44" in error_lines[0] and "library is unchanged" in error_lines[0]
    stats = json.loads(runner.invoke(cli, ["library", "stats", "--json"]).output)
    # the 49 papers and the works their bibliographies cite, made papers at import for paper search
    assert summary["cited_works"] > 900 and stats["papers"] == 49 + summary["cited_works"]
    assert stats["references"] == 1786


def test_sections_by_name_for_expanding_citations(imported):
    """PaSa's [Expand] names a (sub)section; the library finds it and its references."""
    paper_id = imported.resolve_paper("2212.11774")
    assert [s["number"] for s in imported.find_sections(paper_id, "Methodology")][:2] == ["4.1.1", "4.2.1"]
    assert [s["title"] for s in imported.find_sections(paper_id, "4.1")] == ["BLUiR [10]"]
    (bug,) = imported.find_sections(paper_id, "bug localization")
    assert bug["number"] == "2.1"
    (datasets, *_) = imported.find_sections(paper_id, "Evaluation datasets")
    assert datasets["number"] == "2.6" and len(imported.references(paper_id, datasets["id"])) == 3
