"""Issue #29 (10): importing a conference is linear in the site's size.

A section of tens of thousands of entries used to cost each entry a scan of all its siblings
(twice: for the description and for its stored position), and a page-sized leaf was copied whole
into its description, its path and both embedded texts.
"""

from __future__ import annotations

import time

from scholar_tui.core.conference.describe import (
    StructuralDescriber,
    describe_tree,
    description_input,
    embedded_text,
    star_prompt,
)
from scholar_tui.core.conference.engine import ConferenceEngine, node_rows
from scholar_tui.core.conference.paths import leaf_paths
from scholar_tui.core.conference.tree import tree_from_data
from scholar_tui.indexes.conference_vectors import load_paths

from .conference_fakes import ConceptEmbedder

ENTRIES = 30_000


def descriptions_of(tree) -> dict[int, str]:
    results: dict[int, tuple[str, str]] = {}
    for event in describe_tree(tree, StructuralDescriber(), lambda hashes: {}, lambda rows: None):
        if isinstance(event, dict):
            results = event
    return {node_id: text for node_id, (_, text) in results.items()}


def test_a_section_of_many_entries_is_described_in_linear_time():
    tree = tree_from_data({"Wide2026": {f"key{n:06d}": f"value {n}" for n in range(ENTRIES)}})
    started = time.perf_counter()
    descriptions = descriptions_of(tree)
    rows = node_rows(tree, {})
    seconds = time.perf_counter() - started
    # Quadratic, this was 9 * 10^8 sibling visits (minutes); linear, a second or two on a busy core.
    assert seconds < 20, f"{ENTRIES} entries took {seconds:.1f} s"
    middle = next(node for node in tree.nodes if node.key == "key015000")
    described = descriptions[middle.id]
    # An entry of a long list says so; it does not repeat the same first ten entries 30,000 times.
    assert described == f"key015000: value 15000\nOne of {ENTRIES:,} same-level entries. Within: Wide2026"
    assert rows[middle.id].position == 15000
    assert max(len(text) for text in descriptions.values()) < 100
    prompt = star_prompt(description_input(tree, middle, "Wide2026"))  # the model still sees the neighbours
    assert "key014999: value 14999" in prompt and "key015001: value 15001" in prompt
    assert "key000000" not in prompt and f"and {ENTRIES - 11:,} more" in prompt


def test_a_page_sized_leaf_is_cut_for_search_but_answers_keep_it_whole(where):
    from scholar_tui.core.conference.paths import MAX_DESCRIBED_CHARS

    page = " ".join(f"word{n}" for n in range(40_000))  # about 300 KB
    tree = tree_from_data({"Long2026": {"Programme": page, "Venue": "Hall A"}})
    descriptions = descriptions_of(tree)
    leaf = next(node for node in tree.leaves() if node.key == "Programme")
    assert len(descriptions[leaf.id]) < MAX_DESCRIBED_CHARS + 400
    path = next(item for item in leaf_paths(tree) if item.node_id == leaf.id)
    assert len(path.text) <= MAX_DESCRIBED_CHARS + 40 and path.text.endswith("…") and path.value == page

    engine = ConferenceEngine(where, ConceptEmbedder({"programme": 0}))
    list(engine.build(tree, "test", StructuralDescriber()))
    table = load_paths(where, "Long2026")
    row = table.node_ids.index(leaf.id)
    assert table.values[row] == page  # the whole value stays for the answers
    assert len(table.paths[row]) <= MAX_DESCRIBED_CHARS + 40
    assert len(embedded_text(table.descriptions[row])) <= MAX_DESCRIBED_CHARS + 40
    assert engine.load_tree("Long2026")[leaf.id].text == page


def test_a_build_shows_progress_when_stderr_is_not_a_terminal(monkeypatch, tmp_path):
    import json

    from click.testing import CliRunner

    from scholar_tui.app import cli_conf
    from scholar_tui.app.cli import cli

    from .conference_fakes import HashingEmbedder

    monkeypatch.setattr("scholar_tui.models.load_embedder", lambda settings: HashingEmbedder())
    monkeypatch.setattr(cli_conf._Progress, "LOG_EVERY_S", 0.0)  # as if each step took 30 s
    site = tmp_path / "site.json"
    site.write_text(json.dumps({"Wide2026": {f"key{n}": f"value {n}" for n in range(300)}}))
    result = CliRunner().invoke(cli, ["conf", "import", str(site)])
    assert result.exit_code == 0, result.output
    assert "describing 301/301 nodes" in result.stderr and "embedding 600/600 texts" in result.stderr
    assert "\x1b" not in result.stderr and "imported Wide2026" in result.stdout
