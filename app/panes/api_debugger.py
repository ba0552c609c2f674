"""The API debugger tab: AutoFeedback's loops, their rounds side by side, and fixes by hand.

AutoFeedback stops a loop that ran out of rounds and leaves it to a person (paper §5, threat 2):
here they read every round (request, error type, feedback, response), edit the request — or the
program — and send it against the API backend; the hand-made request is logged as a ``human``
round and a good response marks the loop ``fixed_by_hand``.

The pane reads the log through its own SQLite connection on the UI thread (a few indexed rows);
sending runs in a thread worker with a connection of its own; its ``SentByHand`` event is reported
to the pane (``app/panes/workers.py``) and shown in its own words (``summary()``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, HorizontalScroll, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, DataTable, Label, Select, Static, TextArea

from scholar_tui.app.panes.workers import ReportsEngine, engine_worker
from scholar_tui.app.widgets.editor import ProgramEditor
from scholar_tui.app.widgets.focus import focus_start
from scholar_tui.app.widgets.markup import assemble, editable, plain
from scholar_tui.core.events import counted
from scholar_tui.core.readiness import loops_missing
from scholar_tui.indexes.autofeedback_log import FeedbackLog

if TYPE_CHECKING:
    from scholar_tui.core.autofeedback.human import SentByHand

STATUS_STYLE = {
    "solved": "green",
    "limit_hit": "red",
    "fixed_by_hand": "cyan",
    "running": "yellow",
    "failed": "magenta",
}
CARD_CHARS = 600
CHOOSE_LOOP = "Choose a loop (Enter) to see its rounds."


def _text(value, limit: int = CARD_CHARS) -> str:
    if value is None:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def round_card(row: dict) -> Text:
    """One round as the card shows it: the request, thought, response and feedback came from a
    model, a program or an API, so they are plain text (never markup), control characters visible."""
    error = row["sub_type"] or ("ok" if row["ok"] else "—")
    colour = "green" if row["ok"] else ("red" if row["sub_type"] else "yellow")
    tokens = (row["prompt_tokens"] or 0) + (row["completion_tokens"] or 0)
    parts: list = [
        (f"#{row['round']} {row['kind']}", "bold"),
        "  ",
        (error, colour),
        "  ",
        (f"{tokens} tok · {row['duration_s'] or 0:.2f} s", "dim"),
        "\n",
        ("request", "bold"),
        "\n",
        _text(row["request"], 400),
    ]
    if row["thought"]:
        parts += ["\n", ("thought", "bold"), "\n", _text(row["thought"], 200)]
    if row["response"] is not None:
        parts += ["\n", ("response", "bold"), "\n", _text(row["response"], 300)]
    if row["feedback"]:
        parts += ["\n", ("feedback", "bold"), "\n", _text(row["feedback"])]
    return assemble(*parts)


class APIDebuggerPane(ReportsEngine, Vertical):
    BINDINGS = [
        Binding(
            "ctrl+s",
            "send",
            "Send by hand",
            id="debugger.send",
            tooltip="Send the edited request (or program) and log it as a human round",
        ),
        Binding(
            "ctrl+l",
            "toggle_limit_hit",
            "Limit hit only",
            id="debugger.limit-hit",
            tooltip="Show only the loops that ran out of rounds",
        ),
    ]

    def __init__(self, services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self.feedback_log: FeedbackLog | None = None
        self.loop_id: int | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="debugger-toolbar"):
            yield Checkbox("only loops that hit the limit", id="debugger-limit-hit")
            yield Button("Refresh", id="debugger-refresh")
            yield Static("", id="debugger-counts")
        yield DataTable(id="debugger-loops", cursor_type="row", zebra_stripes=True)
        yield Label(CHOOSE_LOOP, id="debugger-loop-title", classes="section-title")
        yield HorizontalScroll(id="debugger-rounds")
        # the editor and what came back share the rest of the pane, side by side, at every size
        with Horizontal(id="debugger-edit-row"):
            with Vertical(id="debugger-editor-box"):
                yield ProgramEditor("", id="debugger-request", soft_wrap=True, show_line_numbers=False)
                with Horizontal(id="debugger-send-row"):
                    yield Select(
                        [("local library", "local"), ("OpenAlex", "openalex")],
                        value="local",
                        allow_blank=False,
                        id="debugger-backend",
                    )
                    yield Button(
                        "Send",
                        id="debugger-send",
                        variant="primary",
                        tooltip="Send by hand (ctrl+s): logged as a human round of the loop",
                    )
                    yield Button("Clear", id="debugger-clear", tooltip="Empty the editor (ctrl+z undoes it)")
            with VerticalScroll(id="debugger-response-box"):
                yield Static("", id="debugger-response")

    def on_mount(self) -> None:
        self.feedback_log = FeedbackLog(self.services.where)
        loops = self.query_one("#debugger-loops", DataTable)
        loops.add_columns("loop", "status", "source", "mode", "rounds", "instruction")
        loops.tooltip = (
            "status: solved · limit_hit (ran out of rounds: waits for a person, unless it only found "
            "nothing new) · fixed_by_hand · running · failed; rounds: static + dynamic + by hand"
        )
        self.refresh_loops()

    def on_unmount(self) -> None:
        if self.feedback_log is not None:
            self.feedback_log.close()

    def on_show(self) -> None:
        self.refresh_loops()  # loops that SoAy or the CLI logged meanwhile
        focus_start(self, "#debugger-loops")  # where a person starts: the list of loops

    # -- loops ---------------------------------------------------------------------------------
    @on(Button.Pressed, "#debugger-refresh")
    @on(Checkbox.Changed, "#debugger-limit-hit")
    def refresh_loops(self) -> None:
        if self.feedback_log is None:
            return
        only = self.query_one("#debugger-limit-hit", Checkbox).value
        loops = self.feedback_log.loops(status="limit_hit" if only else None)
        from scholar_tui.core.autofeedback.human import needs_person  # the sandbox's imports wait for the tab

        table = self.query_one("#debugger-loops", DataTable)
        table.clear()
        nothing_new = {
            loop["id"]
            for loop in loops
            if loop["status"] == "limit_hit" and not needs_person(self.feedback_log.rounds(loop["id"]))
        }
        for loop in loops:
            colour = "dim" if loop["id"] in nothing_new else STATUS_STYLE.get(loop["status"], "white")
            status = f"{loop['status']} (nothing new)" if loop["id"] in nothing_new else loop["status"]
            table.add_row(
                str(loop["id"]),
                plain(status, colour),
                plain(loop["source"]),
                plain(loop["mode"]),
                str(loop["rounds"]),
                plain(_text(loop["instruction"], 90)),
                key=str(loop["id"]),
            )
        waiting = sum(loop["status"] == "limit_hit" for loop in loops) - len(nothing_new)
        note = f" · {len(nothing_new)} only found nothing new (no one needed)" if nothing_new else ""
        self.query_one("#debugger-counts", Static).update(
            # our words and counts only (no outside text): markup, as the kept snapshots show it
            f"{counted(len(loops), 'loop')} shown · [red]{waiting}[/] waiting for a person{note}"
        )
        missing = loops_missing(len(loops) or len(self.feedback_log.loops(limit=1)))
        if self.loop_id is None:  # the hint follows the log: a loop logged meanwhile replaces "none yet"
            self.query_one("#debugger-loop-title", Label).update(
                plain(missing.summary(), "yellow") if missing else CHOOSE_LOOP
            )
            if missing is None:
                self.query_one("#debugger-response", Static).update("")  # a "none yet" left by Send by hand
        if self.loop_id is not None and str(self.loop_id) in table.rows:
            table.move_cursor(row=table.get_row_index(str(self.loop_id)))

    @on(DataTable.RowSelected, "#debugger-loops")
    def _selected(self, event: DataTable.RowSelected) -> None:
        # Enter or a click opens a loop; the cursor alone does not, so a refresh (after a send,
        # with the filter on) never swaps the loop a person is working on for another one.
        if event.row_key is not None and event.row_key.value is not None:
            self.show_loop(int(event.row_key.value), prefill=True)

    def show_loop(self, loop_id: int, *, prefill: bool = False) -> None:
        loop = self.feedback_log.loop(loop_id)
        if loop is None:
            return
        self.loop_id = loop_id
        rounds = self.feedback_log.rounds(loop_id)
        colour = STATUS_STYLE.get(loop["status"], "white")
        self.query_one("#debugger-loop-title", Label).update(
            assemble(f"Loop {loop_id} · ", (loop["status"], colour), " · ", _text(loop["instruction"], 120))
        )
        strip = self.query_one("#debugger-rounds", HorizontalScroll)
        strip.remove_children()
        strip.mount_all([Static(round_card(row), classes="round-card") for row in rounds])
        if prefill and rounds:
            last = next((row["request"] for row in reversed(rounds) if row["request"]), "")
            # a model wrote it: ESC or a C1 byte in the editor would reach the terminal
            self.query_one("#debugger-request", TextArea).load_text(editable(last or ""))
            self.query_one("#debugger-response", Static).update("")

    @on(Button.Pressed, "#debugger-clear")
    def clear_editor(self) -> None:
        self.query_one("#debugger-request", ProgramEditor).action_clear()

    def action_toggle_limit_hit(self) -> None:
        self.query_one("#debugger-limit-hit", Checkbox).toggle()

    # -- sending by hand ------------------------------------------------------------------------
    def action_send(self) -> None:
        self.send()

    @on(Button.Pressed, "#debugger-send")
    def send(self) -> None:
        if self.query_one("#debugger-send", Button).disabled:
            return  # one send at a time
        text = self.query_one("#debugger-request", TextArea).text.strip()
        response = self.query_one("#debugger-response", Static)
        if self.loop_id is None:
            missing = loops_missing(len(self.feedback_log.loops(limit=1)))
            response.update(
                plain(
                    missing.summary()
                    if missing
                    else "Choose a loop first: the request is logged as one of its rounds.",
                    "yellow",
                )
            )
            return
        if not text:
            response.update(plain('Write a request (<<API>>NAME(key="value")<</API>>) or a program to send.', "yellow"))
            return
        self.query_one("#debugger-send", Button).disabled = True
        response.update(plain("sending…", "dim"))
        self.send_worker(self.loop_id, text, self.query_one("#debugger-backend", Select).value)

    @engine_worker("api-debugger")
    def send_worker(self, loop_id: int, text: str, backend: str) -> None:
        from scholar_tui.core.autofeedback import open_autofeedback

        with open_autofeedback(self.services, source="api") as engine:  # this thread's own log connection
            for result in engine.send(text, backend=backend, loop_id=loop_id):
                self.report(result)

    def show_status(self, text: Text) -> None:
        self.query_one("#debugger-response", Static).update(text)

    def show_failure(self, worker: str, line: Text) -> None:
        self.query_one("#debugger-send", Button).disabled = False
        self.show_status(line)  # it may quote an HTTP body: plain text

    def _on_sent_by_hand(self, result: SentByHand) -> None:
        """The hand-sent request's own summary, then what came back; the loop is shown as it now is."""
        self.query_one("#debugger-send", Button).disabled = False
        colour = "green" if result.ok else "red"
        self.query_one("#debugger-response", Static).update(
            assemble((result.summary(), colour), "\n", _text(result.response, 1200))
        )
        self.refresh_loops()
        self.show_loop(result.loop_id)
