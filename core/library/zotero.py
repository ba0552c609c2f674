"""A Zotero library into ours: every item of every library, with its collections, tags and PDF text.

``import_zotero(folder, library)`` is a generator of ``ImportProgress`` events (one per item) ending
with one ``ZoteroFinished``. It reads a private copy of the database (``zotero_db``), turns each
regular item into a ``PaperRecord`` and stores it under its source id
``<installation>/<library>/<item key>``, so that a second run finds every item again:
an item whose Zotero version and dateModified are unchanged is skipped, a changed one is updated,
one that left Zotero (deleted, or in the trash) since the last run is reported, and nothing is
stored twice. Each item's PDF goes through the PDF reader (``read_item_text``); when the file is
missing or unreadable, Zotero's own extracted text (``.zotero-ft-cache``) stands in. Everything
happens in one transaction: a cancel or an error leaves the library as it was.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from scholar_tui.core.library.importer import ImportProgress, LibraryImportError, work_merge_line
from scholar_tui.core.library.zotero_db import (
    VENUE_FIELDS,
    WRITERS,
    Attachment,
    ZoteroError,
    ZoteroItem,
    ZoteroSnapshot,
    default_folder,
    is_pdf,
    read_zotero,
)
from scholar_tui.indexes.library import Library, LibraryBusy
from scholar_tui.indexes.records import AuthorRecord, PaperRecord, SectionRecord, arxiv_id, arxiv_id_from_doi, doi

SOURCE = "zotero"
FULL_TEXT_LIMIT = 2_000_000  # characters of Zotero's cached text kept for one item


@dataclass
class ZoteroFinished:
    folder: str
    items: int  # regular items in the database (trash included)
    trashed: int
    standalone_pdfs: int
    added: int  # new papers
    joined: int  # items that are a paper the library already had (merged: see ``merged``)
    updated: int
    unchanged: int
    collections: int
    tags: int
    pdfs_read: int
    full_text_fallbacks: list[str]  # one line per item whose PDF was missing or unreadable
    deleted: list[str]  # items gone from Zotero since the last import
    merged: list[str]  # records that joined a paper another source had brought
    libraries: list[str]
    seconds: float
    paper_ids: list[int] = field(default_factory=list)
    untitled: list[str] = field(default_factory=list)  # items without a title: named, not imported

    @property
    def summary(self) -> str:
        trash = f" ({self.trashed} in Zotero's trash left out)" if self.trashed else ""
        pdfs = f", {self.standalone_pdfs} stand-alone PDF{'s' if self.standalone_pdfs != 1 else ''}"
        return (
            f"read {self.items} Zotero items{trash}{pdfs} from {', '.join(self.libraries) or 'no library'}: "
            f"{self.added} new papers, {self.joined} merged with papers already here, {self.updated} updated, "
            f"{self.unchanged} unchanged; "
            f"{self.collections} collections, {self.tags} tags; {self.pdfs_read} PDFs read"
            f"{'; ' + str(len(self.deleted)) + ' deleted in Zotero' if self.deleted else ''}"
            f" in {self.seconds:.1f} s"
        )

    def lines(self) -> list[str]:
        """The summary, then one line per fallback, deletion and merge."""
        return (
            [self.summary]
            + [f"no PDF: {line}" for line in self.full_text_fallbacks]
            + [f"left out: {line}" for line in self.untitled]
            + [f"deleted: {line}" for line in self.deleted]
            + [f"merged: {line}" for line in self.merged]
        )


# -- item -> record ---------------------------------------------------------------------------------
def _date(value: str | None) -> tuple[str | None, int | None]:
    """Zotero's dates are 'YYYY-MM-DD original' with 00 for what is unknown: '2009-00-00 2009'."""
    match = re.match(r"(\d{4})-(\d{2})-(\d{2})", value or "")
    if not match:
        found = re.search(r"\b(1[5-9]\d\d|20\d\d)\b", value or "")
        return (found.group(1), int(found.group(1))) if found else (None, None)
    year, month, day = match.groups()
    if month == "00":
        return year, int(year)
    return (f"{year}-{month}" if day == "00" else f"{year}-{month}-{day}"), int(year)


def _extra(item: ZoteroItem, name: str) -> str | None:
    """A 'Name: value' line of the Extra field (Zotero keeps arXiv ids and DOIs there for some types)."""
    match = re.search(rf"^\s*{name}\s*:\s*(\S+)", item.fields.get("extra", ""), flags=re.I | re.M)
    return match.group(1) if match else None


def _arxiv(item: ZoteroItem) -> str | None:
    for value in (
        _extra(item, "arXiv"),
        item.fields.get("archiveID"),
        item.fields.get("url"),
        item.fields.get("number") if item.item_type == "preprint" else None,
    ):
        found = arxiv_id(value) if value else None
        if found:
            return found
    return arxiv_id_from_doi(item.fields.get("DOI"))


def _authors(item: ZoteroItem) -> list[AuthorRecord]:
    writers = [name for kind, name in item.creators if kind in WRITERS]
    return [AuthorRecord(name=name) for name in (writers or [name for _, name in item.creators])]


