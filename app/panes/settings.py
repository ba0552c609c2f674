"""The Settings tab: configuration in force, models, a playground for the model, and the doctor."""

from __future__ import annotations

import time
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, DataTable, Input, Label, ProgressBar, Static

from scholar_tui.app.messages import SettingsChanged
from scholar_tui.app.panes.workers import ReportsEngine, engine_worker
from scholar_tui.app.widgets.markup import assemble, plain
from scholar_tui.config.settings import ConfigError
from scholar_tui.core.doctor import Check, run_checks
from scholar_tui.core.events import Event
from scholar_tui.core.model_choice import listed_models, use_model
from scholar_tui.models.base import CancelToken
from scholar_tui.models.registry import ModelNotFound

STATUS_STYLE = {"ok": ("ok", "green"), "warn": ("warn", "yellow"), "fail": ("FAIL", "red")}


@dataclass
class Piece(Event):
    """Tokens of the playground's reply since the last repaint."""

    text: str
    tokens: int
    kind: str = "piece"


@dataclass
class Generated(Event):
    """The reply is complete: its figures, one line."""

    stats: Text
    kind: str = "generated"


@dataclass
class Checked(Event):
    """One of the doctor's checks, done."""

    check: Check
    kind: str = "checked"


@dataclass
class DoctorDone(Event):
    kind: str = "doctor_done"


