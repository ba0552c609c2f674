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
- ``ask`` a person question and a paper question | the SQL that answers each over the bare tables;
- PaSa's ``search``: seconds to its first hits line and to its first ranked line (the process is
  stopped there, or after ``pasa_budget_s``) | the FTS5 query.

Peak memory is each command's own high-water resident set (VmHWM, read while it runs).
The processes inherit the environment (``PYTHONDONTWRITEBYTECODE`` included: the header says
whether it is set), so a cold start costs here what it costs the person running the bench.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from scholar_tui.core.scale_library import GeneratedLibrary, generate
from scholar_tui.core.startup_bench import BenchError

LAYERS = ("app", "training", "core", "indexes", "models", "config")
HITS_LINE = re.compile(r"^\s*→ ")  # PaSa's "→ 12 new papers (plain search)"
RANKED_LINE = re.compile(r"^\s*(\d+\. |ranked \d+ papers|No paper in the library fits)")


def cli_command(*args: str) -> list[str]:
    """``scholar-tui ARGS`` as the console script runs it, with this interpreter: the code this
    bench was started from (a worktree's venv may hold a script that runs another checkout)."""
    return [sys.executable, "-c", "from scholar_tui.app.cli import main; main()", *args]


@dataclass
class Measured:
    """One cold process: wall seconds, its own peak memory, how it ended, and the moments chosen
    lines of its output appeared (seconds from the start)."""

    seconds: float
    peak_mb: float
    returncode: int | None
    stopped: bool = False  # stopped by the bench (budget reached, or what was measured was seen)
    marks: dict[str, float] = field(default_factory=dict)
    last_line: str = ""
    stdout: str = ""


