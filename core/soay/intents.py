"""The question intents SoAy answers: one per combination (head input, solution, tail output).

Each intent carries phrasings written by hand (SoAy §5.2's templates with semantic expansion; the
placeholder is ``{name}`` for a scholar, ``{title}`` for a publication) and the program that
answers it (§5.3). The last phrasing of each intent is held out: inference never sees it, and
the benchmark's test split is made from it, so test questions are worded unlike anything the
retriever indexed.

Programs are plain Python over the seven APIs, run in the sandbox; ``result`` is the answer.
``bench`` says whether the local library carries the data an intent asks for (an unarXive import
has no affiliations or biographies, so those intents answer only on the OpenAlex backend).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scholar_tui.core.soay.solutions import Combination, Solution

EntityKind = Literal["person", "paper"]


@dataclass(frozen=True)
class Intent:
    key: str
    solution: tuple[str, ...]
    entity: EntityKind
    tail_output: str
    phrasings: tuple[str, ...]
    program: str
    answer_phrase: str
    bench: bool = True

    @property
    def hops(self) -> int:
        return len(self.solution)

    @property
    def head_input(self) -> str:
        return "name" if self.entity == "person" else "publication_info"

    @property
    def combination(self) -> Combination:
        return Combination(self.head_input, Solution(self.solution), self.tail_output)

    @property
    def seen_phrasings(self) -> tuple[str, ...]:
        return self.phrasings[:-1]

    @property
    def held_out_phrasing(self) -> str:
        return self.phrasings[-1]

    @property
    def slot(self) -> str:
        return "{name}" if self.entity == "person" else "{title}"

    def program_for(self, entity: str) -> str:
        return self.program.replace("ENTITY", repr(entity))


PERSON = "people = searchPerson(name=ENTITY)\nperson = people[0]\n"
PAPER = "papers = searchPublication(publication_info=ENTITY)\npaper = getPublication(pub_id=papers[0]['pub_id'])\n"
FIRST_AUTHOR = PAPER + "first_author = paper['authors'][0]\n"

INTENTS: tuple[Intent, ...] = (
    # -- one hop --------------------------------------------------------------------------------
    Intent(
        "person_interests",
        ("searchPerson",),
        "person",
        "interest",
        (
            "What are the research interests of {name}?",
            "Which research fields does {name} work in?",
            "What areas of research is {name} interested in?",
            "What does {name} research?",
            "What is {name}'s field?",
            "Which subjects is {name} working on?",
            "What topics does {name} study?",
        ),
        PERSON + "result = person['interest']",
        "{name} works on: {result}.",
    ),
    Intent(
        "person_num_pubs",
        ("searchPerson",),
        "person",
        "num_pubs",
        (
            "How many papers has {name} published?",
            "How many publications does {name} have?",
            "What is the number of papers written by {name}?",
            "How many articles did {name} write?",
            "Number of publications of {name}?",
            "How prolific is {name}: how many papers?",
            "Count the publications of {name}.",
        ),
        PERSON + "result = person['num_pubs']",
        "{name} has {result} publications.",
    ),
    Intent(
        "person_organization",
        ("searchPerson",),
        "person",
        "organization",
        (
            "Which organization is {name} affiliated with?",
            "Where does {name} work?",
            "What institution is {name} at?",
            "Which university employs {name}?",
            "What is the affiliation of {name}?",
            "Name the affiliation of {name}.",
        ),
        PERSON + "result = person['organization']",
        "{name} is at {result}.",
        bench=False,
    ),
    Intent(
        "paper_year",
        ("searchPublication",),
        "paper",
        "year",
        (
            "In which year was the paper {title} published?",
            "When was {title} published?",
            "What year did the paper {title} come out?",
            "When did {title} appear?",
            "What is the publication year of the paper {title}?",
            "Which year is {title} from?",
            "Publication year of {title}?",
        ),
        "papers = searchPublication(publication_info=ENTITY)\nresult = papers[0]['year']",
        "It was published in {result}.",
    ),
    # -- two hops -------------------------------------------------------------------------------
    Intent(
        "coauthor_names",
        ("searchPerson", "getCoauthors"),
        "person",
        "name",
        (
            "Who are the coauthors of {name}?",
            "Who has {name} written papers with?",
            "List the collaborators of {name}.",
            "Who collaborates with {name}?",
            "Name the co-authors of {name}.",
            "Which researchers have published together with {name}?",
            "With whom has {name} co-authored papers?",
        ),
        PERSON + "result = sorted(c['name'] for c in getCoauthors(person_id=person['person_id']))",
        "{name}'s coauthors: {result}.",
    ),
    Intent(
        "coauthor_count",
        ("searchPerson", "getCoauthors"),
        "person",
        "count",
        (
            "How many coauthors does {name} have?",
            "How many people has {name} collaborated with?",
            "What is the number of coauthors of {name}?",
            "How many co-authors has {name} worked with?",
            "Count the collaborators of {name}.",
            "How many researchers have written papers with {name}?",
            "Tell me how many collaborators {name} has.",
        ),
        PERSON + "result = len(getCoauthors(person_id=person['person_id']))",
        "{name} has {result} coauthors.",
    ),
    Intent(
        "person_pub_titles",
        ("searchPerson", "getPersonPubs"),
        "person",
        "title",
        (
            "What papers has {name} written?",
            "List the publications of {name}.",
            "Which papers did {name} author?",
            "What are the titles of {name}'s papers?",
            "What has {name} published?",
            "Give the works of {name}.",
            "Show me the titles of the papers by {name}.",
        ),
        PERSON + "result = sorted(p['title'] for p in getPersonPubs(person_id=person['person_id']))",
        "{name}'s papers: {result}.",
    ),
    Intent(
        "person_education",
        ("searchPerson", "getPersonBasicInfo"),
        "person",
        "education_experience",
        (
            "Which school did {name} graduate from?",
            "What is {name}'s alma mater?",
            "Where did {name} study?",
            "Which university did {name} attend?",
            "What is the educational background of {name}?",
            "Tell me about the education of {name}.",
        ),
        PERSON + "result = getPersonBasicInfo(person_id=person['person_id'])['education_experience']",
        "{name} studied at {result}.",
        bench=False,
    ),
    Intent(
        "paper_authors",
        ("searchPublication", "getPublication"),
        "paper",
        "authors",
        (
            "Who wrote the paper {title}?",
            "Who are the authors of {title}?",
            "Which researchers authored {title}?",
            "List all authors of {title}.",
            "Who wrote {title}?",
            "Who are the writers of the paper {title}?",
            "Name the people behind the paper {title}.",
        ),
        PAPER + "result = [a['name'] for a in paper['authors']]",
        "Written by {result}.",
    ),
    Intent(
        "paper_first_author",
        ("searchPublication", "getPublication"),
        "paper",
        "first_author",
        (
            "Who is the first author of {title}?",
            "Who is the lead author of the paper {title}?",
            "Which author is listed first on {title}?",
            "Whose name comes first on the paper {title}?",
            "Who is the primary author of {title}?",
            "Name the first author of {title}.",
            "Give the first-listed author of {title}.",
        ),
        PAPER + "result = paper['authors'][0]['name']",
        "The first author is {result}.",
    ),
    Intent(
        "paper_abstract",
        ("searchPublication", "getPublication"),
        "paper",
        "abstract",
        (
            "What is the abstract of {title}?",
            "What is the paper {title} about?",
            "Summarize the paper {title}.",
            "What does the paper {title} say?",
            "Show the abstract of {title}.",
            "Describe the content of {title}.",
            "Give me the abstract of the publication {title}.",
        ),
        PAPER + "result = paper['abstract']",
        "{result}",
    ),
    # -- three hops -----------------------------------------------------------------------------
    Intent(
        "coauthor_interests",
        ("searchPerson", "getCoauthors", "getPersonInterest"),
        "person",
        "interests",
        (
            "What are the research interests of {name}'s coauthors?",
            "Which fields do the collaborators of {name} work in?",
            "What topics do the coauthors of {name} study?",
            "What do the co-authors of {name} research?",
            "Which research areas do {name}'s collaborators cover?",
            "What are the interests of the people {name} has published with?",
            "In which research areas are the people who wrote papers with {name} active?",
        ),
        PERSON + "result = sorted({i for c in getCoauthors(person_id=person['person_id'])"
        " for i in getPersonInterest(person_id=c['person_id'])})",
        "{name}'s coauthors work on: {result}.",
    ),
    Intent(
        "coauthor_pub_titles",
        ("searchPerson", "getCoauthors", "getPersonPubs"),
        "person",
        "title",
        (
            "What papers have {name}'s coauthors written?",
            "List the publications of the collaborators of {name}.",
            "Which papers were authored by the coauthors of {name}?",
            "What have the co-authors of {name} published?",
            "Give the works of {name}'s collaborators.",
            "What are the titles of papers written by the coauthors of {name}?",
            "Show the titles of papers by people who collaborated with {name}.",
        ),
        PERSON + "result = sorted({p['title'] for c in getCoauthors(person_id=person['person_id'])"
        " for p in getPersonPubs(person_id=c['person_id'])})",
        "Papers by {name}'s coauthors: {result}.",
    ),
    Intent(
        "coauthor_education",
        ("searchPerson", "getCoauthors", "getPersonBasicInfo"),
        "person",
        "education_experience",
        (
            "Where did the coauthors of {name} study?",
            "Which schools did {name}'s collaborators graduate from?",
            "What are the alma maters of the coauthors of {name}?",
            "Which universities did the co-authors of {name} attend?",
            "Tell me where the people who wrote with {name} were educated.",
        ),
        PERSON + "result = [getPersonBasicInfo(person_id=c['person_id'])['education_experience']"
        " for c in getCoauthors(person_id=person['person_id'])]",
        "{result}",
        bench=False,
    ),
    Intent(
        "person_pub_abstracts",
        ("searchPerson", "getPersonPubs", "getPublication"),
        "person",
        "abstract",
        (
            "What are the abstracts of {name}'s papers?",
            "What are the papers of {name} about?",
            "Summarize the publications written by {name}.",
            "What does {name} write about in their papers?",
            "Show the abstracts of the papers by {name}.",
            "Describe the content of {name}'s publications.",
            "Give me the abstracts of the work of {name}.",
        ),
        PERSON + "result = [getPublication(pub_id=p['pub_id'])['abstract']"
        " for p in getPersonPubs(person_id=person['person_id'])]",
        "{result}",
    ),
    Intent(
        "first_author_interests",
        ("searchPublication", "getPublication", "getPersonInterest"),
        "paper",
        "interests",
        (
            "What are the research interests of the first author of {title}?",
            "Which fields does the lead author of {title} work in?",
            "What topics does the first author of the paper {title} study?",
            "What does the first author of {title} research?",
            "Which research areas does the primary author of {title} cover?",
            "What are the interests of the person listed first on {title}?",
            "In which research areas is the first-listed author of {title} active?",
        ),
        FIRST_AUTHOR + "result = getPersonInterest(person_id=first_author['person_id'])",
        "The first author works on: {result}.",
    ),
    Intent(
        "first_author_pub_titles",
        ("searchPublication", "getPublication", "getPersonPubs"),
        "paper",
        "title",
        (
            "What papers has the first author of {title} written?",
            "List the publications of the lead author of {title}.",
            "Which papers did the first author of the paper {title} write?",
            "What has the primary author of {title} published?",
            "Give the works of the person listed first on {title}.",
            "What are the titles of papers by the first author of {title}?",
            "Show the titles of all work by the first-listed author of {title}.",
        ),
        FIRST_AUTHOR + "result = sorted(p['title'] for p in getPersonPubs(person_id=first_author['person_id']))",
        "The first author's papers: {result}.",
    ),
    Intent(
        "first_author_coauthors",
        ("searchPublication", "getPublication", "getCoauthors"),
        "paper",
        "name",
        (
            "Who are the coauthors of the first author of {title}?",
            "Who has the lead author of {title} collaborated with?",
            "List the collaborators of the first author of the paper {title}.",
            "Who collaborates with the primary author of {title}?",
            "Name the co-authors of the person listed first on {title}.",
            "Which researchers have published with the first author of {title}?",
            "With whom has the first-listed author of {title} written papers?",
        ),
        FIRST_AUTHOR + "result = sorted(c['name'] for c in getCoauthors(person_id=first_author['person_id']))",
        "The first author's coauthors: {result}.",
    ),
    Intent(
        "first_author_education",
        ("searchPublication", "getPublication", "getPersonBasicInfo"),
        "paper",
        "education_experience",
        (
            "Which school did the first author of {title} graduate from?",
            "What is the alma mater of the lead author of {title}?",
            "Where did the first author of the paper {title} study?",
            "Which university did the primary author of {title} attend?",
            "Tell me where the first-listed author of {title} was educated.",
        ),
        FIRST_AUTHOR + "result = getPersonBasicInfo(person_id=first_author['person_id'])['education_experience']",
        "The first author studied at {result}.",
        bench=False,
    ),
)

INTENTS_BY_KEY = {intent.key: intent for intent in INTENTS}
