"""`scholar-tui bench scale --papers N`: the app's figures on a synthetic library of N papers (#28).

For each size, in one run and back to back: the library is generated (``core/scale_library``)
into a scratch home and every figure is a whole cold process of the real CLI, as a person runs
it, beside a bare baseline of the same data in the same run:

- import (the SQLite part, ``--no-index``) | a bare script that parses the same JSONL into
  SQLite tables with an FTS5 index of titles and abstracts;
- building the vectors (``library index`` where the app has the command, else the first
  ``library search``, which embeds what the index lacks), stopped after ``index_budget_s``:
  papers per second and the ETA for the whole library. Papers the app's embedder did not reach
  in the budget get stand-in vectors (a hash of the text, the embedder's width) written through
  the app's own index, so the search figures below are taken over a complete index;
- ``library search`` (median of ``runs``) | an FTS5 query and a numpy scan of the same vectors;
- the same search warm, as the Library tab runs it (one process, the embedder and the index's
  snapshot loaded once, a connection a search; median of ``WARM_SEARCHES``), in the bench's process;
- ``ask`` a person question and a paper question | the SQL that answers each over the bare tables;
- PaSa's ``search``, the first after the import and a later one: seconds to its first hits line
  and to its first ranked line (the process is stopped there, or after ``pasa_budget_s``) | the
  FTS5 query.

Peak memory is each command's own high-water resident set (VmHWM, read while it runs).
The processes inherit the environment (``PYTHONDONTWRITEBYTECODE`` included: the header says
whether it is set), so a cold start costs here what it costs the person running the bench.
"""

from __future__ import annotations

import hashlib
import os
import re
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from scholar_tui.core.process_measure import cli_command, run_measured
from scholar_tui.core.scale_bare import (
    BARE_AUTHORS_OF,
    BARE_COAUTHORS,
    BARE_IMPORT,
    BARE_SCAN,
    BARE_WORDS,
    bare,
)
from scholar_tui.core.scale_library import GeneratedLibrary, generate
from scholar_tui.core.scale_report import (
    ASK_PAPER,
    ASK_PERSON,
    IMPORT,
    PASA_HITS,
    PASA_LATER_HITS,
    PASA_LATER_RANKED,
    PASA_RANKED,
    SEARCH,
    VECTORS,
    WARM,
    Figure,
    ScaleReport,
    SizeReport,
)
from scholar_tui.core.startup_bench import BenchError

LAYERS = ("app", "training", "core", "indexes", "models", "config")
HITS_LINE = re.compile(r"^\s*→ ")  # PaSa's "→ 12 new papers (plain search)"
RANKED_LINE = re.compile(r"^\s*(\d+\. |ranked \d+ papers|No paper in the library fits)")


# -- stand-in vectors -------------------------------------------------------------------------------
class StandInEmbedder:
    """Vectors of the app's width from a hash of each text: for the papers the real embedder did
    not reach within the budget, so searches run over an index of the library's whole size."""

    backend_name = "stand-in (hash)"

    def __init__(self, width: int) -> None:
        self.width = width

    def embed(self, texts: list[str]):
        import numpy as np

        rows = []
        for text in texts:
            seed = int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")
            row = np.random.default_rng(seed).standard_normal(self.width).astype(np.float32)
            rows.append(row / np.linalg.norm(row))
        return np.stack(rows) if rows else np.zeros((0, self.width), dtype=np.float32)


def _complete_index(home: Path, env: dict[str, str]) -> tuple[int, int, float]:
    """(papers the index held, stand-ins added, seconds): what the real embedder left undone is
    filled through the app's own index code with stand-in vectors."""
    from scholar_tui.config.locations import HOME_ENV, locations
    from scholar_tui.config.settings import load_settings
    from scholar_tui.indexes.library import Library
    from scholar_tui.indexes.library_search import LibraryIndex
    from scholar_tui.models import load_embedder

    where = locations({HOME_ENV: str(home)})
    library = Library.open(where)
    try:
        coverage = LibraryIndex(where, None).coverage(library)
        if not coverage.behind:
            return coverage.level, 0, 0.0
        started = time.perf_counter()
        width = int(load_embedder(load_settings(where, env), where).embed(["width"]).shape[1])
        for _ in LibraryIndex(where, StandInEmbedder(width)).sync(library):
            pass
        return coverage.level, coverage.behind, time.perf_counter() - started
    finally:
        library.close()


