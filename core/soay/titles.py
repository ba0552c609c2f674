"""Finding the paper a question names, as a span of the question's own words: its arXiv id or DOI, a quoted
or capitalised title, the question with its frame words trimmed, a title's beginning or the name before
its colon ("S-Graphs+"), a phrase of its words ("the page object generation paper"), or words a title
holds beside a person's name ("Fraser's Scratch testing paper"). Each span is searched for with the
library's own fuzzy search and kept only where a title reads like it (``entities.similarity``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from scholar_tui.core.soay.entities import (
    FRAME_WORDS,
    SAME_NAME,
    Mention,
    capitalised_runs,
    find_person,
    paper_record,
    runs_through_possessives,
    similarity,
    strip_span,
    word_spans,
)
from scholar_tui.indexes.records import fold

QUOTED = re.compile(r"[\"“”‘’'«»](.{4,}?)[\"“”‘’'«»](?:\s|[?.!,;:]|$)")
PAPER_THRESHOLD = 0.82
PREFIX_WORDS, PREFIX_CHARS = 4, 20  # a title's first words name it only when they are this many
JOINERS = {"or", "and", "than", "vs", "versus"}
SHORT_NAME_WORDS, SHORT_NAME_DISCOUNT = 5, 0.95  # a title's head before its colon names the paper too
# a head read letter for letter names its paper more surely than a span reading another whole title with
# a word changed ("machine learning in public health" is "Machine Learning in Public Health: A Review",
# not "Machine learning and public health"), and less surely than a whole title read exactly
EXACT_SHORT_NAME = 0.96
PHRASE_SCORE = 0.9  # "the ‹words› paper" whose words run inside one title of the library, and one only
PREFIX_DISCOUNT = 0.92  # a beginning that reads exactly like the title's still ranks under the whole title


def short_name(title: str) -> str | None:
    """The name a paper goes by: its title's words before a colon, when they are few ("S-Graphs+",
    "Mind the Retrosynthesis Gap")."""
    head, colon, _ = title.partition(":")
    head = head.strip()
    if colon and 1 <= len(head.split()) <= SHORT_NAME_WORDS and len(head) >= 4:
        return head
    return None


def _best_span_for(title: str, question: str) -> tuple[int, int, float]:
    """The span of ``question`` (whole words) that reads most like ``title`` — or like its first words:
    a person names a long paper by how it begins ("the paper Zeros of a growing number …")."""
    words = word_spans(question)
    title_words = title.split()
    n_title = len(title_words)
    named = short_name(title)
    best = (0, len(question), 0.0)
    for i in range(len(words)):
        for j in range(i + 1, min(len(words), i + n_title + 3) + 1):
            start, end = words[i][0], words[j - 1][1]
            span = strip_span(question[start:end])
            last = span.split()[-1].lower() if span else ""
            if last in JOINERS and not fold(title).endswith(last):
                continue  # "A or B": the "or" belongs to the question, not to A's title
            first = span.split()[0].lower() if span else ""
            if first in QUESTION_WORDS and not fold(title).startswith(fold(first)):
                continue  # "wrote Reliability Testing …": the question's verb is not the title's first word
            score = 0.0
            if j - i < n_title - 3:  # shorter than the title: only as its beginning, and not too short
                n_span = len(span.split())
                if n_span >= PREFIX_WORDS and len(span) >= PREFIX_CHARS:
                    # the more of the title its beginning covers, the surer (and the longer span wins a tie)
                    coverage = min(1.0, n_span / n_title)
                    score = similarity(span, " ".join(title_words[:n_span])) * (PREFIX_DISCOUNT + 0.04 * coverage)
            else:
                score = similarity(span, title)
            # "EuclidNets" for "EuclidNets: An Alternative …"; "Reduce and chop" for "Reduce-and-chop: …"
            if named and j - i <= len(fold(named).split()) + 1:
                score = max(score, similarity(span, named) * SHORT_NAME_DISCOUNT)
                if fold(span) == fold(named):
                    score = max(score, EXACT_SHORT_NAME)
            if score > best[2]:
                offset = question.index(span, start) if span else start
                best = (offset, offset + len(span), score)
    return best


QUESTION_WORDS = FRAME_WORDS | {
    "whats",  # contractions typed without the apostrophe
    "whos",
    "wheres",
    "whens",
    "who's",
    "what's",
    "where's",
    "when's",
    "which's",
    "many",
    "cited",
    "citations",
    "citation",
    "count",
    "venue",
    "journal",
    "year",
    "abstract",
    "first",
    "lead",
    "'s",
    "it",
    "have",
    "get",
    "got",
    "come",
    "came",
    "out",
    "appear",
    "appeared",
    "released",
    "posted",
}


def _trimmed(question: str) -> str:
    """The question without the words that frame it at either end: what is left names the paper
    ("How many authors does Mind the Retrosynthesis Gap have?" → "Mind the Retrosynthesis Gap")."""
    words = [strip_span(word) for word in question.split()]
    words = [word for word in words if word]
    while words and words[0].lower() in QUESTION_WORDS:
        words.pop(0)
    while words and words[-1].lower() in QUESTION_WORDS:
        words.pop()
    return " ".join(words)


# A paper named by its identifier: an arXiv id (new style, old style "hep-ph/0301050", a version or not)
# or a DOI, as people paste them; the library resolves either exactly (``searchPublication``).
IDENTIFIER = re.compile(
    r"\b(?:arxiv:\s*)?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z-]*(?:\.[a-z]{2})?/\d{7}(?:v\d+)?)(?![\w.])"
    r"|\b(10\.\d{4,9}/[^\s\"<>]+[^\s\"<>?.,;:!)])",
    re.I,
)


def _paper_by_identifier(question: str, api: Any) -> Mention | None:
    """The paper whose arXiv id or DOI the question holds, where the library has it."""
    for found in IDENTIFIER.finditer(question):
        try:
            hits = api.searchPublication(publication_info=found.group(1) or found.group(2))
        except Exception:
            continue
        if hits:
            return Mention("paper", found.group(0), found.start(), found.end(), hits[0]["title"], 1.0)
    return None


def find_paper(question: str, api: Any) -> Mention | None:
    by_identifier = _paper_by_identifier(question, api)
    if by_identifier is not None:
        return by_identifier
    quoted = [m.group(1) for m in QUOTED.finditer(question)]
    trimmed = _trimmed(question)
    queries = quoted + [question] + ([trimmed] if trimmed and trimmed != strip_span(question) else [])
    # then what names a paper inside the question: its capitalised runs ("Where was EuclidNets published?")
    queries += [question[start:end] for start, end in capitalised_runs(question) if end - start >= 4]
    searched = _Searches(api)  # the same span is searched for once, whichever way it is tried
    # each way in turn, a title leaving a name of the question unexplained passed over; a span read as a
    # whole title by likeness (one word changed is still alike), or as a phrase of its words (one may be
    # missing), must not hold a word the title lacks
    ways: tuple[tuple[Callable[[], Mention | None], bool], ...] = (
        (lambda: _best_titled(question, queries, searched), True),
        (lambda: _paper_by_phrase(question, searched), True),
        (lambda: _paper_by_opening(question, searched), False),
    )
    for way, read_alike in ways:
        found = way()
        if found is not None and not names_left_unexplained(question, found, searched, read_alike):
            return found
    return None


# -- a title that leaves a name of the question unexplained ------------------------------------------
# A person who names a paper by its topic names its particulars by their names: "mutation testing for
# Solana smart contracts", "COVID-19 hotspots in Texas hospitals". A title found from such words that
# holds the topic but another name in that place ("… for Ethereum Smart Contract", "… in Florida Public
# Schools") is a neighbour of the paper asked about, not it: the library lacks that paper, and answering
# with the neighbour's authors or year is a confident wrong answer. Lower-case words may be paraphrase
# ("changing" for "Changes"); a capitalised name is not.
CONTENT_LETTERS = 5  # a lower-case word this long says what the paper is about, not how it is asked
NAME_LIKE = 0.75  # a typed name this close to a word of the title is that word misspelt ("Mutaton")


def _clause_after(question: str, end: int) -> list[str]:
    """The words right after a span that still belong to the phrase naming the paper ("… in Texas
    hospitals?"): up to the clause's end, the paper noun or a word of the question's own frame."""
    words: list[str] = []
    after = word_spans(question[end:])
    if len(after) > 2 and PAPER_NOUN.fullmatch(strip_span(after[0][2])) and strip_span(after[1][2]).lower() in ABOUT:
        after = after[2:]  # "the transmission spectroscopy paper on GJ 1214b": what it is on names it too
    for _start, _end, word in after:
        clean = strip_span(word)
        lowered = clean.lower()
        if not clean or PAPER_NOUN.fullmatch(clean) or (lowered in QUESTION_WORDS and lowered not in TITLE_GLUE):
            break
        words.append(clean)
        if word.rstrip().endswith((",", ";", "?", ".", "!", ")", '"', "”", "’")):
            break
    return words


def _explains(word: str, title_words: list[str], said: set[str]) -> bool:
    """Whether the record accounts for a capitalised word of the question: a word of its title, venue
    or byline (as a stem or misspelt), or an initialism of the title's consecutive words ("US")."""
    folded = fold(word).split()
    if not folded:
        return True
    if all(part in said or part[:STEM] in {w[:STEM] for w in said} for part in folded):
        return True
    if any(similarity(word, other) >= NAME_LIKE for other in said):
        return True
    # a word grown from a title word ("testing" from the title's "test", "modelling" from "model")
    if any(len(other) >= 4 and fold(word).startswith(other) for other in title_words):
        return True
    letters = fold(word).replace(" ", "")
    # a numeral in an initialism stands for its number word's initial ("3D": three-dimensional)
    spelled = "".join(NUMBER_INITIALS.get(char, char) for char in letters)
    if len(spelled) >= 2 and spelled_out(spelled, title_words):
        return True
    # an all-capital word may shorten one word of the title, its letters in order ("TB": tuberculosis)
    return word.isupper() and any(contracts(letters, other) for other in title_words)


NUMBER_INITIALS = {"1": "o", "2": "t", "3": "t", "4": "f", "5": "f", "6": "s", "7": "s", "8": "e", "9": "n"}


def contracts(letters: str, word: str) -> bool:
    """Whether ``letters`` begin ``word`` and the rest follow in it in order ("tb" in "tuberculosis")."""
    if len(letters) < 2 or len(word) <= len(letters) or word[0] != letters[0]:
        return False
    rest = iter(word[1:])
    return all(letter in rest for letter in letters[1:])


def names_left_unexplained(question: str, mention: Mention, api: Any, read_alike: bool = False) -> list[str]:
    """The capitalised words and words with a digit of the phrase naming a paper (the span found and the
    words continuing it) that the found record neither holds in its title, venue or byline nor spells as
    an initialism; ``read_alike``: the span was read by likeness or as a phrase of the title's words, and
    a content word of its own that the title lacks ("machine learning in veterinary public health" for
    "Machine learning and public health", "… via tripling of variables" for "… via doubling …") is a
    particular of another paper, lower case or not."""
    if mention.score >= 1.0:  # an identifier, or the title read letter for letter
        return []
    try:
        record, _source = paper_record(api, mention.matched)
    except Exception:
        record = {}
    title_words = fold(mention.matched).split()
    names = " ".join(author.get("name") or "" for author in record.get("authors") or [])
    said = set(fold(f"{mention.matched} {record.get('venue') or ''} {names}").split())
    span = [strip_span(word) for word in question[mention.start : mention.end].split()]
    # what the question says of the paper: the span, the words going on after it, and the whole of any
    # "the ‹words› paper" / "the paper on ‹words›" phrase the span lies in ("… via tripling of variables")
    around = [(start, end) for start, end in _paper_phrases(question) if start <= mention.end and mention.start <= end]
    # the shortest such phrase: a longer one reaches back to an earlier "the" ("the DOI of the … paper")
    described = [strip_span(word) for start, end in around[:1] for word in question[start:end].split()]
    unexplained = []
    for word in [*span, *_clause_after(question, mention.end), *described]:
        word = re.sub(r"(?:'s|’s)$", "", word)
        named = word[:1].isupper() or any(char.isdigit() for char in word)  # "Texas", "GJ 1214b"
        content = read_alike and len(word) >= CONTENT_LETTERS and (word in span or word in described)
        if not (named or content) or question.lstrip().startswith(word) or word.lower() in QUESTION_WORDS:
            continue
        if not _explains(word, title_words, said) and word not in unexplained:
            unexplained.append(word)
    return unexplained


class _Searches:
    """``searchPublication`` for one question, each distinct query sent once."""

    def __init__(self, api: Any) -> None:
        self.api = api
        self.seen: dict[str, list] = {}
        self.records: dict[str, dict] = {}

    def searchPublication(self, publication_info: str) -> list:  # the API's own name, so callers need not know
        if publication_info not in self.seen:
            self.seen[publication_info] = self.api.searchPublication(publication_info=publication_info)
        return self.seen[publication_info]

    def getPublication(self, pub_id: str) -> dict:
        if pub_id not in self.records:
            self.records[pub_id] = self.api.getPublication(pub_id=pub_id)
        return self.records[pub_id]


def _best_titled(question: str, queries: list[str], api: Any) -> Mention | None:
    """The paper whose title (or its beginning, or the name before its colon) a span of the question
    reads like, searched for by each query in turn. A title read inside a longer span that names
    another title is not it ("crowdsourcing for machine learning in public health surveillance" names
    that paper, not "Machine learning and public health")."""
    found: list[Mention] = []
    for query in queries:
        try:
            hits = api.searchPublication(publication_info=strip_span(query))
        except Exception:
            continue
        for hit in hits[:3]:
            start, end, score = _best_span_for(hit["title"], question)
            if score >= PAPER_THRESHOLD:
                found.append(Mention("paper", question[start:end], start, end, hit["title"], score))
        if found and max(m.score for m in found) >= SURE_TITLE:
            break  # a later query may find a longer title the question names better than a short one
    widest = [
        m
        for m in found
        if not any(o.start <= m.start and m.end <= o.end and (o.end - o.start) > (m.end - m.start) for o in found)
    ]
    return max(widest, key=lambda m: m.score, default=None)


SURE_TITLE = 0.97


# "the ‹words› paper": what a person calls a paper by a few words of its title ("the page object
# generation paper"), from any "the" up to eight words before the noun.
# A review, a survey, a chapter or a thesis is a paper too ("the lit review on bug localization approaches").
PAPER_NOUN = re.compile(
    r"\b(?:paper|article|preprint|publication|study|report|review|survey|chapter|thesis|dissertation|manuscript|"
    r"piece)\b",  # "the piece about …": how a person names an article they read
    re.I,
)
PHRASE_WORDS = 8


ASKING_TAIL = {"called", "named", "titled"}  # "the paper about Y called?": how the question asks for its title
# what follows the paper noun and says what it is about, or what it shows ("the paper showing that …")
ABOUT = {
    "about",
    "on",
    "regarding",
    "concerning",
    "titled",
    "called",
    "named",
    "showing",
    "shows",
    "proving",
    "arguing",
}


def _paper_phrases(question: str) -> list[tuple[int, int]]:
    """Spans between a "the" and the paper noun after it, shortest first; then what follows "the paper
    about/on …" (to the question's end or its next comma)."""
    words = word_spans(question)
    spans, after = [], []
    for index, (_start, _end, word) in enumerate(words):
        if not PAPER_NOUN.fullmatch(strip_span(word)):
            continue
        for back in range(index - 1, max(-1, index - PHRASE_WORDS - 2), -1):
            if strip_span(words[back][2]).lower() == "the" and back < index - 1:
                spans.append((words[back + 1][0], words[index - 1][1]))
        if index + 2 < len(words) + 1 and index + 1 < len(words) and strip_span(words[index + 1][2]).lower() in ABOUT:
            tail = words[index + 2 : index + 2 + PHRASE_WORDS]
            cut = next((i for i, (_, _, w) in enumerate(tail) if w.endswith((",", ";"))), len(tail) - 1)
            while cut > 0 and strip_span(tail[cut][2]).lower() in QUESTION_WORDS | ASKING_TAIL:  # "… regions cited?"
                cut -= 1  # the question's own words end it, not the title's
            if tail:
                after.append((tail[0][0], tail[cut][1]))
    return sorted(spans, key=lambda span: span[1] - span[0]) + after


def _paper_by_phrase(question: str, api: Any) -> Mention | None:
    """The one paper whose title holds the words of a "the ‹words› paper" phrase in a row."""
    for start, end in _paper_phrases(question):
        phrase = strip_span(question[start:end])
        wanted = fold(phrase)
        if len(wanted) < 4:
            continue
        try:
            hits = api.searchPublication(publication_info=phrase)
        except Exception:
            continue
        holding: dict[str, str] = {}
        for hit in hits[:5]:  # the first record of a work stands for its copies
            if _holds_phrase(fold(hit["title"]), wanted):
                holding.setdefault(work_key(hit["title"]), hit["title"])
        if not holding and len(wanted.split()) >= 2:  # "the paper about suicide ideation prediction": its words
            holding = _holding_words(phrase, api)
        if len(holding) == 1:  # two different titles hold it: the phrase names neither for sure
            offset = question.index(phrase, start)
            return Mention("paper", phrase, offset, offset + len(phrase), next(iter(holding.values())), PHRASE_SCORE)
    return None


OPENING_WORDS, OPENING_CHARS, OPENING_SCORE = 2, 10, 0.86


def _paper_by_opening(question: str, api: Any) -> Mention | None:
    """A paper named by its first two or three capitalised words ("Which conference did Active Fuzzing
    appear at?"), when exactly one title of the library begins with them."""
    for start, end in capitalised_runs(question) + runs_through_possessives(question):
        span = strip_span(question[start:end])
        if len(span.split()) < OPENING_WORDS or len(span) < OPENING_CHARS:
            continue
        try:
            hits = api.searchPublication(publication_info=span)
        except Exception:
            continue
        opening = fold(span)
        starting = {
            fold(hit["title"]): hit["title"] for hit in hits[:5] if fold(hit["title"]).startswith(opening + " ")
        }
        if len(starting) == 1:
            offset = question.index(span, start)
            return Mention("paper", span, offset, offset + len(span), next(iter(starting.values())), OPENING_SCORE)
    return None


STEM = 5  # "predict" and "prediction" share their first five letters
WORDS_MISSED, WORDS_MATCHED = 1, 3  # a phrase of 3+ words that a title holds but one ("US climate regions")


def _content_words(phrase: str) -> list[str]:
    return [word for word in fold(phrase).split() if word not in QUESTION_WORDS and word not in TITLE_GLUE]


# An initialism a person writes for words of a title ("LLMs" for "Large Language Models", "GNN" for "Graph
# Neural Networks"): capitals (a plural "s" after them), three letters at least, so that two letters
# matching two words' initials by chance ("AI" for "an interface") name nothing.
INITIALISM = re.compile(r"\b([A-Z]{3,})s?\b")


def initialisms(phrase: str) -> set[str]:
    """The initialisms of a phrase, folded as its words are ("llms" stands for "llm")."""
    return {found.group(0).lower() for found in INITIALISM.finditer(phrase)}


def spelled_out(word: str, said: list[str]) -> bool:
    """Whether an initialism's letters are the initials of consecutive words of the title ("llms": the
    "l", "l", "m" of "large language models")."""
    letters = word.removesuffix("s") if len(word) > 3 and word.endswith("s") else word
    return any("".join(part[0] for part in said[at : at + len(letters)]) == letters for at in range(len(said)))


def _searched_by_words(words: list[str], api: Any) -> list:
    """The hits for the words, or where no title holds them all, for the words less one (each in turn)."""
    hits = list(api.searchPublication(publication_info=" ".join(words))[:5])
    if hits or len(words) < 2:  # "the Entropy fairness paper": one word may be its venue's, not its title's
        return hits
    for left_out in range(len(words)):
        for hit in api.searchPublication(publication_info=" ".join(words[:left_out] + words[left_out + 1 :]))[:5]:
            if all(hit["pub_id"] != other["pub_id"] for other in hits):
                hits.append(hit)
    return hits


def _holding_words(phrase: str, api: Any) -> dict[str, str]:
    """The one title whose words (or its venue's: "the NEJM AI screening paper") hold every word of the
    phrase but the frame words, as word beginnings, or all but one of three or more; {} when none or
    several hold it as well."""
    wanted = _content_words(phrase)
    if len(wanted) < 2:
        return {}
    try:
        hits = _searched_by_words(wanted, api)
    except Exception:
        return {}
    abbreviated = initialisms(phrase)
    scored: list[tuple[int, str]] = []
    for hit in hits:
        record = api.getPublication(pub_id=hit["pub_id"]) or {}
        said = fold(f"{hit['title']} {record.get('venue') or ''}").split()
        stems = {word[:STEM] for word in said}
        title_words = fold(hit["title"]).split()
        missed = sum(
            not (
                (word[:STEM] in stems if len(word) > 2 else word in said)
                # "the paper on … w/ LLMs": the title's "Large Language Models"
                or (word in abbreviated and spelled_out(word, title_words))
            )
            for word in wanted
        )
        if missed == 0 or (missed <= WORDS_MISSED and len(wanted) - missed >= WORDS_MATCHED):
            scored.append((missed, hit["title"]))
    fewest = min((missed for missed, _ in scored), default=None)
    best: dict[str, str] = {}
    for missed, title in scored:  # search order: the first record of a work stands for its copies
        if missed == fewest:
            best.setdefault(work_key(title), title)
    return best if len(best) == 1 else {}


COPY_NOTE = re.compile(r"\s*\((?:preprint|accepted|published|extended|author)[^)]*\)\s*$", re.I)


def work_key(title: str) -> str:
    """A title as the work it names: its preprint and its published record ("… (Preprint)") are one."""
    return fold(COPY_NOTE.sub("", title))


def _holds_phrase(title: str, phrase: str) -> bool:
    """The phrase's words in a row in the (folded) title, each as a word's beginning ("test" in "tests")."""
    words = r"\w*\s+".join(re.escape(word) for word in phrase.split())
    return re.search(rf"(?<!\w){words}\w*", title) is not None


# Words that may sit inside a title phrase between its content words ("history of Rao's score test").
TITLE_GLUE = {"a", "an", "the", "of", "on", "in", "for", "and", "to", "with", "from", "by", "via", "at"}
NAMED_IN_TITLE_WORDS = 2  # content words beside the name that the title must hold too
AROUND = 5  # words either side of a name searched as a title phrase


def _stem(word: str) -> str:
    folded = fold(word).split()
    return folded[0][:STEM] if folded else ""


def named_in_title(question: str, mention: Mention, api: Any) -> Mention | None:
    """The paper whose title holds a name the question uses ("the history of Rao's score test": Rao
    is a word of the title), with at least two of the words around the name, where that person wrote
    no such paper: the name is the title's, not a scholar the question asks about. None otherwise."""
    words = word_spans(question)
    inside = [k for k, (start, end, _) in enumerate(words) if start < mention.end and end > mention.start]
    if not inside:
        return None
    low, high = inside[0], inside[-1]
    window = words[max(0, low - AROUND) : high + AROUND + 1]
    query = " ".join(strip_span(w) for _, _, w in window if strip_span(w).lower() not in QUESTION_WORDS)
    try:
        hits = api.searchPublication(publication_info=query)[:5]
    except Exception:
        return None
    name_stems = [_stem(word) for _, _, word in words[low : high + 1] if _stem(word)]
    best: tuple[int, int, int, dict] | None = None
    for hit in hits:
        stems = {word[:STEM] for word in fold(hit["title"]).split()}
        if not name_stems or not all(stem in stems for stem in name_stems):
            continue
        first, last = low, high
        for step in (-1, 1):  # grow over the title's words (and the glue between them) on each side
            k = (low if step < 0 else high) + step
            while 0 <= k < len(words):
                word = strip_span(words[k][2]).lower()
                if _stem(word) not in stems and word not in TITLE_GLUE:
                    break
                if _stem(word) in stems and word not in TITLE_GLUE:
                    first, last = min(first, k), max(last, k)
                k += step
        beside = sum(
            _stem(words[k][2]) in stems and strip_span(words[k][2]).lower() not in TITLE_GLUE | QUESTION_WORDS
            for k in range(first, last + 1)
            if not low <= k <= high
        )
        if beside >= NAMED_IN_TITLE_WORDS and (best is None or beside > best[2]):
            best = (first, last, beside, hit)
    if best is None:
        return None
    first, last, _, hit = best
    try:
        record = api.getPublication(pub_id=hit["pub_id"])
    except Exception:
        return None
    authors = [author.get("name") or "" for author in (record or {}).get("authors") or []]
    if any(similarity(author, mention.matched) >= SAME_NAME for author in authors):
        return None  # the person wrote it: a scholar named beside their own paper
    start, end = words[first][0], words[last][1]
    span = strip_span(question[start:end])
    offset = question.index(span, start)
    return Mention("paper", span, offset, offset + len(span), hit["title"], PHRASE_SCORE)


def find_entity(question: str, api: Any) -> Mention | None:
    """The paper a question names if it quotes a title, else the scholar it names."""
    return find_paper(question, api) or find_person(question, api)