class _PeakWatch(threading.Thread):
    """The child's peak resident memory (VmHWM), read from /proc while it runs.

    Not ``wait4``'s ru_maxrss: a child started by vfork or fork inherits the bench's own peak as a
    floor (the kernel keeps the larger of the old and new images' high-water marks across exec),
    so every command would read at least the bench's size. VmHWM belongs to the image after exec;
    the last 50 ms of a process may be missed."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.status = Path(f"/proc/{pid}/status")
        self.finished = threading.Event()
        self.kilobytes = 0

    def run(self) -> None:
        while not self.finished.is_set():
            try:
                text = self.status.read_text()
            except OSError:  # not Linux, or gone
                return
            match = re.search(r"^VmHWM:\s+(\d+) kB", text, re.M)
            if match is None:  # a zombie has no memory left to read
                return
            self.kilobytes = max(self.kilobytes, int(match.group(1)))
            self.finished.wait(0.05)


def run_measured(
    command: list[str],
    env: dict[str, str],
    *,
    budget_s: float | None = None,
    marks: dict[str, re.Pattern] | None = None,
    stop_after: set[str] | None = None,
) -> Measured:
    """Run ``command`` to its end (or until ``budget_s``, or until every mark in ``stop_after``
    was seen) and measure it. Its output is read line by line so each mark is timed as it comes."""
    marks = marks or {}
    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # PaSa's progress lines go to stderr: both are read, in order
        start_new_session=True,  # its own group: stopping it stops what it started too
    )
    stopped = threading.Event()

    def stop() -> None:
        stopped.set()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)

    timer = threading.Timer(budget_s, stop) if budget_s else None
    if timer:
        timer.start()
    peak = _PeakWatch(process.pid)
    peak.start()
    seen: dict[str, float] = {}
    lines: list[str] = []
    assert process.stdout is not None
    try:
        for raw in process.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            lines.append(line)
            for name, pattern in marks.items():
                if name not in seen and pattern.search(line):
                    seen[name] = time.perf_counter() - started
            if stop_after and stop_after <= seen.keys() and not stopped.is_set():
                stop()
    except BaseException:  # Ctrl-C does not reach a child in its own session: it is stopped here
        stop()
        raise
    peak.finished.set()
    peak.join()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    process.stdout.close()
    if timer:
        timer.cancel()
    said = [line for line in lines if line.strip() and not line.startswith("timings")]  # ask's last line
    tail = (said or [""])[-1]
    return Measured(
        seconds=seconds,
        peak_mb=(peak.kilobytes or usage.ru_maxrss) / 1024,
        returncode=process.returncode,
        stopped=stopped.is_set(),
        marks=seen,
        last_line=tail.strip()[:200],
        stdout="\n".join(lines),
    )


# -- the figures ----------------------------------------------------------------------------------
@dataclass
class Figure:
    """One row of one size: the app's figure (seconds, or a rate) beside the baseline's."""

    name: str
    seconds: float | None = None
    runs: list[float] = field(default_factory=list)
    peak_mb: float | None = None
    baselines: dict[str, float] = field(default_factory=dict)  # bare baseline -> median seconds
    rate: float | None = None  # papers per second, for the vectors
    note: str = ""
    ok: bool = True

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "seconds": _round(self.seconds),
            "runs_s": [round(value, 3) for value in self.runs],
            "peak_mb": _round(self.peak_mb, 1),
            "baselines_s": {name: round(value, 3) for name, value in self.baselines.items()},
            "rate_per_s": _round(self.rate, 2),
            "ok": self.ok,
            "note": self.note,
        }


def _round(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(value, digits)


@dataclass
class SizeReport:
    papers: int
    home: str
    library: dict = field(default_factory=dict)
    generate_s: float = 0.0
    figures: list[Figure] = field(default_factory=list)

    def figure(self, name: str) -> Figure | None:
        return next((item for item in self.figures if item.name == name), None)

    def as_dict(self) -> dict:
        return {
            "papers": self.papers,
            "home": self.home,
            "generate_s": round(self.generate_s, 2),
            "library": self.library,
            "figures": [item.as_dict() for item in self.figures],
        }


@dataclass
class ScaleReport:
    sizes: list[SizeReport] = field(default_factory=list)
    dont_write_bytecode: bool = False
    app_compiled: bool = False  # the app's bytecode compiled before the run, as the install does
    runs: int = 3

    def as_dict(self) -> dict:
        return {
            "runs": self.runs,
            "PYTHONDONTWRITEBYTECODE": self.dont_write_bytecode,
            "app_compiled": self.app_compiled,
            "sizes": [size.as_dict() for size in self.sizes],
        }


FIGURES = (
    "import (SQLite, --no-index)",
    "vectors (library index)",
    "library search",
    "ask: person",
    "ask: paper",
    "PaSa first hits line",
    "PaSa first ranked line",
)


# -- the bare baselines ---------------------------------------------------------------------------
# Each runs as its own cold Python process (interpreter, sqlite3, json or numpy: nothing of ours).
BARE_IMPORT = r"""
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.executescript('''
CREATE TABLE papers(id INTEGER PRIMARY KEY, arxiv TEXT, title TEXT, abstract TEXT);
CREATE TABLE authors(paper INTEGER, name TEXT);
CREATE VIRTUAL TABLE words USING fts5(title, abstract, content='papers', content_rowid='id');
''')
with open(sys.argv[1], encoding='utf-8') as lines, db:
    for number, line in enumerate(lines, start=1):
        record = json.loads(line)
        meta = record['metadata']
        db.execute('INSERT INTO papers VALUES (?, ?, ?, ?)', (number, record['paper_id'], meta['title'], meta['abstract']))
        db.executemany('INSERT INTO authors VALUES (?, ?)', [(number, f'{given} {family}') for family, given, _ in meta['authors_parsed']])
    db.execute("INSERT INTO words(words) VALUES ('rebuild')")
    db.execute('CREATE INDEX author_name ON authors(name)')
    db.execute('CREATE INDEX author_paper ON authors(paper)')
