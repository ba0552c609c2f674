"""How people ask: the words of a wh-question that say how it asks rather than what it is about.

A person writes a question around the thing it is about: "who's running the expo?", "when do I gotta send in
my social proposal by?", "what time does the opening reception kick off?". The thing is a noun phrase ("the
expo", "my social proposal", "the opening reception"); the rest is the grammar of asking — the wh-word, the
auxiliary, a pronoun for the asker, the predicate's verb and its particle ("kick off", "pay out", "find out"),
spoken fillers ("gonna", "till"). A site names the thing, rarely the asker's verb: "Expo Chairs" do not say
"running", "Social Deadline Date" does not say "send". Requiring the verb refused right answers.

The grammar here is small and positional, English and general, no site's wording:

* the verb after "who" ("who handles …", "who's handling …": "who" + a form of "be" + an -ing word), unless it
  names a role a site heads people with ("who moderates …"), and let go only where the cited paths say a role;
* the verb after an auxiliary and a pronoun ("can I apply", "do they need", "do I gotta send", "do I talk to"):
  what the asker does, never a role asked;
* a closing particle and fillers anywhere ("… move out?", "till", "gotta", "stuff");
* phrasal verbs and idioms said as the one word a site writes (``plain_question``: "kick off" → "start", "find
  out" → "hear", "who's running" → "who organizes", "price tag" → "price").

These words are ``predicate_words``. The confidence check (``support``) does not require them of a typed answer
(a date, an amount, a person: the value's kind says what the verb would) and counts them where a cited path says
them ("Notification" for "when will I hear …"), never against it; a free-text answer keeps the verb ("which editor
do they recommend" is not answered by a paragraph on page limits). A yes/no question is left whole: there the verb
is what is asked ("Can I transfer my registration?").

``asks_clock_time`` reads "what time …?" / "at what time …?": the answer is a time of day, which a site
writes as one ("9:00 am", "23:59 AoE") — a date alone does not say it.
"""

from __future__ import annotations

import re

from scholar_tui.core.conference import question_words
from scholar_tui.core.conference.lexical import WORD, stem

PRONOUNS = frozenset("i we you they he she one someone anyone people folks".split())
AUXILIARIES = frozenset(question_words.AUXILIARIES)
FILLERS = frozenset(
    "gonna gotta wanna kinda sorta ya yo hey hi um uh ok okay so like till until exactly actually really basically "
    "ever still even just stuff whole entire anyway btw nowadays".split()
)
"""Spoken fillers, hedges, vague nouns ("accessibility stuff"), "whole" and "till"/"until" (a "when" said twice):
they name nothing a site would label."""
MODAL_FILLERS = ("have to", "need to", "got to", "going to", "want to", "able to")
"""Between the asker and the verb: "do I have to send", "can we still apply"."""
PARTICLES = frozenset("out off away along around".split())
"""The particle of a phrasal verb ("pay out", "move out"): how, never what (a particle that may also be a
preposition, "after the early deadline", is left to the words around it)."""
BE = r"(?:\s*'s|\s+(?:is|are|was|were))"
WH_OPENERS = frozenset(question_words.WH_WORDS) | {"till", "until"}
""""Open till?", "until when …": a "when" said as its preposition opens a wh-question too."""

WHO_VERB = re.compile(rf"\bwho{BE}?\s+([a-z]+)\b(?:\s+([a-z]+))?", re.IGNORECASE)
AUX_PRONOUN_VERB = re.compile(
    rf"\b(?:{'|'.join(sorted(AUXILIARIES))})\s+(?:{'|'.join(sorted(PRONOUNS))})\s+"
    rf"((?:(?:{'|'.join(sorted(FILLERS))}|{'|'.join(MODAL_FILLERS)})\s+)*)([a-z]+)\b(?:\s+([a-z]+))?",
    re.IGNORECASE,
)
CLOSING_PARTICLE = re.compile(rf"\b({'|'.join(sorted(PARTICLES))})\s*[?.!]*\s*$", re.IGNORECASE)
DETERMINERS = frozenset("the a an this that these those my our your their his her its".split())


def is_wh_question(question: str) -> bool:
    """Whether the question asks what/which/who/when/where/how (possibly after a filler or a clause), not yes/no."""
    tokens = [token for token in re.findall(r"[a-z]+", question.lower()) if token not in FILLERS - {"till", "until"}]
    if not tokens or tokens[0] in AUXILIARIES:
        return False
    return any(token in WH_OPENERS for token in tokens)


def predicate_words(question: str, verbs: bool = True) -> set[str]:
    """The words (lower case, as written) that say how a wh-question asks: fillers, a closing particle and, when
    ``verbs``, its predicate's verb (see the module doc). Empty for a yes/no question."""
    if not is_wh_question(question):
        return set()
    lowered = question.lower().replace("’", "'")
    found = {token for token in WORD.findall(lowered) if token in FILLERS}
    found.update(CLOSING_PARTICLE.findall(lowered))
    if not verbs:
        return found
    return found | who_verb(question) | asker_verb(question)


