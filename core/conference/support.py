"""The confidence check: does the node an answer was read from say what the question is about?

An answer of the right kind can still be about the wrong thing: "What is the acceptance rate
this year?" answered with the refund deadline (a date under "Year(2023)"), "Are pets allowed in
the convention center?" with Yes from the child-care rules (which name the convention center).
Sharing *a* word with the question is not enough; sharing its *informative* words is.

So the question's subject is its words beyond how it asks (``kinds.GENERIC``, "how big",
"this year"), beyond the labels of the kind it asks for ("deadline" in a "when", "fee" in a "how
much") and beyond the conference's own name; each word weighs its inverse document frequency
over the site's paths (a word on every page, "workshop" at ICML, says little; "pets" says a lot).
An answer is supported when the paths it cites hold at least ``SUPPORT_SHARE`` of that weight (a
word counts when it or a word of its synonym group is there, compared by five-letter prefix). A
path about another edition of the conference ("ICML 2025 » location") supports nothing unless the
question names that year. Below the share the engine says plainly that the site data does not
hold it: a wrong answer costs more than an abstention.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.conference.affiliations import ORGANISATION_WORDS, asks_affiliation
from scholar_tui.core.conference.asking import (
    AUXILIARIES,
    DETERMINERS,
    TIME_WORDS,
    asks_clock_time,
    predicate_words,
    who_verb,
)
from scholar_tui.core.conference.kinds import (
    ASKING,
    GENERIC,
    LABEL_WORDS,
    PREFIX,
    YEAR,
    asked_editions,
    other_edition,
    split_digits,
)
from scholar_tui.core.conference.lexical import INDEFINITE, SYNONYM_GROUPS, WORD, stem, without_clitic, words
from scholar_tui.core.conference.paths import node_path_text, path_headings
from scholar_tui.core.conference.question_words import WH_WORDS
from scholar_tui.core.conference.site_topics import MIN_VOCABULARY, generic_variant, tree_vocabulary
from scholar_tui.core.conference.tree import Node, Tree

SUPPORT_SHARE = 0.5
"""More than half of what the question is about (by information) must be on the cited paths: a
plain majority, the prior this check starts from; not tuned per conference."""

FORM_WORDS = frozenset(
    stem(word)
    for word in """big bigger large larger small long longer short far often soon much many size
exactly approximately roughly total year years this today now also still won win wins receive received
awarded back sent send sends released release announced announce second third fourth fifth email mail
address link url website phone contact contacts title titles number charge charges every each under regarding concerning
already ever during within between among they them their his her hers own don't up main primary worth""".split()
)
"""Words that say how a question asks ("how big", "this year", "who won", "when are they sent", "the
second"), or the form of the value asked ("e-mail address", "link", "title"), rather than what about."""


HOW = re.compile(r"^(?:[a-z]{3,}ed|[a-z]{4,}ly)$")
"""A past participle or an adverb ("fixed", "physically") says how or what happens, not what about. An
-ing word may be a noun ("parking", "printing") and stays."""


CALENDAR = re.compile(
    r"\b(mon|tue|wed|thu|fri|sat|sun)(?:day|s|sday|nesday|rsday|urday)?\b"
    r"|\b(jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)(?:uary|ruary|ch|il|e|y|ust|t|tember|ober|ember)?\b",
    re.IGNORECASE,
)
""""Sunday" and "Sun," or "September" and "Sep" are one word: a weekday or a month by its three letters."""


FUNCTION_WORDS = frozenset(
    """above across again against along although among amongst apart around because beside besides beyond both but
despite either else elsewhere even hence however instead meanwhile moreover nevertheless never nor otherwise perhaps
quite rather regardless than then therefore though through throughout thru thus too toward towards unless upon via
whereas whether while whilst yet almost always anyway somehow whatever whoever wherever whenever
i'm we're you're they're i've we've you've they've i'd we'd i'll we'll""".split()
)
"""English's closed-class words beyond ``lexical.STOPWORDS`` (conjunctions, adverbs of contrast and frequency,
prepositions of route: "else", "never", "while", "through"): they say how a wh-question is put, never what it is
about, and a site that never writes "else" does not thereby lack what "what else is used …?" asks; so are the
asker's pronoun with its verb written short ("I'm writing a paper …", "we're a sponsor"). Words that
narrow what is asked stay: "after"/"before"/"until" (the price after the early deadline), "only", numerals."""

