"""Fuzzing each importer's record parser: any input ends in a record or a one-line format error.

Two kinds of fuzz, per source (unarXive line, OpenAlex work, OpenAlex author, arXiv entry, BibTeX
entry; `conf import`'s tree and page readers get the second): an exhaustive *type* fuzz (every field of a valid record, in turn, holds a value of every
other JSON type) and a Hypothesis property (random values at random places, and random whole
inputs). The only exception a parser may raise is its own format error, with a message of one
line; the examples are bounded so that the file stays fast.
"""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scholar_tui.core.conference.html_tree import tree_from_html
from scholar_tui.core.conference.tree import ConferenceError, Tree, tree_from_data
from scholar_tui.core.library.arxiv import ArxivFeedError, parse_feed
from scholar_tui.core.library.bibtex import BibtexError, parse_bibtex
from scholar_tui.core.library.openalex import OpenAlexFormatError, parse_author, parse_object, parse_work
from scholar_tui.core.library.unarxive import UnarxiveFormatError, parse_paper
from scholar_tui.indexes.records import PaperRecord, PersonRecord

from .library_support import fixture_path

UNARXIVE_LINE = {
    "paper_id": "2212.11867",
    "metadata": {
        "id": "2212.11867",
        "title": "Zeros of derivatives\n of random polynomials",
        "abstract": "  Let $X$ be. ",
        "authors": "Marcus Michelen, Xuan-Truong Vu",
        "authors_parsed": [["Michelen", "Marcus", ""], ["Vu", "Xuan-Truong", ""]],
        "versions": [{"version": "v1", "created": "Thu, 22 Dec 2022 17:42:37 GMT"}],
        "update_date": "2022-12-23",
        "categories": "math.PR math.CA",
        "journal-ref": None,
        "doi": None,
        "license": "http://creativecommons.org/licenses/by/4.0/",
    },
    "abstract": {"text": "Let $X$ be."},
    "discipline": "Mathematics",
    "body_text": [
        {
            "section": "Introduction",
            "sec_number": "1",
            "sec_type": "section",
            "text": "As shown in {{cite:a1}} with {{formula:f1}} and {{figure:g1}}.",
        },
        {"section": "Notation", "sec_number": "1", "sec_type": "subsection", "text": "See {{cite:b2}} {{table:t1}}."},
        {"section": None, "sec_number": None, "sec_type": None, "text": "Unnumbered."},
    ],
    "bib_entries": {
        "a1": {
            "bib_entry_raw": "A. Author, A paper, 2019, arXiv:1901.00001",
            "contained_arXiv_ids": [{"id": "1901.00001"}],
            "contained_links": [{"url": "https://example.org"}],
            "ids": {
                "open_alex_id": "https://openalex.org/W1",
                "arxiv_id": "1901.00001",
                "doi": "10.1000/x",
                "sem_open_alex_id": "W2",
                "pubmed_id": "",
                "pmc_id": "",
            },
        },
        "b2": {"bib_entry_raw": "B. Author, doi 10.1000/y.", "ids": {}},
    },
    "ref_entries": {"f1": {"latex": "x^2", "type": "formula"}, "g1": {"caption": "A figure", "type": "figure"}},
}
WORK = json.loads(fixture_path("openalex", "work_W9000000001.json").read_text())
AUTHOR = json.loads(fixture_path("openalex", "author_A9000000001.json").read_text())
# One value of every JSON type, plus values that are the right type but the wrong form.
SWAPS: list[Any] = [None, True, 0, -1, 10**30, 1.5, "", "x", "2020-13-45", [], [None], [1], {}, {"a": 1}, {"x": []}]


def paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """Every place in a JSON value (dict keys and list positions), outermost first."""
    if prefix:
        yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from paths(child, (*prefix, index))


def replaced(value: Any, path: tuple, new: Any) -> Any:
    copied = copy.deepcopy(value)
    parent = copied
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = new
    return copied


