"""Conference trees from ConferenceQA JSON (BOM, odd nesting) and from HTML pages; paths; sources."""

from pathlib import Path

import pytest

from scholar_tui.core.conference.html_tree import tree_from_html
from scholar_tui.core.conference.paths import leaf_paths, node_path_text
from scholar_tui.core.conference.sources import load_source
from scholar_tui.core.conference.tree import ConferenceError, load_json_tree, tree_as_data, tree_from_data

FIXTURES = Path(__file__).parent / "fixtures" / "conference"
TINY = FIXTURES / "tinyqa" / "TINY2024.json"


def test_bom_and_crlf_json_imports_with_its_root_as_name():
    assert TINY.read_bytes().startswith(b"\xef\xbb\xbf")
    tree = load_json_tree(TINY)
    assert tree.name == "TINY2024" and tree.root.label == "TINY2024"
    texts = [path.text for path in leaf_paths(tree)]
    assert "TINY2024»Dates»Important Dates»Author rebuttal period ends»March 19, 2024" in texts
    assert len(texts) == 27


def test_odd_nesting_records_lists_of_lists_scalars_and_empties():
    texts = {path.text for path in leaf_paths(load_json_tree(TINY))}
    # a list of records is labelled by each record's title field
    assert "TINY2024»Attend»Registration»Pricing»ACM Members»Virtual»$300" in texts
    assert "TINY2024»Dates»Sessions»Workshops»Start Date»Fri Jul 26th" in texts
    # a list mixing a record and a bare string; a list of lists; paragraphs in a list
    assert "TINY2024»Organization»General Chairs»Alan Turing" in texts
    assert "TINY2024»Organization»Program Chairs»chairs»chairs 2»UT Austin" in texts
    assert "TINY2024»Attend»Child Care»Sign up before June 15." in texts
    # a '/' inside a key stays one heading; numbers become text; null and {} give no path
    assert "TINY2024»Attend»Registration»Cancellation / Refunds»Refunds are possible until July 1, 2024." in texts
    assert "TINY2024»Attendance»1200" in texts
    assert not any("Sponsors" in text or "Notes" in text for text in texts)


def test_several_top_level_keys_hang_under_the_given_name_and_whitespace_is_cleaned():
    tree = tree_from_data({"Dates": {"Deadline": " Jan\u00a031,\r\n 2024 "}, "Venue": ["Lisbon"]}, name="CONF")
    assert [path.text for path in leaf_paths(tree)] == ["CONF»Dates»Deadline»Jan 31, 2024", "CONF»Venue»Lisbon"]
    assert tree_as_data(tree) == {"CONF": {"Dates": {"Deadline": "Jan 31, 2024"}, "Venue": ["Lisbon"]}}


def test_node_paths_and_siblings():
    tree = load_json_tree(TINY)
    virtual = next(leaf for leaf in tree.leaves() if leaf.text == "$300" and leaf.label == "Virtual")
    record = tree.parent(virtual)
    assert node_path_text(tree, record) == "TINY2024»Attend»Registration»Pricing»ACM Members"
    assert {sibling.label for sibling in tree.siblings(virtual)} == {"type", "In person"}


@pytest.mark.parametrize(
    "content, message",
    [
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (b"{}", "no text to answer from"),
    ],
)
def test_bad_json_is_a_one_line_error(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(ConferenceError, match=message):
        load_json_tree(path)


def test_html_page_becomes_a_tree_by_headings():
    tree = tree_from_html((FIXTURES / "site.html").read_text())
    texts = [path.text for path in leaf_paths(tree)]
    assert tree.name == "TinyConf 2024"
    assert "TinyConf 2024»Important Dates»Author rebuttal period ends»March 19, 2024" in texts  # <dl>
    assert "TinyConf 2024»Registration»Fees»table»ACM Members»Virtual»$300" in texts  # <table> with <th>
    assert "TinyConf 2024»Registration»content»Registration opens on February 3." in texts  # inline <b> kept
    assert "TinyConf 2024»Registration»Visa letters»Visa information(url)»https://tiny2024.org/visa" in texts
    assert "TinyConf 2024»Contact»content»Write to chairs@tiny2024.org." in texts
    joined = " ".join(texts)
    assert "not text" not in joined and "color" not in joined and "©" not in joined  # script, style, footer
    assert "Calls" not in joined  # navigation is left out


def test_folder_of_html_pages_makes_one_tree(tmp_path):
    (tmp_path / "index.html").write_text("<title>Home</title><h1>Home</h1><p>Welcome to TinyConf.</p>")
    (tmp_path / "dates.html").write_text("<title>Dates</title><h2>Deadlines</h2><p>Papers due May 1.</p>")
    tree = load_source(str(tmp_path), name="TinyConf")
    assert sorted(path.text for path in leaf_paths(tree)) == [
        "TinyConf»Dates»Deadlines»content»Papers due May 1.",
        "TinyConf»Home»content»Welcome to TinyConf.",
    ]


def test_url_import_says_plainly_when_offline():
    with pytest.raises(ConferenceError, match="network.offline is set"):
        load_source("https://icml.cc/Conferences/2023/Dates", offline=True)
    with pytest.raises(ConferenceError, match=r"cannot fetch http://127\.0\.0\.1:9/.*offline\?"):
        load_source("http://127.0.0.1:9/", timeout_s=2)


def test_url_import_parses_the_fetched_page(monkeypatch):
    import httpx

    page = (FIXTURES / "site.html").read_text()

    def fake_get(url, **kwargs):
        transport = httpx.MockTransport(lambda request: httpx.Response(200, text=page))
        with httpx.Client(transport=transport) as client:
            return client.get(url)

    monkeypatch.setattr(httpx, "get", fake_get)
    tree = load_source("https://tiny2024.org/")
    assert any(path.value == "March 19, 2024" for path in leaf_paths(tree))


def test_a_scrapers_stray_none_after_a_value_is_dropped_but_a_value_none_is_kept():
    """ICML 2023's site data writes 30 rooms as "Ballroom B None" (a missing field joined to the value):
    the answer to "Which room is the GenLaw workshop in?" read "Ballroom B None"."""
    tree = tree_from_data({"Conf2031": {"Workshops": [{"title": "GenLaw", "room": "Ballroom B None"}], "Fee": "None"}})
    texts = {node.label: node.text for node in tree.nodes if node.is_leaf}
    assert texts["room"] == "Ballroom B" and texts["Fee"] == "None"
