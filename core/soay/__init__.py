"""SoAy: solution-based API use for scholar questions (solution library, programs, SoAyEval)."""
