"""The app layer: the Textual app (``tui``, ``panes/``, ``widgets/``) and the click CLI (``cli``).

Owns what a person sees and types, nothing else: a pane or a command opens an engine, runs its
event stream (panes in a thread worker) and shows each event's ``summary()``; business logic
lives in core. May import every layer below: training, core, indexes, models, config. The only
layer that imports Textual (``tests/test_layers.py``).
"""
