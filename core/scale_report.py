"""`bench scale`'s report: one row per figure, one column per size beside its bare baseline."""

from __future__ import annotations

from dataclasses import dataclass, field


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


IMPORT = "import (SQLite, --no-index)"
VECTORS = "vectors (library index)"
SEARCH = "library search"
WARM = "library search, warm (as the TUI)"  # within 2x of its 1 k figure at 100 k (#28)
ASK_PERSON = "ask: person"
ASK_PAPER = "ask: paper"
PASA_HITS = "PaSa first hits line"
PASA_RANKED = "PaSa first ranked line"
PASA_LATER_HITS = "PaSa first hits line, a later search"
PASA_LATER_RANKED = "PaSa first ranked line, a later search"
FIGURES = (
    IMPORT,
    VECTORS,
    SEARCH,
    WARM,
    ASK_PERSON,
    ASK_PAPER,
    PASA_HITS,
    PASA_RANKED,
    PASA_LATER_HITS,
    PASA_LATER_RANKED,
)


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
    elif figure.seconds < 0.1:  # a warm search: milliseconds say more than "0.04 s"
        value = f"{figure.seconds * 1000:.0f} ms"
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
    first = report.sizes[0].figure(WARM) if report.sizes else None
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
            if figure.name == WARM and size is not report.sizes[0]:
                ratio = _ratio(figure, first, report.sizes[0].papers)
                extra = "; ".join(part for part in (extra, ratio) if part)
            if extra:
                lines.append(f"  {figure.name}: {extra}")
    return lines


def _ratio(figure: Figure, first: Figure | None, first_papers: int) -> str:
    """``figure`` as a multiple of the smallest size's (``first``), or "" when either was not seen."""
    if first is None or not first.seconds or figure.seconds is None:
        return ""
    return f"{figure.seconds / first.seconds:.1f}x the {first_papers:,}-paper figure"
