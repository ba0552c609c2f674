"""`bench scale` (#28): the synthetic library's shape, the importer on it, the process timer and
the table. The whole bench (real models, cold processes) runs only with RUN_BENCHMARKS=1."""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from scholar_tui.core.process_measure import run_measured
from scholar_tui.core.scale_library import Material, Person, generate, variant
from scholar_tui.core.scale_report import FIGURES, WARM, Figure, ScaleReport, SizeReport, notes, table

SIZE = 200


@pytest.fixture
def small_library(tmp_path: Path):
    path = tmp_path / "library.jsonl"
    return generate(SIZE, path, seed=3), [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_same_size_and_seed_write_the_same_file(tmp_path: Path) -> None:
    first, second, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    generate(SIZE, first, seed=1)
    generate(SIZE, second, seed=1)
    generate(SIZE, other, seed=2)
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != other.read_bytes()


def test_authors_are_written_in_variants(small_library) -> None:
    _, records = small_library
    written = [tuple(parts[:2]) for record in records for parts in record["metadata"]["authors_parsed"]]
    given = [given for _, given in written]
    assert any(name.endswith(".") and len(name) <= 5 for name in given), "no initials"
    assert any(len(name.split()) == 2 and name.split()[1].endswith(".") for name in given), "no middle initial"
    person = Person("José", "García")
    forms = {variant(person, random.Random(seed)) for seed in range(200)}
    assert {("García", "José"), ("García", "J."), ("Garcia", "Jose"), ("José", "García")} <= forms


def test_author_productivity_is_zipf_like(small_library) -> None:
    _, records = small_library
    # one person's papers under every written form: count by family name and first initial
    papers = Counter(
        (family, given[:1]) for record in records for family, given, _ in record["metadata"]["authors_parsed"]
    )
    counts = sorted(papers.values(), reverse=True)
    assert counts[0] >= 10 * statistics.median(counts)
    assert sum(1 for count in counts if count == 1) >= len(counts) / 3  # most write one paper


def test_citations_follow_a_power_law(small_library) -> None:
    library, _ = small_library
    degrees = sorted(library.in_degrees, reverse=True)
    total = sum(degrees)
    assert total > SIZE  # papers cite each other
    assert sum(degrees[: SIZE // 20]) > 0.25 * total  # the top 5 % of papers hold a quarter of the citations
    assert degrees.count(0) > SIZE / 5  # and many are never cited
    assert library.citations_outside > 0


def test_every_bibliography_entry_is_cited_in_the_text(small_library) -> None:
    _, records = small_library
    for record in records[1:50]:
        text = " ".join(paragraph["text"] for paragraph in record["body_text"])
        for key in record["bib_entries"]:
            assert f"{{{{cite:{key}}}}}" in text
        assert {paragraph["section"] for paragraph in record["body_text"]} >= {"Introduction", "Conclusion"}


def test_titles_and_abstracts_are_recombined_real_sentences(shared_data: Path, tmp_path: Path) -> None:
    material = Material.read(shared_data)
    path = tmp_path / "real.jsonl"
    library = generate(50, path, data_dir=shared_data)
    first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert library.material.endswith("arXiv_src_2212_086.jsonl")
    assert len(material.sentences) > 1000
    assert any(sentence in first["metadata"]["abstract"] for sentence in material.sentences)


def test_the_importer_takes_the_library_and_merges_variants(small_library, where) -> None:
    from scholar_tui.core.library.importer import ImportFinished, import_file
    from scholar_tui.indexes.library import Library

    library, records = small_library
    store = Library.open(where)
    try:
        finished = [event for event in import_file("unarxive", Path(library.path), store)][-1]
        assert isinstance(finished, ImportFinished)
        counts = store.counts()
    finally:
        store.close()
    assert finished.added["papers"] == SIZE
    assert finished.new_citations > library.citations_in_library / 2  # linked by arXiv id or title
    written = {f"{given} {family}" for record in records for family, given, _ in record["metadata"]["authors_parsed"]}
    assert finished.merged, "no name variant was merged"
    assert counts["people"] < len(written)


# -- the process timer and the table ----------------------------------------------------------------
CHILD = "import sys, time; print('first', flush=True); time.sleep(0.3); print('second', flush=True); time.sleep(30)"


def test_a_process_is_stopped_once_its_marks_are_seen() -> None:
    import re

    started = time.perf_counter()
    measured = run_measured(
        [sys.executable, "-c", CHILD],
        dict(os.environ),
        marks={"first": re.compile("^first"), "second": re.compile("^second")},
        stop_after={"second"},
    )
    assert time.perf_counter() - started < 10
    assert measured.stopped
    assert measured.marks["first"] < measured.marks["second"]
    assert measured.peak_mb > 1


def test_a_process_is_stopped_at_its_budget() -> None:
    measured = run_measured([sys.executable, "-c", CHILD], dict(os.environ), budget_s=1.0)
    assert measured.stopped and 0.9 < measured.seconds < 10
    assert measured.last_line == "second"


def test_the_table_has_every_figure_for_every_size() -> None:
    sizes = []
    for papers in (200, 2000):
        size = SizeReport(papers, "/tmp/home", generate_s=0.5)
        size.figures = [Figure(name, 1.0, [1.0], 100.0, {"bare": 0.1}) for name in FIGURES]
        size.figures[1].rate = 3.5
        sizes.append(size)
    lines = table(ScaleReport(sizes))
    text = "\n".join(lines)
    for name in FIGURES:
        assert name in text
    assert "200 papers" in lines[0] and "2,000 papers" in lines[0]
    assert "3.5 papers/s" in text and "0.10 s" in text


def test_the_warm_search_is_shown_in_milliseconds_and_beside_the_smallest_size() -> None:
    """#28's last line: a warm library search within 2x of its 1 k figure; the notes say the ratio."""
    sizes = []
    for papers, seconds in ((1000, 0.040), (100_000, 0.070)):
        library = {"people": 1, "variant_names": 0, "citations_in_library": 0, "most_cited": [], "citations_outside": 0}
        size = SizeReport(papers, "/tmp/home", library)
        size.figures = [Figure(WARM, seconds, [seconds])]
        sizes.append(size)
    report = ScaleReport(sizes)
    row = next(line for line in table(report) if line.startswith(WARM))
    assert "40 ms" in row and "70 ms" in row
    assert "  library search, warm (as the TUI): 1.8x the 1,000-paper figure" in notes(report)


@pytest.mark.benchmark
@pytest.mark.llm
def test_bench_scale_prints_every_figure(tmp_path: Path) -> None:
    from scholar_tui.app.cli import cli

    result = CliRunner().invoke(
        cli,
        ["bench", "scale", "--papers", "200", "--runs", "1", "--index-budget", "20", "--pasa-budget", "60"]
        + ["--root", str(tmp_path / "scale")],
    )
    assert result.exit_code == 0, result.output
    for name in FIGURES:
        assert name in result.output
    assert "200 papers" in result.output


def test_a_used_home_is_refused(tmp_path: Path) -> None:
    from scholar_tui.core.scale_bench import bench_size
    from scholar_tui.core.startup_bench import BenchError

    (tmp_path / "home-200").mkdir()
    (tmp_path / "home-200" / "scholar.db").write_text("")
    with pytest.raises(BenchError, match="not empty"):
        bench_size(200, tmp_path, dict(os.environ))


def test_peak_memory_is_the_commands_own_not_the_benchs() -> None:
    ballast = bytearray(300 * 1024 * 1024)  # the bench's own size must not become every child's floor
    small = run_measured([sys.executable, "-c", "import time; time.sleep(0.3)"], dict(os.environ))
    grows = run_measured(
        [sys.executable, "-c", "import time; b = bytearray(150 * 1024 * 1024); time.sleep(0.3)"], dict(os.environ)
    )
    del ballast
    assert small.peak_mb < 100
    assert 150 < grows.peak_mb < 250


def test_the_warm_search_figure_is_named_by_its_constant_not_its_place(monkeypatch, where) -> None:
    """scale_bench read the warm search's name as FIGURES[3]: a figure added before it in the table's
    order would have named the warm search after another figure."""
    from scholar_tui.core import scale_bench
    from scholar_tui.core.scale_library import GeneratedLibrary
    from scholar_tui.core.services import Services
    from scholar_tui.indexes.library_search import LibraryIndex

    def failing(*args, **kwargs):
        raise RuntimeError("no index here")

    monkeypatch.setattr(scale_bench, "FIGURES", ("a new figure first", *FIGURES), raising=False)
    monkeypatch.setattr(Services, "embedder", lambda self: None)
    monkeypatch.setattr(LibraryIndex, "search", failing)
    library = GeneratedLibrary("", 10, 5, 12, 0, 3, 4, search_query="random polynomials", paper_title="Zeros of it")
    figure = scale_bench._warm_search(library, {"SCHOLAR_TUI_HOME": str(where.data_dir.parent)}, lambda line: None)
    assert figure.name == WARM and not figure.ok and "no index here" in figure.note
