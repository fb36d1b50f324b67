"""Contextual calibration (Zhao et al. 2021, "Calibrate Before Use"): a question's label prior, estimated
from content-free states, divided out of every answer to that question.

A small model has label and level priors of its own (it likes "A", "Yes", the middle level) whatever the
content says. The same question is read on a few states that carry no content; the mean of those answer
distributions is the question's prior, and an answer's label logits become log p(label | content) minus
log prior(label), so a label the model picks for any content stops winning by default. The prior depends
only on the question and the readout family, so it is computed once per distinct question (three small
reads) and kept in an LRU cache; later requests asking the same question pay nothing.

Served per request with `"x_debias_prior": true`, or for every request with `--prior-correction`; for the
families whose answer is one round of reads (slot, isolated, likelihood). Calibration profiles keep such
answers apart: their temperatures live under "<family>+prior".
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable

import numpy as np

from onepass.readouts.base import Outcome, Plan

CONTENT_FREE = ("", "N/A", "Nothing to report.")
FAMILIES = ("slot", "isolated", "likelihood")


def profile_key(family: str, corrected: bool) -> str:
    """The calibration profile's name for answers of this family, with or without the prior divided out."""
    return f"{family}+prior" if corrected else family


class ContentFreePriors:
    def __init__(self, renderer, execute: Callable[[list[int], dict[str, Plan]], dict[str, Outcome]],
                 max_entries: int = 4096):
        self._renderer = renderer
        self._execute = execute  # the engine's own read path: (prefix, {id: plan}) -> {id: Outcome}
        self._cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.max_entries = max_entries
        self.computed = 0  # priors computed (not served from the cache), for tests and metrics

    def log_prior(self, family: str, question, plan: Plan) -> np.ndarray:
        key = (family, question.model_dump_json())
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        # A plan's reads are suffixes only, so the same plan reads on any state's prefix.
        probs = [self._execute(self._renderer.prefix(text), {"q": plan})["q"].probs() for text in CONTENT_FREE]
        prior = np.nan_to_num(np.mean(probs, axis=0), nan=1.0)
        log_prior = np.log(np.clip(prior, 1e-12, None))
        with self._lock:
            self._cache[key] = log_prior
            self.computed += 1
            while len(self._cache) > self.max_entries:
                self._cache.popitem(last=False)
        return log_prior

    @staticmethod
    def correct(outcome: Outcome, log_prior: np.ndarray) -> Outcome:
        """The outcome with the prior divided out of its label distribution (left-out labels stay out)."""
        outcome.scores = np.asarray(outcome.scores, dtype=np.float64) - log_prior
        outcome.extras["x_debias_prior"] = True
        return outcome
