"""Readout families: which positions/rows to read for a question and how to combine them.

A readout turns one rendered question into backend reads plus a function that maps their log-probabilities
to (label distribution, label mass). New families register in READOUTS.
"""

from onepass.readouts.base import Plan, Readout
from onepass.readouts.slot import SlotReadout

READOUTS: dict[str, type[Readout]] = {"slot": SlotReadout}

__all__ = ["Plan", "Readout", "READOUTS", "SlotReadout"]
