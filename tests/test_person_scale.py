"""Person questions that do not grow with the library (#28): searchPerson by organisation or interest,
a person's counts and categories, their coauthors, and the sandbox's cost for a long API result.

The guards fail if a lookup goes back to reading every person (``people_names`` refuses to run and
``person`` counts its calls) or every paper of a person (the counts come from one row kept by the
triggers of migration m014: SQLite's steps are the same for a person with one paper and one with
hundreds), or if the coauthor query scans a table instead of searching its indexes.
"""

from __future__ import annotations

import json
import random

import pytest

from scholar_tui.core.library import api_backends, person_topics
from scholar_tui.core.library.api_backends import SEARCH_LIMIT, LocalBackend, _rank_people
from scholar_tui.core.sandbox import Limits, Sandbox
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.records import AuthorRecord, PaperRecord

ORGANISATIONS = [
    "Institute for Aperiodic Order, Lyon",
    "Department of Hyperbolic Geometry, Kraków University",
    "Laboratoire de Physique Théorique, Orsay",
    "Quantum Materials Group, Københavns Universitet",
    "Centre for Tilings and Quasicrystals",
]
CATEGORIES = ["math.MG", "math.CO", "cond-mat.mtrl-sci", "hep-th", "cs.LG", "q-bio.NC", "Crystallography"]
FIRST = ["Ada", "Boris", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hugo", "Ines", "Jonas"]
LAST = ["Quistorp", "Marek", "Ostwald", "Lindqvist", "Varga", "Nakamura", "Okafor", "Brandt", "Sousa", "Ilves"]


def _records(papers: int, seed: int = 3) -> list[PaperRecord]:
    rng = random.Random(seed)
    people = [(f"{first} {last}", rng.choice(ORGANISATIONS + [None])) for first in FIRST for last in LAST]
    records = []
    for number in range(papers):
        authors = rng.sample(people[:5], 1) + rng.sample(people, rng.randint(0, 3))  # the first five write most
        unique = {name: organisation for name, organisation in authors}
        records.append(
            PaperRecord(
                f"Paper {number} on tilings of the plane",
                "bibtex",
                authors=[AuthorRecord(name, affiliation=organisation) for name, organisation in unique.items()],
                categories=rng.sample(CATEGORIES, rng.randint(0, 2)),
                cited_by_count=rng.choice([None, rng.randint(0, 50)]),
            )
        )
    return records


@pytest.fixture
def library(empty_library: Library) -> Library:
    with empty_library.transaction():
        for record in _records(600):
            empty_library.store_paper(record)
    return empty_library


def _person_counts_from_papers(library: Library) -> tuple[dict, dict]:
    """What the kept counts must equal: every authorship's paper read again."""
    stats: dict[int, tuple[int, int | None]] = {}
    categories: dict[int, dict[str, int]] = {}
    rows = library.conn.execute(
        "select a.person_id, p.cited_by_count, p.categories from authorships a join papers p on p.id = a.paper_id"
    )
    for person_id, cited, codes in rows:
        papers, total = stats.get(person_id, (0, None))
        stats[person_id] = (papers + 1, total if cited is None else (total or 0) + cited)
        for code in json.loads(codes) if codes else []:
            categories.setdefault(person_id, {})[code] = categories.setdefault(person_id, {}).get(code, 0) + 1
    ranked = {
        person_id: sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        for person_id, counts in categories.items()
    }
    return stats, ranked


def _kept_counts(library: Library) -> tuple[dict, dict]:
    people = [person_id for (person_id,) in library.conn.execute("select id from people")]
    stats = library.people_paper_counts(people)
    categories = {person_id: library.person_categories(person_id) for person_id in people}
    return (
        {person_id: counts for person_id, counts in stats.items() if counts[0]},
        {person_id: ranked for person_id, ranked in categories.items() if ranked},
    )


def test_person_counts_follow_every_change_of_the_library(library):
    assert _kept_counts(library) == _person_counts_from_papers(library)
    people = {row["name"]: row["person_id"] for row in library.name_candidates("Quistorp Marek")}
    with library.transaction():
        library.conn.execute("update papers set cited_by_count = 7 where id % 5 = 0")
        library.conn.execute("update papers set cited_by_count = null where id % 7 = 0")
        library.conn.execute("""update papers set categories = '["hep-th", "hep-th", "math.CO"]' where id % 11 = 0""")
        library.conn.execute("update papers set categories = null where id % 13 = 0")
        library.conn.execute("delete from papers where id % 17 = 0")
        library.conn.execute("delete from authorships where paper_id % 19 = 0 and position = 2")
        merge = library.merge_people(people["Ada Quistorp"], people["Ada Marek"], "test")
    assert _kept_counts(library) == _person_counts_from_papers(library)
    with library.transaction():
        library.split_merge(merge)
    assert _kept_counts(library) == _person_counts_from_papers(library)


def _vm_steps(library: Library, action) -> int:
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    library.conn.set_progress_handler(count, 1)
    try:
        action()
    finally:
        library.conn.set_progress_handler(None, 0)
    return steps[0]


def test_a_prolific_persons_counts_cost_what_a_newcomers_do(library):
    prolific, papers = library.conn.execute(
        "select person_id, count(*) from authorships group by person_id order by 2 desc limit 1"
    ).fetchone()
    newcomer = library.conn.execute(
        "select person_id from authorships group by person_id order by count(*), person_id limit 1"
    ).fetchone()[0]
    assert papers >= 100
    for read in (lambda person: library.people_paper_counts([person]), library.person_categories):
        assert _vm_steps(library, lambda: read(prolific)) < 3 * _vm_steps(library, lambda: read(newcomer)) + 50


def test_the_coauthor_query_searches_indexes_and_scans_no_table(library):
    person_id = library.conn.execute("select person_id from authorships limit 1").fetchone()[0]
    import scholar_tui.indexes.people_store as people_store

    plans = []
    original = library.conn

    class Explaining:
        def execute(self, sql, parameters=()):
            plans.extend(row[3] for row in original.execute("explain query plan " + sql, parameters))
            return original.execute(sql, parameters)

        def __getattr__(self, name):
            return getattr(original, name)

    library.conn = Explaining()  # type: ignore[assignment]
    try:
        coauthors = library.coauthors(person_id)
    finally:
        library.conn = original
    assert coauthors and people_store  # the query ran and found coauthors
    scans = [step for step in plans if step.startswith("SCAN") and "joint" not in step]
    assert not scans, plans
    assert any("authorships_person_paper" in step for step in plans), plans


@pytest.fixture
def refuse_everyone(monkeypatch):
    """Reading every person's names fails the test; the people whose rows are read are counted."""

    def refuse(*_args, **_kwargs):
        raise AssertionError("searchPerson read every person of the library")

    monkeypatch.setattr(Library, "people_names", refuse)
    read: list[int] = []
    people = Library.people

    def counted(self, person_ids):
        read.extend(person_ids)
        return people(self, person_ids)

    monkeypatch.setattr(Library, "people", counted)
    return read


class EveryoneIsACandidate(LocalBackend):
    """The ranking as it was: every person of the library scored (what the index must agree with)."""

    def _by_topic(self, organization, interest):
        everyone = {person_id: [] for (person_id,) in self.library.conn.execute("select id from people")}
        entries = self._entries(everyone, interest)
        return _rank_people(entries, None, organization, interest, lambda entry: entry["interests"]())[:SEARCH_LIMIT]


QUERIES = [
    {"organization": "Kraków University"},
    {"organization": "Krakow Univ"},  # no accent, a prefix
    {"organization": "Kobenhavns"},  # ø folded to o
    {"organization": "Insitute Aperiodic"},  # misspelled
    {"interest": "hep-th"},
    {"interest": "Combinatorics"},  # a category's name: the interests the library derives
    {"interest": "machine learn"},
    {"interest": "crystallography"},  # an OpenAlex topic kept as it is
    {"organization": "Orsay", "interest": "High Energy Physics"},
    {"organization": "Nowhere Polytechnic"},
]


def test_search_by_organisation_or_interest_reads_only_the_people_an_index_finds(library, refuse_everyone):
    everyone = library.conn.execute("select count(*) from people").fetchone()[0]
    api = LocalBackend(library)
    for query in QUERIES:
        refuse_everyone.clear()
        api.searchPerson(**query)
        assert len(set(refuse_everyone)) < everyone, query  # the people some indexed word finds
    refuse_everyone.clear()
    hits = api.searchPerson(organization="Kraków University")
    at_a_university = {  # 'university' also reads like 'Universitet' (Københavns): those are candidates too
        person_id
        for (person_id,) in library.conn.execute(
            "select id from people where organizations like '%Krak%' or organizations like '%Universit%'"
        )
    }
    assert hits and set(refuse_everyone) <= at_a_university  # nobody else is even read
    refuse_everyone.clear()
    assert api.searchPerson(organization="Nowhere Polytechnic") == [] and refuse_everyone == []


def test_search_by_organisation_or_interest_ranks_as_scoring_everyone_does(library):
    for query in QUERIES:
        assert LocalBackend(library).searchPerson(**query) == EveryoneIsACandidate(library).searchPerson(**query), query


@pytest.fixture(params=["as shipped", "in rank order", "by bound", "in rank order, then by bound"])
def way(request, monkeypatch):
    """Which of person_topics' two exact ways ranks a search without a name: as the library size
    chooses, the people holding a matching word in rank order (however few), every candidate by
    bound, or the first giving up."""
    if request.param == "as shipped":
        return request.param
    few = {"in rank order": -1, "by bound": 10**9, "in rank order, then by bound": -1}[request.param]
    monkeypatch.setattr(api_backends, "FEW_HOLDERS", few)
    if request.param.endswith("then by bound"):
        monkeypatch.setattr(person_topics, "RANK_ORDER_BUDGET", 1)
    return request.param


def test_stated_interests_rank_as_scoring_everyone_does(library, way):
    """The bounds hold for interests a source states (a person's whole text, no category counted)
    as for those the library derives, whichever way ranks them."""
    stated = ['["Quasicrystals", "Aperiodic tilings"]', '["Machine Learning Theory"]', '["Hyperbolic geometry"]']
    with library.transaction():
        for index, (person_id,) in enumerate(library.conn.execute("select id from people where id % 3 = 0").fetchall()):
            library.conn.execute("update people set interests = ? where id = ?", (stated[index % 3], person_id))
    queries = [
        *QUERIES,
        {"interest": "quasicrystal tilings"},
        {"interest": "geometry"},
        {"interest": "learning theory"},
    ]
    queries += [{"interest": "Combinatorics crystallography"}, {"organization": "University", "interest": "geometry"}]
    for query in queries:
        assert LocalBackend(library).searchPerson(**query) == EveryoneIsACandidate(library).searchPerson(**query), query


def _store_quantum_physicists(library, *, cited: bool) -> None:
    """Three hundred people with a paper each in quant-ph (some also in other categories), with citation
    counts when ``cited``."""
    rng = random.Random(5)
    with library.transaction():
        for number in range(300):
            library.store_paper(
                PaperRecord(
                    f"Entanglement witness number {number}",
                    "bibtex",
                    authors=[AuthorRecord(f"{rng.choice(FIRST)} {rng.choice(LAST)}{number}")],
                    categories=["quant-ph", *rng.sample(CATEGORIES, rng.randint(0, 2))],
                    cited_by_count=rng.randint(0, 40) if cited else None,
                )
            )


@pytest.mark.parametrize("cited", [False, True])
def test_a_common_interest_scores_the_top_people_not_everyone_who_matches(empty_library, refuse_everyone, cited, way):
    """Three hundred people work on quantum physics (their papers are in quant-ph): the ten best are
    found by scoring a few dozen of them, in the order that ranks equal scores (by name when nobody
    has citations, most cited first when they have), never all three hundred (#28)."""
    _store_quantum_physicists(empty_library, cited=cited)
    hits = LocalBackend(empty_library).searchPerson(interest="quantum physics")
    assert len(set(refuse_everyone)) <= 3 * SEARCH_LIMIT
    assert len(hits) == SEARCH_LIMIT
    assert hits == EveryoneIsACandidate(empty_library).searchPerson(interest="quantum physics")


def test_the_topic_index_follows_a_persons_new_organisation(library):
    api = LocalBackend(library)
    with library.transaction():
        library.store_paper(
            PaperRecord(
                "A paper from a new place",
                "bibtex",
                authors=[AuthorRecord("Zelda Quimby", affiliation="Vesalius Polytechnic")],
            )
        )
    assert [hit["name"] for hit in api.searchPerson(organization="Vesalius Polytechnic")] == ["Zelda Quimby"]
    with library.transaction():
        library.conn.execute(
            "update people set organization = 'Elsewhere', organizations = '[]' where name = 'Zelda Quimby'"
        )
    assert api.searchPerson(organization="Vesalius Polytechnic") == []


# -- the sandbox -------------------------------------------------------------------------------------
def test_api_calls_run_untraced_and_the_program_is_still_counted():
    with Sandbox("tests.sandbox_apis:tracing", limits=Limits(time_s=10.0, steps=1000)) as box:
        result = box.run("inside = isTraced()\nresult = inside")
        assert result.ok and result.value is False  # the line counter was off during the call
        endless = box.run("x = isTraced()\nwhile True:\n    x = isTraced()")
        assert not endless.ok and endless.error_kind == "steps"  # and on again after it


def test_a_long_api_result_is_walked_once(monkeypatch):
    from scholar_tui.core import sandbox_worker
    from tests.sandbox_apis import many

    walked = [0]
    plain = sandbox_worker.plain

    def counted(*args, **kwargs):
        walked[0] += 1
        return plain(*args, **kwargs)

    monkeypatch.setattr(sandbox_worker, "plain", counted)
    reply = sandbox_worker.run_program("result = len(getMany())", many(3000), 1000, 1000)
    text = sandbox_worker.encode_reply(reply, 4_000_000)
    items = 3000 * (1 + 2 * 3)  # each record, its three keys and three values
    assert walked[0] < 1.3 * items, walked[0]
    decoded = json.loads(text)
    assert decoded["value"] == 3000 and len(decoded["calls"][0]["result"]) == 3000
    assert set(decoded["calls"][0]) == {"name", "arguments", "ok", "result", "duration_s"}
    too_large = json.loads(sandbox_worker.encode_reply(reply, 50_000))  # its copy is still charged
    assert too_large["error_kind"] == "output" and "result" not in too_large["calls"][0]


def test_a_prestarted_worker_serves_the_first_run_and_is_closed_unused():
    box = Sandbox("tests.sandbox_apis:make", limits=Limits(time_s=10.0))
    box.prestart()
    starting = box._starting
    assert starting is not None
    box.prestart()  # idempotent: still the one worker
    assert box._starting is starting
    assert box.run("result = len(searchPerson(name='Ada'))").value == 1
    box.close()
    unused = Sandbox("tests.sandbox_apis:make")
    unused.prestart()
    worker = unused._starting
    unused.close()
    assert worker is not None and worker.poll() is not None  # never left running


def test_an_answer_names_the_first_coauthors_and_counts_them_all():
    from scholar_tui.core.soay.phrasing import LISTED, render_value

    names = [f"Person {n}" for n in range(LISTED + 70)]
    text = render_value(names)
    assert text.startswith("Person 0, Person 1") and f"Person {LISTED - 1} and 70 more" in text
    assert f"({LISTED + 70} in all)" in text and f"Person {LISTED}," not in text
    assert render_value(names[:3]) == "Person 0, Person 1, Person 2"


def test_the_sandbox_worker_starts_without_numpy(tmp_path):
    import subprocess
    import sys

    program = (
        "import sys\n"
        "from scholar_tui.core.library.sandbox_apis import academic_functions\n"
        "functions = academic_functions('local', *sys.argv[1:])\n"
        "print(sorted(functions) and 'numpy' in sys.modules)\n"
    )
    folders = [str(tmp_path / name) for name in ("config", "data", "cache", "log")]
    done = subprocess.run([sys.executable, "-c", program, *folders], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_open_soay_starts_its_worker_at_once_and_leaves_none_behind(where, settings, monkeypatch):
    from scholar_tui.core.services import Services
    from scholar_tui.core.soay import NothingToAsk, engine, open_soay

    made: list[Sandbox] = []
    program_sandbox = engine.program_sandbox

    def recorded(backend: str = "local") -> Sandbox:
        made.append(program_sandbox(backend))
        return made[-1]

    monkeypatch.setattr(engine, "program_sandbox", recorded)
    services = Services(where, settings)
    with pytest.raises(NothingToAsk):  # an empty library: said before anything runs
        open_soay(services)
    assert made[0]._starting is None and made[0]._process is None  # its worker was stopped
    library = Library.open(where)
    with library.transaction():
        library.store_paper(PaperRecord("On tilings", "bibtex", authors=[AuthorRecord("Ada Quistorp")]))
    library.close()
    with open_soay(services, feedback=False) as opened:
        worker = made[1]._starting
        assert worker is not None  # started before the library opened, before any question
        answer = [event for event in opened.run("Who wrote the paper On tilings?")][-1].answer
        assert answer.ok and "Ada Quistorp" in answer.answer
    assert worker.poll() is not None


def test_the_ranking_by_bound_after_the_walk_gave_up_reads_nobody_twice(empty_library, refuse_everyone, monkeypatch):
    """The walk in rank order gives up after a batch (RANK_ORDER_BUDGET 1): the ranking by bound that
    follows reuses the scores the walk made; each person's row is read once, the hits are the same."""
    monkeypatch.setattr(api_backends, "FEW_HOLDERS", -1)
    monkeypatch.setattr(person_topics, "RANK_ORDER_BUDGET", 1)
    monkeypatch.setattr(person_topics, "_before_anybody_unread", lambda *args: False)  # never certain: it gives up
    _store_quantum_physicists(empty_library, cited=True)
    hits = LocalBackend(empty_library).searchPerson(interest="quantum physics")
    read = list(refuse_everyone)
    assert read and len(read) == len(set(read)), sorted(person for person in set(read) if read.count(person) > 1)
    assert hits == EveryoneIsACandidate(empty_library).searchPerson(interest="quantum physics")
