"""PaSa: the Crawler fills a candidate pool, the Selector scores every paper of it.

One run (``PaSaEngine.run``, a sync generator of ``events``; ``CrawlRun`` holds its state):

1. ``plain_search``: the query as written, searched exactly as the plain library search does
   (its top 100, date cut-off included). Those papers enter the pool first and are ranked at
   once by the scoring head's prior (no model call): the first papers on screen. The crawl only
   adds to this pool; it can never lose a plain-search hit.
1b. ``early_judge``: the Selector's model judges the prior's top ``early_judge`` plain-search hits
   at once, back to back, and the pool is ranked again with their P(True) after each one
   (``Ranking`` stage "early"): a ranking by the model within seconds, while the crawl goes on. These verdicts are
   kept aside, never in the crawl's own ``p_true``: step 4 judges exactly the papers it judged
   before and reuses a verdict it finds there instead of asking the model again, so the final
   ranking is the one a run without this step gives. Their seconds are not charged to the
   crawl's time budget (the crawl acts as long as without them).
2. ``search_session``: the Crawler's [Search] actions; the papers they find join the pool at
   depth 1.
3. ``expand_sessions``: breadth first, the next pool paper below the depth limit that has
   sections citing something is read (S_q+p); its [Expand] actions add the papers those sections
   cite, one level deeper, each with the sentences that cite it (citation context).
4. ``judge``: the Selector's model gives P(True) for the prior's top ``judge_limit`` papers, back
   to back so that llama.cpp reuses the query's cached prefix; the scoring head combines P(True)
   with the rest of the evidence (``evidence``, ``selector_head``) into one calibrated score that
   ranks the pool (a paper the crawl added passes plain-search hits only when it is selected);
   "selected" is the head's rule (``SelectorHead.select``): the k best for the k with the highest
   expected F1 over the calibrated scores, or, with an older head file, its threshold and cap —
   of those, only the papers that fit the query (``fit``: they cover its subject — a key phrase of
   it, and not only a generic one when the library lacks the specific part — or match it closely);
   P(True) weighs in the head's score but never makes a paper fit. When none fits, nothing is
   selected and the search says so with the closest papers. A paper whose title names the query's
   subject never ranks below one that does not fit or holds only a more generic part of it.

With AutoFeedback on, every [Search]/[Expand] is sent as an API request (``tool_requests``):
statically scanned, executed, and when it fails or adds nothing new, explained from the tools'
documentation and handed back to the Crawler, which picks one untried action in its place. The
crawl stops when nothing is left to read, or the action, paper or time budget is spent, or it is
cancelled (the request's ``cancel`` event, checked between steps and passed into every generation).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from scholar_tui.core.autofeedback.loop import FeedbackLoop, Generation, LoopResult
from scholar_tui.core.events import Engine
from scholar_tui.core.pasa.actions import CheckedActions
from scholar_tui.core.pasa.crawler import Crawler, session_record
from scholar_tui.core.pasa.events import (
    CallFeedback,
    CrawlerDecided,
    CrawlFinished,
    CrawlNotice,
    CrawlStarted,
    Event,
    FoundPaper,
    PapersFound,
    RankedPaper,
    Ranking,
    SearchIssued,
    SectionExpanded,
    Verdict,
)
from scholar_tui.core.pasa.evidence import Evidence, Pool, evidence
from scholar_tui.core.pasa.fit import Subject, fits, lift_title_matches, subject_of, unfit_reason
from scholar_tui.core.pasa.phrases import search_candidates
from scholar_tui.core.pasa.prompts import CrawlerAction, CrawlerSession, SelectorRecord
from scholar_tui.core.pasa.queue import Budgets
from scholar_tui.core.pasa.selector import Selector, scored_rationale
from scholar_tui.core.pasa.selector_head import Selection, SelectorHead, threshold_selection
from scholar_tui.core.pasa.tool_requests import (
    EXPAND_API,
    SEARCH_API,
    ToolAttempt,
    ToolExecutor,
    expand_request,
    search_request,
)
from scholar_tui.core.pasa.tools import LibraryTools, Outline, ToolResult
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.search_changes import fts_totals, term_rarity
from scholar_tui.models.base import LLM
from scholar_tui.models.origin import logs_prompts_as


@dataclass
class PaSaOptions:
    budgets: Budgets = Budgets()
    query_mode: str = "auto"  # auto | candidates | free
    rationale: str = "auto"  # auto | template | model
    candidates: int = 6  # candidate search queries offered to a tiny model
    expand_at_least_one: bool = True  # an expand session names at least one section (see Crawler)
    use_head: bool = True  # False: rank by P(True) alone, select P(True) > 0.5 (PaSa's Selector)
    judge_limit: int | None = None  # papers the model judges; None: the head's own setting
    early_judge: int = 3  # plain-search hits judged before the crawl, for a ranking by the model in seconds


class CrawlCancelled(Exception):
    """Raised inside a feedback loop's generation when the crawl is cancelled."""


