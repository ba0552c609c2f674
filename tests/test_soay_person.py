"""Person-written scholar questions: how an answer is judged, the sets on disk, and the issue's cases
through the engine on the real sample (title by its first words, venue, citation count, abstain)."""

from pathlib import Path
from types import SimpleNamespace

import pytest

from scholar_tui.core.jsonl import read_jsonl
from scholar_tui.core.library.apis import local_api
from scholar_tui.core.soay.engine import SoAyEngine, final_answer
from scholar_tui.core.soay.person_bench import PersonQuestion, holds, verdict
from scholar_tui.core.soay.titles import find_entity

DATA = Path(__file__).parent / "data"


def answer(text, value=None, *, ok=True, abstained=False, stage=None):
    return SimpleNamespace(
        ok=ok, answer=text, value=value, abstained=abstained, error_stage=stage, error=None if ok else text
    )


def test_right_wrong_and_abstained_as_a_person_reads_them():
    venue = PersonQuestion("q1", "Where was it published?", ["Physical Review B"])
    assert verdict(venue, answer("Venue of it: Physical Review B.", "Physical Review B"))[0] == "right"
    assert verdict(venue, answer("It was published in 2021.", 2021))[0] == "wrong"  # another kind
    assert verdict(venue, answer("The library has no venue for it.", abstained=True))[0] == "abstained"
    assert verdict(venue, answer("no scholar or paper", ok=False, stage="run"))[0] == "wrong"
    missing = PersonQuestion("q2", "What is the h-index of X?", "abstain")
    assert verdict(missing, answer("The library has no h-index for X.", abstained=True))[0] == "right"
    assert verdict(missing, answer("Number of X: 3.", 3))[0] == "wrong"  # a value where there is none


def test_holds_compares_numbers_as_numbers_and_text_folded():
    assert holds(12, "Citation count of it: 12.", 12)
    assert not holds(12, "Citation count of it: 120.", 120)
    assert holds("Adrián Pérez-Salinas", "Authors: Adrian Perez Salinas", None)


def test_holds_accepts_any_spelling_listed_with_a_bar():
    assert holds("Brazilian Symposium on Software Engineering|SBES", "Venue of it: SBES 2025.", None)
    assert holds("Selçuk|Selcuk", "Affiliation of H. Koçer: Selçuk University.", None)
    assert not holds("Selçuk|Selcuk", "Affiliation of H. Koçer: Konya University.", None)


@pytest.mark.parametrize("name", sorted(path.name for path in DATA.glob("soay-person-*.jsonl")))
def test_the_person_sets_are_well_formed(name):
    questions = read_jsonl(DATA / name, PersonQuestion)
    assert len({q.id for q in questions}) == len(questions)
    assert all(q.expected == "abstain" or q.expected for q in questions)


def test_the_held_out_quarter_is_a_quarter_and_apart():
    dev = read_jsonl(DATA / "soay-person-dev.jsonl", PersonQuestion)
    held = read_jsonl(DATA / "soay-person-heldout.jsonl", PersonQuestion)
    assert len(dev) + len(held) >= 40 and len(held) * 4 >= len(dev + held) - 1
    assert not {q.question for q in dev} & {q.question for q in held}


def test_a_paper_named_by_the_first_words_of_its_title_is_found(imported):
    api = local_api(imported)
    mention = find_entity("Who wrote Zeros of a growing number of derivatives?", api)
    assert mention.kind == "paper"
    assert mention.matched.startswith("Zeros of a growing number of derivatives of random polynomials")
    mention = find_entity("who wrote training integer-only deep recurrent networks", api)  # lower case, a word off
    assert mention is not None and mention.matched == "Training Integer-Only Deep Recurrent Neural Networks"


@pytest.fixture
def engine(imported):
    engine = SoAyEngine(local_api(imported))
    yield engine
    engine.close()


def test_the_issues_questions_get_the_asked_kind_or_the_plain_sentence(engine):
    title = "Zeros of a growing number of derivatives of random polynomials with independent roots"
    where = final_answer(engine.run(f"Where was {title} published?"))
    assert where.ok and where.solution[-1] == "getPublication" and "venue" in where.intent
    assert not isinstance(where.value, int) and (where.abstained or where.value)
    assert where.sources and where.sources[0].startswith("getPublication(")
    cited = final_answer(engine.run(f"How many citations does {title} have?"))
    assert cited.ok and "num_citation" in cited.intent
    if cited.abstained:  # the unarXive sample counts no citations: one sentence, never None
        assert cited.answer.startswith("The library has no citation count for Zeros of a growing number")
    else:
        assert isinstance(cited.value, int)
    assert "None" not in cited.answer
    first_words = final_answer(engine.run("Who are the authors of Zeros of a growing number of derivatives?"))
    assert first_words.ok and "Marcus Michelen" in first_words.answer
    h_index = final_answer(engine.run("What is the h-index of Marcus Michelen?"))
    assert h_index.ok and h_index.abstained and "h-index" in h_index.answer
