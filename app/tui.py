"""The Textual app: six tabs over the engines, a status bar, bindings and a command palette."""

from __future__ import annotations

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Header, Input, Static, TabbedContent, TextArea

from scholar_tui.app.commands import ScholarCommands
from scholar_tui.app.help import HelpScreen
from scholar_tui.app.messages import (
    LibraryChanged,
    ModelStateChanged,
    NetworkChecked,
    SettingsChanged,
    VectorsWanted,
)
from scholar_tui.app.panes import PANES, TAB_TITLES
from scholar_tui.app.panes.settings import DoctorPanel, SettingsPane
from scholar_tui.app.widgets.focus import StayingTabPane, focus_if_showing
from scholar_tui.app.widgets.markup import editable, notify_plain, plain
from scholar_tui.app.widgets.status_bar import StatusBar
from scholar_tui.config.settings import ConfigError
from scholar_tui.core.model_choice import use_model
from scholar_tui.core.readiness import network_missing
from scholar_tui.core.services import Services
from scholar_tui.models.base import LLMError
from scholar_tui.models.registry import ModelNotFound


class ScholarApp(App):
    TITLE = "scholar-tui"
    SUB_TITLE = "research assistant on local models"
    CSS_PATH = "app.tcss"
    COMMANDS = App.COMMANDS | {ScholarCommands}
    TAB_TITLES = TAB_TITLES
    # Responsive classes on the screen (app.tcss): below 120 columns side panes stack or fold away,
    # from 200 the extra room goes to the results; below 36 rows the chrome shrinks.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-medium"), (200, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]
    AUTO_FOCUS = "#pasa-query"  # the app opens on Paper search: a person types a query first
    FOCUS_ON_SHOW = {
        "paper-search": "#pasa-query",
        "scholar-qa": "#qa-question",
        "conference-qa": "#conf-question",
        "api-debugger": "#debugger-loops",
        "settings": "#playground-input",
    }
    BINDINGS = [
        # priority: a focused input (a question box) must not swallow the tab keys
        Binding(
            f"f{number}",
            f"show_tab('{tab_id}')",
            title,
            id=f"tab.{tab_id}",
            tooltip=f"Open the {title} tab",
            priority=True,
        )
        for number, (tab_id, title) in enumerate(TAB_TITLES.items(), start=1)
    ] + [
        Binding(
            "f7", "help", "Help", id="app.help", tooltip="What each tab does, an example each, the keys", priority=True
        ),
        Binding("question_mark", "help", "Help", id="app.help-key", show=False),  # typed '?' in a box stays text
        Binding(
            "ctrl+r", "reload_settings", "Reload", id="app.reload", tooltip="Re-read the config and reload the model"
        ),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", tooltip="Quit scholar-tui", priority=True),
    ]

    def __init__(
        self, services: Services, *, load_model_on_start: bool = True, check_network_on_start: bool = False
    ) -> None:
        super().__init__()
        self.services = services
        self.load_model_on_start = load_model_on_start
        self.check_network_on_start = check_network_on_start  # `scholar-tui tui` probes; tests need not

    def compose(self) -> ComposeResult:
        yield Header()
        with TabbedContent(initial="paper-search", id="tabs"):
            for tab_id, title in self.TAB_TITLES.items():
                with StayingTabPane(title, id=tab_id):
                    yield PANES[tab_id](self.services)
        yield StatusBar(self.services, id="status-bar")
        yield Footer()

    def on_load(self) -> None:
        # Before compose: the model loads in its thread while the six tabs are built and styled
        # (a second or more on a 2-core machine), not after. Its state messages wait in the queue
        # until the status bar is mounted.
        if self.load_model_on_start:
            self.load_model()

    def on_mount(self) -> None:
        ui = self.services.settings.ui
        if ui.theme in self.available_themes:
            self.theme = ui.theme
        if ui.keymap:
            self.set_keymap(ui.keymap)
        if self.check_network_on_start:
            self.check_network()

    # -- actions -----------------------------------------------------------------------------
    def action_show_tab(self, tab_id: str) -> None:
        self.query_one(TabbedContent).active = tab_id
        # put the cursor where a person starts typing on that tab
        target = self.FOCUS_ON_SHOW.get(tab_id)
        if target:
            focus_if_showing(self.query_one(target))

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_run_doctor(self) -> None:
        self.action_show_tab("settings")
        self.query_one(DoctorPanel).start()

    def action_reload_settings(self) -> None:
        try:
            self.services.reload_settings()
        except ConfigError as error:
            notify_plain(self, error, severity="error")  # it quotes the config's text
            return
        self.post_message(SettingsChanged())

    def use_model(self, name: str) -> None:
        try:
            use_model(self.services, name)
        except (ConfigError, ModelNotFound) as error:
            notify_plain(self, error, severity="error")
            return
        self.post_message(SettingsChanged())

    # -- the model loads in a worker; the status bar follows it ------------------------------
    @work(thread=True, exclusive=True, group="model", exit_on_error=False)
    def load_model(self) -> None:
        self.post_message(ModelStateChanged("loading"))
        try:
            llm = self.services.llm()
            self.post_message(ModelStateChanged("ready", llm.model_name))
        except LLMError as error:
            self.post_message(ModelStateChanged("error", str(error)))

    @work(thread=True, exclusive=True, group="network", exit_on_error=False)
    def check_network(self) -> None:
        """Probe arXiv and OpenAlex once (within network.timeout_s) so the tabs can say which is down."""
        self.post_message(NetworkChecked(network_missing(self.services.settings.network)))

    @on(NetworkChecked)
    def show_network(self, message: NetworkChecked) -> None:
        missing = message.missing
        bar = self.query_one(StatusBar)
        bar.network_note = (
            ""
            if missing is None
            else ("offline" if self.services.settings.network.offline else "arXiv/OpenAlex unreachable")
        )
        self.query_one(SettingsPane).show_network(missing)

    @on(ModelStateChanged)
    def show_model_state(self, message: ModelStateChanged) -> None:
        bar = self.query_one(StatusBar)
        bar.model_detail = message.detail
        bar.model_state = message.state
        if message.state == "error":
            # the error quotes the model setting or an endpoint's body ('/x[/nope].gguf', an HTTP 500 page)
            notify_plain(self, message.detail, title="Model", severity="error", timeout=8)

    @on(LibraryChanged)
    def library_changed(self) -> None:
        from scholar_tui.app.panes.library import LibraryPane

        self.query_one(LibraryPane).library_changed()

    @on(VectorsWanted)
    def vectors_wanted(self) -> None:
        from scholar_tui.app.panes.library import LibraryPane

        self.query_one(LibraryPane).start_background_index()

    @on(SettingsChanged)
    def settings_changed(self) -> None:
        self.query_one(SettingsPane).refresh_settings()
        self.query_one(StatusBar).refresh()
        self.load_model()

    # -- editors draw what they hold raw: a pasted or recalled ESC would reach the terminal -----
    @on(Input.Changed)
    def _controls_visible_in_input(self, event: Input.Changed) -> None:
        shown = editable(event.value)
        if shown != event.value:
            event.input.value = shown
            event.input.cursor_position = len(shown)

    @on(TextArea.Changed)
    def _controls_visible_in_editor(self, event: TextArea.Changed) -> None:
        text = event.text_area.text
        shown = editable(text)
        if shown != text:
            event.text_area.load_text(shown)

    def on_unmount(self) -> None:
        self.services.close()


class StateProblemApp(App):
    """What opens instead of the tabs when the stored state cannot be used (a broken home, config
    file or database): the one line saying which file and what to do, and a key to quit."""

    TITLE = "scholar-tui cannot start"
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("escape", "quit", "Quit", show=False),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
    ]
    DEFAULT_CSS = "#state-problem { margin: 2 4; }"

    def __init__(self, problem: str) -> None:
        super().__init__()
        self.problem = problem

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(
            plain(self.problem + "\n\nPress q to quit; `scholar-tui doctor` lists every check."), id="state-problem"
        )
        yield Footer()