@dataclass
class CheckedCall:
    """One [Search]/[Expand] action: where its papers go and, through AutoFeedback, what a retry may pick."""

    kind: str  # "Search" | "Expand"
    argument: str
    session_text: str  # the session's response, replayed before the feedback
    options: list[str] | None  # the arguments the grammar offers (None: a free query)
    tried: set[str]  # lower-cased arguments used already: a retry picks another
    depth: int
    paper_id: int | None = None
    parent_node: int = 0
    outline: Outline | None = None

    @property
    def expanded(self) -> tuple[int, Outline]:
        """The paper an [Expand] reads and its outline (an Expand call is always made with both)."""
        if self.paper_id is None or self.outline is None:
            raise ValueError(f"a {self.kind} call names no paper to expand")
        return self.paper_id, self.outline

    def request(self, argument: str) -> str:
        return search_request(argument) if self.kind == "Search" else expand_request(self.expanded[0], argument)

    def found_by(self, argument: str) -> str:
        return f'search "{argument}"' if self.kind == "Search" else f"expand paper:{self.paper_id} “{argument}”"


def _with_outside(checked: CheckedActions, limit: int) -> list[CrawlerAction]:
    """The kept actions and, up to the session's limit, the ones outside the grammar, in text order."""
    room = max(limit - len(checked.kept), 0)
    return sorted(checked.kept + checked.outside[:room], key=lambda action: action.start)


def paper_url(row: dict) -> str | None:
    """The paper's page: its arXiv abstract when it has an arXiv id, else the URL the library holds."""
    return f"https://arxiv.org/abs/{row['arxiv_id']}" if row["arxiv_id"] else row["url"]