"""
BARE_WORDS = r"""
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
query = ' OR '.join('"' + word.replace('"', '') + '"' for word in sys.argv[2].split())
print(db.execute('SELECT p.title FROM words JOIN papers p ON p.id = words.rowid WHERE words MATCH ? ORDER BY rank LIMIT 10', (query,)).fetchall()[:1])
"""
BARE_SCAN = r"""
import sqlite3, sys
import numpy as np
vectors = np.load(sys.argv[1], mmap_mode=None)
query = vectors[len(vectors) // 2]
scores = vectors @ query
best = np.argpartition(-scores, 10)[:10]
db = sqlite3.connect(sys.argv[2])
print(db.execute('SELECT title FROM papers WHERE id = ?', (int(best[0]) + 1,)).fetchone())
"""
BARE_COAUTHORS = r"""
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(len(db.execute('SELECT DISTINCT b.name FROM authors a JOIN authors b ON a.paper = b.paper AND b.name <> a.name WHERE a.name = ?', (sys.argv[2],)).fetchall()))
"""
BARE_AUTHORS_OF = r"""
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
query = ' '.join('"' + word.replace('"', '') + '"' for word in sys.argv[2].split())
print(db.execute('SELECT name FROM authors WHERE paper = (SELECT rowid FROM words WHERE words MATCH ? ORDER BY rank LIMIT 1)', ('title: (' + query + ')',)).fetchall())
"""


def _bare(script: str, *args: str) -> list[str]:
    return [sys.executable, "-c", script, *args]


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


def bench_size(
    size: int,
    root: Path,
    env: dict[str, str],
    *,
    runs: int = 3,
    seed: int = 0,
    data_dir: Path | None = None,
    index_budget_s: float = 300.0,
    pasa_budget_s: float = 300.0,
    import_only: bool = False,
    progress: Callable[[str], None] = lambda line: None,
) -> SizeReport:
    from scholar_tui.config.locations import HOME_ENV

    home = root / f"home-{size}"
    if home.exists() and any(home.iterdir()):  # a second import would add nothing: figures of nothing
        raise BenchError(f"{home} is not empty: give another --root, or delete it")
    home.mkdir(parents=True, exist_ok=True)
    env = {**env, HOME_ENV: str(home)}
    report = SizeReport(size, str(home))
    source = root / f"library-{size}.jsonl"
    progress(f"{size} papers: generating {source}")
    started = time.perf_counter()
    library: GeneratedLibrary = generate(size, source, seed=seed, data_dir=data_dir)
    report.generate_s = time.perf_counter() - started
    report.library = library.as_dict()
    bare_db = root / f"bare-{size}.sqlite"
    bare_db.unlink(missing_ok=True)

    progress(f"{size} papers: import (--no-index)")
    imported = run_measured(cli_command("import", "unarxive", str(source), "--no-index", "--json"), env)
    bare = run_measured(_bare(BARE_IMPORT, str(source), str(bare_db)), env)
    report.figures.append(
        Figure(
            FIGURES[0],
            imported.seconds,
            [imported.seconds],
            imported.peak_mb,
            {"bare JSON -> SQLite + FTS5": bare.seconds},
            ok=imported.returncode == 0,
            note="" if imported.returncode == 0 else imported.last_line,
        )
    )
    if imported.returncode != 0:
        raise BenchError(f"import of {size} papers failed: {imported.last_line}")
    if import_only:
        return report

    report.figures.append(_vectors(size, home, env, index_budget_s, progress))
    report.figures.append(_search(library, home, env, bare_db, runs, progress))
    progress(f"{size} papers: ask (person, paper)")
    report.figures.append(
        _cold(
            FIGURES[3],
            cli_command("ask", f"Who did {library.prolific_author} work with?"),
            env,
            runs,
            ("bare SQL coauthors", _bare(BARE_COAUTHORS, str(bare_db), library.prolific_author)),
        )
    )
    report.figures.append(
        _cold(
            FIGURES[4],
            cli_command("ask", f"Who wrote the paper {library.paper_title}?"),
            env,
            runs,
            ("bare FTS5 title -> authors", _bare(BARE_AUTHORS_OF, str(bare_db), library.paper_title)),
        )
    )
    report.figures += _pasa(library, env, bare_db, pasa_budget_s, progress)
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
        return Figure(FIGURES[1], measured.seconds, [measured.seconds], measured.peak_mb, ok=False, note=str(error))
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
        FIGURES[1],
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
        FIGURES[2],
        cli_command("library", "search", query, "--json"),
        env,
        runs,
        ("bare FTS5", _bare(BARE_WORDS, str(bare_db), query)),
    )
    vectors_file = Path(bare_db).with_suffix(".npy")
    np.save(vectors_file, _library_vectors(home, library.papers))
    scan = [run_measured(_bare(BARE_SCAN, str(vectors_file), str(bare_db)), env).seconds for _ in range(runs)]
    figure.baselines["bare numpy scan of the same vectors"] = statistics.median(scan)
    if figure.ok:
        figure.note = ""  # the last line of its JSON says nothing
    return figure


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
    progress(f"{library.papers} papers: PaSa search (stopped at its first ranked line or {budget_s:.0f} s)")
    measured = run_measured(
        cli_command("search", library.search_query, "--offline"),
        env,
        budget_s=budget_s,
        marks={"hits": HITS_LINE, "ranked": RANKED_LINE},
        stop_after={"hits", "ranked"},
    )
    bare = run_measured(_bare(BARE_WORDS, str(bare_db), library.search_query), env).seconds
    figures = []
    for name, mark in ((FIGURES[5], "hits"), (FIGURES[6], "ranked")):
        seen = measured.marks.get(mark)
        note = "" if seen is not None else f"not seen in {measured.seconds:.0f} s ({measured.last_line})"
        figures.append(
            Figure(
                name,
                seen,
                [] if seen is None else [seen],
                measured.peak_mb,
                {"bare FTS5": bare},
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
    runs: int = 3,
    seed: int = 0,
    data_dir: Path | None = None,
    index_budget_s: float = 300.0,
    pasa_budget_s: float = 300.0,
    import_only: bool = False,
    compile_first: bool = True,
    progress: Callable[[str], None] = lambda line: None,
) -> ScaleReport:
    """Every size in turn, smallest first, in scratch homes under ``root``."""
    root = Path(root or tempfile.mkdtemp(prefix="scholar-tui-scale-"))
    env = {**os.environ, "SCHOLAR_TUI_NETWORK__OFFLINE": "1"}
    report = ScaleReport(dont_write_bytecode=bool(os.environ.get("PYTHONDONTWRITEBYTECODE")), runs=runs)
    if compile_first:
        progress(f"compiling the app's bytecode once, as the install does ({compile_app()} folders)")
    report.app_compiled = compile_first
    for size in sorted(set(sizes)):
        report.sizes.append(
            bench_size(
                size,
                root,
                env,
                runs=runs,
                seed=seed,
                data_dir=data_dir,
                index_budget_s=index_budget_s,
                pasa_budget_s=pasa_budget_s,
                import_only=import_only,
                progress=progress,
            )
        )
    return report


def table(report: ScaleReport) -> list[str]:
    """Rows: figures; columns: each size's figure (peak memory) and its bare baseline."""
    header = ["figure (cold process)"]
    for size in report.sizes:
        header += [f"{size.papers:,} papers", "baseline"]
    rows = [header, ["generate (in-process)"] + [cell for s in report.sizes for cell in (f"{s.generate_s:.1f} s", "")]]
    for name in FIGURES:
        row = [name]
        for size in report.sizes:
            figure = size.figure(name)
            row += _cells(figure)
        rows.append(row)
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return lines


def _cells(figure: Figure | None) -> list[str]:
    if figure is None:
        return ["-", ""]
    if figure.seconds is None:
        value = "not seen"
    elif figure.rate is not None:
        value = f"{figure.rate:.1f} papers/s"
    else:
        value = f"{figure.seconds:.2f} s"
    if not figure.ok:
        value += " FAILED"
    if figure.peak_mb is not None:
        value += f" · {figure.peak_mb:.0f} MB"
    return [value, " / ".join(f"{seconds:.2f} s" for seconds in figure.baselines.values())]


def notes(report: ScaleReport) -> list[str]:
    """What the table's cells leave out: each figure's note and baseline, per size."""
    lines = []
    for size in report.sizes:
        lib = size.library
        lines.append(
            f"{size.papers:,} papers: {lib['people']} people ({lib['variant_names']} extra name variants), "
            f"{lib['citations_in_library']} citations in the library (most cited {lib['most_cited'][:3]}), "
            f"{lib['citations_outside']} outside; home {size.home}"
        )
        for figure in size.figures:
            bare = [f"{name} {seconds:.2f} s" for name, seconds in figure.baselines.items()]
            extra = "; ".join(part for part in (*bare, figure.note) if part)
            if extra:
                lines.append(f"  {figure.name}: {extra}")
    return lines
