"""Focus helpers shared by the panes."""

from __future__ import annotations

from textual.widget import Widget


def showing(widget: Widget) -> bool:
    """True while the widget's tab is the one shown.

    A Show event is handled after the fact: by then a person may have moved to another tab (F4
    then F5 quickly), and focusing a widget in a hidden tab would pull that tab back to the front.
    """
    return all(node.display for node in widget.ancestors_with_self if isinstance(node, Widget))


def focus_start(pane: Widget, selector: str) -> None:
    """Coming to a tab, the cursor goes where a person starts, unless it is already inside it."""
    if not pane.has_focus_within and showing(pane):
        pane.query_one(selector).focus()
