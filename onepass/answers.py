"""Label probabilities -> System One answer objects, with the reference confidence formulas.

Every number returned is computed from the exact probabilities that are returned: `score` is their
expectation and `confidence` their formula, so a client recomputing either gets the same value.
"""

from __future__ import annotations

import numpy as np

from onepass.wire import ChoiceQuestion, NoulQuestion, Question, ScoreQuestion


def normalise(p: np.ndarray) -> list[float]:
    p = np.asarray(p, dtype=np.float64)
    p = p / p.sum()
    return [float(x) for x in p]


def choice_confidence(p: list[float]) -> float:
    n = len(p)
    if n == 1:
        return 1.0
    return float(min(1.0, max(0.0, (max(p) - 1.0 / n) / (1.0 - 1.0 / n))))


def score_confidence(p: list[float]) -> float:
    n = len(p)
    m = int(np.argmax(p))  # first index on ties
    centre = (n - 1) / 2
    spread = sum(abs(i - centre) for i in range(n)) / n
    deviation = sum(pi * abs(i - m) for i, pi in enumerate(p))
    return float(max(0.0, 1.0 - deviation / spread))


def build(question: Question, probs: np.ndarray, extras: dict) -> dict:
    """The answer object for `question` from its label distribution (in the question's own order)."""
    p = normalise(probs)
    if isinstance(question, NoulQuestion):
        answer = {"type": "noul", "noul": p[0]}
    elif isinstance(question, ChoiceQuestion):
        names = list(question.criteria)
        best = int(np.argmax(p))
        answer = {
            "type": "choice",
            "choice": names[best],
            "confidence": choice_confidence(p),
            "probabilities": dict(zip(names, p)),
        }
    elif isinstance(question, ScoreQuestion):
        answer = {
            "type": "score",
            "score": float(sum(i * pi for i, pi in enumerate(p))),
            "confidence": score_confidence(p),
            "legend": {str(i): d for i, d in enumerate(question.criteria)},
            "probabilities": {str(i): pi for i, pi in enumerate(p)},
        }
    else:
        raise TypeError(type(question).__name__)
    answer.update(extras)
    return answer
