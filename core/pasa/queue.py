"""The crawl's budgets (PaSa §4.2, §5.2), for a person waiting on 2 CPU cores.

Papers found by [Search] are at depth 1, papers cited by a section of a depth-d paper at d + 1;
PaSa limits exploration to depth three. The plain search's top 100 is in the pool before the
Crawler acts and does not count against ``max_papers`` (the papers the crawl may add). The crawl
stops acting after ``crawl_seconds`` so that the Selector's judging fits a default query in 30 s.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Budgets:
    max_actions: int = 8  # [Search] + [Expand] actions run, over the whole crawl
    max_papers: int = 40  # papers the crawl may add to the plain search's
    max_depth: int = 3  # papers deeper than this are never added; at this depth, never expanded
    actions_per_session: int = 3  # actions one session's response may hold before [Stop]
    crawl_seconds: float = 15.0  # no new action after this long: the Selector's turn

    def as_dict(self) -> dict[str, float]:
        return asdict(self)
