"""The errors a training run reports to the user as one line (no torch here: the CLI catches them)."""


class TrainingError(Exception):
    """A training run cannot go on; the message is one line for the user."""


class FormatError(TrainingError, ValueError):
    """A training file or record is malformed; the message names the file and line."""