def asker_verb(question: str) -> set[str]:
    """The verb after an auxiliary and a pronoun and its particle ("can I apply", "do I talk to", "are they using"):
    what the asker or a vague "they" does, not a role of the people asked about."""
    found: set[str] = set()
    for match in AUX_PRONOUN_VERB.finditer(question.lower().replace("’", "'")):
        verb, after = match.group(2), match.group(3)
        if verb not in DETERMINERS:
            found.add(verb)
            if after in PARTICLES:
                found.add(after)
    return found


def who_verb(question: str) -> set[str]:
    """The verb after "who" and its particle ("who handles …", "who's handling …"), unless it names a role (see
    ``names_role``): what the person does, which a site says by the role it heads them with ("Publications
    Chairs"). The confidence check lets it go only where the cited paths do say a role (``support``)."""
    found: set[str] = set()
    for match in WHO_VERB.finditer(question.lower().replace("’", "'")):
        verb, after = match.group(1), match.group(2)
        with_be = re.match(rf"who{BE}", match.group(0))
        if verb in DETERMINERS or verb in AUXILIARIES or (with_be and not verb.endswith("ing")):
            continue  # "who is the chair", "who is Jane": a noun follows, not a verb
        if names_role(verb):
            continue  # "who moderates …": the role asked, which a site heads its people with ("Moderator")
        found.add(verb)
        if after in PARTICLES:
            found.add(after)
    return found


ROLE_STEMS = frozenset(
    stem(word)
    for word in (
        "author authors wrote write writes written chair chairs chaired lead leads led head heads charge moderator "
        "moderators moderate moderates moderated panelist panelists sits sit speaker speakers speak speaks give "
        "gives gave present presents organizer organizers organiser organisers organize organizes organise "
        "organises run runs running winner winners won win wins sponsor sponsors sponsored sponsoring fund funds "
        "funded support supports supported host hosts hosted"
    ).split()
)
"""Verbs and nouns of the roles a site heads its people with (general English)."""


def names_role(word: str) -> bool:
    """Whether a question's word names a role or the doing of it ("sits", "chairs", "sponsors", not "panel")."""
    return stem(word.lower()) in ROLE_STEMS


PHRASAL_VERBS = (
    (r"kick(s|ed|ing)?\s+(?:off|in)", "start"),
    (r"(?:going|goes|go)\s+for(?:\s+these\s+days)?", "cost"),
    (r"wrap(s|ped|ping)?\s+up", "end"),
    (r"find(s|ing)?\s+out|hear(s|ing)?\s+back", "hear"),
    (r"sign(s|ed|ing)?\s+up\s+for", "register for"),
    (r"look(s|ed|ing)?\s+after|in\s+charge\s+of", "chairs"),
    (r"put(s|ting)?\s+up\s+(?:the\s+)?money\s+for", "sponsors"),
    (r"(?<=who)\s+(?:paid|pays|pay)\s+for", " sponsored"),
    (r"pay(s|ing)?\s+out", "pay"),
    (r"(?<=who)(?:\s*'s|\s+is|\s+are)?\s+(?:running|leading|heading|managing|overseeing|coordinating)", " organizes"),
    (r"(?<=who)\s+(?:runs|leads|heads|manages|oversees|coordinates)", " organizes"),
    (r"price\s+tags?", "price"),
    (r"cut-?offs?(?:\s+date)?", "deadline"),
)
"""Phrasal verbs and idioms said as the one word a site would write: "kick off" is "start", "going for" is "cost", "find out" is "hear"
(a notification), "look after" is "chair", "who's running" is "who organizes", "put up the money for" is
"sponsor", as "who paid for" a prize is who sponsored it, a "price tag" is a price, a "cutoff" a deadline (general English)."""
_PHRASAL = tuple((re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE), plain) for pattern, plain in PHRASAL_VERBS)


UNMARKED_IS = re.compile(r"\b(what|who|where|when|how)s\b", re.IGNORECASE)
""""whats the email …", "whos running …": "what's" typed without its apostrophe, as people type in a hurry (no
English word is spelt "whats" or "whos" otherwise)."""


def plain_question(question: str) -> str:
    """The question with "whats" read as "what is" and its phrasal verbs said plainly (``PHRASAL_VERBS``)."""
    question = UNMARKED_IS.sub(r"\1 is", question)
    for pattern, plain in _PHRASAL:
        question = pattern.sub(plain, question)
    return question


CLOCK_QUESTION = re.compile(r"\b(?:what|which)\s+time\b(?!\s+zones?\b)|\bat\s+what\s+hour\b", re.IGNORECASE)
CLOCK_TIME = re.compile(
    r"\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s*(?:a\.?m\.?|p\.?m\.?)(?![a-z])|\bnoon\b|\bmidnight\b", re.IGNORECASE
)
TIME_WORDS = frozenset({"time", "hour"})
"""The head noun of "what time …": the form of the value asked, like "date" in "what date"."""


def asks_clock_time(question: str) -> bool:
    """Whether the question asks for a time of day ("what time does the bag check open?"), not a time zone."""
    return bool(CLOCK_QUESTION.search(question))


def says_clock_time(text: str) -> bool:
    """Whether a text writes a time of day ("9:00 am", "23:59 AoE", "6:15 -8:00 pm")."""
    return bool(CLOCK_TIME.search(text))