HOW_IS = re.compile(r"\b(how\s+[a-z]+)['’]s\b", re.IGNORECASE)
""""How long's each tutorial?" is "how long is": the "'s" is a verb written short, not a word of the subject."""
POSSESSIVE = re.compile(r"^([a-z0-9]+)['’]s$")
IS_BEFORE_DETERMINER = re.compile(rf"\b([A-Za-z0-9]+)['’]s(?=\s+(?:{'|'.join(sorted(DETERMINERS))})\b)", re.IGNORECASE)
""""What room's the ES-FoMo workshop in?": a possessive is followed by what is possessed, never by a determiner, so
an "'s" before one is "is" written short."""


CONDITION = frozenset("if when once since unless".split())
"""The conjunctions a person opens a condition with before the question itself ("if I only bought …, can my kid …?")."""
SUBJECTS = frozenset("i we you they he she it my our your their his her its the a an there this that".split())


def asks_yes_no(question: str) -> bool:
    """Whether the question opens with an auxiliary ("Can I …?", "Is there …?"), or does so after a condition
    ("If I only bought a workshop pass, can my kid …?"): there every word is what is asked. A wh-question or a
    terse one ("min and max page count?") asks for a value. Wider than ``question_form``'s "yes_no" on purpose:
    it only decides which words are asked, and an "or" question ("Is there a dinner or a banquet?") asks all."""
    tokens = re.findall(r"[a-z]+", question.lower())
    if not tokens:
        return False
    if tokens[0] in AUXILIARIES:
        return True
    if tokens[0] not in CONDITION or any(token in WH_WORDS for token in tokens):
        return False
    # the question after the condition: an auxiliary followed by its subject ("can my", "do I", "is there")
    return any(
        first in AUXILIARIES and second in SUBJECTS for first, second in zip(tokens[2:], tokens[3:], strict=False)
    )


def _owner_if_own_name(raw: str, own: set[str]) -> str:
    """ "ICML's phone number": the possessive of the conference's own name names the conference, which adds
    nothing to what is asked (as "at ICML" does not); any other possessive stays as written."""
    owner = POSSESSIVE.match(raw)
    return owner.group(1) if owner and owner.group(1)[:PREFIX] in own else raw


def capitalised(question: str) -> set[str]:
    """The question's words written with a capital (lower-cased): names, as a person writes them."""
    return {word.lower() for word in re.findall(r"\b[A-Z][A-Za-z0-9]*", question)}


def _calendar(text: str) -> str:
    return CALENDAR.sub(lambda match: (match.group(1) or match.group(2)).lower(), text)


def word_prefix(word: str) -> str:
    """A stemmed word's first five letters; a short plural ("jobs", "fees", "regs"), which the light stemmer
    leaves whole, by its singular: "jobs at Memect" is what "Job Posting » Memect" holds."""
    if len(word) == 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    return word[:PREFIX]


def prefixes(text: str) -> set[str]:
    """The five-letter prefixes of a text's words, a weekday or month by its three letters, "e-mail" as "email"."""
    return {word_prefix(word) for word in words(split_digits(_calendar(re.sub(r"(?i)\be-mail", "email", text))))}


LOOSE = frozenset({"rate", "city", "care"})
SAME_THING = tuple(
    frozenset(stem(word)[:PREFIX] for word in group)
    for group in (
        *(group for group in SYNONYM_GROUPS if not group & LOOSE),
        frozenset(
            "notification notifications notify notified decision decisions hear informed told announcement".split()
        ),
        frozenset("register registration sign signup enrol enroll".split()),
    )
)
"""Words that name one thing in a question and on a site: retrieval's synonym groups
(``lexical.SYNONYM_GROUPS``) but for the loose ones, where "rate" stands for "fee", "city" for
"address" and "care" for "child" (an acceptance rate is not supported by a registration fee, child care
not by "who should care?"), and "When will I hear back?"
asking for the notification."""
_SYNONYMS: dict[str, set[str]] = {}
for _group in SAME_THING:
    for _prefix in _group:
        _SYNONYMS.setdefault(_prefix, set()).update(_group)


def synonyms(prefix: str) -> set[str]:
    """The word prefixes that name the same thing as ``prefix`` (``SAME_THING``), itself left out or not."""
    return _SYNONYMS.get(prefix, set())


