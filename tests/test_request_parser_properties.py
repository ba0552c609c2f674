"""Property tests (issue 17): any text ends in a parsed request/program or a one-line refusal.

The inputs mix arbitrary text (lone surrogates and NUL bytes included) with request-shaped text
broken on purpose: API names, keywords, quotes, tags and operators spliced at random, runs of a
fragment thousands long (``+1`` × 3000, ``-`` × 100,000, ``f(`` × 2000), and Python's escapes.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scholar_tui.core.autofeedback.request_parser import ParsedRequest, RequestSyntaxError, parse_request, program_calls
from scholar_tui.core.autofeedback.retriever import APIRetriever
from scholar_tui.core.autofeedback.static import StaticFinding, StaticScanner
from scholar_tui.core.sandbox import check_program

from .library_support import HashingEmbedder

FUZZ = settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

ANY_CHARACTER = st.characters(exclude_categories=())  # surrogates and control characters too
FRAGMENTS = [
    "<<API>>",
    "<</API>>",
    "searchPerson",
    "getCoauthors",
    "getPublication",
    "search_person",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "name=",
    "person_id=",
    "pub_id=",
    "=",
    ",",
    " ",
    "\n",
    "'",
    '"',
    '"""',
    "\\",
    "\\u",
    "\\ud800",
    "\\x",
    "\udcff",
    "\ud800",
    "\x00",
    "1",
    "-1",
    "1e999",
    "0x",
    "+",
    "-",
    "*",
    "**",
    "**kw",
    "*args",
    ":",
    ";",
    "lambda",
    "lambda x: x",
    "import os",
    "__import__",
    ".__class__",
    "class A:",
    "    ",
    "if",
    "for x in y:",
    "result = ",
    "x",
    "None",
    "True",
    "#",
    "é",
    "名前",
    "\u202e",
    "\t",
    "\r",
    "\x0c",
    "f'{",
    "}'",
    "b'",
    "...",
]
REPEATED = st.tuples(
    st.sampled_from(["+1", "-", "(", "[", "f(", "not ", "x.", "name=", "'", "\\"]),
    st.integers(min_value=100, max_value=5000),
).map(lambda pair: pair[0] * pair[1])
SPLICED = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.text(ANY_CHARACTER, max_size=5), REPEATED), max_size=12
).map("".join)
KNOWN_BAD = ["x = 1" + "+1" * 3000, "x = " + "-" * 100_000 + "1", 'x = "\udcff"', "searchPerson(name='x', name='y')"]


def known_bad(argument: str, **others):
    """The issue's inputs always run, whatever the random draw."""

    def decorate(test):
        for text in KNOWN_BAD:
            test = example(**{argument: text}, **others)(test)
        return test

    return decorate


TEXTS = st.one_of(
    st.text(ANY_CHARACTER, max_size=200),
    SPLICED,
    SPLICED.map(lambda inner: f"<<API>>searchPerson({inner})<</API>>"),
    SPLICED.map(lambda inner: f"result = searchPerson(name={inner})"),
)


@pytest.fixture(scope="module")
def scanner() -> StaticScanner:
    return StaticScanner(APIRetriever(HashingEmbedder()))


def one_line(error: Exception) -> bool:
    message = str(error)
    return bool(message) and "\n" not in message


@FUZZ
@given(text=TEXTS, tags=st.booleans())
@known_bad("text", tags=False)
def test_parse_request_reads_a_request_or_says_why_in_one_line(text, tags):
    try:
        request = parse_request(text, require_tags=tags)
    except RequestSyntaxError as error:
        assert one_line(error), repr(str(error))
    else:
        assert isinstance(request, ParsedRequest) and request.api
        names = [argument.name for argument in request.arguments if argument.name]
        assert len(names) == len(set(names)), "a keyword given twice was read"


@FUZZ
@given(source=TEXTS)
@known_bad("source")
def test_program_calls_reads_calls_or_says_why_in_one_line(source):
    try:
        calls = program_calls(source)
    except RequestSyntaxError as error:
        assert one_line(error), repr(str(error))
    else:
        assert all(isinstance(call, ParsedRequest) for call in calls)


@FUZZ
@given(source=TEXTS)
@known_bad("source")
def test_check_program_returns_short_one_line_refusals(source):
    problems = check_program(source, {"searchPerson", "getCoauthors"})
    assert isinstance(problems, list) and len(problems) <= 11
    for problem in problems:
        assert "\n" not in problem and len(problem) <= 200
        problem.encode("utf-8")  # a refusal can always be printed


@FUZZ
@given(text=TEXTS)
@known_bad("text")
def test_the_static_scan_of_any_text_is_findings_not_exceptions(scanner, text):
    finding = scanner.scan_request(text, "Who are the coauthors of Ada Lovelace?")
    assert finding is None or isinstance(finding, StaticFinding) and finding.feedback
    findings = scanner.scan_program(text, "Who are the coauthors of Ada Lovelace?")
    assert all(isinstance(found, StaticFinding) and found.feedback for found in findings)


@pytest.mark.parametrize(
    "text",
    [
        "<<API>>searchPerson(name=1" + "+1" * 3000 + ")<</API>>",
        "<<API>>searchPerson(name=" + "-" * 100_000 + "1)<</API>>",
        '<<API>>searchPerson(name="\udcff")<</API>>',
        '<<API>>searchPerson(name="x", name="y")<</API>>',
        "<<API>>" + "a." * 5000 + "b()<</API>>",
    ],
)
def test_the_issue_17_requests_are_one_line_e1(scanner, text):
    finding = scanner.scan_request(text, "Who is Ada Lovelace?")
    assert finding is not None and finding.sub_type == "E1" and "\n" not in finding.detail


@pytest.mark.parametrize(
    "source, says",
    [
        ("class A:\n    pass\nresult = searchPerson(name='Ada')", "line 1: ClassDef is not allowed"),
        ("result = searchPerson(name='Ada').__class__", "line 1: the attribute '__class__' is not allowed"),
        (
            "people = searchPerson(name='Ada')\nresult = getCoauthors(person_id=someone)",
            "line 2: unknown name 'someone'",
        ),
        ("result = searchPerson(name='x', name='y')", "the keyword argument name is given twice"),
    ],
)
def test_the_program_scan_refuses_what_the_sandbox_refuses(scanner, source, says):
    findings = scanner.scan_program(source, "Who is Ada Lovelace?")
    assert findings[0].sub_type == "E1" and says in findings[0].detail, findings[0].detail


def test_a_misspelt_api_in_a_program_is_still_named_e2_not_refused(scanner):
    findings = scanner.scan_program("result = search_person(name='Ada')", "Who is Ada Lovelace?")
    assert [finding.sub_type for finding in findings] == ["E2.2"]


@pytest.mark.parametrize(
    "text", ["<<API>>searchPerson(name=1if 2 else 3)<</API>>", "<<API>>getPublication(0x1for)<</API>>"]
)
def test_reading_a_request_prints_no_python_warning(text, recwarn):
    """`1if` parses with a SyntaxWarning ("invalid decimal literal") that Python prints to the
    person's terminal as a stray line: reading a request or a program keeps it quiet."""
    import warnings

    warnings.simplefilter("always")
    try:
        parse_request(text)
    except RequestSyntaxError:
        pass
    check_program("x = 1if 1 else 2\nresult = x")
    assert not [warning for warning in recwarn if issubclass(warning.category, SyntaxWarning)]
