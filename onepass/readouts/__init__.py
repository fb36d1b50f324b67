"""Readout families: which positions/rows to read for a question and how to combine them.

A readout turns one rendered question into backend reads (and/or continuation scorings) plus a function
that maps their log-probabilities to an Outcome (label distribution, label mass, x_ extras).
"""

from onepass.readouts.auto import AutoReadout
from onepass.readouts.base import Outcome, Plan, Readout
from onepass.readouts.debiased import DebiasedReadout
from onepass.readouts.head import HeadReadout
from onepass.readouts.isolated import IsolatedReadout
from onepass.readouts.likelihood import LikelihoodReadout
from onepass.readouts.shortlist import ShortlistReadout
from onepass.readouts.slot import SlotReadout

READOUTS: dict[str, type] = {
    "slot": SlotReadout,
    "isolated": IsolatedReadout,
    "likelihood": LikelihoodReadout,
    "debiased": DebiasedReadout,
    "shortlist": ShortlistReadout,
    "head": HeadReadout,
    "auto": AutoReadout,
}
# Families that read hidden states (Backend.features), so only an in-process model serves them.
HIDDEN_STATE_FAMILIES = frozenset({"head"})

__all__ = ["Outcome", "Plan", "Readout", "READOUTS", "HIDDEN_STATE_FAMILIES"]