def _frequencies(tree: Tree) -> tuple[Counter, int]:
    """How many of the site's leaf paths hold each word prefix, and how many paths there are (cached)."""
    cached = getattr(tree, "_prefix_frequencies", None)
    if cached is None:
        counter: Counter = Counter()
        leaves = [leaf for leaf in tree.leaves() if leaf.text]
        for leaf in leaves:
            counter.update(prefixes(node_path_text(tree, leaf)))
        cached = (counter, len(leaves))
        tree._prefix_frequencies = cached  # type: ignore[attr-defined]
    return cached


def weight(tree: Tree, prefix: str) -> float:
    """Inverse document frequency of a word prefix over the site's paths (a word it never uses weighs most)."""
    counter, total = _frequencies(tree)
    return math.log((total + 1) / (counter.get(prefix, 0) + 1))


COST_VERB = re.compile(r"\b(?:run|runs|set (?:me|you|us|them) back|go(?:es)? for)\s*\??\s*$", re.IGNORECASE)
""""How much does the silver package run?", "… set me back?": the closing verb says "cost" (the amount cue of
``core.answer_kind``), not a thing the package is about."""


def subject(question: str, tree: Tree, kind: Kind, *, known_only: bool = True, asking: bool = False) -> set[str]:
    """The prefixes of the words saying what the question is about (see the module doc); on a small site only
    the words it uses, unless ``known_only`` is False; the asker's verb and fillers (``asking_words``) only when
    ``asking`` is True."""
    own = LABEL_WORDS.get(kind, frozenset())
    if kind is Kind.PLACE and asks_affiliation(question):  # "what university is she at?" asks for one
        own = own | ORGANISATION_WORDS
    if kind is Kind.MONEY:
        question = COST_VERB.sub("", question)
    question = IS_BEFORE_DETERMINER.sub(r"\1 is", HOW_IS.sub(r"\1 is", question))
    itself = identity(tree)
    closed = frozenset() if asks_yes_no(question) else FUNCTION_WORDS  # a yes/no question is left whole
    names = capitalised(question)
    asked = {
        word_prefix(word)
        for raw in WORD.findall(_calendar(split_digits(question)).lower().replace("’", "'"))
        if not HOW.search(raw) and raw not in closed
        for word in words(without_clitic(_owner_if_own_name(raw, itself), names))
        if word not in GENERIC
        and word not in ASKING
        and word not in own
        and word not in FORM_WORDS
        and not generic_variant(word, GENERIC | FORM_WORDS)
    }
    about = asked - itself
    told = asking_words(question, typed=kind is not Kind.TEXT)
    if not asking and about - told:  # the asker's verb and fillers, unless they are all it says
        about -= told
    if known_only:
        counter, _ = _frequencies(tree)
        if len(tree_vocabulary(tree)) < MIN_VOCABULARY:
            # a small site's silence on a word says nothing (as for ``site_topics.unknown_topic``): only its words count
            about = {prefix for prefix in about if counter.get(prefix)}
        if closed:  # nor, in a question for a value, a site's silence on the asker's own doing: no path holds
            # "bought"; a yes/no question is left whole, as above
            about -= {prefix for prefix in asker_doing(question) if not counter.get(prefix)}
    about -= pronouns(question)  # "cost us", "did anybody win": a pronoun names nothing, in any question
    return about


ADVERBS = r"(?:(?:only|just|still|already|also|really|actually|even|never|ever|first|now)\s+)*"
ASKER_CLAUSE = re.compile(
    rf"(?<![\w'])(?:i|we|you|they|he|she|people|folks|someone|anyone)(?:'m|'re|'ve|'d|'ll)?\s+{ADVERBS}"
    rf"(?:(?:want|need|have|going|got|plan|hope|wish|try|trying)\s+to\s+)?{ADVERBS}([a-z]+)\b(?:\s+([a-z]+))?",
    re.IGNORECASE,
)
""""I only bought a workshop registration", "if we designate our student author", "I want to catch the … talk",
"how many people sit on …":
the verb of a clause the asker says of themselves, the setting of the question and not what it asks. A yes/no
question's own verb after its auxiliary ("can I bring a dog?") is what it asks, and stays."""


def pronouns(question: str) -> set[str]:
    """The prefixes of the question's pronouns ``lexical.STOPWORDS`` lacks (``INDEFINITE``)."""
    return {word_prefix(raw) for raw in WORD.findall(question.lower()) if raw in INDEFINITE}


