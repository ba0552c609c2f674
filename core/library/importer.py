"""Files into the library: one transaction per file, progress as events, errors that name the line.

``import_file(kind, path, library)`` is a generator of ``ImportProgress`` events ending with one
``ImportFinished``. Everything happens inside one SQLite transaction: a bad line anywhere (a
truncated last line, a broken BibTeX entry) raises ``LibraryImportError`` and the library is left
exactly as it was. Importing the same file twice adds nothing the second time.

Records are checked against their source's schema (``schemas``) before they are read, so a field
of the wrong type is one line naming the file, the line (or ``results[i]``) and the field; with
``skip_bad`` such records are left out and counted instead. A file that yields no record at all
(empty, or another format) is an error too, and leaves no import-log row. OpenAlex documents are
streamed (``json_stream``): memory holds one record, whatever the file's size.
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

from scholar_tui.config.files import StateError, refuse_special_file, shown_path
from scholar_tui.core.library.identity import after_import, merges_note
from scholar_tui.core.pasa.works import prepare_imported, read_cited_titles
from scholar_tui.indexes.library import Library, LibraryBusy
from scholar_tui.indexes.records import PaperRecord, PersonRecord

if TYPE_CHECKING:  # zotero imports this module: its import is made where a Zotero folder is read
    from scholar_tui.core.library.zotero import ZoteroFinished

KINDS = ("unarxive", "openalex", "arxiv", "bibtex", "pdf", "zotero")


class LibraryImportError(Exception):
    """A file that cannot be imported; the message is one line and names the line and problem."""


@dataclass
class ImportProgress:
    done: int  # bytes or entries handled so far
    total: int
    unit: str  # "bytes" | "entries"
    records: int  # papers and people read so far
    message: str = ""


@dataclass
class ImportFinished:
    kind: str
    path: str
    records: int
    added: dict[str, int]
    seconds: float
    new_citations: int
    paper_ids: list[int] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)  # name variants found to be one person (identity)
    skipped: list[str] = field(default_factory=list)  # one line per malformed record left out (skip_bad)
    works_merged: list[str] = field(default_factory=list)  # records that joined a paper already stored

    @property
    def summary(self) -> str:
        parts = ", ".join(f"{count} {name}" for name, count in self.added.items() if count)
        merged = merges_note(self.merged)
        works = works_note(self.works_merged)
        left_out = f"; left out {len(self.skipped)} records, each named" if self.skipped else ""
        return (
            f"read {self.records} records from {Path(self.path).name}: added {parts or 'nothing new'}"
            f" in {self.seconds:.1f} s{works}{merged}{left_out}"
        )


def with_cited_works(
    events: Iterator[Any], library: Library, should_stop: Callable[[], bool] | None = None
) -> Iterator[Any]:
    """An import's events, then, once it is committed, PaSa's cited works of its papers' entries
    (``core.pasa.works.prepare_imported``, a ``CitedWorks``): what both front ends' imports run, so
    that the first search after an import prepares nothing. Its own transaction: an import stopped
    before it, or ``should_stop`` during it (between a few hundred papers), leaves the rest to the
    next search's preparation. Works for ``import_file``, ``import_pdfs`` and ``import_zotero``
    alike (each ends with an event that lists its ``paper_ids``)."""
    paper_ids: list[int] = []
    for event in events:
        paper_ids += getattr(event, "paper_ids", None) or []
        yield event
    if paper_ids:
        yield prepare_imported(library, paper_ids, should_stop)


def works_note(lines: list[str]) -> str:
    if not lines:
        return ""
    if len(lines) == 1:
        return f"; 1 record merged with a paper already here: {lines[0]}"
    return f"; {len(lines)} records merged with papers already here (`scholar-tui library merges`)"


def work_merge_line(row: dict) -> str:
    """One merge of works, for an import's summary: what joined what, why, and how to undo it."""
    return (
        f"“{row['title']}” ({row['record_source']}) joined paper:{row['kept_id']} ({row['evidence']}; "
        f"undo: scholar-tui library split paper:{row['kept_id']} --merge {row['id']})"
    )