# -- one size -------------------------------------------------------------------------------------
def _has_index_command(env: dict[str, str]) -> bool:
    result = subprocess.run(
        cli_command("library", "index", "--help"), env=env, capture_output=True, stdin=subprocess.DEVNULL
    )
    return result.returncode == 0


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _cold(
    name: str, command: list[str], env: dict[str, str], runs: int, baseline: tuple[str, list[str]] | None
) -> Figure:
    measured = [run_measured(command, env) for _ in range(runs)]
    figure = Figure(
        name,
        seconds=_median([item.seconds for item in measured]),
        runs=[item.seconds for item in measured],
        peak_mb=max(item.peak_mb for item in measured),
    )
    failed = [item for item in measured if item.returncode != 0]
    if failed:
        figure.ok, figure.note = False, failed[0].last_line
    else:
        figure.note = measured[-1].last_line
    if baseline is not None:
        label, bare = baseline
        figure.baselines[label] = statistics.median(run_measured(bare, env).seconds for _ in range(runs))
    return figure


@dataclass(frozen=True)
class ScaleOptions:
    """How each size is measured (``bench scale``'s options), the same for every size of a run."""

    runs: int = 3  # cold processes per query (median)
    seed: int = 0  # the generator's
    data_dir: Path | None = None  # the unArXive sample whose sentences are recombined
    index_budget_s: float = 300.0
    pasa_budget_s: float = 300.0
    import_only: bool = False


def bench_size(
    size: int,
    root: Path,
    env: dict[str, str],
    options: ScaleOptions = ScaleOptions(),
    progress: Callable[[str], None] = lambda line: None,
) -> SizeReport:
    from scholar_tui.config.locations import HOME_ENV

    runs = options.runs

    home = root / f"home-{size}"
    if home.exists() and any(home.iterdir()):  # a second import would add nothing: figures of nothing
        raise BenchError(f"{home} is not empty: give another --root, or delete it")
    home.mkdir(parents=True, exist_ok=True)
    env = {**env, HOME_ENV: str(home)}
    report = SizeReport(size, str(home))
    source = root / f"library-{size}.jsonl"
    progress(f"{size} papers: generating {source}")
    started = time.perf_counter()
    library: GeneratedLibrary = generate(size, source, seed=options.seed, data_dir=options.data_dir)
    report.generate_s = time.perf_counter() - started
    report.library = library.as_dict()
    bare_db = root / f"bare-{size}.sqlite"
    bare_db.unlink(missing_ok=True)

    progress(f"{size} papers: import (--no-index)")
    imported = run_measured(cli_command("import", "unarxive", str(source), "--no-index", "--json"), env)
    bare_import = run_measured(bare(BARE_IMPORT, str(source), str(bare_db)), env)
    report.figures.append(
        Figure(
            IMPORT,
            imported.seconds,
            [imported.seconds],
            imported.peak_mb,
            {"bare JSON -> SQLite + FTS5": bare_import.seconds},
            ok=imported.returncode == 0,
            note="" if imported.returncode == 0 else imported.last_line,
        )
    )
    if imported.returncode != 0:
        raise BenchError(f"import of {size} papers failed: {imported.last_line}")
    if options.import_only:
        return report

    report.figures.append(_vectors(size, home, env, options.index_budget_s, progress))
    report.figures.append(_search(library, home, env, bare_db, runs, progress))
    report.figures.append(_warm_search(library, env, progress))
    progress(f"{size} papers: ask (person, paper)")
    report.figures.append(
        _cold(
            ASK_PERSON,
            cli_command("ask", f"Who did {library.prolific_author} work with?"),
            env,
            runs,
            ("bare SQL coauthors", bare(BARE_COAUTHORS, str(bare_db), library.prolific_author)),
        )
    )
    report.figures.append(
        _cold(
            ASK_PAPER,
            cli_command("ask", f"Who wrote the paper {library.paper_title}?"),
            env,
            runs,
            ("bare FTS5 title -> authors", bare(BARE_AUTHORS_OF, str(bare_db), library.paper_title)),
        )
    )
    report.figures += _pasa(library, env, bare_db, options.pasa_budget_s, progress)
    return report


