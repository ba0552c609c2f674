"""A PDF file or a folder of them into the library, one paper per transaction.

``import_pdfs(path, library)`` yields ``ImportProgress`` per file (unit "files", its name in
``message``) and ends with one ``PdfImportFinished``. Each PDF is read outside any transaction
(reading takes a second or two; the write lock is not held meanwhile) and then stored whole in its
own transaction with its authors, sections and references: a cancel (``should_stop``, or Ctrl-C
raising KeyboardInterrupt) between or during files never leaves half a paper. A file that cannot
be read (not a PDF, encrypted, empty, damaged, no text layer) is named in one line in ``skipped``
and the rest of the folder still imports; a page that cannot be read is named in ``notes``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from scholar_tui.core.library.identity import after_import, merges_note
from scholar_tui.core.library.importer import ImportProgress, LibraryImportError
from scholar_tui.core.library.pdf import PdfError, read_pdf
from scholar_tui.indexes.library import Library, LibraryBusy
from scholar_tui.indexes.records import PaperRecord


@dataclass
class PdfImportFinished:
    path: str
    files: int  # PDFs found
    papers: list[tuple[str, int, bool]] = field(default_factory=list)  # (file name, paper id, new)
    skipped: list[str] = field(default_factory=list)  # one line per file not imported
    notes: list[str] = field(default_factory=list)  # "file: page 7: unreadable (…)"
    merged: list[str] = field(default_factory=list)
    added: dict[str, int] = field(default_factory=dict)
    new_citations: int = 0
    seconds: float = 0.0
    cancelled: bool = False

    @property
    def paper_ids(self) -> list[int]:
        return [paper_id for _, paper_id, _ in self.papers]

    @property
    def summary(self) -> str:
        parts = ", ".join(f"{count} {name}" for name, count in self.added.items() if count)
        stopped = (
            f"; cancelled after {len(self.papers) + len(self.skipped)} of {self.files} files" if self.cancelled else ""
        )
        skipped = f"; skipped {len(self.skipped)}" if self.skipped else ""
        return (
            f"read {len(self.papers)} of {self.files} PDFs from {Path(self.path).name}: added {parts or 'nothing new'}"
            f" in {self.seconds:.1f} s{skipped}{stopped}{merges_note(self.merged)}"
        )


def pdf_files(path: Path) -> list[Path]:
    """``path`` itself, or every *.pdf under it (recursively, in a stable order)."""
    if path.is_file():
        return [path]
    if path.is_dir():
        return sorted(
            (item for item in path.rglob("*") if item.suffix.lower() == ".pdf" and item.is_file()),
            key=lambda item: str(item).lower(),
        )
    raise LibraryImportError(f"{path}: no such file or folder")


@dataclass
class StoredPdf:
    """What storing one PDF's paper did."""

    paper_id: int
    created: bool
    merged: list[str]  # person merges
    new_citations: int
    added: dict[str, int]  # the library's rows this paper added


def store_pdf(library: Library, record: PaperRecord, path: Path) -> StoredPdf:
    """One paper in one transaction, re-linked: only what it cites and what cites it."""
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    clock = time.monotonic()
    with library.transaction():
        before = library.counts()
        paper_id, created = library.store_paper(record)
        new_citations = library.relink([paper_id])  # what this paper cites and what cites it, no more
        merged = [merge.summary() for merge in after_import(library, "pdf", path, [paper_id])]
        after = library.counts()
        added = {name: after[name] - before[name] for name in after}
        library.record_import("pdf", str(path), started, time.monotonic() - clock, added)
    return StoredPdf(paper_id, created, merged, new_citations, added)


def import_pdfs(
    path: str | Path,
    library: Library,
    *,
    grobid_url: str | None = None,
    should_stop: Callable[[], bool] | None = None,
    reader: Callable[..., PaperRecord] = read_pdf,
) -> Iterator[ImportProgress | PdfImportFinished]:
    """Import one PDF or a folder of them; see the module doc."""
    path = Path(path).expanduser()
    files = pdf_files(path)
    if not files:
        raise LibraryImportError(f"{path}: no PDF files in this folder")
    clock = time.monotonic()
    finished = PdfImportFinished(str(path), len(files))
    for done, file in enumerate(files):
        if should_stop is not None and should_stop():
            finished.cancelled = True
            break
        yield ImportProgress(done, len(files), "files", len(finished.papers), file.name)
        try:
            record = reader(file, grobid_url=grobid_url)
        except PdfError as error:
            finished.skipped.append(str(error))
            continue
        if should_stop is not None and should_stop():  # read, not stored: the paper is not half there
            finished.cancelled = True
            break
        try:
            stored = store_pdf(library, record, file)
        except LibraryBusy as error:
            finished.skipped.append(f"{file.name}: {error}")
            continue
        finished.papers.append((file.name, stored.paper_id, stored.created))
        finished.merged.extend(stored.merged)
        finished.new_citations += stored.new_citations
        for name, count in stored.added.items():
            finished.added[name] = finished.added.get(name, 0) + count
        finished.notes.extend(f"{file.name}: {note}" for note in record.notes)
    finished.seconds = time.monotonic() - clock
    if not finished.cancelled:
        yield ImportProgress(len(files), len(files), "files", len(finished.papers), "")
    yield finished