@dataclass
class BadRecord:
    """What a reader yields for a record it cannot use: the one-line reason, with file and place."""

    message: str


@dataclass
class NamedSkip:
    """A record a reader leaves out by rule and names (a BibTeX entry without a title, a block the
    parser gave up on): one line in the summary, and the rest of the file imports."""

    message: str


Event = ImportProgress | ImportFinished
Record = PaperRecord | PersonRecord


def _binary(stream: gzip.GzipFile) -> IO[bytes]:
    """A gzip stream as the binary file it reads as (typeshed does not derive GzipFile from IO)."""
    return cast(IO[bytes], stream)


def _open_text(path: Path) -> IO[bytes]:
    """Binary handle (so progress can count bytes); .gz snapshots are read through gzip."""
    raw = path.open("rb")
    if path.suffix == ".gz":
        return _binary(gzip.GzipFile(fileobj=raw))  # progress still counts the compressed bytes via raw
    return raw


def _json_line(line: bytes) -> Any:
    """One JSON line; RecursionError (a line of 100,000 '[') becomes a ValueError like bad JSON."""
    try:
        return json.loads(line)
    except RecursionError:
        raise ValueError("nested too deeply (over ~1000 levels)") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise
    except ValueError:  # int() refuses a number over 4,300 digits (and advises a Python setting)
        raise ValueError("a number of over 4,300 digits") from None


# (done, total, what one step read); a record may come with its id in the source (a BibTeX key)
Read = Iterator[tuple[int, int, Sequence[Record] | Sequence[Record | tuple[Record, str]] | BadRecord | NamedSkip]]


def _jsonl(path: Path, parse: Callable[[Any], list[Record]], what: str) -> Read:
    """(bytes done, bytes total, records) per line; a line that is not JSON raises with its number."""
    total = path.stat().st_size
    raw = path.open("rb")
    stream: IO[bytes] = _binary(gzip.GzipFile(fileobj=raw)) if path.suffix == ".gz" else raw
    try:
        for number, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            try:
                data = _json_line(line)
            except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, too deep
                last = not stream.read(1)
                reason = getattr(error, "msg", str(error))
                column = f", column {error.colno}" if isinstance(error, json.JSONDecodeError) else ""
                hint = (
                    " (the file looks truncated: the last line ends early)" if last and not line.endswith(b"\n") else ""
                )
                raise LibraryImportError(
                    f"{path.name} line {number}: not valid JSON ({reason}{column}){hint}"
                ) from error
            try:
                records: list[Record] | BadRecord = parse(data)
            except ValueError as error:
                records = BadRecord(f"{path.name} line {number}: not {what}: {error}")
            yield raw.tell(), total, records
    except (OSError, EOFError) as error:  # a cut-off .gz stream
        raise LibraryImportError(f"{path.name}: cannot read the file: {error}") from error
    finally:
        stream.close()
        raw.close()


def _unarxive(path: Path) -> Read:
    from scholar_tui.core.library.unarxive import parse_paper

    return _jsonl(path, lambda data: [parse_paper(data)], "an unarXive paper")


FIRST_LINE_LIMIT = 1 << 20  # a snapshot line is a few kB; a longer first line is a one-line document


def _openalex(path: Path) -> Read:
    """A result page / single object / list (one JSON document, streamed) or a snapshot (JSON lines)."""
    from scholar_tui.core.library.openalex import parse_object

    with _open_text(path) as handle:
        first_line = handle.readline(FIRST_LINE_LIMIT)
    try:
        first = _json_line(first_line)
        one_object_per_line = isinstance(first, dict) and "results" not in first
    except ValueError:
        one_object_per_line = False
    if one_object_per_line:
        return _jsonl(path, lambda data: [parse_object(data)], "an OpenAlex work or author")
    return _openalex_document(path, parse_object)