def _vectors(size: int, home: Path, env: dict[str, str], budget_s: float, progress) -> Figure:
    if _has_index_command(env):
        command, how = cli_command("library", "index"), "library index"
    else:  # before `library index` existed, the first search embedded the library
        command, how = cli_command("library", "search", "warm up", "--json"), "first library search"
    progress(f"{size} papers: vectors ({how}, at most {budget_s:.0f} s)")
    measured = run_measured(command, env, budget_s=budget_s)
    try:
        embedded, stand_ins, fill_s = _complete_index(home, env)
    except Exception as error:  # the index's own API may change under the bench: say so, go on
        return Figure(VECTORS, measured.seconds, [measured.seconds], measured.peak_mb, ok=False, note=str(error))
    rate = embedded / measured.seconds if measured.seconds and embedded else None
    note = f"{how}: {embedded} of {size} embedded"
    if measured.stopped:
        eta = f", ETA for all {(size / rate) / 60:.0f} min" if rate else ""
        note += f" when stopped at {budget_s:.0f} s{eta}"
    elif measured.returncode != 0:
        note += f"; failed: {measured.last_line}"
    if stand_ins:
        note += f"; {stand_ins} stand-in vectors added in {fill_s:.0f} s"
    return Figure(
        VECTORS,
        measured.seconds,
        [measured.seconds],
        measured.peak_mb,
        rate=rate,
        note=note,
        ok=measured.returncode == 0 or measured.stopped,
    )


def _search(library: GeneratedLibrary, home: Path, env, bare_db: Path, runs: int, progress) -> Figure:
    import numpy as np

    progress(f"{library.papers} papers: library search x{runs}, FTS5 and numpy baselines")
    query = library.search_query
    figure = _cold(
        SEARCH,
        cli_command("library", "search", query, "--json"),
        env,
        runs,
        ("bare FTS5", bare(BARE_WORDS, str(bare_db), query)),
    )
    vectors_file = Path(bare_db).with_suffix(".npy")
    np.save(vectors_file, _library_vectors(home, library.papers))
    scan = [run_measured(bare(BARE_SCAN, str(vectors_file), str(bare_db)), env).seconds for _ in range(runs)]
    figure.baselines["bare numpy scan of the same vectors"] = statistics.median(scan)
    if figure.ok:
        figure.note = ""  # the last line of its JSON says nothing
    return figure


WARM_SEARCHES = 12  # timed warm searches (after one that loads the embedder and the snapshot)


def _warm_search(library: GeneratedLibrary, env: dict[str, str], progress) -> Figure:
    """``library search`` warm, as the Library tab's worker runs it (``LibraryPane.run_search``): the
    library opened and an index made for each search, the embedder and the snapshot kept. Queries:
    the bench's own, the paper's title, and their first words (``WARM_SEARCHES`` in turn)."""
    from scholar_tui.config.locations import locations
    from scholar_tui.config.settings import load_settings
    from scholar_tui.core.services import Services
    from scholar_tui.indexes.library import Library
    from scholar_tui.indexes.library_search import LibraryIndex

    progress(f"{library.papers} papers: library search, warm (in this process, x{WARM_SEARCHES})")
    where = locations(env)
    embedder = Services(where, load_settings(where, env)).embedder()
    words, title = library.search_query.split(), library.paper_title.split()
    queries = [library.search_query, library.paper_title, " ".join(words[:3]), " ".join(title[:2])]

    def search(query: str) -> float:
        started = time.perf_counter()
        opened = Library.open(where)
        try:
            LibraryIndex(where, embedder).search(opened, query, limit=25, own_only=True, count_cited=False)
        finally:
            opened.close()
        return time.perf_counter() - started

    try:
        search("warm up")
        took = [search(queries[n % len(queries)]) for n in range(WARM_SEARCHES)]
    except Exception as error:  # the index's own API may change under the bench: say so, go on
        return Figure(WARM, ok=False, note=str(error))
    return Figure(WARM, statistics.median(took), took, note=f"min {min(took):.3f} s, max {max(took):.3f} s")


