"""Every tab at every terminal size from the classic 80x24 up: the main input, the main result and the
primary button are on the screen and not covered; SVG snapshots of each tab at 80x24 and 160x48 are
kept in tests/snapshots/ so a layout change shows in review.

The snapshots are rewritten with ``UPDATE_LAYOUT_SNAPSHOTS=1 uv run --group dev pytest
tests/test_layout.py``; otherwise a screen that differs from its snapshot fails the test, and the
new screen is written beside it (``*.new.svg``) to look at.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from textual.geometry import Region

from scholar_tui.config.locations import Locations
from scholar_tui.indexes.autofeedback_log import FeedbackLog
from scholar_tui.models.registry import ModelEntry

from .pilot_support import build_app

SNAPSHOTS = Path(__file__).parent / "snapshots"
SIZES = [(80, 24), (100, 30), (160, 48), (220, 60)]
SNAPSHOT_SIZES = [(80, 24), (160, 48)]
# tab key, tab id -> (main input, main result, primary button)
MAIN_WIDGETS = {
    ("f1", "paper-search"): ("#pasa-query", "#pasa-results", "#pasa-search"),
    ("f2", "scholar-qa"): ("#qa-question", "#qa-answer", "#qa-ask"),
    ("f3", "conference-qa"): ("#conf-question", "#conf-answer", "#conf-ask"),
    ("f4", "api-debugger"): ("#debugger-request", "#debugger-response", "#debugger-send"),
    ("f5", "library"): ("#library-query", "#library-results", "#search-button"),
    ("f6", "settings"): ("#playground-input", "#playground-output", "#generate"),
}


@dataclass(frozen=True)
class ShownModel(ModelEntry):
    """A model as the Settings tab lists it, its location under a fixed prefix (found or not as the real one)."""

    present: bool = True

    @property
    def available(self) -> bool:
        return self.present


@pytest.fixture(autouse=True)
def same_model_paths(monkeypatch) -> None:
    """The bundled models live in this checkout's environment (/work/main/.venv/…, /tmp/ci-clone/.venv/…):
    the Settings tab shows them under one prefix, so its snapshot reads the same in every clone."""
    from scholar_tui.core import model_choice  # where the Settings tab's list comes from

    real = model_choice.all_models

    def shown(where):
        return [
            ShownModel(
                entry.name,
                entry.kind,
                entry.location.replace(sys.prefix, "/venv"),
                entry.source,
                entry.adapter,
                present=entry.available,
            )
            for entry in real(where)
        ]

    monkeypatch.setattr(model_choice, "all_models", shown)


@pytest.fixture
def relative_home(tmp_path, monkeypatch) -> Locations:
    """State in ./home, so the status bar (which shows the data folder) reads the same on every machine."""
    monkeypatch.chdir(tmp_path)
    root = Path("home")
    where = Locations(config_dir=root, data_dir=root / "data", cache_dir=root / "cache", log_dir=root / "logs").ensure()
    log_loops(where)
    return where


def log_loops(where: Locations) -> None:
    """Loops in the API debugger: a listed table and the longest counts line take their room."""
    log = FeedbackLog(where)
    for status, code in (("limit_hit", "E_NOTHING_NEW"), ("limit_hit", None), ("solved", None)):
        loop_id = log.start_loop("zeros of random polynomials", source="pasa")
        log.add_round(
            loop_id,
            "dynamic",
            request='searchPapers(query="roots")',
            ok=status == "solved",
            response={"error": "nothing", "code": code} if code else None,
        )
        log.finish_loop(loop_id, status)
    log.close()


def on_screen(app, selector: str) -> list[str]:
    """What is wrong with where ``selector`` is drawn: [] when it is inside the screen and on top."""
    widget = app.query_one(selector)
    screen = app.screen
    if not widget.display or not widget.visible:
        return [f"{selector} is hidden"]
    region = widget.region
    if not region.area:
        return [f"{selector} has no room ({region})"]
    if not Region(0, 0, *app.size).contains_region(region):
        return [f"{selector} at {region} is outside the {app.size.width}x{app.size.height} screen"]
    x, y = region.center
    shown, _ = screen.get_widget_at(x, y)
    if shown is not widget and widget not in shown.ancestors:
        return [f"{selector}'s middle shows {shown!r} instead"]
    return []


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_every_tab_keeps_its_input_result_and_button_on_screen(relative_home, size):
    app = build_app(relative_home)
    problems = []
    async with app.run_test(size=size) as pilot:
        for (key, tab), selectors in MAIN_WIDGETS.items():
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()
            for selector in selectors:
                problems += [f"{tab}: {problem}" for problem in on_screen(app, selector)]
            palette = app.screen.query_one("FooterKey.-command-palette")
            if palette.region.height != 1 or palette.region.width < len(" ^p palette"):
                problems.append(f"{tab}: the footer's palette key is {palette.region}")
        await pilot.press("ctrl+q")
    assert not problems, "\n".join(problems)


def _compare_snapshot(svg: str, name: str) -> str | None:
    kept = SNAPSHOTS / f"{name}.svg"
    if os.environ.get("UPDATE_LAYOUT_SNAPSHOTS") == "1" or not kept.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        kept.write_text(svg, encoding="utf-8")
        return None
    if kept.read_text(encoding="utf-8") == svg:
        return None
    (SNAPSHOTS / f"{name}.new.svg").write_text(svg, encoding="utf-8")
    return name


async def settled_screenshot(app, pilot, title: str) -> str:
    """The screen once it has stopped changing (focus moves late, the footer recomposes after it),
    with no blinking cursor in the picture."""
    for widget in app.query("Input, TextArea"):
        widget.cursor_blink = False
    previous = None
    for _ in range(40):
        await pilot.pause(0.05)
        svg = app.export_screenshot(title=title)
        if svg == previous:
            return svg
        previous = svg
    raise AssertionError(f"{title}: the screen never settled")


@pytest.mark.parametrize("size", SNAPSHOT_SIZES, ids=[f"{w}x{h}" for w, h in SNAPSHOT_SIZES])
async def test_each_tab_matches_its_kept_snapshot(relative_home, size):
    app = build_app(relative_home)
    changed = []
    async with app.run_test(size=size) as pilot:
        for key, tab in MAIN_WIDGETS:
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()
            svg = await settled_screenshot(app, pilot, f"{tab} {size[0]}x{size[1]}")
            changed += [name for name in [_compare_snapshot(svg, f"{tab}-{size[0]}x{size[1]}")] if name]
        await pilot.press("ctrl+q")
    assert not changed, (
        f"layout changed: {changed}; see tests/snapshots/*.new.svg (rewrite with UPDATE_LAYOUT_SNAPSHOTS=1)"
    )