def asker_doing(question: str) -> set[str]:
    """The prefixes of the verbs of the asker's own clauses (``ASKER_CLAUSE``: "I only bought", "how many people
    sit on …"): how a person sets the scene, which a site never writes; the confidence check leaves out those the
    site does not use."""
    lowered = question.lower().replace("’", "'")
    found: set[str] = set()
    for match in ASKER_CLAUSE.finditer(lowered):
        before = re.findall(r"[a-z]+", lowered[: match.start()])[-1:]
        if before and before[0] in AUXILIARIES:
            continue  # "can I bring a dog?": the verb a yes/no question or a wh-question's auxiliary asks about
        verb, after = match.group(1), match.group(2)
        if verb in AUXILIARIES and after:  # "if I have registered": the verb after the auxiliary
            verb = after
        if verb not in AUXILIARIES:
            found.add(verb)
    return {word_prefix(word) for raw in found for word in words(raw)}


ROLE_PREFIXES = frozenset(word[:PREFIX] for word in LABEL_WORDS[Kind.PEOPLE] - {"name", "names"})
"""Words by which a site heads people with a role ("Chairs", "Organizers", "Speaker", "Moderator")."""


def asking_words(question: str, typed: bool = True) -> set[str]:
    """The prefixes of the words that say how a wh-question asks (``asking.predicate_words``: "running",
    "gotta"), and "time" of "what time …?" (the form of the value, as "date" is). The verb only when the answer
    is ``typed`` (a date, an amount, a person: the value's kind says what the verb would); a free-text answer has
    only its words, and "which editor do they recommend" is not answered by a paragraph on page limits."""
    said = predicate_words(question, verbs=typed) | (TIME_WORDS if asks_clock_time(question) else set())
    return {word[:PREFIX] for raw in said for word in words(raw)}


def generic_prefixes() -> set[str]:
    """The prefixes of the words of how any question asks (``kinds.GENERIC``, ``FORM_WORDS``)."""
    return {word[:PREFIX] for word in GENERIC | FORM_WORDS}


IDENTITY_LABELS = frozenset({"location", "full name", "name", "event"})


def identity(tree: Tree) -> set[str]:
    """The words that name the conference itself: its root, and its own name and location (the shallowest
    nodes so labelled). "At the convention center" or "at ICML" adds nothing to what a question is about."""
    cached = getattr(tree, "_identity", None)
    if cached is None:
        own = [leaf for leaf in tree.leaves() if leaf.text and leaf.label.lower() in IDENTITY_LABELS]
        shallowest = min((leaf.depth for leaf in own), default=0)
        cached = prefixes(tree.root.label)
        for leaf in own:
            if leaf.depth == shallowest:
                cached |= prefixes(leaf.text or "")
        tree._identity = cached  # type: ignore[attr-defined]
    return cached


EVENTS = (
    frozenset(stem(word)[:PREFIX] for word in "deadline deadlines due submission submissions submit".split()),
    frozenset(stem(word)[:PREFIX] for word in "notification notifications notify notified decision hear".split()),
)
"""Two dates of one thing that a site keeps apart: when it is due, and when its outcome is told."""


def other_event(question: str, texts: Sequence[str]) -> bool:
    """Whether the question asks for one of ``EVENTS`` and the cited paths name only the other ("the deadline
    for industry papers" answered by "Industry Papers Notification")."""
    asked, said = prefixes(question), set()
    for text in texts:
        parts = path_headings(text)  # the headings, not the value nor a record's bare fields
        if parts and not set(words(parts[-1])) - LABEL_WORDS[Kind.DATE] - GENERIC:
            parts = parts[:-1]  # a field labelled only by the kind ("date", "deadline") names no event
        said |= prefixes(" ".join(parts))
    for wanted, other in (EVENTS, EVENTS[::-1]):
        if asked & wanted and not asked & other and said & other and not said & wanted:
            return True
    return False


