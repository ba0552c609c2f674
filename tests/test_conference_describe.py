"""STAR descriptions: prompt parts, top-down order, the structural describer, and the content cache."""

import json
from pathlib import Path

from scholar_tui.core.conference.describe import (
    LLMDescriber,
    StructuralDescriber,
    description_input,
    sibling_texts,
    star_prompt,
)
from scholar_tui.core.conference.engine import ConferenceEngine
from scholar_tui.core.conference.events import IndexBuilt
from scholar_tui.core.conference.tree import load_json_tree, tree_from_data
from scholar_tui.indexes.conference_store import ConferenceStore

from .conference_fakes import HashingEmbedder
from .conftest import ScriptedLLM

TINY = Path(__file__).parent / "fixtures" / "conference" / "tinyqa" / "TINY2024.json"


def _built(events) -> IndexBuilt:
    return [event for event in events if isinstance(event, IndexBuilt)][-1]


def test_leaf_siblings_carry_their_parents_text():
    tree = load_json_tree(TINY)
    virtual = next(leaf for leaf in tree.leaves() if leaf.label == "Virtual" and leaf.text == "$300")
    assert sibling_texts(tree, virtual) == ("type: ACM Members", "In person: $700")
    record = tree.parent(virtual)
    assert sibling_texts(tree, record) == ("Students",)  # an inner sibling is its label


def test_structural_description_is_parent_description_path_and_siblings():
    tree = load_json_tree(TINY)
    virtual = next(leaf for leaf in tree.leaves() if leaf.label == "Virtual" and leaf.text == "$300")
    item = description_input(tree, virtual, "Attend › Registration › Pricing › ACM Members")
    text = StructuralDescriber().describe([item])[0]
    statement, context = text.split("\n")
    assert statement == "Attend › Registration › Pricing › ACM Members › Virtual: $300"
    assert context == (
        "Alongside: type: ACM Members; In person: $700. Within: Attend › Registration › Pricing › ACM Members"
    )
    assert "ACM Members" in item.parent_description


def test_star_prompt_holds_path_siblings_and_parent_description():
    tree = load_json_tree(TINY)
    leaf = next(leaf for leaf in tree.leaves() if leaf.label == "Author rebuttal period ends")
    prompt = star_prompt(description_input(tree, leaf, "Important dates of TINY2024."))
    assert prompt.startswith("Turn the query path into one sentence")  # fixed prefix first
    assert (
        "Same-level nodes: Paper submission deadline: January 31, 2024; Notification of acceptance: May 1, 2024"
        in prompt
    )
    assert "Parent description: Important dates of TINY2024." in prompt
    assert "Query path: TINY2024»Dates»Important Dates»Author rebuttal period ends»March 19, 2024" in prompt


def test_llm_describer_runs_top_down_with_each_parents_description(where):
    tree = tree_from_data({"C": {"Dates": {"Deadline": "May 1"}}})
    llm = ScriptedLLM("The C conference.", "The dates of C.", "C papers are due on May 1.")
    events = list(ConferenceEngine(where, HashingEmbedder()).build(tree, "test", LLMDescriber(llm)))
    built = _built(events)
    assert built.describer == "llm" and built.generated == 3 and built.cached == 0
    prompts = [request.messages[0]["content"] for request in llm.history]
    assert "Query path: C\n" in prompts[0] and "Query path: C»Dates\n" in prompts[1]
    assert "Parent description: The C conference." in prompts[1]  # the root's description, generated first
    assert "Parent description: The dates of C." in prompts[2]
    store = ConferenceStore(where)
    leaf = next(node for node in tree.leaves())
    assert store.descriptions("C", [leaf.id])[leaf.id].startswith("C papers are due on May 1.")


def test_reimport_of_an_unchanged_conference_regenerates_nothing(where):
    embedder = HashingEmbedder()
    first = _built(ConferenceEngine(where, embedder).build(load_json_tree(TINY), "tiny", StructuralDescriber()))
    assert first.generated == 49 and first.cached == 0 and first.embedded == 54
    texts_embedded = embedder.texts
    second = _built(ConferenceEngine(where, embedder).build(load_json_tree(TINY), "tiny", StructuralDescriber()))
    assert second.generated == 0 and second.cached == 49
    assert second.embedded == 0 and second.reused == 54
    assert embedder.texts == texts_embedded  # not one text went to the embedder again


def test_a_changed_leaf_regenerates_only_what_depends_on_it(where, tmp_path):
    data = json.loads(TINY.read_text(encoding="utf-8-sig"))
    _built(ConferenceEngine(where, HashingEmbedder()).build(tree_from_data(data), "tiny", StructuralDescriber()))
    data["TINY2024"]["Attend"]["Venue"]["location"] = "Porto, Portugal"
    rebuilt = _built(
        ConferenceEngine(where, HashingEmbedder()).build(tree_from_data(data), "tiny", StructuralDescriber())
    )
    # the leaf itself and its one sibling (whose prompt lists the leaf's text) change; nothing else
    assert rebuilt.generated == 2 and rebuilt.cached == 47
    # re-embedded: the leaf's statement and its path; the sibling's statement line is unchanged
    assert rebuilt.embedded == 2


def test_the_cache_is_per_describer(where):
    tree = tree_from_data({"C": {"Dates": {"Deadline": "May 1"}}})
    _built(ConferenceEngine(where, HashingEmbedder()).build(tree, "t", StructuralDescriber()))
    llm = ScriptedLLM("a", "b", "c")
    assert _built(ConferenceEngine(where, HashingEmbedder()).build(tree, "t", LLMDescriber(llm))).generated == 3
