"""The Library tab: counts, imports with progress, online search-and-add, hybrid search, and a paper's
sections and references.

An empty library says so, with the next step (core.readiness words it). The import box completes
paths (Tab); a PDF or a folder of PDFs is read paper by paper (core.library.pdf_import), with the
file being read shown and a Cancel that stops between papers. On a chosen paper, `o` opens its PDF
(or its link) and `c` copies its BibTeX (core.library.reading); its abstract's LaTeX shows as
Unicode. Searching arXiv or OpenAlex online lists results without storing them; Enter marks
the ones to keep and "Add chosen" adds them — with the works they cite, when OpenAlex lists them.

Imports and searches run in thread workers, each with its own SQLite connection (a connection
belongs to its thread); they report back through ``app/panes/workers.py``. Reading one paper's details is a few
indexed queries and happens on the UI thread through the pane's own connection.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, DataTable, Input, Label, ProgressBar, Select, Static
from textual.worker import get_current_worker

from scholar_tui.app.panes.workers import Note, ReportsEngine, engine_worker, failure_line, log_failure
from scholar_tui.app.widgets.export_dialog import ExportDialog
from scholar_tui.app.widgets.fitted_table import FittedTable
from scholar_tui.app.widgets.focus import focus_start
from scholar_tui.app.widgets.markup import assemble, plain
from scholar_tui.app.widgets.paths import PathInput
from scholar_tui.core.events import Event
from scholar_tui.core.library.importer import (
    ImportFinished,
    ImportProgress,
    LibraryImportError,
    import_file,
    with_cited_works,
)
from scholar_tui.core.library.online import (
    ONLINE_SOURCES,
    AddFinished,
    AddProgress,
    OnlineFailed,
    OnlineFound,
    open_online,
)
from scholar_tui.core.library.pdf_import import PdfImportFinished, import_pdfs
from scholar_tui.core.library.reading import abstract_text, bibtex_entry, open_paper, system_launcher
from scholar_tui.core.library.zotero import ZoteroFinished
from scholar_tui.core.library.zotero_db import default_folder as default_zotero_folder
from scholar_tui.core.pasa.works import CitedWorks
from scholar_tui.core.readiness import library_missing
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.library_search import IndexFinished, IndexProgress, LibraryIndex
from scholar_tui.indexes.search_changes import CITED_COUNT_CAP


@dataclass
class ImportStep(Event):
    """How far an import (or the embedding after it) has got: the progress bar and, reading a PDF or a
    Zotero item, the message line."""

    done: int
    total: int
    label: str
    kind: str = "import_step"


@dataclass
class Imported(Event):
    """An import or an online add ended: ``text`` says what it did, ``ok`` whether anything changed."""

    text: Text
    ok: bool
    kind: str = "imported"


@dataclass
class IndexWanted(Event):
    """Papers lack vectors (a large import, or one made by the CLI): the background index should run."""

    kind: str = "index_wanted"


@dataclass
class SearchResults(Event):
    hits: list = field(default_factory=list)
    note: Text = field(default_factory=Text)
    query: str = ""
    kind: str = "search_results"


@dataclass
class SearchNote(Event):
    """More for the results' title line, once the hits of the search of ``query`` are shown."""

    query: str
    text: Text
    kind: str = "search_note"


def cell(text: str | None) -> Text:
    """A DataTable cell shown as written: DataTable parses str cells as markup ('[b]' in a title)."""
    return plain(text or "")


def mark(chosen: bool) -> Text:
    """The 'add' column: '[x]' as a str cell is a markup tag and showed nothing."""
    return Text("[x]" if chosen else "[ ]")


CITED_STEP = "cited works"  # the import step after the records: the works their bibliographies cite


def cited_line(cited: CitedWorks | None) -> str:
    """The line an import adds for its cited works (made for Paper search), as the CLI says it."""
    if cited is None or not (cited.added or cited.stopped):  # as the CLI: nothing new, nothing said
        return ""
    made = f"cited: {cited.added} works their bibliographies cite"
    return f"\n{made}; cancelled, the rest are made by the first Paper search" if cited.stopped else f"\n{made}"


