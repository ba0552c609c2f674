"""The Settings tab: configuration in force, models, a playground for the model, and the doctor."""

from __future__ import annotations

import time

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import Button, DataTable, Input, Label, ProgressBar, Static

from scholar_tui.app.messages import SettingsChanged
from scholar_tui.app.widgets.markup import assemble, plain
from scholar_tui.config.settings import ConfigError
from scholar_tui.core.doctor import run_checks
from scholar_tui.core.model_choice import listed_models, use_model
from scholar_tui.models.base import CancelToken, LLMError
from scholar_tui.models.registry import ModelNotFound

STATUS_STYLE = {"ok": ("ok", "green"), "warn": ("warn", "yellow"), "fail": ("FAIL", "red")}


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


class Playground(ServicesPanel):
    """Type a prompt, watch the reply stream, stop it at any token."""

    class Piece(Message):
        def __init__(self, text: str, tokens: int) -> None:
            super().__init__()
            self.text = text
            self.tokens = tokens

    class Finished(Message):
        def __init__(self, stats) -> None:
            super().__init__()
            self.stats = stats

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
        self.query_one("#playground-stats", Static).update("[dim]loading model…[/]")
        self.query_one("#generation-progress", ProgressBar).update(progress=0)
        self.query_one("#generate", Button).disabled = True
        self.query_one("#stop", Button).disabled = False
        self._cancel = CancelToken()
        self.generate(prompt, self._cancel)

    @on(Button.Pressed, "#stop")
    def stop(self) -> None:
        if self._cancel is not None:
            self._cancel.cancel()

    @work(thread=True, exclusive=True, group="playground", exit_on_error=False)
    def generate(self, prompt: str, cancel: CancelToken) -> None:
        try:
            llm = self.services.llm()
            stream = llm.stream(messages=[{"role": "user", "content": prompt}], max_tokens=128, cancel=cancel)
            pending, last_post = [], 0.0
            for piece in stream:
                pending.append(piece)
                # Repaint at most ~12 times a second: on 2 cores every repaint is taken from
                # llama.cpp's threads. post_message, because the generator must never wait for the UI.
                if time.monotonic() - last_post > 0.08:
                    self.post_message(self.Piece("".join(pending), len(pending)))
                    pending, last_post = [], time.monotonic()
            if pending:
                self.post_message(self.Piece("".join(pending), len(pending)))
            completion = stream.completion
            # the finish reason and the model's name may come from an endpoint: plain text
            stats = plain(
                f"{completion.completion_tokens} tokens in {completion.duration_s:.2f} s "
                f"({completion.tokens_per_second:.1f} tokens/s) · {completion.finish_reason} · "
                f"{llm.model_name} ({llm.backend_name})"
            )
        except LLMError as error:  # an endpoint's error may quote its body ('[/nope]', ESC…)
            stats = plain(error, "red")
        self.post_message(self.Finished(stats))

    @on(Piece)
    def _append(self, message: Piece) -> None:
        self._reply += message.text
        # the model's words, never markup: '[@click=app.quit]' in a reply stays those characters
        self.query_one("#playground-output", Static).update(plain(self._reply))
        self.query_one("#generation-progress", ProgressBar).advance(message.tokens)
        self.query_one("#playground-stats", Static).update("[dim]generating…[/]")

    @on(Finished)
    def _finish(self, message: Finished) -> None:
        self.query_one("#playground-stats", Static).update(message.stats)
        self.query_one("#generate", Button).disabled = False
        self.query_one("#stop", Button).disabled = True


class DoctorPanel(ServicesPanel):
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

    @work(thread=True, exclusive=True, group="doctor", exit_on_error=False)
    def run_doctor(self) -> None:
        for check in run_checks(self.services.where):
            self.app.call_from_thread(
                self.query_one(DataTable).add_row,
                plain(*STATUS_STYLE[check.status]),
                plain(check.name),
                plain(check.detail),  # a detail quotes paths, config values and errors
            )
        self.app.call_from_thread(setattr, self.query_one("#run-doctor", Button), "disabled", False)


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
