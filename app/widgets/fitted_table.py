"""A DataTable whose one long column (a title) takes the width the table has: no horizontal scroll
that leaves a title one letter wide at 100 columns, nor cut at 30 characters at 160. The title is
cut with an ellipsis where the table ends; the pane's detail view shows it whole.

The other columns keep Textual's own sizing (their content's width); only the fitted column's width
follows the table's, recomputed when the table is resized or its rows change.
"""

from __future__ import annotations

from textual import events
from textual.widgets import DataTable


class FittedTable(DataTable):
    def __init__(self, *args, fit_column: str = "title", min_fit_width: int = 12, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fit_column = fit_column
        self.min_fit_width = min_fit_width

    async def _on_idle(self, event: events.Idle) -> None:
        await super()._on_idle(event)
        self._fit()

    def on_resize(self, event: events.Resize) -> None:
        self._fit()
        self.call_after_refresh(self._fit)  # once the new size has been laid out (a tree folding back in)

    def _fit(self) -> None:
        column = next((column for column in self.ordered_columns if column.key.value == self.fit_column), None)
        if column is None or not self.size.width:
            return
        others = sum(other.get_render_width(self) for other in self.ordered_columns if other is not column)
        if self._labelled_row_exists and self.show_row_labels:
            others += self._label_column.get_render_width(self)
        scrollbar = self.styles.scrollbar_size_vertical if self.show_vertical_scrollbar else 0
        width = max(self.min_fit_width, self.size.width - scrollbar - others - 2 * self.cell_padding)
        if column.auto_width or column.width != width:
            column.auto_width, column.width = False, width
            self._clear_caches()
            self._require_update_dimensions = True  # the virtual width follows on the next idle
            self.refresh()