BACKGROUND_FROM = 256  # papers without a vector past which an import leaves them to a background worker
KIND_LABELS = {
    "unarxive": "unarXive",
    "openalex": "OpenAlex",
    "arxiv": "arXiv Atom",
    "bibtex": "BibTeX",
    "pdf": "PDF (file or folder)",
    "zotero": "Zotero folder",
}


def _guess_kind(path: str) -> str | None:
    """The import kind from the file's name, or from its first bytes for JSON and JSON lines."""
    name = path.lower()
    if name.endswith("zotero.sqlite") or (name and (Path(path).expanduser() / "zotero.sqlite").is_file()):
        return "zotero"
    if name.endswith(".pdf") or (path and Path(path).expanduser().is_dir()):
        return "pdf"
    if name.endswith(".bib"):
        return "bibtex"
    if name.endswith((".xml", ".atom")):
        return "arxiv"
    if name.endswith((".json", ".jsonl")) and Path(path).is_file():
        with open(path, "rb") as handle:
            head = handle.read(4096)
        if (b'"paper_id"' in head and b'"metadata"' in head) or b'"_pdf_hash"' in head:
            return "unarxive"
        if b"openalex.org/" in head:
            return "openalex"
    return None


def _sources_line(library: Library, paper_id: int) -> str:
    """Where a paper came from and how its reference manager filed it: one dim line of the header."""
    sources = ", ".join(
        f"{row['source']}" + (f" ({row['library']})" if row["library"] else "")
        for row in library.paper_sources(paper_id)
    )
    labels = library.paper_labels(paper_id)
    filed = "; ".join(labels["collections"]) + (" · tags: " + ", ".join(labels["tags"]) if labels["tags"] else "")
    return (f"\nfrom {sources}" if sources else "") + (f" · in {filed}" if filed.strip() else "")