def support(question: str, tree: Tree, kind: Kind, texts: Iterable[str]) -> float:
    """The share (0–1) of the question's subject, by weight, that ``texts`` (the cited paths) hold; 0 for
    another year's conference or another event of the thing (its notification for its deadline)."""
    texts = list(texts)
    if kind is Kind.DATE and other_event(question, texts):
        return 0.0
    if misses_asked_edition(question, tree, texts):
        return 0.0
    about = subject(question, tree, kind)
    if not about:
        return 1.0
    said: set[str] = set()
    for text in texts:
        if not other_edition(question, tree, text):
            said |= prefixes(text)
    doing = {word[:PREFIX] for raw in who_verb(question) for word in words(raw)}
    if doing and not said & ROLE_PREFIXES and not any(_said(prefix, said) for prefix in doing):
        return 0.0  # "who's catering …?" over a path that says neither the catering nor a role says nobody does it
    if any(not _said(prefix, said) for prefix in named(question) & about):
        return 0.0  # "the camera-ready deadline for TAG-ML papers": a path that does not name TAG-ML is another's
    # the asker's verb counts where a cited path says it ("Notification" for "when will I hear …"), never against
    about |= {prefix for prefix in asking_words(question) if _said(prefix, said)} - generic_prefixes()
    total = sum(weight(tree, prefix) for prefix in about)
    if total <= 0:
        return 1.0
    covered = sum(weight(tree, prefix) for prefix in about if _said(prefix, said))
    return covered / total


ACRONYM = re.compile(r"(?<![\w-])[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+(?![\w-])")
"""A thing named by a compound acronym ("TAG-ML", "LM-KBC", "ISWC-2022"): what the asker names by name, not by
description. A plain one ("US visa", "PC members", "the code of conduct for ACL conferences") is as often a
common abbreviation or a passing reference as the thing asked about: not these."""


def named(question: str) -> set[str]:
    """The prefixes of the words of the acronyms a question names things by; every one must be on a path that
    answers it (a path about another workshop shares the description, not the name)."""
    return {prefix for match in ACRONYM.finditer(question) for prefix in prefixes(match.group(0))}


def _said(prefix: str, said: set[str]) -> bool:
    """Whether ``said`` holds the word, itself or by a word of its synonym group."""
    return prefix in said or bool(_SYNONYMS.get(prefix, set()) & said)


def misses_asked_edition(question: str, tree: Tree, texts: Sequence[str]) -> bool:
    """Whether the question asks about another year's conference ("Where is ICML 2026 held?" on ICML
    2023's site) and no cited path names that year: this year's paths would answer for another."""
    editions = asked_editions(question, tree)
    return bool(editions) and not any(editions & set(YEAR.findall(split_digits(text))) for text in texts)


def supported(question: str, tree: Tree, kind: Kind, texts: Iterable[str]) -> bool:
    return support(question, tree, kind, texts) >= SUPPORT_SHARE


# -- the node labelled with what the question asks about -------------------------------------------------
def heading(node: Node, tree: Tree, kind: Kind) -> str:
    """What a value's node is called: its label, or when the label only says the kind ("date", "Start
    Date", "price") or is missing, its parent's label too ("Tutorials » Start Date")."""
    own = set(words(node.label)) - GENERIC - LABEL_WORDS.get(kind, frozenset())
    parent = tree.parent(node)
    if own or parent is None:
        return node.label
    return f"{parent.label} {node.label}"


def names_subject(question: str, tree: Tree, kind: Kind, node: Node) -> bool:
    """Whether the node's own heading names everything the question is about."""
    about = subject(question, tree, kind)
    return bool(about) and _covered(about, prefixes(heading(node, tree, kind)))


def _covered(about: set[str], said: set[str]) -> bool:
    """Every word of ``about`` is in ``said``, itself or by a word of its synonym group."""
    return all(prefix in said or _SYNONYMS.get(prefix, set()) & said for prefix in about)


def labelled(
    kind: Kind,
    question: str,
    tree: Tree,
    evidence_ids: Sequence[int] = (),
    holds: Callable[[str], object] | None = None,
) -> Node | None:
    """The leaf holding a value of ``kind`` whose own heading names the question's whole subject ("What
    day are the tutorials?" → "Important Dates » Tutorials: Mon Jul 24th"), of several the one retrieved
    first, else the shallowest; None when no leaf is so labelled."""
    from scholar_tui.core.conference.kinds import holds_kind

    about = subject(question, tree, kind)
    if not about:
        return None
    found = [
        leaf
        for leaf in tree.leaves()
        if _covered(about, prefixes(heading(leaf, tree, kind)))
        and (holds(leaf.text or "") if holds is not None else holds_kind(kind, leaf, tree))
        and not other_edition(question, tree, node_path_text(tree, leaf))
    ]
    if not found:
        return None
    order = {node_id: rank for rank, node_id in enumerate(evidence_ids)}
    return min(found, key=lambda leaf: (order.get(leaf.id, len(order)), leaf.depth, leaf.id))
