"""The errors a training run reports to the user as one line (no torch here: the CLI catches them).

A malformed training file raises ``core.jsonl.FormatError``, which the CLI catches beside these.
"""


class TrainingError(Exception):
    """A training run cannot go on; the message is one line for the user."""
