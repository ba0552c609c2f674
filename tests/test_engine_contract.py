"""The one engine contract (core/events.py), the same for the four engines: ``open_<engine>(services,
**options)`` opens it as a context manager, a request is a generator that takes ``cancel``, setting
``cancel`` mid-stream stops the stream at the engine's next step, and leaving the ``with`` closes
what the factory opened (checked on the resources themselves: connections, the sandbox's worker, the
index that was never written)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from scholar_tui.config.settings import load_settings
from scholar_tui.core.autofeedback import open_autofeedback
from scholar_tui.core.conference.describe import StructuralDescriber
from scholar_tui.core.conference.engine import ConferenceEngine, open_conference
from scholar_tui.core.conference.events import Answered, DescribeProgress, EvidenceFound, IndexBuilt
from scholar_tui.core.conference.tree import load_json_tree
from scholar_tui.core.events import FeedbackFinished, FeedbackRound
from scholar_tui.core.pasa.events import CrawlFinished, CrawlStarted
from scholar_tui.core.pasa.factory import open_pasa
from scholar_tui.core.services import Services
from scholar_tui.core.soay import open_soay
from scholar_tui.core.soay.engine import Failed, Finished, ProgramRan, ProgramWritten
from scholar_tui.indexes import conference_vectors
from scholar_tui.indexes.library import Library

from .conftest import ScriptedLLM
from .library_support import HashingEmbedder, one_scholar_library
from .pasa_support import RoutedLLM

TINY = Path(__file__).parent / "fixtures" / "conference" / "tinyqa" / "TINY2024.json"


class TrackedServices(Services):
    """Services over fakes that remember every library connection handed out."""

    def __init__(self, where, llm=None) -> None:
        embedder = HashingEmbedder()
        super().__init__(
            where,
            load_settings(where),
            llm_factory=lambda settings, where: llm or ScriptedLLM(),
            embedder_factory=lambda settings: embedder,
        )
        self.opened: list[Library] = []

    def library(self) -> Library:
        library = super().library()
        self.opened.append(library)
        return library


def is_closed(connection: sqlite3.Connection) -> bool:
    try:
        connection.execute("select 1")
    except sqlite3.ProgrammingError:  # "Cannot operate on a closed database."
        return True
    return False


def test_pasa_stops_when_cancelled_mid_crawl_and_closes_its_library(where, mini_library):
    llm = RoutedLLM(search=["[Search] graph neural networks [Stop]"], expand=["[Expand] 2 Related Work [Stop]"])
    services = TrackedServices(where, llm)
    cancel = threading.Event()
    with open_pasa(services, online=False, feedback=False) as engine:
        events = []
        for event in engine.run("graph neural networks", cancel=cancel):
            events.append(event)
            if isinstance(event, CrawlStarted):
                cancel.set()  # mid-stream: after the run started, before any model call
        assert (services.opened, engine.closed) == ([engine.library], False)
    finished = events[-1]
    assert isinstance(finished, CrawlFinished)
    assert finished.cancelled and finished.stop_reason == "cancelled" and finished.actions == 0
    assert llm.history == []  # no Crawler session, no Selector judgement after cancel
    assert engine.closed and is_closed(engine.library.conn)
    assert not is_closed(mini_library.conn)  # a library handed in stays the caller's


def test_soay_stops_when_cancelled_after_linking_and_closes_library_and_sandbox(where):
    one_scholar_library(where)
    services = TrackedServices(where)
    cancel = threading.Event()
    with open_soay(services, feedback=True) as engine:
        events = []
        for event in engine.run("Who did Ada Lovelace work with?", cancel=cancel):
            events.append(event)
            cancel.set()  # after the first event (the linked scholar)
        library, log = services.opened[0], engine.feedback.log
    assert events[0].kind == "entity_linked"
    assert not any(isinstance(event, ProgramWritten | ProgramRan) for event in events)  # nothing ran
    assert isinstance(events[-2], Failed) and events[-2].stage == "cancelled"
    assert isinstance(events[-1], Finished) and not events[-1].answer.ok
    assert engine.closed and is_closed(library.conn) and is_closed(log.db.conn)
    assert engine.sandbox._process is None  # no worker process left behind
    assert not services.llm_loaded  # the LLM is the services' to load, and nothing asked for it


def test_conference_build_cancelled_mid_describe_writes_no_index(where):
    services = TrackedServices(where)
    cancel = threading.Event()
    with open_conference(services) as engine:
        events = []
        for event in engine.build(load_json_tree(TINY), "tiny", StructuralDescriber(), cancel=cancel):
            events.append(event)
            if isinstance(event, DescribeProgress):
                cancel.set()
    assert any(isinstance(event, DescribeProgress) for event in events)
    assert not any(isinstance(event, IndexBuilt) for event in events)
    assert conference_vectors.load_paths(where, "TINY2024") is None  # nothing indexed
    assert engine.closed


def test_conference_ask_cancelled_after_the_evidence_never_asks_the_model(where):
    list(ConferenceEngine(where, HashingEmbedder()).build(load_json_tree(TINY), "tiny", StructuralDescriber()))
    llm = ScriptedLLM("1")
    services = TrackedServices(where, llm)
    cancel = threading.Event()
    with open_conference(services, answer_mode="generate") as engine:
        events = []
        for event in engine.ask("TINY2024", "Where is the conference held?", cancel=cancel):
            events.append(event)
            cancel.set()
        assert engine.retriever("TINY2024") is not None  # the conference's search table is held open
    assert [type(event) for event in events] == [EvidenceFound]
    assert not any(isinstance(event, Answered) for event in events)
    assert not services.llm_loaded and llm.history == []
    assert engine.closed and engine._retrievers == {}  # the tables it held are let go


def test_autofeedback_loop_stops_when_cancelled_and_closes_its_log(where):
    services = TrackedServices(where)
    cancel = threading.Event()
    generated: list[int] = []

    def generate(history):
        generated.append(len(history))
        return '<<API>>getCoauthor(person_id="person:1")<</API>>'  # an API name error (E2): fed back, regenerated

    def execute(text):
        raise AssertionError("a cancelled loop sends nothing")

    with open_autofeedback(services, source="test") as engine:
        events = []
        stream = engine.events("Who are the coauthors of person:1?", generate, execute, cancel=cancel)
        for event in stream:
            events.append(event)
            cancel.set()  # after the first round
        log = engine.log
        loop = log.loop(events[0].loop_id)
        sent = list(engine.send('<<API>>searchPerson(name="Ada")<</API>>', cancel=cancel))
    assert [type(event) for event in events] == [FeedbackRound, FeedbackFinished]
    assert events[0].sub_type.startswith("E2") and events[-1].status == "cancelled"
    assert generated == [0]  # no regeneration after cancel
    assert loop["status"] == "failed"  # the log says it ended, not "running"
    assert sent == []  # a request sent with cancel already set does nothing
    assert engine.closed and is_closed(log.db.conn)


@pytest.mark.parametrize("opener", [open_pasa, open_soay, open_conference, open_autofeedback])
def test_every_factory_takes_the_services_first(opener, where):
    import inspect

    parameters = list(inspect.signature(opener).parameters.values())
    assert parameters[0].name == "services"
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY or p.kind is p.VAR_KEYWORD for p in parameters[1:])


# -- flows both front ends take, once --------------------------------------------------------------
def test_conf_ask_opens_one_engine_and_reads_the_conference_row_once(where, monkeypatch):
    from click.testing import CliRunner

    from scholar_tui.app.cli import cli
    from scholar_tui.indexes.conference_store import ConferenceStore

    embedder = HashingEmbedder()
    monkeypatch.setattr("scholar_tui.models.load_embedder", lambda settings: embedder)
    list(ConferenceEngine(where, embedder).build(load_json_tree(TINY), "tiny", StructuralDescriber()))
    reads, opened = [], []
    rows = ConferenceStore.conferences
    monkeypatch.setattr(ConferenceStore, "conferences", lambda self: reads.append(1) or rows(self))
    init = ConferenceEngine.__init__
    monkeypatch.setattr(ConferenceEngine, "__init__", lambda self, *a, **k: opened.append(1) or init(self, *a, **k))
    result = CliRunner().invoke(cli, ["conf", "ask", "TINY2024", "When does the author rebuttal period end?"])
    assert result.exit_code == 0 and "March 19, 2024" in result.output
    assert (len(opened), len(reads)) == (1, 1)


def test_feedback_send_parses_its_text_once(where, monkeypatch):
    from click.testing import CliRunner

    from scholar_tui.app.cli import cli
    from scholar_tui.core.autofeedback import dynamic, human, registry, request_parser

    one_scholar_library(where)
    parses = []

    def counted(*args, **kwargs):
        parses.append(args[0])
        return request_parser.parse_request(*args, **kwargs)

    for module in (human, dynamic, registry):  # every module that reads a request's text
        monkeypatch.setattr(module, "parse_request", counted)
    result = CliRunner().invoke(cli, ["feedback", "send", 'searchPerson(name="Lovelace")'])
    assert result.exit_code == 0 and "Ada Lovelace" in result.output
    assert parses == ['searchPerson(name="Lovelace")']


def test_the_answer_mode_follows_the_active_model_for_pane_and_cli_alike(where):
    services = TrackedServices(where)
    assert open_conference(services).answer_mode == "computed"  # the bundled model: computed answers
    services.settings = services.settings.model_copy(
        update={"llm": services.settings.llm.model_copy(update={"model": "http://localhost:8080/v1"})}
    )
    assert open_conference(services).answer_mode == "generate"
    assert open_conference(services, answer_mode="computed").answer_mode == "computed"  # --answerer computed


def test_the_active_model_is_listed_once_for_models_list_and_the_settings_tab(where):
    from scholar_tui.core.model_choice import listed_models, use_model
    from scholar_tui.models.registry import DEFAULT_EMBEDDING, DEFAULT_LLM, ModelNotFound

    services = TrackedServices(where)
    roles = {row.name: row.active_as for row in listed_models(where, services.settings) if row.active_as}
    assert roles == {DEFAULT_LLM: "llm", DEFAULT_EMBEDDING: "embeddings"}
    with pytest.raises(ModelNotFound, match="is an embedding model; choose an LLM"):
        use_model(services, DEFAULT_EMBEDDING)
    use_model(services, "http://localhost:8080/v1")
    listed = listed_models(where, services.settings)
    assert [row.name for row in listed if row.active_as == "llm"] == ["http://localhost:8080/v1"]  # the endpoint too
    assert load_settings(where).llm.model == "http://localhost:8080/v1"
