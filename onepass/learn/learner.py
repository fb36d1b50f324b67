"""One question learned from its labels: every method fitted on train, a temperature per method fitted on
validation, the method with the lowest validation log loss chosen, every method's test numbers reported.

The test split is touched once, after every choice is made, and only to report.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from onepass.learn.calibration import ece, fit_temperature
from onepass.learn.methods import METHODS, Fitted, View, log_softmax, minimum_labels

__all__ = ["QuestionResult", "learn_question", "summarise", "ece_noise_floor"]

BOOTSTRAP = 200


@dataclass
class QuestionResult:
    qid: str
    chosen: str
    why: str
    fitted: dict[str, Fitted]
    temperature: dict[str, float]
    validation: dict[str, dict]
    test: dict[str, dict]
    skipped: dict[str, str] = field(default_factory=dict)  # method -> why it was not fitted
    seconds: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)


def summarise(scores: np.ndarray, gold: np.ndarray, temperature: float, binary: bool, seed: int = 0) -> dict:
    """Accuracy, ECE, Brier, NLL of temperature-scaled scores, with standard errors (accuracy: binomial;
    ECE and Brier: bootstrap over items)."""
    if len(gold) == 0:
        return {"n": 0}
    probs = np.exp(log_softmax(scores / temperature))
    top, pred = probs.max(axis=1), probs.argmax(axis=1)
    correct = (pred == gold).astype(float)
    onehot = np.eye(probs.shape[1])[gold]
    brier_rows = (probs[:, 0] - onehot[:, 0]) ** 2 if binary else ((probs - onehot) ** 2).sum(axis=1)
    rng = np.random.default_rng(seed)
    boots = [rng.integers(0, len(gold), len(gold)) for _ in range(BOOTSTRAP)]
    eces = [ece(top[b], correct[b]) for b in boots]
    acc = float(correct.mean())
    return {"n": int(len(gold)), "accuracy": acc, "accuracy_se": math.sqrt(max(acc * (1 - acc), 1e-12) / len(gold)),
            "ece": ece(top, correct), "ece_se": float(np.std(eces)),
            "brier": float(brier_rows.mean()), "brier_se": float(np.std([brier_rows[b].mean() for b in boots])),
            "nll": float(-np.mean(np.log(np.maximum(probs[np.arange(len(gold)), gold], 1e-300)))),
            "mean_confidence": float(top.mean())}


def ece_noise_floor(confidence: np.ndarray, runs: int = 200, seed: int = 0) -> float:
    """The mean ECE a perfectly calibrated model with these confidences gets on this many items (each item
    right with probability equal to its confidence), by simulation: below it, ECE cannot be resolved."""
    rng = np.random.default_rng(seed)
    return float(np.mean([ece(confidence, (rng.random(len(confidence)) < confidence).astype(float)) for _ in range(runs)]))


def learn_question(qid: str, view: View, train: np.ndarray, val: np.ndarray, test: np.ndarray, *,
                   binary: bool, methods: list[str] | None = None, extra: dict | None = None,
                   log=print) -> QuestionResult:
    """Fit every method on `train`, choose on `val`, report on `test` (index arrays into `view`).
    `extra`: name -> fit(train_view, val_view) for methods outside METHODS (e.g. SetFit), same contract."""
    table = {name: fit for name, (_needs, fit) in METHODS.items() if methods is None or name in methods}
    table.update(extra or {})
    tr, va, te = view.take(train), view.take(val), view.take(test)
    result = QuestionResult(qid, "zero-shot", "", {}, {}, {}, {},
                            counts={"train": len(train), "validation": len(val), "test": len(test),
                                    "classes_in_train": len(set(tr.gold.tolist()))})
    for name, fit in table.items():
        if len(train) < minimum_labels(name):
            result.skipped[name] = f"{len(train)} training labels, fewer than the {minimum_labels(name)} it needs"
            continue
        started = time.perf_counter()
        try:
            fitted = fit(tr, va)
        except ValueError as error:  # e.g. a solver refusing degenerate data: reported, never fatal
            result.skipped[name] = f"could not be fitted: {error}"
            continue
        if fitted is None:
            result.skipped[name] = "its training labels hold a single class"
            continue
        val_scores = fitted.scores(va)
        temperature = fit_temperature(list(val_scores), list(va.gold)) if len(val) else 1.0
        result.fitted[name] = fitted
        result.temperature[name] = temperature
        result.validation[name] = summarise(val_scores, va.gold, temperature, binary)
        result.seconds[name] = round(time.perf_counter() - started, 3)
    # Chosen on validation alone: lowest log loss after its temperature; ties go to the earlier (simpler) method.
    order = list(result.fitted)
    best = min(order, key=lambda m: (round(result.validation[m]["nll"], 6), order.index(m)))
    result.chosen = best
    v = result.validation[best]
    result.why = (f"lowest validation log loss ({v['nll']:.3f}, accuracy {v['accuracy']:.3f} on {v['n']} items) "
                  f"among {len(order)} fitted methods")
    for name, fitted in result.fitted.items():
        result.test[name] = summarise(fitted.scores(te), te.gold, result.temperature[name], binary)
    return result
