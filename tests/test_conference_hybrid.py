"""Hybrid retrieval on a tree where the dense and the lexical rankings disagree, and the tree re-score."""

from dataclasses import replace

import numpy as np

from scholar_tui.core.conference.describe import StructuralDescriber
from scholar_tui.core.conference.engine import ConferenceEngine
from scholar_tui.core.conference.lexical import BM25, compound_parts, expanded_query, words
from scholar_tui.core.conference.retrieval import PATH_BASELINE, STAR, RetrievalParts
from scholar_tui.core.conference.tree import tree_from_data

from .conference_fakes import ConceptEmbedder

# Dense understands that a "get-together" is the "banquet" (a paraphrase no synonym list has),
# but treats people's names as noise; BM25 matches the rare name exactly and knows no paraphrase.
TREE = tree_from_data(
    {
        "MEET2025": {
            "Social Program": {"Banquet": "Wednesday evening at the harbour hall", "Excursion": "Thursday boat trip"},
            "Organization": {
                "Program Committee": [
                    {"name": "Farahnaz Akrami", "affiliation": "University of Texas at Arlington, USA"},
                    {"name": "Renzo Angles", "affiliation": "Universidad de Talca, Chile"},
                ]
            },
            "Attend": {
                "Evening reception": "Tuesday evening at the museum",
                "Together app": "Download the Together app",
                "Hotels": "Partner hotels are based downtown",
            },
        }
    }
)
# What the stand-in dense model understands: these words, as concepts (names mean nothing to it).
CONCEPTS = {
    "banquet": 0,
    "get-together": 0,
    "dinner": 0,
    "affiliation": 1,
    "based": 1,
    "evening": 2,
    "tuesday": 3,
    "wednesday": 4,
    "boat": 5,
    "app": 6,
    "museum": 7,
    "usa": 8,
    "chile": 9,
}

DENSE = RetrievalParts(lexical=False, query_expansion=False, tree=False)
LEXICAL = RetrievalParts(dense=False, tree=False)


def _engine(where):
    engine = ConferenceEngine(where, ConceptEmbedder(CONCEPTS))
    list(engine.build(TREE, "test", StructuralDescriber()))
    return engine


def _top(engine, question, parts, k=1):
    return [item.path for item in engine.search("MEET2025", question, k=k, parts=parts)]


def test_lexical_and_dense_disagree_and_fusion_keeps_both_right(where):
    engine = _engine(where)
    paraphrase = "When is the get-together dinner?"
    name = "Where is Farahnaz Akrami based?"
    # each side alone misses one question …
    assert not _top(engine, paraphrase, LEXICAL)[0].endswith("Banquet»Wednesday evening at the harbour hall")
    assert _top(engine, paraphrase, DENSE)[0].endswith("Banquet»Wednesday evening at the harbour hall")
    assert "Farahnaz" not in _top(engine, name, DENSE)[0]
    assert "Farahnaz Akrami" in _top(engine, name, LEXICAL)[0]
    # … and the fused ranking finds both evidence paths in its top 3
    assert any(
        path.endswith("Banquet»Wednesday evening at the harbour hall") for path in _top(engine, paraphrase, STAR, 3)
    )
    assert any("Farahnaz Akrami" in path for path in _top(engine, name, STAR, 3))
    # the path baseline is dense only, on raw paths
    assert PATH_BASELINE.vectors == "path" and not PATH_BASELINE.lexical


def test_sibling_rescore_brings_a_records_fields_together(where):
    engine = _engine(where)
    question = "Where is Farahnaz Akrami based?"
    flat = _top(engine, question, RetrievalParts(tree=""), k=2)
    assert any("Hotels" in path for path in flat), flat  # dense's favourite sits between the record's fields
    rescored = _top(engine, question, replace(STAR, tree="siblings", heads=False, records=False), k=2)
    assert all("»Farahnaz Akrami»" in path for path in rescored), rescored