@dataclass
class CrawlRun:
    """One query's crawl: the pool, the verdicts, the tree's node ids, cancel, and why it stopped."""

    engine: "PaSaEngine"
    query: str
    date: str | None
    cancel: threading.Event
    pool: Pool
    clock: float = field(default_factory=time.monotonic)
    p_true: dict[int, float] = field(default_factory=dict)
    stop_reason: str = "queue exhausted"
    actions: int = 0
    first_results: float | None = None
    nodes: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    executor: ToolExecutor | None = None
    library_exhausted: bool = False  # the plain search already returned every paper of the library
    early: dict[int, float] = field(default_factory=dict)  # P(True) judged before the crawl (early_judge)
    early_seconds: float = 0.0  # the early judging's time, not charged to the crawl's time budget
    _expand_cursor: int = 0

    @property
    def tools(self) -> LibraryTools:
        return self.engine.tools

    @property
    def budgets(self) -> Budgets:
        return self.engine.options.budgets

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.clock

    def node(self) -> int:
        return next(self.nodes)

    def may_act(self) -> bool:
        """Whether one more action may run; sets the stop reason when not."""
        if self.cancel.is_set():
            self.stop_reason = "cancelled"
        elif self.actions >= self.budgets.max_actions:
            self.stop_reason = "action budget"
        elif self.elapsed - self.early_seconds > self.budgets.crawl_seconds:
            self.stop_reason = "time budget"
        elif self.library_exhausted and self.tools.online is None:
            # Offline, a [Search] or [Expand] can only bring back papers already queued: AutoFeedback
            # would ask for rewordings (E_NOTHING_NEW) until the loop waited for a person for nothing.
            self.stop_reason = "every library paper is in the pool" + (" (before the cut-off)" if self.date else "")
        else:
            return True
        return False

    # -- phases ------------------------------------------------------------------------------------
    def plain_search(self) -> Iterator[Event]:
        node = self.node()
        yield SearchIssued(node, 0, self.query, plain=True)
        hits = self.tools.plain_search(self.query, self.date)
        self.library_exhausted = self.tools.returned_whole_library(hits, self.date)
        added = self.pool.add_plain(hits, node, self.node)
        rows = self.tools.library.papers([entry.paper_id for entry in added])
        yield PapersFound(
            node,
            [
                self._found(entry.node, entry.paper_id, rows[entry.paper_id], 1)
                for entry in added
                if entry.paper_id in rows
            ],
            0,
            0,
            "library",
        )
        ranking = self.engine.rank(self)
        self.first_results = self.elapsed
        yield Ranking(ranking, "plain", round(self.first_results, 3))
        yield from self.early_judge(ranking)

    def early_judge(self, ranking: list[RankedPaper]) -> Iterator[Event]:
        """P(True) for the prior's top plain-search hits, then the pool ranked with them (see the module
        doc, 1b): the model's ranking on screen before the Crawler's first call."""
        engine, clock = self.engine, time.monotonic()
        wanted = [paper.paper_id for paper in ranking[: engine.options.early_judge]]
        if not wanted or self.cancel.is_set():
            return
        rows = self.tools.library.papers(wanted)
        for paper_id in wanted:
            row = rows.get(paper_id)
            if self.cancel.is_set() or row is None:
                break
            probability = engine.selector.probability(self.query, row["title"], row["abstract"] or "", self.cancel)
            self.early[paper_id] = round(probability, 4)
            yield Verdict(paper_id, self.pool.entries[paper_id].node, self.early[paper_id])
            # ranked again as each verdict comes: the first one is on screen after one model call
            ranking = engine.rank(self, p_true=self.early)
            yield Ranking(ranking, "early", round(self.elapsed, 3), judged=len(self.early), judging=len(wanted))
        self.early_seconds = time.monotonic() - clock

    def search_session(self) -> Iterator[Event]:
        engine = self.engine
        candidates = search_candidates(self.query, engine.options.candidates) or [" ".join(self.query.split()[:12])]
        result = engine.crawler.search_session(self.query, candidates, self.cancel)
        engine.sessions.append(session_record(self.query, "search", None, result))
        yield CrawlerDecided(
            "search",
            None,
            result.text,
            [a.render() for a in result.checked.kept],
            result.checked.refused,
            round(result.seconds, 3),
            candidates if engine.crawler.query_mode == "candidates" else [],
        )
        options = candidates if engine.crawler.query_mode == "candidates" else None
        searched = {action.argument.lower() for action in result.checked.kept}
        for action in result.checked.kept:
            if not self.may_act():
                return
            self.actions += 1
            call = CheckedCall("Search", action.argument, result.text, options, searched, depth=1)
            yield from self.search_action(self.node(), call)

    def expand_sessions(self) -> Iterator[Event]:
        engine = self.engine
        while self.may_act():
            if self.pool.full:
                self.stop_reason = "paper budget"
                return
            entry = self._next_to_expand()
            if entry is None:
                return
            outline = self.tools.outline(entry.paper_id)
            if not outline.expandable:
                continue  # a cited work without full text: nothing to read, no model call
            result = engine.crawler.expand_session(self.query, outline.paper, outline.expandable, self.cancel)
            engine.sessions.append(session_record(self.query, "expand", outline.paper, result))
            to_run, refused = result.checked.kept, result.checked.refused
            if self.executor is not None:  # a section the grammar did not offer is sent: its error says why
                to_run = _with_outside(result.checked, engine.crawler.actions_per_session)
                refused = [text for text in refused if text not in {a.render() for a in to_run}]
            yield CrawlerDecided(
                "expand",
                entry.node,
                result.text,
                [a.render() for a in to_run],
                refused,
                round(result.seconds, 3),
                outline.expandable,
            )
            expanded = {action.argument.lower() for action in to_run}
            for action in to_run:
                if not self.may_act():
                    return
                self.actions += 1
                call = CheckedCall(
                    "Expand",
                    action.argument,
                    result.text,
                    outline.expandable,
                    expanded,
                    depth=entry.depth + 1,
                    paper_id=entry.paper_id,
                    parent_node=entry.node,
                    outline=outline,
                )
                yield from self.expand_action(self.node(), call)

    def judge(self) -> Iterator[Event]:
        """P(True) for the prior's top papers, back to back (one shared prompt prefix); a paper judged
        early (``early_judge``) keeps that verdict, without a second model call."""
        engine = self.engine
        ranking = engine.rank(self)
        limit = engine.judge_limit
        wanted = [paper.paper_id for paper in ranking if paper.paper_id not in self.p_true][:limit]
        rows = self.tools.library.papers(wanted)
        for paper_id in wanted:
            if self.cancel.is_set():
                return
            row = rows.get(paper_id)
            if row is None:
                continue
            if paper_id in self.early:  # judged before the crawl: its Verdict was reported then
                self.p_true[paper_id] = self.early[paper_id]
                continue
            probability = engine.selector.probability(self.query, row["title"], row["abstract"] or "", self.cancel)
            self.p_true[paper_id] = round(probability, 4)
            yield Verdict(paper_id, self.pool.entries[paper_id].node, self.p_true[paper_id])

    # -- actions -----------------------------------------------------------------------------------
    def search_action(self, node: int, call: CheckedCall) -> Iterator[Event]:
        yield SearchIssued(node, 0, call.argument)
        if self.executor is not None:
            yield from self.checked_call(node, call)
            return
        yield from self.add_papers(
            self.tools.search(call.argument, self.date), node, call.depth, call.found_by(call.argument)
        )

    def expand_action(self, node: int, call: CheckedCall) -> Iterator[Event]:
        paper_id, outline = call.expanded
        yield SectionExpanded(node, call.parent_node, paper_id, call.argument)
        if self.executor is not None:
            yield from self.checked_call(node, call)
            return
        cited = self.tools.expand(paper_id, outline, call.argument)
        yield from self.add_papers(cited, node, call.depth, call.found_by(call.argument))

    def checked_call(self, node: int, call: CheckedCall) -> Iterator[Event]:
        """One action through AutoFeedback: its rounds and end, then every request sent, each with its papers."""
        attempts, loop = self.engine.through_feedback(self, call)
        if loop is not None:  # None: cancelled half-way; what was sent is still shown
            finished = loop.event()
            yield from finished.rounds
            yield CallFeedback(
                loop.loop_id, loop.status, finished.static_rounds, finished.dynamic_rounds, finished.rounds, node=node
            )
        sent: set[str] = set()
        for attempt in attempts:
            if attempt.request in sent:  # the Crawler had nothing else to try: no new node
                continue
            at = node
            if sent:
                at = self.node()
                yield (
                    SearchIssued(at, 0, attempt.argument, retry_of=node)
                    if call.kind == "Search"
                    else SectionExpanded(at, call.parent_node, call.expanded[0], attempt.argument, retry_of=node)
                )
            sent.add(attempt.request)
            if attempt.result is not None:
                yield from self.add_papers(attempt.result, at, call.depth, call.found_by(attempt.argument))

    def add_papers(self, result: ToolResult, parent: int, depth: int, found_by: str) -> Iterator[Event]:
        for notice in result.notices:
            yield CrawlNotice(notice)
        rows = self.tools.library.papers(result.paper_ids)
        added: list[FoundPaper] = []
        duplicates = over = 0
        for paper_id in result.paper_ids:
            row = rows.get(paper_id)
            if row is None:
                continue
            node = self.node()
            outcome = self.pool.add(paper_id, node, depth, found_by, result.contexts.get(paper_id))
            if outcome == "added":
                added.append(self._found(node, paper_id, row, depth))
            elif outcome == "duplicate":
                duplicates += 1
            else:
                over += 1
        yield PapersFound(parent, added, duplicates, over, result.origin)

    # -- helpers -------------------------------------------------------------------------------------
    @staticmethod
    def _found(node: int, paper_id: int, row: dict, depth: int) -> FoundPaper:
        return FoundPaper(node, paper_id, row["title"], row["date"], depth, row["arxiv_id"], row["source"])

    def _next_to_expand(self):
        """The next pool paper below the depth limit, in the order found (breadth first)."""
        entries = list(self.pool.entries.values())
        while self._expand_cursor < len(entries):
            entry = entries[self._expand_cursor]
            self._expand_cursor += 1
            if entry.depth < self.budgets.max_depth:
                return entry
        return None