def outcome(parse: Callable[[Any], Any], allowed: type[Exception], data: Any) -> str | None:
    """None when ``parse`` gives a record or its own one-line error; else what went wrong."""
    try:
        record = parse(data)
    except allowed as error:
        return None if "\n" not in str(error) and str(error) else f"multi-line or empty error: {error!r}"
    except Exception as error:
        return f"{type(error).__name__}: {error}"[:200]
    records = record if isinstance(record, list) else [record]
    if not all(isinstance(item, (PaperRecord, PersonRecord)) for item in records):
        return f"not a record: {record!r}"[:200]
    return None


# -- arXiv entries and BibTeX entries are text: their fuzz puts values into a valid file ------------------
FEED = fixture_path("arxiv", "search_feed.xml").read_text()
ATOM = "{http://www.w3.org/2005/Atom}"
ET.register_namespace("", "http://www.w3.org/2005/Atom")
ET.register_namespace("arxiv", "http://arxiv.org/schemas/atom")
ET.register_namespace("opensearch", "http://a9.com/-/spec/opensearch/1.1/")


def feed_with(element_index: int, text: str | None) -> bytes:
    """The fixture feed with one element of its first entry holding ``text`` (None: removed)."""
    root = ET.fromstring(FEED)
    entry = root.find(f"{ATOM}entry")
    elements = list(entry.iter())[1:]
    target = elements[element_index % len(elements)]
    if text is None:
        for parent in entry.iter():
            if target in list(parent):
                parent.remove(target)
                break
    else:
        target.text = text
        for name in list(target.attrib):
            target.set(name, text)
    return ET.tostring(root)


def arxiv_parse(data: bytes) -> list:
    return parse_feed(data)[0]


def bibtex_parse(text: str) -> list:
    return [record for _, record in parse_bibtex(text)]


BIB = fixture_path("bibtex", "sample.bib").read_text()


def bib_with(field: str, value: str) -> str:
    """A BibTeX entry whose ``field`` holds ``value`` (braces balanced, so it is still one entry)."""
    value = value.replace("{", "").replace("}", "").replace("@", "")
    return f"@article{{key,\n  title = {{A title}},\n  author = {{Doe, Jane}},\n  {field} = {{{value}}},\n}}\n"


BIB_FIELDS = [
    "title",
    "author",
    "year",
    "month",
    "date",
    "eprint",
    "archiveprefix",
    "journal",
    "url",
    "doi",
    "keywords",
    "primaryclass",
    "abstract",
    "note",
    "booktitle",
]
JSON_SOURCES = {
    "unarxive": (UNARXIVE_LINE, parse_paper, UnarxiveFormatError),
    "openalex-work": (WORK, parse_work, OpenAlexFormatError),
    "openalex-author": (AUTHOR, parse_author, OpenAlexFormatError),
}


def type_fuzz(source: str) -> tuple[int, list[str]]:
    """Every field of the seed record holding every value of SWAPS: (mutations, crashes)."""
    seed, parse, allowed = JSON_SOURCES[source]
    crashes, count = [], 0
    for path in paths(seed):
        for swap in SWAPS:
            count += 1
            problem = outcome(parse, allowed, replaced(seed, path, swap))
            if problem:
                crashes.append(f"{'.'.join(map(str, path))} = {swap!r}: {problem}")
    return count, crashes


def text_fuzz(source: str) -> tuple[int, list[str]]:
    texts = ["", " ", "x", "9999", "2020-13-45", "0000-00-00T", "²", "\x1b[2J", "a" * 300, "{", "\\'", "$", "%"]
    crashes, count = [], 0
    if source == "arxiv":
        for index in range(30):
            for text in [*texts, None]:
                count += 1
                problem = outcome(arxiv_parse, ArxivFeedError, feed_with(index, text))
                if problem:
                    crashes.append(f"element {index} = {text!r}: {problem}")
    else:
        for field in BIB_FIELDS:
            for text in texts:
                count += 1
                problem = outcome(bibtex_parse, BibtexError, bib_with(field, text))
                if problem:
                    crashes.append(f"{field} = {text!r}: {problem}")
    return count, crashes