def test_section_stage_lets_other_parts_of_the_tree_into_the_top_k(where):
    tree = tree_from_data(
        {
            "FEES2025": {
                "Fees": {"Students fee": "$100", "Members fee": "$200", "Others fee": "$300"},
                "Refunds": {"Policy": "Fees are refunded until May"},
            }
        }
    )
    engine = ConferenceEngine(where, ConceptEmbedder({}))
    list(engine.build(tree, "test", StructuralDescriber()))
    lexical = RetrievalParts(dense=False, tree="")
    flat = [item.path for item in engine.search("FEES2025", "What are the fees?", k=3, parts=lexical)]
    assert all("»Fees»" in path for path in flat), flat
    sections = [
        item.path
        for item in engine.search("FEES2025", "What are the fees?", k=3, parts=replace(lexical, tree="sections"))
    ]
    assert sum("»Fees»" in path for path in sections) == 2 and any("»Refunds»" in path for path in sections)
    assert sections[:2] == flat[:2]  # the best stays first


def test_answer_cites_the_record_field_the_question_asks_for(where):
    engine = _engine(where)
    events = list(engine.ask("MEET2025", "Who is affiliated with Universidad de Talca, Chile?"))
    assert [event.kind for event in events] == ["evidence_found", "answered"]
    answered = events[-1]
    assert answered.answer == "Renzo Angles" and answered.operation == "span"
    cited = answered.cited_paths
    assert any(path.endswith("affiliation»Universidad de Talca, Chile") for path in cited)
    assert answered.summary().startswith("Renzo Angles (from [")
    assert events[0].to_json()["kind"] == "evidence_found" and answered.to_json()["answer"] == "Renzo Angles"


def test_bm25_and_query_expansion():
    documents = [words("Important Dates » Author response period » April 2"), words("Venue » Lisbon")]
    bm25 = BM25(documents)
    assert bm25.scores(words("rebuttal"))[0] == 0.0  # the plain word is not on the page
    expanded = expanded_query("When is the rebuttal?")
    assert expanded["rebuttal"] == 1.0 and expanded["response"] == 0.5 and "date" in expanded
    assert np.argmax(bm25.scores(expanded)) == 0


def test_each_rankers_head_stays_in_the_top_k(where):
    """A name only BM25 can match, ranked last by dense among many texts, is still in the top 3;
    without the heads rule, texts both rankers find middling push it out."""
    filler = {f"Note {number}": f"Item number {number} of the handbook" for number in range(30)}
    based = {f"Place {number}": f"Service {number} is based in hall {number}" for number in range(5)}
    tree = tree_from_data(
        {
            "MEET2025": {
                "Handbook": filler,
                "Places": based,
                "People": [{"name": "Farahnaz Akrami", "team": "Organizers"}],
            }
        }
    )
    engine = ConferenceEngine(where, ConceptEmbedder({"based": 1}))
    list(engine.build(tree, "test", StructuralDescriber()))
    question = "Where is Farahnaz Akrami based?"
    without = [
        item.path for item in engine.search("MEET2025", question, k=3, parts=replace(STAR, heads=False, tree=""))
    ]
    assert not any("Farahnaz" in path for path in without), without
    found = engine.search("MEET2025", question, k=3, parts=replace(STAR, tree=""))
    kept = [item.path for item in found]
    assert any("Farahnaz Akrami" in path for path in kept), kept
    assert sum("»Places»" in path for path in kept) == 2  # dense's head is kept too
    # the evidence says why a path is there, and shows the fused score, not the lift that keeps it
    why = {item.path: item.kept for item in found}
    assert why[next(path for path in kept if "Farahnaz" in path)] == "BM25's best match"
    assert "the dense search's best match" in why.values()
    assert all(0 < item.score <= 2 / 61 for item in found), [item.score for item in found]


