"""The library-backed CrawlerEnvironment that PPO runs over (``--environment library``)."""

from __future__ import annotations

import pytest

from scholar_tui.core.pasa.prompts import CrawlerAction
from scholar_tui.core.pasa.queries import AnswerPaper, ScholarQuery, write_queries
from scholar_tui.training.crawler_env import count_relevant, make_environment
from scholar_tui.training.crawler_env_library import LibraryCrawlerEnvironment
from scholar_tui.training.errors import TrainingError

from .library_support import HashingEmbedder
from .pasa_support import GNN, paper_id

QUERY = "Which papers study graph neural networks?"


def environment(where, library) -> LibraryCrawlerEnvironment:
    answers = [paper_id(library, "Attention is all"), paper_id(library, "How powerful")]
    query = ScholarQuery(QUERY, [AnswerPaper(answer, "") for answer in answers], "2023-01-01")
    return LibraryCrawlerEnvironment(where, library, HashingEmbedder(), [query], search_limit=3)


def test_search_then_expand_follow_the_protocol(where, mini_library):
    env = environment(where, mini_library)
    assert env.training_queries() == [QUERY]
    with pytest.raises(TrainingError):
        env.step(CrawlerAction("Search", "graph"))  # before reset
    env.reset(QUERY)
    found = env.step(CrawlerAction("Search", "graph neural networks"))
    assert found and all(item.paper_id.startswith("paper:") for item in found)
    assert env.step(CrawlerAction("Search", "graph neural networks")) == []  # already in Q_t: nothing new
    gnn = f"paper:{paper_id(mini_library, GNN)}"
    paper = env.expand(QUERY, gnn)
    assert paper.title == GNN and paper.sections == ["1 Introduction", "2 Related Work", "3 Method"]
    assert env.step(CrawlerAction("Expand", "9 Appendix")) == []  # no such section
    cited = env.step(CrawlerAction("Expand", "2 Related Work"))
    titles = {item.paper.title for item in cited}
    assert "Attention is all you need" in titles
    assert env.step(CrawlerAction("Stop", "")) == []
    # Eq. 1: the answer papers count, others do not
    relevant = count_relevant(env, QUERY, cited)
    assert relevant == sum(env.is_relevant(QUERY, item.paper_id) for item in cited) >= 1
    assert env.queue(QUERY)[: len(found)] == [item.paper_id for item in found]


def test_make_environment_builds_it_from_the_home(where, mini_library, tmp_path, monkeypatch):
    queries = tmp_path / "queries.jsonl"
    write_queries(
        queries, [ScholarQuery(QUERY, [AnswerPaper(paper_id(mini_library, "Attention is all"), "")], "2023-01-01")]
    )
    import scholar_tui.models as models

    monkeypatch.setattr(models, "load_embedder", lambda settings: HashingEmbedder())
    env = make_environment(f"library:{queries}")
    assert isinstance(env, LibraryCrawlerEnvironment) and env.training_queries() == [QUERY]
    with pytest.raises(TrainingError, match="available: toy, library"):
        make_environment("nowhere")