def _openalex_document(path: Path, parse: Callable[[Any], Record]) -> Read:
    """One JSON document read a record at a time (``json_stream``): memory holds one record."""
    from scholar_tui.core.library.json_stream import JSONStreamError, objects

    total = path.stat().st_size
    raw = path.open("rb")
    stream: IO[bytes] = _binary(gzip.GzipFile(fileobj=raw)) if path.suffix == ".gz" else raw
    try:
        for where, obj in objects(stream):
            try:
                records: list[Record] | BadRecord = [parse(obj)]
            except ValueError as error:
                records = BadRecord(f"{path.name} {where}: not an OpenAlex work or author: {error}")
            yield raw.tell(), total, records
    except JSONStreamError as error:
        place = f" line {error.line}" if error.line else ""
        column = f", column {error.column}" if error.column else ""
        raise LibraryImportError(f"{path.name}{place}: not valid JSON ({error}{column})") from error
    except (OSError, EOFError) as error:
        raise LibraryImportError(f"{path.name}: cannot read the file: {error}") from error
    finally:
        stream.close()
        raw.close()


def _arxiv(path: Path) -> Read:
    from scholar_tui.core.library.arxiv import ArxivFeedError, parse_feed

    bad: list[str] = []
    try:
        records, _ = parse_feed(path.read_bytes(), on_bad=bad.append)
    except ArxivFeedError as error:
        where = f" line {error.line}" if error.line else ""
        raise LibraryImportError(f"{path.name}{where}: {error}") from error
    for message in bad:
        yield 0, len(records), BadRecord(f"{path.name}: {message}")
    for index, record in enumerate(records, start=1):
        yield index, len(records), [record]


def _bibtex(path: Path) -> Read:
    """Works of a .bib file; an entry without a title or a block that cannot be parsed is named."""
    from scholar_tui.core.library.bibtex import BibtexError, entry_to_record, read_bib

    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise LibraryImportError(f"{path.name}: not UTF-8 text (byte {error.start})") from error
    bib = read_bib(text)
    total = len(bib.entries) + len(bib.problems)
    for problem in bib.problems:
        yield 0, total, NamedSkip(f"{path.name} line {problem.line}: {problem}")
    for index, entry in enumerate(bib.entries, start=1):
        try:
            # the entry's key names it in its file: two entries are two records, even when identical
            records: list[Record | tuple[Record, str]] | NamedSkip = [
                (entry_to_record(entry), f"{path.name}#{entry.key}")
            ]
        except BibtexError as error:
            records = NamedSkip(f"{path.name} line {error.line}: {error}")
        yield index, total, records


def _pdf(path: Path) -> Read:
    """One PDF, one paper (a folder of them: ``pdf_import.import_pdfs``, a transaction per paper)."""
    from scholar_tui.core.library.pdf import PdfError, read_pdf

    try:
        record = read_pdf(path)
    except PdfError as error:
        raise LibraryImportError(str(error)) from error
    yield 1, 1, [record]


READERS = {"unarxive": _unarxive, "openalex": _openalex, "arxiv": _arxiv, "bibtex": _bibtex, "pdf": _pdf}
UNITS = {"unarxive": "bytes", "openalex": "bytes", "arxiv": "entries", "bibtex": "entries", "pdf": "files"}


def store_records(library: Library, records: Sequence[Record]) -> tuple[list[int], int]:
    """Write records inside the caller's transaction; returns (paper ids, new citation edges)."""
    paper_ids = []
    for record in records:
        if isinstance(record, PaperRecord):
            paper_ids.append(library.store_paper(record)[0])
        else:
            library.store_person(record)
    return paper_ids, library.relink(paper_ids)


