"""The API debugger tab, driven through Pilot: list, filter, read the rounds, edit, send, logged as human."""

from __future__ import annotations

from textual.widgets import Checkbox, DataTable, Static, TextArea

from scholar_tui.indexes.autofeedback_log import FeedbackLog

from .autofeedback_support import limit_hit_loop
from .pilot_support import (
    wait_for_workers,
)


async def test_a_limit_hit_loop_is_fixed_by_hand_in_the_debugger(where, imported, make_app):
    loop_id = limit_hit_loop(where)
    app = make_app()
    async with app.run_test(size=(150, 50)) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        loops = app.query_one("#debugger-loops", DataTable)
        assert loops.row_count == 2
        await pilot.click("#debugger-limit-hit")
        await pilot.pause()
        assert app.query_one("#debugger-limit-hit", Checkbox).value
        assert loops.row_count == 1 and loops.get_row_at(0)[0] == str(loop_id)

        loops.focus()
        loops.move_cursor(row=0)
        await pilot.press("enter")
        await pilot.pause()
        cards = app.query(".round-card")
        assert len(cards) == 4  # the rounds side by side
        assert "#1 static" in str(cards[0].render()) and "E2.2" in str(cards[0].render())
        editor = app.query_one("#debugger-request", TextArea)
        assert editor.text == '<<API>>getCoauthor(person_id="person:1")<</API>>'  # the last request, to edit

        editor.focus()
        tail = '(person_id="person:1")<</API>>'
        await pilot.press("end", *["left"] * len(tail))
        await pilot.press("s")  # getCoauthor → getCoauthors, typed as a person would
        assert editor.text == '<<API>>getCoauthors(person_id="person:1")<</API>>'
        await pilot.press("ctrl+s")  # the pane's binding; the button does the same
        await wait_for_workers(pilot)

        response = str(app.query_one("#debugger-response", Static).render())
        assert "ok" in response and "fixed_by_hand" in response and "Xuan-Truong Vu" in response
        assert loops.row_count == 0  # nothing waits for a person any more
        assert len(app.query(".round-card")) == 5 and "#5 human" in str(app.query(".round-card")[4].render())
        await pilot.click("#debugger-limit-hit")  # filter off: the loop is listed as fixed by hand
        await pilot.pause()
        assert loops.row_count == 2 and "fixed_by_hand" in str(loops.get_row_at(1)[1])
        await pilot.press("ctrl+q")
    rows = FeedbackLog(where).rounds(loop_id)
    assert (rows[-1]["kind"], rows[-1]["request"], rows[-1]["ok"]) == (
        "human",
        '<<API>>getCoauthors(person_id="person:1")<</API>>',
        1,
    )
    assert FeedbackLog(where).loop(loop_id)["status"] == "fixed_by_hand"


def nothing_new_loop(where) -> int:
    """A PaSa loop that ran out only because its searches found nothing new: no person can fix that."""
    log = FeedbackLog(where)
    loop_id = log.start_loop("zeros of random polynomials", source="pasa", static_limit=3, dynamic_limit=2)
    for number in (1, 2):
        log.add_round(
            loop_id,
            "dynamic",
            request=f'searchPapers(query="roots {number}")',
            ok=False,
            response={"error": "every paper found is already queued", "code": "E_NOTHING_NEW"},
            feedback="search with a different wording",
        )
    log.finish_loop(loop_id, "limit_hit")
    log.close()
    return loop_id


async def test_loops_that_found_nothing_new_are_not_waiting_for_a_person(where, imported, make_app):
    limit_hit_loop(where)
    quiet = nothing_new_loop(where)
    app = make_app()
    async with app.run_test(size=(150, 50)) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        counts = str(app.query_one("#debugger-counts", Static).render())
        assert "1 waiting for a person" in counts and "1 only found nothing new" in counts
        loops = app.query_one("#debugger-loops", DataTable)
        row = next(
            loops.get_row_at(index) for index in range(loops.row_count) if loops.get_row_at(index)[0] == str(quiet)
        )
        assert "nothing new" in str(row[1])
        await pilot.press("ctrl+q")


async def test_the_editor_selects_all_clears_and_undoes(where, make_app):
    """ctrl+a selects the whole program (F7 stays Help), Clear empties it, ctrl+z brings it back."""
    app = make_app()
    program = 'person = searchPerson(name="Michelen")\nreturn getCoauthors(person_id=person["person_id"])'
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        editor = app.query_one("#debugger-request", TextArea)
        editor.load_text(program)
        editor.focus()
        await pilot.press("ctrl+a")
        assert editor.selected_text == program
        await pilot.press("delete")
        assert editor.text == ""
        await pilot.press("ctrl+z")
        assert editor.text == program
        await pilot.click("#debugger-clear")
        assert editor.text == ""
        editor.focus()
        await pilot.press("ctrl+z")
        assert editor.text == program
        await pilot.press("f7")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("ctrl+q")
