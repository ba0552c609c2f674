"""Settings and locations: the bottom layer, which every other layer may import.

Owns where this installation keeps its files (``locations``: config, data, cache and log folders,
``SCHOLAR_TUI_HOME``) and the settings read from ``config.toml`` (``settings``). Imports nothing
of scholar-tui: app, training, core, indexes and models all stand on it.
"""