@pytest.mark.parametrize("source", [*JSON_SOURCES, "arxiv", "bibtex"])
def test_every_field_of_every_type_gives_a_record_or_a_one_line_error(source):
    count, crashes = type_fuzz(source) if source in JSON_SOURCES else text_fuzz(source)
    assert count > 100
    assert crashes == [], f"{len(crashes)}/{count} mutations crashed, e.g. {crashes[:3]}"


# -- Hypothesis: random values at random places, and random whole inputs ----------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=10), children, max_size=3),
    max_leaves=8,
)
FUZZ = settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("source", list(JSON_SOURCES))
def test_random_values_in_records(source):
    seed, parse, allowed = JSON_SOURCES[source]
    places = list(paths(seed))

    @FUZZ
    @given(st.lists(st.tuples(st.sampled_from(places), json_values), min_size=1, max_size=3))
    def check(changes):
        data = seed
        for path, value in changes:
            try:
                data = replaced(data, path, value)
            except (KeyError, IndexError, TypeError):
                continue  # an earlier change removed this place
        assert outcome(parse, allowed, data) is None

    check()


@FUZZ
@given(json_values)
def test_any_json_value_is_a_record_or_a_one_line_error(value):
    assert outcome(parse_paper, UnarxiveFormatError, value) is None
    assert outcome(parse_object, OpenAlexFormatError, value) is None
    if isinstance(value, dict):
        assert outcome(parse_work, OpenAlexFormatError, value) is None
        assert outcome(parse_author, OpenAlexFormatError, value) is None


@FUZZ
@given(st.integers(min_value=0, max_value=40), st.none() | st.text(max_size=40))
def test_random_text_in_an_arxiv_entry(index, text):
    assert outcome(arxiv_parse, ArxivFeedError, feed_with(index, text)) is None


@FUZZ
@given(st.sampled_from(BIB_FIELDS), st.text(max_size=60))
def test_random_text_in_a_bibtex_field(field, text):
    assert outcome(bibtex_parse, BibtexError, bib_with(field, text)) is None


@FUZZ
@given(st.text(max_size=200))
def test_random_text_as_a_bibtex_file(text):
    assert outcome(bibtex_parse, BibtexError, BIB[: len(BIB) // 2] + text) is None


# -- `conf import`: a conference tree from any JSON value, a page from any text ------------------------------------
def tree_outcome(read: Callable[[Any, str], Any], data: Any) -> str | None:
    """None when ``read`` gives a conference tree or its own one-line error; else what went wrong."""
    try:
        tree = read(data, "fuzz")
    except ConferenceError as error:
        return None if "\n" not in str(error) and str(error) else f"multi-line or empty error: {error!r}"
    except Exception as error:
        return f"{type(error).__name__}: {error}"[:200]
    return None if isinstance(tree, Tree) else f"not a tree: {tree!r}"[:200]


@FUZZ
@given(json_values)
def test_any_json_value_is_a_conference_tree_or_a_one_line_error(value):
    assert tree_outcome(tree_from_data, value) is None


@FUZZ
@given(
    st.text(max_size=200)
    | st.builds(
        "<h1>{}</h1><p>{}</p><h2>{}</h2>".format, st.text(max_size=40), st.text(max_size=40), st.text(max_size=40)
    )
)
def test_any_text_is_a_conference_page_or_a_one_line_error(text):
    assert tree_outcome(tree_from_html, text) is None


if __name__ == "__main__":  # crash counts for the report: python -m tests.test_importer_fuzz
    for name in [*JSON_SOURCES, "arxiv", "bibtex"]:
        total, found = type_fuzz(name) if name in JSON_SOURCES else text_fuzz(name)
        print(f"{name:16} {len(found):4}/{total} mutations crashed" + (f"  e.g. {found[0]}" if found else ""))