def import_file(
    kind: str,
    path: str | Path | None,
    library: Library,
    *,
    should_stop: Callable[[], bool] | None = None,
    skip_bad: bool = False,
) -> Iterator[Event | ZoteroFinished]:
    """Import one file; see the module docstring. ``should_stop`` cancels (and rolls back).

    A malformed record (valid JSON or BibTeX, but a field of the wrong type, no title…) stops the
    import and changes nothing; with ``skip_bad`` it is left out, named in ``ImportFinished.skipped``,
    and the good records are imported. A file that cannot be read as a whole always stops it.

    ``zotero`` takes a Zotero data folder (None: Zotero's usual one) and ends with a ``ZoteroFinished``."""
    if kind == "zotero":
        from scholar_tui.core.library.zotero import import_zotero

        yield from import_zotero(path, library, should_stop=should_stop)
        return
    if kind not in READERS:
        raise LibraryImportError(f"unknown import kind {kind!r}: choose one of {', '.join(KINDS)}")
    if path is None:
        raise LibraryImportError(f"import {kind} needs the path of a file")
    path = Path(path)
    try:  # a FIFO or a device is refused by its kind, never opened (/dev/zero never ends)
        if not refuse_special_file(path):
            raise LibraryImportError(f"{shown_path(path)}: no such file")
    except StateError as error:
        raise LibraryImportError(str(error)) from None
    started, clock = datetime.now(timezone.utc).isoformat(timespec="seconds"), time.monotonic()
    records_read, paper_ids, skipped = 0, [], []
    try:
        with library.transaction():
            # Counted under the write lock: rows another import committed while we waited are not ours.
            before = library.counts()
            merges_before = library.last_work_merge_id()
            # The word indexes and counts of the records' rows are written once, at the end of this
            # block (a statement a row cost most of a 100 k import); identity below searches names.
            with library.bulk_write():
                for done, total, records in READERS[kind](path):
                    if should_stop is not None and should_stop():
                        raise LibraryImportError(f"{path.name}: import cancelled; nothing was imported")
                    if isinstance(records, NamedSkip | BadRecord):
                        if isinstance(records, BadRecord) and not skip_bad:
                            raise LibraryImportError(records.message)
                        skipped.append(records.message)
                        continue
                    paper_ids += _store(library, records)
                    records_read += len(records)
                    yield ImportProgress(done, total, UNITS[kind], records_read)
                if not records_read:
                    raise LibraryImportError(_nothing_read(kind, path, skipped))
                new_citations = library.relink(paper_ids)  # only what this file's papers touch
                read_cited_titles(library, paper_ids)  # once, here: PaSa's searches never read them again
            merged = [merge.summary() for merge in after_import(library, kind, path, sorted(set(paper_ids)))]
            works_merged = [work_merge_line(row) for row in library.work_merges(after_id=merges_before)]
            after = library.counts()
            added = {name: after[name] - before[name] for name in after}
            seconds = time.monotonic() - clock
            library.record_import(
                kind, str(path), started, seconds, {**added, "skipped_records": len(skipped)} if skipped else added
            )
    except LibraryBusy as error:  # only `begin immediate` waits for the lock, so nothing was written
        raise LibraryImportError(str(error)) from error
    yield ImportFinished(
        kind,
        str(path),
        records_read,
        added,
        seconds,
        new_citations,
        sorted(set(paper_ids)),
        merged,
        skipped,
        works_merged,
    )


def _store(library: Library, records: Sequence[Record] | Sequence[Record | tuple[Record, str]]) -> list[int]:
    """One read's records written (a BibTeX entry comes with its key); the ids of its papers."""
    paper_ids = []
    for item in records:
        record, source_id = item if isinstance(item, tuple) else (item, None)
        if isinstance(record, PaperRecord):
            paper_ids.append(library.store_paper(record, source_id=source_id)[0])
        else:
            library.store_person(record)
    return paper_ids


def _nothing_read(kind: str, path: Path, skipped: list[str]) -> str:
    """Zero records is a failure: an empty file, or a file of another kind, imports nothing."""
    if skipped:
        return f"all {len(skipped)} records were malformed, the first: {skipped[0]}"
    if path.stat().st_size == 0:
        return f"{path.name} is empty: nothing to import"
    return f"{path.name}: no {kind} records found (is it a {kind} file?)"


def run_import(kind: str, path: str | Path, library: Library) -> ImportFinished:
    """import_file without the progress: the finished event."""
    finished = None
    for event in import_file(kind, path, library):
        if isinstance(event, ImportFinished):
            finished = event
    assert finished is not None
    return finished


__all__ = [
    "KINDS",
    "ImportFinished",
    "ImportProgress",
    "LibraryImportError",
    "import_file",
    "run_import",
    "store_records",
    "with_cited_works",
]