def item_record(item: ZoteroItem, title: str | None = None) -> PaperRecord:
    date, year = _date(item.fields.get("date"))
    venue = next((item.fields[name] for name in VENUE_FIELDS if item.fields.get(name)), None)
    return PaperRecord(
        title=title or item.title or "",
        source=SOURCE,
        arxiv_id=_arxiv(item),
        doi=doi(item.fields.get("DOI")) or doi(_extra(item, "DOI")),
        abstract=item.fields.get("abstractNote") or None,
        date=date,
        year=year,
        venue=venue,
        categories=list(dict.fromkeys(item.tags)),
        url=item.fields.get("url") or None,
        license=item.fields.get("rights") or None,
        authors=_authors(item),
    )


# -- the PDF, or Zotero's own text -------------------------------------------------------------------
class PdfUnreadable(Exception):
    """Why a PDF gave no text: one short reason."""


def read_pdf_record(path: Path) -> PaperRecord:
    """The PDF reader's record of a file (core.library.pdf); PdfUnreadable says why there is none."""
    try:
        from scholar_tui.core.library.pdf import PdfError, read_pdf
    except ImportError as error:
        raise PdfUnreadable("no PDF reader in this installation") from error
    try:
        return read_pdf(path)
    except (PdfError, OSError, ValueError) as error:
        raise PdfUnreadable(str(error).splitlines()[0] if str(error) else type(error).__name__) from error


def cached_text(attachment: Attachment) -> str | None:
    try:
        text = attachment.full_text.read_text(encoding="utf-8", errors="replace")[:FULL_TEXT_LIMIT]
    except OSError:
        return None
    return text if text.strip() else None


@dataclass
class ItemText:
    sections: list[SectionRecord]
    references: list
    from_pdf: bool
    note: str | None  # why the PDF was not read, when it was not
    pdf_record: PaperRecord | None = None  # what the PDF reader made of the file (title, authors…)


def read_item_text(item: ZoteroItem, read_pdf: Callable[[Path], PaperRecord] = read_pdf_record) -> ItemText:
    """The item's full text: its first readable PDF through the PDF reader, else Zotero's cache."""
    pdfs = [attachment for attachment in item.attachments if is_pdf(attachment)]
    problems = []
    for attachment in pdfs:
        if attachment.file is None or not attachment.file.is_file():
            problems.append(f"{attachment.file.name if attachment.file else attachment.key} is missing")
            continue
        try:
            record = read_pdf(attachment.file)
        except PdfUnreadable as error:
            problems.append(f"{attachment.file.name} could not be read ({error})")
            continue
        if record.sections or record.abstract:
            return ItemText(record.sections, record.references, True, None, record)
        # read, but no section found (a short piece without headings): its references and title
        # count, and the body comes from Zotero's own text of the same file
        cached = cached_text(attachment)
        body = [SectionRecord(1, None, "Full text (Zotero)", 1, " ".join(cached.split()))] if cached else []
        return ItemText(body, record.references, True, None, record)
    for attachment in pdfs + [a for a in item.attachments if not is_pdf(a)]:
        text = cached_text(attachment)
        if text:
            note = f"{'; '.join(problems)}: Zotero's extracted text used instead" if problems else None
            return ItemText([SectionRecord(1, None, "Full text (Zotero)", 1, " ".join(text.split()))], [], False, note)
    note = f"{'; '.join(problems)} and Zotero has no extracted text" if problems else None
    return ItemText([], [], False, note)


# -- the import ------------------------------------------------------------------------------------
def source_id(snapshot: ZoteroSnapshot, item: ZoteroItem) -> str:
    return f"{snapshot.database_id}/{item.library_key}/{item.key}"


def origin(snapshot: ZoteroSnapshot, library_key: str) -> str:
    return f"zotero:{snapshot.database_id}/{library_key}"


def _label(item: ZoteroItem) -> str:
    return f"“{item.title or item.key}” ({item.library}, {item.key})"


