"""One question learned from its labels: every method fitted on train, a temperature per method fitted on
validation, the method with the lowest validation log loss chosen, every method's test numbers reported.

The choice among methods is made on `resplits` train/validation splits of the same labelled items (the
given split first, then seeded random re-draws of the same sizes), by the mean validation log loss over them.
One validation split of a few dozen items chooses noisily (docs/learn.md measures it); the re-draws use no
item the given split does not, and the fitted form served, with its temperature, is the given split's.

The test split is touched once, after every choice is made, and only to report.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from onepass.learn.calibration import ece, fit_temperature
from onepass.learn.methods import METHODS, Fitted, View, log_softmax, minimum_labels, nll

__all__ = ["QuestionResult", "learn_question", "summarise", "ece_noise_floor"]

BOOTSTRAP = 200
RESPLITS = 5  # train/validation splits the choice among methods averages over (1: the given split alone)
SOFTEN_ONLY = ("linear", "combo")  # fitted kinds whose validation temperature is at least 1


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
    test_scores: dict[str, np.ndarray] = field(default_factory=dict)  # method -> (n_test, k) before its temperature


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
                   resplits: int = RESPLITS, seed: int = 0, log=print) -> QuestionResult:
    """Fit every method on `train`, choose on `val` (and on `resplits - 1` re-drawn train/validation splits of
    the same items), report on `test` (index arrays into `view`).
    `extra`: name -> fit(train_view, val_view) for methods outside METHODS (e.g. SetFit), same contract."""
    table = {name: fit for name, (_needs, fit) in METHODS.items() if methods is None or name in methods}
    table.update(extra or {})
    tr, va, te = view.take(train), view.take(val), view.take(test)
    result = QuestionResult(qid, "zero-shot", "", {}, {}, {}, {},
                            counts={"train": len(train), "validation": len(val), "test": len(test),
                                    "classes_in_train": len(set(tr.gold.tolist()))})
    val_scores = {}
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
        result.fitted[name] = fitted
        val_scores[name] = fitted.scores(va)
        result.temperature[name] = _temperature(fitted, val_scores[name], va.gold)
        result.validation[name] = summarise(val_scores[name], va.gold, result.temperature[name], binary)
        result.seconds[name] = round(time.perf_counter() - started, 3)
    # Chosen on validation alone: the lowest log loss averaged over the given split and re-drawn ones (each
    # with its own temperature); ties go to the earlier (simpler) method.
    order = list(result.fitted)
    losses = _resplit_losses(view, table, order, train, val, resplits, seed, {m: result.validation[m]["nll"] for m in order})
    for name in order:
        result.validation[name].update(nll_mean_over_splits=losses[name], splits=resplits)
    best = min(order, key=lambda m: (round(losses[m], 6), order.index(m)))
    result.chosen = best
    v = result.validation[best]
    over = f"mean over {resplits} train/validation splits of the labels {losses[best]:.3f}; given split " if resplits > 1 else ""
    result.why = (f"lowest validation log loss ({over}{v['nll']:.3f}, accuracy {v['accuracy']:.3f} on "
                  f"{v['n']} items) among {len(order)} fitted methods")
    for name, fitted in result.fitted.items():
        result.test_scores[name] = fitted.scores(te)
        result.test[name] = summarise(result.test_scores[name], te.gold, result.temperature[name], binary)
    return result


def _temperature(fitted: Fitted, scores: np.ndarray, gold: np.ndarray) -> float:
    """The validation temperature. A fitted head or combination may only be softened (T >= 1): its scores
    were already fitted for log loss, and on a few dozen validation items it often gets every one right,
    where the log loss falls without end as T shrinks and a later wrong answer gets a probability near zero."""
    if len(gold) == 0:
        return 1.0
    return fit_temperature(list(scores), list(gold), lo=1.0 if fitted.kind in SOFTEN_ONLY else 0.05)


def _resplit_losses(view: View, table: dict, order: list[str], train: np.ndarray, val: np.ndarray, resplits: int,
                    seed: int, first: dict[str, float]) -> dict[str, float]:
    """Each method's validation log loss averaged over the given split and `resplits - 1` re-drawn ones (the
    same items, the same validation size, drawn at random as `splits.budget` draws them: with two labels per
    class a stratified draw would leave validation nearly empty), each after its own temperature. A method
    that cannot be fitted on a re-draw scores infinity there: it is chosen only if it fits on every split."""
    totals = {name: [loss] for name, loss in first.items()}
    pool = np.concatenate([train, val])
    rng = np.random.default_rng([seed, len(pool), 7])
    for _ in range(1, resplits):
        drawn = rng.permutation(pool)
        va, tr = np.sort(drawn[:len(val)]), np.sort(drawn[len(val):])
        tr_view, va_view = view.take(tr), view.take(va)
        for name in order:
            try:
                fitted = table[name](tr_view, va_view) if len(tr) >= minimum_labels(name) else None
            except ValueError:
                fitted = None
            if fitted is None:
                totals[name].append(math.inf)
                continue
            scores = fitted.scores(va_view)
            totals[name].append(nll(scores / _temperature(fitted, scores, va_view.gold), va_view.gold))
    return {name: float(np.mean(v)) for name, v in totals.items()}