def _library_vectors(home: Path, count: int):
    """The index's own vectors (its snapshot file), else an array of the same shape."""
    import numpy as np

    from scholar_tui.config.locations import HOME_ENV, locations
    from scholar_tui.indexes.library_snapshot import LibrarySnapshot, snapshot_file

    snapshot = LibrarySnapshot.load(snapshot_file(locations({HOME_ENV: str(home)})))
    if snapshot is not None and len(snapshot.vectors):
        return np.asarray(snapshot.vectors, dtype=np.float32)
    return np.random.default_rng(0).standard_normal((count, 384)).astype(np.float32)


def _pasa(library: GeneratedLibrary, env, bare_db: Path, budget_s: float, progress) -> list[Figure]:
    """The first search after the import (it prepares what the import left), then a later one."""
    words_s = run_measured(bare(BARE_WORDS, str(bare_db), library.search_query), env).seconds
    figures = []
    for which, names in (("first", (PASA_HITS, PASA_RANKED)), ("later", (PASA_LATER_HITS, PASA_LATER_RANKED))):
        progress(
            f"{library.papers} papers: PaSa search, {which} (stopped at its first ranked line or {budget_s:.0f} s)"
        )
        measured = run_measured(
            cli_command("search", library.search_query, "--offline"),
            env,
            budget_s=budget_s,
            marks={"hits": HITS_LINE, "ranked": RANKED_LINE},
            stop_after={"hits", "ranked"},
        )
        for name, mark in zip(names, ("hits", "ranked"), strict=True):
            seen = measured.marks.get(mark)
            note = "" if seen is not None else f"not seen in {measured.seconds:.0f} s ({measured.last_line})"
            figures.append(
                Figure(
                    name,
                    seen,
                    [] if seen is None else [seen],
                    measured.peak_mb,
                    {"bare FTS5": words_s},
                    note=note,
                    ok=seen is not None,
                )
            )
    return figures


def compile_app() -> int:
    """Compile the app's own modules once, as the README's install does (``compileall``): with
    PYTHONDONTWRITEBYTECODE set, every process would otherwise compile them again (~0.5 s).
    Returns how many package folders were compiled."""
    import compileall
    import importlib

    folders = {Path(importlib.import_module(f"scholar_tui.{layer}").__path__[0]) for layer in LAYERS}
    for folder in sorted(folders):
        compileall.compile_dir(folder, quiet=1, workers=1)
    return len(folders)


def run_scale_bench(
    sizes: list[int],
    *,
    root: Path | None = None,
    options: ScaleOptions = ScaleOptions(),
    compile_first: bool = True,
    progress: Callable[[str], None] = lambda line: None,
) -> ScaleReport:
    """Every size in turn, smallest first, in scratch homes under ``root``."""
    root = Path(root or tempfile.mkdtemp(prefix="scholar-tui-scale-"))
    env = {**os.environ, "SCHOLAR_TUI_NETWORK__OFFLINE": "1"}
    report = ScaleReport(dont_write_bytecode=bool(os.environ.get("PYTHONDONTWRITEBYTECODE")), runs=options.runs)
    if compile_first:
        progress(f"compiling the app's bytecode once, as the install does ({compile_app()} folders)")
    report.app_compiled = compile_first
    for size in sorted(set(sizes)):
        report.sizes.append(bench_size(size, root, env, options, progress))
    return report
