"""PaSa results out of the app: BibTeX (through the library's writer) and JSON."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from scholar_tui.core.library.bibtex import write_bibtex
from scholar_tui.core.pasa.events import RankedPaper
from scholar_tui.indexes.library import Library

FORMATS = ("bib", "json")


def results_bibtex(library: Library, results: list[RankedPaper]) -> str:
    rows = library.papers([paper.paper_id for paper in results])
    pairs = [
        (rows[paper.paper_id], library.paper_author_names(paper.paper_id))
        for paper in results
        if paper.paper_id in rows
    ]
    return write_bibtex(pairs)


def results_json(query: str, date: str | None, results: list[RankedPaper]) -> str:
    return json.dumps(
        {"query": query, "date": date, "results": [asdict(paper) for paper in results]}, indent=2, ensure_ascii=False
    )


def export_results(
    path: str | Path, fmt: str, library: Library, query: str, date: str | None, results: list[RankedPaper]
) -> int:
    """Write ``results`` to ``path`` as ``fmt`` ('bib' or 'json'); returns how many were written."""
    if fmt not in FORMATS:
        raise ValueError(f"export format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    text = results_bibtex(library, results) if fmt == "bib" else results_json(query, date, results)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return len(results)
