"""What a Textual app really puts on the terminal, for tests of hostile text.

Textual draws a screen as strips of Rich segments; the driver writes each segment's text between
its own escape sequences (cursor moves, colours). So a character of a segment's text is a byte the
terminal reads as written: the check walks the segments of every line of every screen in the stack,
as the compositor renders them, not an export (``export_screenshot`` escapes what it writes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.cells import cell_len
from rich.segment import Segment

# Below 0x20 except newline (a tab moves the cursor too), DEL, C1 (0x9b is CSI on its own), and the
# bidi overrides that reorder what follows them.
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@dataclass
class Screenful:
    lines: list[list[Segment]]

    @property
    def text(self) -> str:
        return "\n".join("".join(segment.text for segment in line) for line in self.lines)

    def find(self, needle: str) -> tuple[int, int] | None:
        """The cell (x, y) where ``needle`` starts on screen, if it is shown."""
        for y, line in enumerate(self.lines):
            row = "".join(segment.text for segment in line)
            x = row.find(needle)
            if x >= 0:
                return cell_len(row[:x]), y
        return None


def screenful(app) -> Screenful:
    """Every line of the screens in the stack, as segments (the active screen last)."""
    lines: list[list[Segment]] = []
    for screen in app.screen_stack:
        for strip in screen._compositor.render_strips():
            lines.append(list(strip))
    return Screenful(lines)


def problems(app) -> list[str]:
    """What on screen must not be there: a raw control character in a segment's text, a control
    segment, or a click action that came from text (Textual keeps a markup link as ``@click`` meta)."""
    found = []
    for y, line in enumerate(screenful(app).lines):
        for segment in line:
            if segment.control:
                found.append(f"line {y}: control segment {segment.control!r}")
            raw = RAW_CONTROL.search(segment.text)
            if raw:
                found.append(f"line {y}: raw {raw.group(0)!r} in {segment.text!r}")
            meta = segment.style.meta if segment.style is not None else {}
            action = str(meta.get("@click", "")) if meta else ""
            if "quit" in action or "screenshot" in action:
                found.append(f"line {y}: a link to {action!r} on {segment.text!r}")
    return found


def assert_clean(app) -> None:
    found = problems(app)
    assert not found, "\n".join(found[:10])
