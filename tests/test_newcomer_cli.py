"""The CLI on a fresh home: each command says in one line what is missing and the next step,
before loading any model."""

from __future__ import annotations

from click.testing import CliRunner

from scholar_tui.app.cli import cli

EMPTY = "The library is empty: import a file (`scholar-tui import arxiv|openalex|unarxive|bibtex PATH`"


def test_commands_on_an_empty_library_say_how_to_fill_it(where, monkeypatch):
    import scholar_tui.models as models

    def no_model(*args, **kwargs):
        raise AssertionError("no model may load for an empty library")

    monkeypatch.setattr(models, "load_embedder", no_model)
    monkeypatch.setattr(models, "load_llm", no_model)
    runner = CliRunner()
    for command in (
        ["ask", "How many papers has Adrian Del Maestro written?"],
        ["library", "search", "helium"],
        ["search", "graph neural networks for molecules"],
    ):
        result = runner.invoke(cli, command)
        assert result.exit_code == 1 and result.output.startswith(f"Error: {EMPTY}"), result.output
        assert result.output.count("\n") == 1  # one line
    result = runner.invoke(cli, ["api", "searchPerson", "--name", "Del Maestro"])
    assert result.exit_code == 0 and EMPTY in result.output and result.output.rstrip().endswith("[]")
    result = runner.invoke(cli, ["logs"])
    assert result.output.startswith("No AutoFeedback loop logged yet: ask in Scholar Q&A (F2)")
    result = runner.invoke(cli, ["conf", "ask", "ICML2023", "When?"])
    assert result.exit_code == 1 and "import one with `scholar-tui conf import`" in result.output


def test_online_search_offline_names_the_source_in_one_line(where, monkeypatch):
    monkeypatch.setenv("SCHOLAR_TUI_NETWORK__OFFLINE", "1")
    result = CliRunner().invoke(cli, ["library", "online", "search", "arxiv", "au:del_maestro"])
    assert result.exit_code == 1
    assert result.output == (
        "Error: offline (network.offline is set): export.arxiv.org is not asked; "
        "import files instead; the local library still answers\n"
    )