class LibraryPane(ReportsEngine, Vertical):
    BINDINGS = [
        Binding(
            "o",
            "open_paper",
            "Open PDF/link",
            id="library.open",
            tooltip="Open the chosen paper's PDF in the system viewer, or its page in the browser",
        ),
        Binding(
            "c",
            "copy_bibtex",
            "Copy BibTeX",
            id="library.copy-bibtex",
            tooltip="Copy the chosen paper's citation as BibTeX",
        ),
    ]

    online_transport = None  # tests replay recorded answers through an httpx.MockTransport
    launcher = staticmethod(system_launcher)  # what `o` hands a PDF or URL to; tests record instead

    def __init__(self, services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self.library: Library | None = None
        self.paper_id: int | None = None
        self.online_records: list = []
        self.online_chosen: set[int] = set()
        self.online_query = ""
        self.import_cancel = threading.Event()
        self.listed: list[int] = []
        self._results_note = Text()  # the title line of the search shown, which a SearchNote extends
        self._results_query = ""

    def compose(self) -> ComposeResult:
        yield Static("", id="library-counts")
        yield Static("", id="library-hint")
        with Horizontal(id="library-import-row", classes="library-row"):
            yield Select(
                [(label, kind) for kind, label in KIND_LABELS.items()],
                value="unarxive",
                allow_blank=False,
                id="import-kind",
            )
            yield PathInput(
                placeholder="Path of a file to import (.jsonl, .json, .xml, .bib, .pdf or a folder of PDFs); "
                "Tab completes",
                id="import-path",
            )
            yield Button("Import", id="import-button", variant="primary")
            yield Button("Cancel", id="import-cancel", variant="error", disabled=True)
        with Horizontal(id="library-online-row", classes="library-row"):
            yield Select(
                [(label, source) for source, label in ONLINE_SOURCES.items()],
                value="arxiv",
                allow_blank=False,
                id="online-source",
            )
            yield Input(placeholder="Search online: words, or arXiv's au:del_maestro / ti:helium", id="online-query")
            yield Button("Search online", id="online-search")
        with Vertical(id="online-box"):
            yield DataTable(id="online-results", cursor_type="row", zebra_stripes=True)
            with Horizontal(classes="library-row"):
                yield Checkbox("with the works they cite (OpenAlex)", value=True, id="online-references")
                yield Button("Add chosen", id="online-add", variant="primary")
        yield ProgressBar(total=1, show_eta=False, id="import-progress")
        yield Static("", id="import-message")
        with Horizontal(id="library-search-row", classes="library-row"):
            yield Input(placeholder="Search titles and abstracts (hybrid: meaning + words)", id="library-query")
            yield Input(placeholder="before YYYY-MM-DD", id="library-before")
            yield Checkbox(
                "cited",
                value=False,
                id="library-cited",
                tooltip="Include the works the library's papers cite (title-only papers made for Paper search)",
            )
            yield Button("Search", id="search-button")
            yield Button(
                "Export",
                id="library-export",
                tooltip="The papers listed, or the whole library, as BibTeX, RIS or CSL-JSON",
            )
        with Horizontal(id="library-body"):
            with Vertical(id="library-results-box"):
                yield Label("Papers", classes="section-title", id="results-title")
                yield FittedTable(id="library-results", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="paper-detail"):
                yield Static("Choose a paper to see its sections and references.", id="paper-header")
                yield Label("Sections", classes="section-title")
                yield DataTable(id="paper-sections", cursor_type="row", zebra_stripes=True)
                yield Label("References", classes="section-title", id="references-title")
                yield DataTable(id="paper-references", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.library = Library.open(self.services.where)
        results = self.query_one("#library-results", DataTable)
        for name in ("id", "date", "title"):
            results.add_column(name, key=name)
        self.query_one("#paper-sections", DataTable).add_columns("§", "section", "refs")
        self.query_one("#paper-references", DataTable).add_columns("#", "links", "reference")
        self.query_one("#online-results", DataTable).add_columns("add", "#", "date", "title", "authors")
        self.query_one("#online-box").display = False
        self.refresh_counts()
        self.show_recent()

    def on_show(self) -> None:
        self.refresh_counts()  # the CLI or another tab may have changed the library meanwhile
        # where a person starts: the search box, or the import box while there is nothing to search
        focus_start(self, "#import-path" if library_missing(self.library) else "#library-query")

    def on_unmount(self) -> None:
        if self.library is not None:
            self.library.close()

    # -- counts and lists ------------------------------------------------------------------------
    def refresh_counts(self) -> None:
        counts = self.library.counts()
        cited = self.library.cited_work_count() if counts["papers"] else 0
        text = Text(" · ").join(
            Text.assemble(
                (str(value), "bold"),
                f" {name.replace('_', ' ')}",
                f" ({cited} of them cited works)" if name == "papers" and cited else "",
            )
            for name, value in counts.items()
            if name != "section_references"
        )
        self.query_one("#library-counts", Static).update(text)
        missing = library_missing(self.library)
        self.query_one("#library-hint", Static).update(plain(missing.summary(), "yellow") if missing else "")

    def show_recent(self) -> None:
        recent = self.library.recent_papers(200, own_only=True)  # the works they cite are found by a search
        rows = [(paper["id"], paper["date"], paper["title"]) for paper in recent]
        self._fill_results(rows, f"Papers ({len(rows)} most recent)")

    def _fill_results(self, rows: list[tuple], title: str | Text) -> None:
        self.listed = [row[0] for row in rows]  # what Export writes when "the papers listed" is chosen
        table = self.query_one("#library-results", DataTable)
        table.clear()
        for paper_id, date, paper_title in rows:
            table.add_row(f"paper:{paper_id}", cell(date), cell(paper_title), key=str(paper_id))
        self.query_one("#results-title", Label).update(title)

    # -- import ------------------------------------------------------------------------------------
    @on(Input.Changed, "#import-path")
    def _guess(self, event: Input.Changed) -> None:
        kind = _guess_kind(event.value.strip())
        if kind:
            self.query_one("#import-kind", Select).value = kind

    @on(Select.Changed, "#import-kind")
    def _kind_chosen(self, event: Select.Changed) -> None:
        """Zotero's data folder is where Zotero keeps it unless the person says otherwise."""
        box = self.query_one("#import-path", Input)
        if event.value == "zotero" and not box.value.strip():
            box.value = str(default_zotero_folder())

    @on(Input.Submitted, "#import-path")
    @on(Button.Pressed, "#import-button")
    def start_import(self) -> None:
        if self.query_one("#import-button", Button).disabled:
            return  # Enter in the path box while an import runs: one import at a time (a second would race it)
        path = self.query_one("#import-path", Input).value.strip()
        kind = self.query_one("#import-kind", Select).value
        if not path and kind != "zotero":
            self.show_status(plain("Type the path of a file to import.", "yellow"))
            return
        target = Path(path).expanduser() if path else default_zotero_folder()
        self.query_one("#import-button", Button).disabled = True
        self.import_cancel.clear()
        self.query_one("#import-cancel", Button).disabled = kind not in ("pdf", "zotero")
        self.query_one("#import-message", Static).update(plain(f"importing {target.name} as {KIND_LABELS[kind]}…"))
        self.run_import(kind, target, self.import_cancel)

    @engine_worker("library-import")
    def run_import(self, kind: str, path: Path, cancel: threading.Event) -> None:
        library = Library.open(self.services.where)  # this thread's own connection
        try:
            if kind == "pdf":
                self._import_pdfs(path, library)
                return
            last_post = 0.0
            finished, cited = None, None
            events = import_file(kind, path, library, should_stop=cancel.is_set)
            for event in with_cited_works(events, library, should_stop=cancel.is_set):
                if isinstance(event, ImportProgress) and time.monotonic() - last_post > 0.1:
                    label = f"reading {event.message}" if event.message else "importing"  # a Zotero item
                    self.report(ImportStep(event.done, event.total, label))
                    last_post = time.monotonic()
                elif isinstance(event, (ImportFinished, ZoteroFinished)):
                    finished = event
                    self.report(ImportStep(0, 1, CITED_STEP))  # the records are stored: their cited works next
                elif isinstance(event, CitedWorks):
                    cited = event
            self.report(ImportStep(1, 1, "imported"))
            summary = "\n".join(
                finished.lines()
                if isinstance(finished, ZoteroFinished)
                else [finished.summary, *finished.works_merged[:3], *finished.skipped[:3]]
            ) + cited_line(cited)
            index_note = self._sync_index(library)
            self.report(Imported(assemble(summary, index_note), True))
        except LibraryImportError as error:  # a bad file, not a failure: it quotes the file, plain text
            self.report(Imported(plain(f"{error}; the library is unchanged", "red"), False))
        finally:
            library.close()

    def _import_pdfs(self, path: Path, library: Library) -> None:
        """Runs in the import worker: each PDF read and stored whole; Cancel stops between papers."""
        finished, cited = None, None
        stop = self.import_cancel.is_set
        events = import_pdfs(path, library, grobid_url=self.services.settings.pdf.grobid_url, should_stop=stop)
        for event in with_cited_works(events, library, should_stop=stop):
            if isinstance(event, ImportProgress):
                self.report(ImportStep(event.done, event.total, f"reading {event.message}" if event.message else ""))
            elif isinstance(event, PdfImportFinished):
                finished = event
                self.report(ImportStep(0, 1, CITED_STEP))
            elif isinstance(event, CitedWorks):
                cited = event
        index_note = self._sync_index(library) if finished.papers else Text()
        message = assemble(finished.summary + cited_line(cited), index_note)
        for line in finished.skipped + finished.notes:  # each file left out, one line each
            message.append_text(assemble("\n", (line, "yellow")))
        self.report(Imported(message, True))

    @on(Button.Pressed, "#import-cancel")
    def cancel_import(self) -> None:
        self.import_cancel.set()
        self.query_one("#import-message", Static).update(
            "cancelling: the records are stored; the works their bibliographies cite made so far stay…"
            if self.citing
            else "cancelling: the paper being read is finished or dropped, never half stored…"
        )

    def _sync_index(self, library: Library) -> Text:
        """Embed the new papers for search; on failure say so and keep the import. Many papers
        (a large import) are embedded in the background: searchable by words meanwhile."""
        try:
            behind = LibraryIndex(self.services.where, None).coverage(library).behind
            if behind > BACKGROUND_FROM:
                self.report(IndexWanted())
                return plain(f" · searchable by words now; vectors for {behind} papers are computed in the background")
            index = LibraryIndex(self.services.where, self.services.embedder())
            for event in index.sync(library):
                if isinstance(event, IndexProgress) and event.total:
                    self.report(ImportStep(event.done, event.total, "embedding"))
                elif isinstance(event, IndexFinished):
                    return plain(f" · search index: {event.embedded} embedded in {event.seconds:.1f} s")
        except Exception as error:  # not the worker's failure: the papers stay imported, the note says so
            log_failure(self.services.where.log_dir, "LibraryPane._sync_index", error)
            return plain(f" · search index not updated: {failure_line(error)}", "yellow")
        return Text()

    # -- the background index: papers without a vector embedded while the library stays searchable ---
    indexing = False  # a background index run is under way: a search does not start another

    def _on_index_wanted(self, event: IndexWanted) -> None:
        self.start_background_index()

    def start_background_index(self) -> None:
        """Papers without a vector embedded in the background, unless a run is under way (also
        asked by the Paper search tab, whose crawl found many papers without one)."""
        if not self.indexing:
            self.indexing = True
            self.run_index()

    @engine_worker("library-index")
    def run_index(self) -> None:
        """The papers without a vector embedded, progress on the import bar; stopped with the app
        (what was made is kept: the next run goes on from there)."""
        worker = get_current_worker()
        library = Library.open(self.services.where)
        try:
            events = LibraryIndex(self.services.where, self.services.embedder()).sync(library)
            for event in events:
                if worker.is_cancelled:
                    events.close()
                    return
                if isinstance(event, IndexProgress) and event.total:
                    self.report(ImportStep(event.done, event.total, "embedding"))
                elif isinstance(event, IndexFinished):
                    text = f"search index: {event.embedded} papers embedded in {event.seconds:.0f} s"
                    self.report(Note(text))
        except Exception as error:  # not a request's failure: the library stays searchable by words
            log_failure(self.services.where.log_dir, "LibraryPane.run_index", error)
            self.report(Note(f"search index not updated: {failure_line(error)}", "yellow"))
        finally:
            library.close()
            self.indexing = False

    # -- what the workers report, on the UI thread ----------------------------------------------------
    def show_status(self, text: Text) -> None:
        self.query_one("#import-message", Static).update(text)

    def show_failure(self, worker: str, line: Text) -> None:
        """One line under the import box; what the failed request held is free again."""
        if worker == "run_search":
            self._fill_results([], line)
        elif worker == "run_online_search":
            self.query_one("#online-search", Button).disabled = False
            self.show_status(line)
        else:  # an import or an online add: the library is as it was
            doing = "import" if worker == "run_import" else "adding"
            self._on_imported(Imported(assemble((f"{doing} failed: ", "red"), line), False))

    def _on_import_step(self, message: ImportStep) -> None:
        bar = self.query_one("#import-progress", ProgressBar)
        bar.update(total=max(message.total, 1), progress=message.done)
        if message.label == CITED_STEP and not self.import_cancel.is_set():
            self.citing = True
            self.query_one("#import-cancel", Button).disabled = False  # the records are in: this step may stop
            self.query_one("#import-message", Static).update(
                "making the works their bibliographies cite, for Paper search (Cancel leaves them to its first search)…"
            )
        if message.label.startswith("reading ") and not self.import_cancel.is_set():
            self.query_one("#import-message", Static).update(
                plain(f"{message.label} ({message.done + 1}/{message.total})")
            )

    last_import: Text | None = None  # what the last import said: the background index's line joins it
    citing = False  # the import is making the works its bibliographies cite (its records are stored)

    def _on_note(self, note: Note) -> None:
        """The background index's line, under the import's summary rather than in its place."""
        line = plain(note.text, note.style)
        self.show_status(line if self.last_import is None else assemble(self.last_import, "\n", line))

    def _on_imported(self, message: Imported) -> None:
        self.last_import = message.text if message.ok else None
        self.citing = False
        self.query_one("#import-message", Static).update(message.text)
        self.query_one("#import-button", Button).disabled = False
        self.query_one("#import-cancel", Button).disabled = True
        self.query_one("#online-add", Button).disabled = False
        self.refresh_counts()  # a failed import changed nothing, but another process may have
        if message.ok:
            self.show_recent()

    def library_changed(self) -> None:
        """Someone else changed the library (a PaSa crawl that added cited works): counts and list anew."""
        self.refresh_counts()
        if not self.query_one("#library-query", Input).value.strip():
            self.show_recent()

    # -- online: search arXiv or OpenAlex, then add the chosen results ------------------------------
    @on(Input.Submitted, "#online-query")
    @on(Button.Pressed, "#online-search")
    def start_online_search(self) -> None:
        query = self.query_one("#online-query", Input).value.strip()
        source = self.query_one("#online-source", Select).value
        self.query_one("#import-message", Static).update(f"asking {ONLINE_SOURCES[source]}…")
        self.query_one("#online-search", Button).disabled = True
        self.run_online_search(source, query)

    @engine_worker("library-online")
    def run_online_search(self, source: str, query: str) -> None:
        sources = open_online(self.services.where, self.services.settings.network, transport=self.online_transport)
        try:
            for event in sources.search(source, query, limit=25):
                self.report(event)
        finally:
            sources.library.close()

    def _on_online_failed(self, event: OnlineFailed) -> None:
        self.query_one("#online-search", Button).disabled = False
        self.show_status(plain(event.summary(), "red"))

    def _on_online_found(self, event: OnlineFound) -> None:
        self.query_one("#online-search", Button).disabled = False
        self.online_records, self.online_chosen, self.online_query = event.records, set(), event.query
        self._fill_online()
        hint = " · Enter marks a result, then Add chosen" if event.records else ""
        self.show_status(assemble(event.summary(), hint))
        if event.records:
            self.query_one("#online-results", DataTable).focus()

    def _on_add_progress(self, event: AddProgress) -> None:
        self.query_one("#import-progress", ProgressBar).update(total=max(event.total, 1), progress=event.done)
        self.show_status(plain(event.summary()))

    def _fill_online(self) -> None:
        table = self.query_one("#online-results", DataTable)
        table.clear()
        for index, record in enumerate(self.online_records):
            authors = ", ".join(author.name for author in record.authors[:3]) + (
                " …" if len(record.authors) > 3 else ""
            )
            table.add_row(
                mark(index in self.online_chosen),
                str(index + 1),
                cell(record.date),
                cell(record.title[:90]),
                cell(authors[:40]),
                key=str(index),
            )
        self.query_one("#online-box").display = bool(self.online_records)

    @on(DataTable.RowSelected, "#online-results")
    def _toggle_online(self, event: DataTable.RowSelected) -> None:
        index = int(event.row_key.value)
        self.online_chosen ^= {index}
        self.query_one("#online-results", DataTable).update_cell(
            event.row_key,
            self.query_one("#online-results", DataTable).ordered_columns[0].key,
            mark(index in self.online_chosen),
        )

    @on(Button.Pressed, "#online-add")
    def add_chosen(self) -> None:
        table = self.query_one("#online-results", DataTable)
        chosen = sorted(self.online_chosen) or ([table.cursor_row] if self.online_records else [])
        if not chosen:
            return
        records = [self.online_records[index] for index in chosen]
        references = self.query_one("#online-references", Checkbox).value
        self.query_one("#online-add", Button).disabled = True
        self.query_one("#import-message", Static).update(f"adding {len(records)} papers…")
        source = self.query_one("#online-source", Select).value
        self.run_online_add(records, self.online_query if source == "arxiv" else "", references)

    @engine_worker("library-online")
    def run_online_add(self, records: list, query: str, references: bool) -> None:
        sources = open_online(self.services.where, self.services.settings.network, transport=self.online_transport)
        try:
            for event in sources.add(records, query=query, references=references):
                if isinstance(event, AddFinished):
                    note = self._sync_index(sources.library)
                    self.report(Imported(assemble(event.summary(), note), True))
                else:
                    self.report(event)
        finally:
            sources.library.close()

    # -- search ------------------------------------------------------------------------------------
    @on(Input.Submitted, "#library-query")
    @on(Input.Submitted, "#library-before")
    @on(Button.Pressed, "#search-button")
    @on(Checkbox.Changed, "#library-cited")
    def start_search(self) -> None:
        query = self.query_one("#library-query", Input).value.strip()
        before = self.query_one("#library-before", Input).value.strip() or None
        missing = library_missing(self.library)
        if missing is not None:  # nothing to search: no embedder is loaded for an empty library
            self.query_one("#results-title", Label).update(plain(missing.summary(), "yellow"))
            return
        if not query:
            self.show_recent()
            return
        self.query_one("#results-title", Label).update("Searching…")
        self.last_import = None  # a later index line is the search's own
        self.run_search(query, before, self.query_one("#library-cited", Checkbox).value)

    @engine_worker("library-search")
    def run_search(self, query: str, before: str | None, cited: bool = False) -> None:
        """The library's own papers for the query (with ``cited``, the works they cite too); the hits
        are shown first, then how many cited works also match (a second count, 30-70 ms at 100 k)."""
        library = Library.open(self.services.where)
        try:  # a bad date (SearchError), an embedder that will not load: one line (show_failure)
            index = LibraryIndex(self.services.where, self.services.embedder())
            # it embeds a few new papers first
            hits = index.search(library, query, before=before, limit=25, own_only=not cited, count_cited=False)
            note = plain(f"{len(hits)} results for “{query}”" + (f" before {before}" if before else ""))
            if index.missing:  # imported elsewhere (the CLI, --no-index): embedded in the background
                note.append_text(plain(f" · {index.missing} papers without vectors yet, found by words", "yellow"))
                self.report(IndexWanted())
            self.report(SearchResults(hits, note, query))
            left_out = 0 if cited else index.cited_matching(library, query, before=before)
        finally:
            library.close()
        if left_out:
            many = f"{left_out}+" if left_out >= CITED_COUNT_CAP else left_out
            self.report(SearchNote(query, plain(f" · {many} cited works also match: tick 'cited' to include them")))

    def _on_search_results(self, message: SearchResults) -> None:
        self._results_note = message.note
        self._results_query = message.query
        self._fill_results([(hit.paper_id, hit.date, hit.title) for hit in message.hits], message.note)

    def _on_search_note(self, message: SearchNote) -> None:
        """A line the search adds once its hits are shown (the cited works that also match); an older
        search's, come late, is dropped."""
        if message.query != self._results_query:
            return
        self._results_note = Text.assemble(self._results_note, message.text)
        self.query_one("#results-title", Label).update(self._results_note)

    # -- export ------------------------------------------------------------------------------------
    @on(Button.Pressed, "#library-export")
    def choose_export(self) -> None:
        from scholar_tui.core.exports import exports_folder

        self.app.push_screen(ExportDialog(len(self.listed), f"{exports_folder(self.services.where)}/"), self.export)

    def export(self, choice: tuple[str, str, str] | None) -> None:
        """The listed papers or the whole library through core/exports.py; the line says where and how many."""
        from scholar_tui.core.exports import ExportError, export_papers, export_path, gather

        if choice is None:
            return
        chosen, fmt, scope = choice
        message = self.query_one("#import-message", Static)
        try:
            references = gather(self.library, None if scope == "library" else self.listed)
            written = export_papers(export_path(self.services.where, chosen, "library", fmt), fmt, references)
        except ExportError as error:
            message.update(plain(str(error), "red"))
            return
        message.update(plain(written.summary()))

    # -- detail --------------------------------------------------------------------------------------
    @on(DataTable.RowHighlighted, "#library-results")
    @on(DataTable.RowSelected, "#library-results")
    def _paper_chosen(self, event) -> None:
        if event.row_key is not None and event.row_key.value:
            self.show_paper(int(event.row_key.value))

    def show_paper(self, paper_id: int) -> None:
        paper = self.library.paper(paper_id)
        if paper is None:
            return
        self.paper_id = paper_id
        authors = ", ".join(author["name"] for author in self.library.paper_authors(paper_id))
        ids = " · ".join(
            f"{label} {paper[key]}"
            for label, key in (("arXiv", "arxiv_id"), ("doi", "doi"), ("OpenAlex", "openalex_id"))
            if paper[key]
        )
        cited = f" · cited by {paper['cited_by_count']}" if paper["cited_by_count"] is not None else ""
        citing = self.library.cited_by(paper_id)
        in_library = f" · cited by {len(citing)} library papers" if citing else ""
        line = (
            f"paper:{paper_id} · {paper['date'] or 'date unknown'} · {paper['venue'] or ''}"
            f"{' · ' + ids if ids else ''}{cited}{in_library}"
        )
        line += _sources_line(self.library, paper_id)
        # Library text as plain Text, never markup: a title may hold '[' and backslashes, which
        # Textual's markup would read as tags (and swallow what follows).
        header = assemble(
            (paper["title"], "bold"), "\n", authors, "\n", (line, "dim"), "\n\n", abstract_text(paper["abstract"])
        )
        self.query_one("#paper-header", Static).update(header)
        sections = self.query_one("#paper-sections", DataTable)
        sections.clear()
        sections.add_row("", "(all references)", str(len(self.library.references(paper_id))), key="all")
        for section in self.library.sections(paper_id):
            sections.add_row(
                cell(section["number"]),
                cell(section["title"] or "(untitled)"),
                str(section["reference_count"]),
                key=str(section["id"]),
            )
        self.show_references(None)

    @on(DataTable.RowHighlighted, "#paper-sections")
    def _section_chosen(self, event: DataTable.RowHighlighted) -> None:
        if self.paper_id is None or event.row_key is None:
            return
        key = event.row_key.value
        self.show_references(None if key == "all" else int(key))

    def show_references(self, section_id: int | None) -> None:
        table = self.query_one("#paper-references", DataTable)
        table.clear()
        references = self.library.references(self.paper_id, section_id)
        for reference in references:
            links = []
            if reference["cited_paper_id"]:
                links.append(f"→ paper:{reference['cited_paper_id']}")
            links += [f"arXiv:{reference['arxiv_id']}"] if reference["arxiv_id"] else []
            links += [f"doi:{reference['doi']}"] if reference["doi"] else []
            links += [reference["openalex_id"]] if reference["openalex_id"] else []
            text = reference["raw"] or reference["cited_title"] or reference["openalex_id"] or ""
            table.add_row(
                str(reference["ordinal"] or ""),
                cell(" ".join(links)),
                cell(text[:120]),
                key=f"{reference['id']}:{reference['cited_paper_id'] or ''}",
            )
        where = "this section" if section_id is not None else "the paper"
        self.query_one("#references-title", Label).update(f"References of {where} ({len(references)})")

    # -- reading the chosen paper: open it, copy its citation -----------------------------------------
    def action_open_paper(self) -> None:
        if self.paper_id is None:
            self.query_one("#import-message", Static).update("Choose a paper first (the list on the left).")
            return
        opened = open_paper(self.library, self.paper_id, self.launcher)
        self.query_one("#import-message", Static).update(plain(opened.message))

    def action_copy_bibtex(self) -> None:
        if self.paper_id is None:
            self.query_one("#import-message", Static).update("Choose a paper first (the list on the left).")
            return
        entry = bibtex_entry(self.library, self.paper_id)
        self.app.copy_to_clipboard(entry)
        self.query_one("#import-message", Static).update(
            plain(f"copied the BibTeX of paper:{self.paper_id} ({entry.count(chr(10))} lines)")
        )

    @on(DataTable.RowSelected, "#paper-references")
    def _open_reference(self, event: DataTable.RowSelected) -> None:
        """Enter on a reference that resolves inside the library opens that paper."""
        cited = (event.row_key.value or "").split(":")[-1]
        if cited:
            self.show_paper(int(cited))