def import_zotero(
    folder: str | Path | None,
    library: Library,
    *,
    should_stop: Callable[[], bool] | None = None,
    read_pdf: Callable[[Path], PaperRecord] = read_pdf_record,
) -> Iterator[ImportProgress | ZoteroFinished]:
    """Import a Zotero data folder (default ``~/Zotero``); see the module docstring."""
    folder = Path(folder).expanduser() if folder else default_folder()
    clock = time.monotonic()
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    try:
        snapshot = read_zotero(folder)
    except ZoteroError as error:
        raise LibraryImportError(str(error)) from error
    live = [item for item in snapshot.items if not item.trashed]
    work = [(item, None) for item in live] + [(item, "pdf") for item in snapshot.standalone]
    counts = {"added": 0, "joined": 0, "updated": 0, "unchanged": 0, "pdfs": 0}
    fallbacks: list[str] = []
    untitled: list[str] = []
    paper_ids: list[int] = []
    touched: list[int] = []  # added, joined or updated: what re-linking looks at
    try:
        with library.transaction():
            merges_before = library.last_work_merge_id()
            for library_key, key, path in snapshot.collections:
                library.store_collection(origin(snapshot, library_key), key, path)
            for done, (item, kind) in enumerate(work, start=1):
                if should_stop is not None and should_stop():
                    raise LibraryImportError(f"{folder}: import cancelled; nothing was imported")
                yield ImportProgress(done - 1, len(work), "items", done - 1, _label(item))  # the one being read
                outcome = _import_item(library, snapshot, item, kind == "pdf", read_pdf, fallbacks)
                status, paper_id, read = outcome
                if status == "untitled":
                    untitled.append(f"{_label(item)}: no title in Zotero, left out")
                    continue
                counts[status] += 1
                counts["pdfs"] += read
                paper_ids.append(paper_id)
                if status != "unchanged":
                    touched.append(paper_id)
            deleted = _forget_deleted(library, snapshot, {source_id(snapshot, item) for item, _ in work})
            library.relink(touched)  # only what the changed items cite and what cites them
            merged = [work_merge_line(row) for row in library.work_merges(after_id=merges_before)]
            seconds = time.monotonic() - clock
            library.record_import(
                SOURCE,
                str(folder),
                started,
                seconds,
                {
                    "added": counts["added"],
                    "joined": counts["joined"],
                    "updated": counts["updated"],
                    "unchanged": counts["unchanged"],
                    "deleted": len(deleted),
                    "merged": len(merged),
                },
            )
    except LibraryBusy as error:
        raise LibraryImportError(str(error)) from error
    yield ImportProgress(len(work), len(work), "items", len(work))
    yield ZoteroFinished(
        str(folder),
        len(snapshot.items),
        len(snapshot.items) - len(live),
        len(snapshot.standalone),
        counts["added"],
        counts["joined"],
        counts["updated"],
        counts["unchanged"],
        len(snapshot.collections),
        len(snapshot.tags),
        counts["pdfs"],
        fallbacks,
        deleted,
        merged,
        sorted({name for _, name in snapshot.libraries.values()}),
        seconds,
        sorted(set(paper_ids)),
        untitled,
    )


def _import_item(
    library: Library,
    snapshot: ZoteroSnapshot,
    item: ZoteroItem,
    standalone: bool,
    read_pdf: Callable,
    fallbacks: list[str],
) -> tuple[str, int, int]:
    """Store one item (skipped when unchanged): (status, paper id, PDFs read); 'untitled' stores nothing."""
    ident = source_id(snapshot, item)
    known = library.paper_of_source(SOURCE, ident)
    if known is not None and library.source_stamp(SOURCE, ident) == item.stamp:
        return "unchanged", known, 0
    if not standalone and not (item.title or "").strip():
        return "untitled", 0, 0  # a stand-alone PDF is named by its file at worst
    text = read_item_text(item, read_pdf)
    if text.note:
        fallbacks.append(f"{_label(item)}: {text.note}")
    record = _standalone_record(item, text.pdf_record) if standalone else item_record(item)
    record.sections, record.references = text.sections, text.references
    if known is not None:
        library.update_from_source(known, record)
    paper_id, created = library.store_paper(
        record,
        source_id=ident,
        library=item.library,
        item_type="attachment" if standalone else item.item_type,
        stamp=item.stamp,
    )
    library.set_labels(paper_id, origin(snapshot, item.library_key), item.collections, item.tags)
    status = "updated" if known is not None else "added" if created else "joined"
    return status, paper_id, int(text.from_pdf)


def _standalone_record(item: ZoteroItem, from_pdf: PaperRecord | None) -> PaperRecord:
    """A PDF dropped into Zotero without an item: what the PDF says, named by its file otherwise."""
    if from_pdf is not None and from_pdf.title:
        from_pdf.source = SOURCE
        return from_pdf
    attachment = item.attachments[0]
    name = item.title or (attachment.file.name if attachment.file else item.key)
    return PaperRecord(title=re.sub(r"\.pdf$", "", name, flags=re.I), source=SOURCE)


def _forget_deleted(library: Library, snapshot: ZoteroSnapshot, present: set[str]) -> list[str]:
    """Items an earlier import took that Zotero no longer has (or keeps in its trash): reported, and
    their Zotero source row, collections and tags dropped; the paper itself stays."""
    lines = []
    for row in library.sources_with_prefix(SOURCE, f"{snapshot.database_id}/"):
        if row["source_id"] in present:
            continue
        library_key = row["source_id"].split("/")[1]
        library.set_labels(row["paper_id"], origin(snapshot, library_key), [], [])
        library.forget_source(SOURCE, row["source_id"])
        lines.append(
            f"paper:{row['paper_id']} “{row['title']}” ({row['library']}, "
            f"{row['source_id'].rsplit('/', 1)[-1]}) is no longer in Zotero; kept in the library"
        )
    return lines


__all__ = ["SOURCE", "ZoteroFinished", "import_zotero", "item_record", "read_item_text"]
