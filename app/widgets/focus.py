"""Focus helpers shared by the panes.

Textual moves focus later than it is asked for (``Widget.focus`` is a ``call_later``), and a
focused widget in a hidden tab pulls its tab to the front. A person pressing F4 then F5 quickly
would be thrown back to F4's tab. So focus is checked when it really moves, and a pane whose tab
is no longer shown never brings itself forward.
"""

from __future__ import annotations

from textual import on
from textual.widget import Widget
from textual.widgets import TabPane


def showing(widget: Widget) -> bool:
    """True while the widget's tab is the one shown."""
    return all(node.display for node in widget.ancestors_with_self if isinstance(node, Widget))


def focus_if_showing(widget: Widget) -> None:
    """Focus the widget, unless its tab has been left by the time focus moves."""

    def move_focus() -> None:
        if widget.is_attached and showing(widget):
            widget.screen.set_focus(widget)

    widget.app.call_later(move_focus)


def focus_start(pane: Widget, selector: str) -> None:
    """Coming to a tab, the cursor goes where a person starts, unless it is already inside it."""
    if not pane.has_focus_within and showing(pane):
        focus_if_showing(pane.query_one(selector))


class StayingTabPane(TabPane):
    """A tab pane that lets the tab keys, not late focus, decide which tab is shown."""

    @on(TabPane.Focused)
    def _stay_hidden(self, event: TabPane.Focused) -> None:
        # Never let the message bubble: TabbedContent would handle it later still, after a person
        # may have moved on, and bring this tab back. A shown pane gains nothing from it either:
        # it is the active tab already.
        event.stop()