class ServicesPanel(Static):
    """A section of the Settings tab; it reads and changes the shared services."""

    def __init__(self, services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services


class ConfigPanel(ServicesPanel):
    """The settings in force and the paths, as a read-only table."""

    def compose(self) -> ComposeResult:
        yield Label("Configuration in force", classes="section-title")
        yield DataTable(id="config-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("setting", "value")
        self.refresh_rows()

    def refresh_rows(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        settings = self.services.settings
        for section, values in settings.model_dump().items():
            for field, value in values.items():
                if field == "api_key" and value:
                    value = "(set)"  # never show a secret on screen
                # a config value is outside text: '/x[/nope].gguf' must show, not crash the table
                table.add_row(plain(f"{section}.{field}"), plain(value))
        for name, path in self.services.where.as_dict().items():
            table.add_row(plain(f"path.{name}"), plain(path))


class ModelsPanel(ServicesPanel):
    """Every known model; Enter or the button makes the highlighted one active."""

    def compose(self) -> ComposeResult:
        yield Label("Models", classes="section-title")
        yield DataTable(id="models-table", cursor_type="row", zebra_stripes=True)
        with Horizontal(classes="buttons"):
            yield Button("Use highlighted model", id="use-model", variant="primary")
        yield Static("", id="models-message")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("", "name", "kind", "source", "location")
        self.refresh_rows()

    def refresh_rows(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for entry in listed_models(self.services.where, self.services.settings):
            mark = "*" if entry.active_as == "llm" else ""
            location = entry.location if entry.available else f"{entry.location} (missing)"
            # names and paths come from files and the config: shown as written
            table.add_row(mark, *map(plain, (entry.name, entry.kind, entry.source, location)), key=entry.name)

    @on(Button.Pressed, "#use-model")
    @on(DataTable.RowSelected, "#models-table")
    def use_highlighted(self) -> None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return
        name = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        message = self.query_one("#models-message", Static)
        try:
            use_model(self.services, name)
        except ModelNotFound as error:
            message.update(plain(f"{error}.", "yellow"))
            return
        except ConfigError as error:
            message.update(plain(error, "red"))
            return
        message.update(assemble("Active model: ", (name, "bold"), " (loading…)"))
        self.post_message(SettingsChanged())


class Playground(ReportsEngine, ServicesPanel):
    """Type a prompt, watch the reply stream, stop it at any token."""

    def __init__(self, services, **kwargs) -> None:
        super().__init__(services, **kwargs)
        self._cancel: CancelToken | None = None
        self._reply = ""

    def compose(self) -> ComposeResult:
        yield Label("Try the model", classes="section-title")
        yield Input(placeholder="Ask the active model something and press Enter", id="playground-input")
        with Horizontal(classes="buttons"):
            yield Button("Generate", id="generate", variant="primary")
            yield Button("Stop", id="stop", variant="error", disabled=True)
        yield ProgressBar(total=128, show_eta=False, id="generation-progress")
        yield Static("", id="playground-output")
        yield Static("", id="playground-stats")

    @on(Input.Submitted, "#playground-input")
    @on(Button.Pressed, "#generate")
    def start(self) -> None:
        prompt = self.query_one("#playground-input", Input).value.strip()
        if not prompt:
            return
        self._reply = ""
        self.query_one("#playground-output", Static).update("")
        self.show_status(plain("loading model…", "dim"))
        self.query_one("#generation-progress", ProgressBar).update(progress=0)
        self.query_one("#generate", Button).disabled = True
        self.query_one("#stop", Button).disabled = False
        self._cancel = CancelToken()
        self.generate(prompt, self._cancel)

    @on(Button.Pressed, "#stop")
    def stop(self) -> None:
        if self._cancel is not None:
            self._cancel.cancel()

    @engine_worker("playground")
    def generate(self, prompt: str, cancel: CancelToken) -> None:
        llm = self.services.llm()
        stream = llm.stream(messages=[{"role": "user", "content": prompt}], max_tokens=128, cancel=cancel)
        pending, last_post = [], 0.0
        for piece in stream:
            pending.append(piece)
            # Repaint at most ~12 times a second: on 2 cores every repaint is taken from
            # llama.cpp's threads. Reported (posted), because the generator must never wait for the UI.
            if time.monotonic() - last_post > 0.08:
                self.report(Piece("".join(pending), len(pending)))
                pending, last_post = [], time.monotonic()
        if pending:
            self.report(Piece("".join(pending), len(pending)))
        completion = stream.completion
        # the finish reason and the model's name may come from an endpoint: plain text
        self.report(
            Generated(
                plain(
                    f"{completion.completion_tokens} tokens in {completion.duration_s:.2f} s "
                    f"({completion.tokens_per_second:.1f} tokens/s) · {completion.finish_reason} · "
                    f"{llm.model_name} ({llm.backend_name})"
                )
            )
        )

    def show_status(self, text: Text) -> None:
        self.query_one("#playground-stats", Static).update(text)

    def show_failure(self, worker: str, line: Text) -> None:
        """An endpoint's error may quote its body ('[/nope]', ESC…): one plain red line."""
        self._on_generated(Generated(line))

    def _on_piece(self, piece: Piece) -> None:
        self._reply += piece.text
        # the model's words, never markup: '[@click=app.quit]' in a reply stays those characters
        self.query_one("#playground-output", Static).update(plain(self._reply))
        self.query_one("#generation-progress", ProgressBar).advance(piece.tokens)
        self.show_status(plain("generating…", "dim"))

    def _on_generated(self, generated: Generated) -> None:
        self.show_status(generated.stats)
        self.query_one("#generate", Button).disabled = False
        self.query_one("#stop", Button).disabled = True


class DoctorPanel(ReportsEngine, ServicesPanel):
    """`scholar-tui doctor` inside the app: checks appear as they complete."""

    def compose(self) -> ComposeResult:
        yield Label("Doctor", classes="section-title")
        with Horizontal(classes="buttons"):
            yield Button("Run doctor", id="run-doctor")
        yield DataTable(id="doctor-table", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns("status", "check", "detail")

    @on(Button.Pressed, "#run-doctor")
    def start(self) -> None:
        self.query_one(DataTable).clear()
        self.query_one("#run-doctor", Button).disabled = True
        self.scroll_visible()
        self.run_doctor()

    @engine_worker("doctor")
    def run_doctor(self) -> None:
        for check in run_checks(self.services.where):
            self.report(Checked(check))
        self.report(DoctorDone())

    def _on_checked(self, checked: Checked) -> None:
        check = checked.check
        self._row(plain(*STATUS_STYLE[check.status]), check.name, check.detail)  # a detail quotes paths and errors

    def _on_doctor_done(self, done: DoctorDone) -> None:
        self.query_one("#run-doctor", Button).disabled = False

    def _row(self, status: Text, name: str, detail: Text | str) -> None:
        self.query_one(DataTable).add_row(status, plain(name), detail if isinstance(detail, Text) else plain(detail))

    def show_status(self, text: Text) -> None:
        self._row(Text(), "doctor", text)

    def show_failure(self, worker: str, line: Text) -> None:
        """The checks stop where they failed: the last row says why; the button works again."""
        self._row(plain(*STATUS_STYLE["fail"]), "doctor", line)
        self._on_doctor_done(DoctorDone())


class SettingsPane(VerticalScroll):
    def __init__(self, services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services

    def compose(self) -> ComposeResult:
        yield Static("", id="settings-hint")
        yield Playground(self.services, id="playground")  # first: what a person opens the tab for
        yield ModelsPanel(self.services, id="models-panel")
        yield DoctorPanel(self.services, id="doctor-panel")
        yield ConfigPanel(self.services, id="config-panel")

    def show_network(self, missing) -> None:
        """The online sources' state at the top of the tab: which one cannot be reached, and what then."""
        self.query_one("#settings-hint", Static).update(
            plain(missing.summary(), "yellow") if missing else plain("arXiv and OpenAlex are reachable.", "green")
        )

    def refresh_settings(self) -> None:
        self.query_one(ModelsPanel).refresh_rows()
        self.query_one(ConfigPanel).refresh_rows()