def test_a_named_record_brings_the_field_asked_for(where):
    """ "What is X's homepage?" finds X's name; the record's "Home page" (no word of the question
    but its label, written apart) comes next. A record named by a value the question quotes brings
    its title field."""
    tree = tree_from_data(
        {
            "MEET2025": {
                "Organization": [
                    {
                        "name": "Jane Doe",
                        "role": "General Chair",
                        "affiliation": "University of Somewhere, Nowhere",
                        "Home page": "https://jane.example.org/",
                    },
                    {
                        "name": "John Roe",
                        "role": "Local Chair",
                        "affiliation": "Institute of Elsewhere",
                        "Home page": "https://john.example.org/",
                    },
                ],
                "Venue": {"Home": "The homepage of the venue lists the rooms"},
            }
        }
    )
    engine = ConferenceEngine(where, ConceptEmbedder({}))
    list(engine.build(tree, "test", StructuralDescriber()))
    question = "What is the homepage of the General Chair, Jane Doe?"
    plain = [item.path for item in engine.search("MEET2025", question, k=2, parts=replace(STAR, records=False))]
    assert not any(path.endswith("Home page»https://jane.example.org/") for path in plain), plain
    found = engine.search("MEET2025", question, k=2)
    fields = [item.path for item in found]
    assert fields[1].endswith("Jane Doe»Home page»https://jane.example.org/"), fields
    assert found[1].kept == "the field the question asks of a record it names"
    quoted = [item.path for item in engine.search("MEET2025", "Which organizer is with 'Institute of Elsewhere'?", k=2)]
    assert quoted[0].endswith("affiliation»Institute of Elsewhere") and quoted[1].endswith("John Roe»name»John Roe"), (
        quoted
    )


def test_a_compound_splits_into_the_sites_words():
    assert compound_parts("homepage", {"home", "page"}) == ("home", "page")
    assert compound_parts("timezones", {"time", "zone"}) == ("time", "zone")
    assert compound_parts("homepage", {"home"}) == ()
    assert expanded_query("Where is her homepage?", {"home", "page"})["page"] == 1.0
    assert "page" not in expanded_query("Where is her homepage?", {"homepage", "home", "page"})


def test_a_question_about_the_conference_itself_keeps_its_top_level_fact(where):
    """ "Where is MEET 2025 held?" is asked of the whole conference: the site's top-level
    "location" stays in the top k though deeper pages repeat the word more often."""
    workshops = {
        f"Workshop {number}": {"location": f"Location: room {number}, location map at the desk, location B"}
        for number in range(4)
    }
    home = {
        "date": "May 5-9",
        "location": "Lisbon, Portugal, in the congress centre by the river, next to the old town and the harbour",
    }
    tree = tree_from_data({"MEET2025": {"Home": home, "Workshops": workshops}})
    engine = ConferenceEngine(where, ConceptEmbedder({"room": 0, "conference": 0}))  # dense: a room is a place
    list(engine.build(tree, "test", StructuralDescriber()))
    question = "What is the location of the MEET 2025 conference?"
    plain = [
        item.path for item in engine.search("MEET2025", question, k=2, parts=replace(STAR, conference_facts=False))
    ]
    assert not any("»Home»" in path for path in plain), plain
    facts = [item.path for item in engine.search("MEET2025", question, k=2)]
    assert any(path.startswith("MEET2025»Home»location»Lisbon") for path in facts), facts
    # a question that does not name the conference is about something in it
    other = [item.path for item in engine.search("MEET2025", "What is the location of the workshop?", k=2)]
    assert not any("»Home»location" in path for path in other), other


def test_a_phrasal_verb_is_looked_for_as_the_word_a_site_writes(where):
    """Before: "who's running the expo?" matched "running" in the expo's schedule; the site writes who runs it
    as its chairs ("who organizes"), which the question is now looked for as."""
    tree = tree_from_data(
        {
            "EXPO2025": {
                "Organization": {"Expo Chairs": "Ada Stone and Bo Chen"},
                "Expo": {"Schedule": "Demos running all day, running order posted at the expo desk"},
            }
        }
    )
    engine = ConferenceEngine(where, ConceptEmbedder(CONCEPTS))
    list(engine.build(tree, "test", StructuralDescriber()))
    found = engine.search("EXPO2025", "who's running the expo?", k=1, parts=LEXICAL)
    assert found[0].path.endswith("Expo Chairs»Ada Stone and Bo Chen")
