"""PaSa paper search (issue #6): a Crawler and a Selector over the library, offline and online.

Modules, in the order a run uses them:

- ``works`` / ``reference_titles``: cited works become library papers (titles read out of raw
  bibliography strings), so that [Expand] has papers to add and [Search] can find them offline;
- ``phrases``: the user query's key phrases, the [Search] queries a tiny model picks from;
- ``actions``: the GBNF grammar of a Crawler session (real section names only, no repeats);
- ``crawler`` / ``selector``: the two agents (Table 8 and Table 15 prompts, decision token first);
- ``tools``: the plain search of the query, search (library hybrid search + arXiv/OpenAlex) and
  expand (a section's citations, with the sentences that cite each paper: ``citation_context``);
- ``evidence`` / ``selector_head``: the candidate pool (it only grows) and the Selector's scoring
  head, a calibrated logistic regression over P(True), query match, citation context and the
  crawl's structure (``default_head.json`` ships; ``pasa train-selector`` retrains it);
- ``queue``: the budgets; ``engine``: ``PaSaEngine`` and its ``CrawlRun``, a sync generator of
  typed ``events``;
- ``queries`` / ``metrics`` / ``bench``: the AutoScholarQuery-style set built from the library
  (split train/test by source paper), PaSa's metrics, and PaSa against plain search;
  ``export``: BibTeX and JSON.

``factory.open_pasa(services, …)`` prepares the library and opens the engine (a context manager
that closes its library connection); ``scholar-tui search``, ``scholar-tui bench pasa`` and the
Paper search tab open it so and consume the same event stream, ``engine.run(query, cancel=…)``.
"""
