"""The help screen (F7, ?, or "Help" in the command palette): what each tab does, one example each, the keys."""

from __future__ import annotations

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

# tab id -> (what it does, one example a newcomer can try)
TAB_HELP: dict[str, tuple[str, str]] = {
    "paper-search": (
        "PaSa: a crawler reads the library (and arXiv/OpenAlex when online), expands the papers' "
        "references and a selector keeps the relevant ones.",
        "graph neural networks for molecules   (date box: 2023-01-01 to ignore later papers)",
    ),
    "scholar-qa": (
        "SoAy: a question about scholars and papers becomes a chain of API calls over the library; "
        "you see the solution, the program, its result and the answer.",
        "How many papers has Adrian Del Maestro written?",
    ),
    "conference-qa": (
        "STAR: import a conference site (ConferenceQA .json, .html page/folder or URL), then ask it; "
        "answers come with their evidence paths in the site's tree.",
        "When does the rebuttal period end?",
    ),
    "api-debugger": (
        "AutoFeedback's loops: every request a model made, its errors and the feedback it got; "
        "fix a loop that ran out of rounds by hand.",
        'searchPerson(name="Adrian Del Maestro")   then Ctrl+S to send it',
    ),
    "library": (
        "Your papers: import a file (Tab completes the path), search arXiv or OpenAlex online and add "
        "the results you mark, search the library, read a paper's sections and references.",
        "online: arXiv  au:del_maestro  → Enter on results to mark → Add chosen",
    ),
    "settings": (
        "Models (choose the active one), a playground to try it, the doctor (models, storage, network) "
        "and the configuration in force.",
        "Run doctor   ·   or Ctrl+P → Use model …",
    ),
}
OTHER_KEYS = [
    ("F1 … F6", "the tabs"),
    ("F7 or ?", "this help (? outside a text box)"),
    ("Tab / Shift+Tab", "move between boxes; in a path box Tab completes the path"),
    ("Enter", "submit the box, open or mark the row"),
    ("Ctrl+P", "command palette: go to a tab, run the doctor, switch model, help"),
]


def help_text(app) -> str:
    """The screen's text (Rich markup): built from the app's tabs and the bindings in force."""
    lines = [
        "[b]scholar-tui[/b]: research assistant on local models. Every tab says what it is missing and the "
        "next step. The same features run headless: `scholar-tui --help`.",
        "",
    ]
    for number, (tab_id, title) in enumerate(app.TAB_TITLES.items(), start=1):
        what, example = TAB_HELP.get(tab_id, ("", ""))
        lines += [
            f"[b $accent]F{number}  {escape(title)}[/]",
            f"   {escape(what)}",
            f"   [dim]try:[/] {escape(example)}",
            "",
        ]
    lines.append("[b]Keys[/b]")
    keys = [
        (binding.key, binding.description)
        for binding in app.BINDINGS
        if isinstance(binding, Binding)
        and binding.description
        and binding.action != "help"
        and not binding.key.startswith("f")
    ]
    keys += [(key, text) for key, text in OTHER_KEYS]
    for pane in app.query("TabPane > *"):
        keys += [
            (b.key, f"{b.description} ({escape(pane.parent.id or '')})")
            for b in getattr(pane, "BINDINGS", [])
            if isinstance(b, Binding) and b.description
        ]
    lines += [f"   {escape(key):<18} {escape(text)}" for key, text in keys]
    lines += ["", "[dim]Esc, q or F7 closes this screen.[/]"]
    return "\n".join(lines)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,f7,question_mark", "dismiss", "Close help")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help-body { width: 110; max-width: 95%; height: 90%; border: round $accent; background: $surface; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(help_text(self.app), id="help-text")