class PaSaEngine(Engine):
    """One agent over one library; ``run`` may be called for several queries in turn."""

    def __init__(
        self,
        llm: LLM,
        tools: LibraryTools,
        options: PaSaOptions | None = None,
        feedback: FeedbackLoop | None = None,
        head: SelectorHead | None = None,
    ) -> None:
        self.llm = llm
        self.tools = tools
        self.feedback = feedback
        self.library: Library = tools.library
        self.options = options or PaSaOptions()
        self.head = head if self.options.use_head else None
        budgets = self.options.budgets
        self.crawler = Crawler(
            llm,
            query_mode=self.options.query_mode,
            actions_per_session=budgets.actions_per_session,
            expand_at_least_one=self.options.expand_at_least_one,
        )
        self.selector = Selector(llm, rationale=self.options.rationale)
        self.sessions: list[CrawlerSession] = []  # every session run, in Table 8 form
        self.selections: list[SelectorRecord] = []  # every decision, as Selector training records
        self.offline_notice: str | None = None  # set by open_pasa when the online sources cannot be reached

    @property
    def judge_limit(self) -> int:
        if self.options.judge_limit is not None:
            return self.options.judge_limit
        return self.head.judge_limit if self.head is not None else self.options.budgets.max_papers

    @logs_prompts_as("pasa", text="query")  # each crawl's model calls, linked to it in the prompt log
    def run(self, query: str, *, date: str | None = None, cancel: threading.Event | None = None) -> Iterator[Event]:
        if not query.strip():
            raise ValueError("the query is empty")
        budgets = self.options.budgets
        run = CrawlRun(self, query, date, cancel or threading.Event(), Pool(budgets.max_papers, budgets.max_depth))
        calls_before = self.crawler.calls + self.selector.calls
        papers_before = self.library.paper_count()  # online searches and expansions may add papers
        yield CrawlStarted(
            query,
            date,
            self.llm.model_name,
            self.crawler.query_mode,
            self.selector.rationale_mode,
            self.tools.online is not None,
            budgets.as_dict(),
            self.head.origin if self.head is not None else "",
        )
        if self.offline_notice:
            yield CrawlNotice(self.offline_notice)
        if self.feedback is not None:
            run.executor = ToolExecutor(self.tools, date)
        yield from run.plain_search()
        if run.may_act():
            yield from run.search_session()
        if run.may_act():
            yield from run.expand_sessions()
        yield from run.judge()
        if run.cancel.is_set():
            run.stop_reason = "cancelled"
        results = self.rank(run)
        if self.selector.rationale_mode == "model":  # a model that can write a reason, for the best selected
            rows = self.library.papers([paper.paper_id for paper in results[:5] if paper.selected])
            for paper in results[:5]:
                if paper.paper_id in rows and not run.cancel.is_set():
                    reason = self.selector.model_rationale(
                        run.query, paper.title, rows[paper.paper_id]["abstract"] or "", True, run.cancel
                    )
                    paper.rationale += f" The model: {reason}"  # beside the score's reasons, never instead
        self._record_selections(run, results)
        yield Ranking(results, "judged", round(run.elapsed, 3))
        if not run.cancel.is_set():  # after the ranking is shown: the pool's new vectors, for the next search
            self.tools.index.keep_made(self.library)
        yield CrawlFinished(
            results=results,
            queue=run.pool.ids,
            stop_reason=run.stop_reason,
            actions=run.actions,
            llm_calls=self.crawler.calls + self.selector.calls - calls_before,
            seconds=round(run.elapsed, 3),
            first_results_seconds=run.first_results,
            cancelled=run.cancel.is_set(),
            library_added=self.library.paper_count() - papers_before,
        )

    def rank(self, run: CrawlRun, p_true: dict[int, float] | None = None) -> list[RankedPaper]:
        """Every pool paper by score (the head's, or P(True) alone without one), with its parts and URL.
        ``p_true``: the verdicts to rank with (None: the crawl's own; the early ranking passes its own).

        With the head, a paper the crawl added (not a plain-search hit) is placed by its score only when
        the head selects it; otherwise it follows every plain-search hit, so an unsure crawl never pushes
        what plain search found down the list. Selected: the head's choices that fit the query; a title
        naming the query's subject is lifted above papers standing lower (``fit``).
        """
        rows = self.library.papers(run.pool.ids)
        p_true = run.p_true if p_true is None else p_true
        found = evidence(
            run.query, run.pool, self.library, self.tools.index, p_true=p_true, rows=rows, cancel=run.cancel
        )
        ids = list(found)
        if not ids:
            return []
        scores, selection = self._scores(bool(p_true), [found[paper_id] for paper_id in ids])
        # the sentence that cites a paper is one more description of it (selector_head's module doc)
        texts = {
            paper_id: f"{rows[paper_id]['title']} {rows[paper_id]['abstract'] or ''} {found[paper_id].parts.citing_sentence}"
            for paper_id in ids
        }
        subject = self.subject(run.query, texts, {paper_id: found[paper_id].parts.query_dense for paper_id in ids})
        order = {paper_id: index for index, paper_id in enumerate(run.pool.ids)}
        ranked, held_back, names, standing = [], set(), {}, {}
        for paper_id, score, chosen, reason in zip(ids, scores, selection.chosen, selection.reasons, strict=False):
            row, entry, item = rows[paper_id], run.pool.entries[paper_id], found[paper_id]
            if self.head is not None and entry.plain is None and not chosen:
                held_back.add(paper_id)  # the head's own choice: the ranking stays the head's
            fitting = fits(subject, texts[paper_id], item.parts.query_dense)
            names[paper_id] = subject.names(row["title"])
            standing[paper_id] = subject.standing(row["title"], texts[paper_id], item.parts.query_dense)
            if chosen and not fitting:  # selected only when it is about what was asked (core/pasa/fit.py)
                reason = "not selected: the head's choice, but " + unfit_reason(
                    subject, texts[paper_id], item.parts.query_dense
                )
                chosen = False
            ranked.append(
                RankedPaper(
                    paper_id,
                    row["title"],
                    round(float(score), 4),
                    bool(chosen),
                    item.parts,
                    scored_rationale(run.query, row, item.parts, float(score), reason),
                    entry.depth,
                    row["date"],
                    row["arxiv_id"],
                    paper_url(row),
                    entry.found_by[0],
                )
            )
        # Ties (frequent for P(True) of a tiny model) keep the order the papers were found in.
        ranked.sort(key=lambda paper: (paper.paper_id in held_back, -paper.score, order[paper.paper_id]))
        # A title that names what the query asks for never ranks below a paper that does not fit it, nor
        # below one that holds only a more generic part of it.
        return lift_title_matches(ranked, lambda paper: names[paper.paper_id], lambda paper: standing[paper.paper_id])

    def subject(self, query: str, texts: dict[int, str], dense: dict[int, float]) -> Subject:
        """The query's subject over the pool (``fit.Subject``): its key phrases weighted by their rarity
        in the library, and what of it no pool paper holds."""
        conn = self.library.conn
        papers = fts_totals(conn)[0]
        return subject_of(query, texts.values(), dense.values(), lambda text: term_rarity(conn, text), papers)

    def _scores(self, judged: bool, items: list[Evidence]) -> tuple[list[float], Selection]:
        """Each paper's score, and which are selected (with the reason each is or is not)."""
        if self.head is None:  # PaSa's own Selector: P(True), selected above 0.5 once the model judged it
            p_true = [item.row["p_true"] if item.row["p_true"] is not None else 0.0 for item in items]
            return p_true, threshold_selection(p_true, 0.5, None)
        rows = [item.row for item in items]
        scores = self.head.full_scores(rows) if judged else self.head.prior_scores(rows)
        return [float(score) for score in scores], self.head.select(scores)

    def _record_selections(self, run: CrawlRun, results: list[RankedPaper]) -> None:
        """Judged papers as Selector training records (Table 15), with the head's decision."""
        abstracts = self.library.papers([paper.paper_id for paper in results if paper.parts.p_true is not None])
        for paper in results:
            if paper.paper_id in abstracts:
                self.selections.append(
                    SelectorRecord(
                        query=run.query,
                        title=paper.title,
                        abstract=abstracts[paper.paper_id]["abstract"] or "",
                        decision=paper.selected,
                        rationale=paper.rationale,
                    )
                )

    def through_feedback(self, run: CrawlRun, call: CheckedCall) -> tuple[list[ToolAttempt], LoopResult | None]:
        """Run one action as a feedback loop; the Crawler picks each retry."""
        assert self.feedback is not None and run.executor is not None
        # ``executor.known`` holds what the Crawler's own calls found: re-finding a plain-search hit is
        # evidence for it (found by several actions), not a call that added nothing.
        executor, cancel, query = run.executor, run.cancel, run.query
        first = len(executor.attempts)

        def generate(history) -> Generation:
            if not history:  # the action the session chose
                return Generation(call.request(call.argument), thought=call.session_text)
            if cancel.is_set():  # no more retries; the log marks the loop failed, with this reason
                raise CrawlCancelled("the crawl was cancelled")
            left = None if call.options is None else [o for o in call.options if o.lower() not in call.tried]
            retry = self.crawler.retry(
                query,
                call.outline.paper if call.outline else None,
                call.kind,
                left,
                call.session_text,
                history[-1].feedback,
                cancel,
            )
            offered = retry.checked.kept + (retry.checked.outside if call.kind == "Expand" else [])
            picks = [action for action in offered if action.argument.lower() not in call.tried]  # free text may repeat
            if not picks:  # nothing untried: the same request again, and the loop runs out
                return Generation(history[-1].request, thought=retry.text)
            chosen = picks[0].argument
            call.tried.add(chosen.lower())
            return Generation(call.request(chosen), thought=retry.text, prompt_tokens=retry.prompt_tokens)

        api = SEARCH_API if call.kind == "Search" else EXPAND_API
        try:
            loop = self.feedback.run(query, generate, lambda text: executor.send(text).call, relevant=[api])
        except CrawlCancelled:
            loop = None
        return executor.attempts[first:], loop
