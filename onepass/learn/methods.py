"""The methods `onepass learn` fits per question, behind one small interface, and the fitted forms they
produce. Every fitted form is numpy arithmetic over what one request's reads give (the zero-shot label
log-probabilities `lp`, the hidden state `h` at the answer position, the state's sentence embedding `e`),
so an adapter serves it with the model's own read and nothing else.

A method's `fit(train, val)` may use `val` only for choices it reports (k, the penalty); combination weights
are fitted on out-of-fold predictions over train, so validation stays a fair judge of every method.

Methods (names as reported):
- zero-shot             the base model's slot reading, untouched
- knn-minilm            a similarity-weighted k-nearest-neighbour vote over MiniLM embeddings
- knn-hidden            the same vote over the base model's hidden states
- logreg-minilm         a penalised logistic regression on MiniLM embeddings (the "encoder head")
- head-hidden           a penalised logistic regression on the base model's hidden states (the head, per question)
- zs+<component>        the zero-shot log-probabilities plus one of the above, weights fitted out of fold
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from scipy.optimize import minimize

__all__ = ["View", "Fitted", "METHODS", "log_softmax", "nll"]

KS = (1, 3, 5, 10, 20)
PENALTIES = (0.01, 0.1, 1.0, 10.0)
FOLDS = 5
VOTE_SMOOTHING = 0.1  # pseudo-votes per class: a class no neighbour voted for keeps a small probability


@dataclass
class View:
    """One question's inputs for some items: what a method fits on or scores."""

    lp: np.ndarray  # (n, k) zero-shot label log-probabilities
    h: np.ndarray | None  # (n, d) hidden state at the answer position
    e: np.ndarray | None  # (n, 384) unit sentence embeddings
    gold: np.ndarray | None  # (n,) gold answer indices (None when scoring)
    k: int

    def take(self, idx: np.ndarray) -> "View":
        pick = lambda a: None if a is None else a[idx]  # noqa: E731
        return View(self.lp[idx], pick(self.h), pick(self.e), pick(self.gold), self.k)

    def feature(self, name: str) -> np.ndarray:
        return {"h": self.h, "e": self.e}[name]


def log_softmax(z: np.ndarray) -> np.ndarray:
    z = np.asarray(z, dtype=np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def nll(scores: np.ndarray, gold: np.ndarray) -> float:
    return float(-np.mean(log_softmax(scores)[np.arange(len(gold)), gold]))


@dataclass
class Fitted:
    """A fitted form: `kind` names the arithmetic, `params` its arrays, `info` what was chosen and why."""

    kind: str  # zero-shot | knn | linear | combo
    params: dict[str, np.ndarray] = field(default_factory=dict)
    info: dict = field(default_factory=dict)
    parts: list["Fitted"] = field(default_factory=list)  # a combination's component

    def scores(self, view: View) -> np.ndarray:
        """Log-probability-like scores (n, k) for the items of `view` (before the temperature)."""
        return _SCORE[self.kind](self, view)


def _score_zero_shot(fitted: Fitted, view: View) -> np.ndarray:
    return log_softmax(view.lp)


def _unit(x: np.ndarray, mean: np.ndarray, std: np.ndarray) -> np.ndarray:
    z = (np.asarray(x, dtype=np.float64) - mean) / std
    return z / np.maximum(np.linalg.norm(z, axis=1, keepdims=True), 1e-12)


def _score_knn(fitted: Fitted, view: View) -> np.ndarray:
    p = fitted.params
    x = _unit(view.feature(fitted.info["feature"]), p["mean"], p["std"])
    sims = x @ p["bank"].T  # (n, m) cosine similarity
    k = min(int(fitted.info["k"]), sims.shape[1])
    top = np.argsort(-sims, axis=1)[:, :k]
    votes = np.full((len(x), view.k), VOTE_SMOOTHING)
    for row in range(len(x)):
        for j in top[row]:
            votes[row, int(p["labels"][j])] += max(float(sims[row, j]), 0.0) + 1e-3
    return np.log(votes / votes.sum(axis=1, keepdims=True))


def _score_linear(fitted: Fitted, view: View) -> np.ndarray:
    p = fitted.params
    x = (np.asarray(view.feature(fitted.info["feature"]), dtype=np.float64) - p["mean"]) / p["std"]
    logits = x @ p["coef"].T + p["intercept"]  # (n, classes seen in training)
    out = np.full((len(x), view.k), -np.inf)
    out[:, p["classes"].astype(int)] = logits
    # A class never seen in training gets a logit well below every seen one: small, never zero.
    floor = np.min(logits, axis=1, keepdims=True) - float(fitted.info.get("unseen_gap", 5.0))
    out = np.where(np.isinf(out), floor, out)
    return log_softmax(out)


def _score_combo(fitted: Fitted, view: View) -> np.ndarray:
    w = fitted.params["weights"]
    return w[0] * log_softmax(view.lp) + w[1] * fitted.parts[0].scores(view)


# "examples" and "lora": the label distribution of the read with demonstrations (examples_method.py builds
# that read) or with the LoRA weights (lora_method.py); view.lp is what it gave, so the arithmetic is the
# zero-shot one.
_SCORE: dict[str, Callable[[Fitted, View], np.ndarray]] = {
    "zero-shot": _score_zero_shot, "examples": _score_zero_shot, "lora": _score_zero_shot, "knn": _score_knn,
    "linear": _score_linear,
    "combo": _score_combo}


# -- fitting -------------------------------------------------------------------------------------------------
def _standardiser(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return x.mean(axis=0), np.maximum(x.std(axis=0), 1e-6)


def fit_knn(train: View, val: View, feature: str) -> Fitted:
    x = train.feature(feature)
    mean, std = (np.zeros(x.shape[1]), np.ones(x.shape[1])) if feature == "e" else _standardiser(x)
    base = Fitted("knn", {"bank": _unit(x, mean, std), "labels": train.gold.astype(np.int64), "mean": mean, "std": std},
                  {"feature": feature, "k": 1})
    losses = {}
    for k in KS:
        if k > len(x) and k != KS[0]:
            continue
        base.info["k"] = k
        losses[k] = nll(base.scores(val), val.gold)
    best = min(losses, key=lambda k: (losses[k], k))
    base.info.update(k=best, validation_nll_by_k={str(k): round(v, 4) for k, v in losses.items()})
    return base


def _logreg(x: np.ndarray, y: np.ndarray, penalty: float, mean: np.ndarray, std: np.ndarray, feature: str) -> Fitted:
    from sklearn.linear_model import LogisticRegression

    import warnings

    model = LogisticRegression(C=penalty, max_iter=300)
    with warnings.catch_warnings():  # few labels per class is the normal case here, not a mistake to warn about
        warnings.simplefilter("ignore")
        model.fit((x - mean) / std, y)
    coef, intercept = model.coef_, model.intercept_
    if len(model.classes_) == 2:  # sklearn's binary form: one row for class 1; make it one row per class
        coef, intercept = np.vstack([-coef[0] / 2, coef[0] / 2]), np.array([-intercept[0] / 2, intercept[0] / 2])
    return Fitted("linear", {"coef": coef, "intercept": intercept, "classes": model.classes_.astype(np.int64),
                             "mean": mean, "std": std}, {"feature": feature, "C": penalty})


def fit_linear(train: View, val: View, feature: str) -> Fitted | None:
    x, y = train.feature(feature), train.gold
    if len(set(y.tolist())) < 2:
        return None  # one class in train: nothing to separate (the caller reports the fallback)
    mean, std = _standardiser(x)
    fits = {c: _logreg(x, y, c, mean, std, feature) for c in PENALTIES}
    losses = {c: nll(f.scores(val), val.gold) for c, f in fits.items()}
    best = min(losses, key=lambda c: (losses[c], c))
    fits[best].info["validation_nll_by_C"] = {f"{c:g}": round(v, 4) for c, v in losses.items()}
    return fits[best]


def _out_of_fold(train: View, fit_component: Callable[[View, View], Fitted | None], seed: int = 0) -> np.ndarray | None:
    """Scores of every train item from a component fitted without it (FOLDS folds); None if too few items."""
    n = len(train.gold)
    if n < 2 * FOLDS:
        return None
    order = np.random.default_rng(seed).permutation(n)
    out = np.zeros((n, train.k))
    for f in range(FOLDS):
        held = order[f::FOLDS]
        rest = np.setdiff1d(order, held)
        inner = train.take(rest)
        fitted = fit_component(inner, inner)  # inner choices on the fold's own train part
        if fitted is None:
            return None
        out[held] = fitted.scores(train.take(held))
    return out


def fit_weights(zero_shot: np.ndarray, component: np.ndarray, gold: np.ndarray,
                component_cap: float = math.inf) -> np.ndarray:
    """Non-negative (w_zero_shot, w_component) minimising NLL of w0 * zs + w1 * component, with w1 at most
    `component_cap` (1 for a fitted head: out of fold it is often never wrong on a few dozen labels, and an
    unbounded weight then makes the combination certain)."""
    zs = log_softmax(zero_shot)

    def weights(w):
        return np.array([math.exp(w[0]), min(math.exp(w[1]), component_cap)])

    def loss(w):
        a, b = weights(w)
        return nll(a * zs + b * component, gold)

    best = minimize(loss, x0=np.zeros(2), method="Nelder-Mead", options={"xatol": 1e-3, "fatol": 1e-6, "maxiter": 400})
    return weights(best.x)


def fit_combo(train: View, val: View, component: str, fit_component: Callable[[View, View], Fitted | None]) -> Fitted | None:
    whole = fit_component(train, val)
    if whole is None:
        return None
    oof = _out_of_fold(train, fit_component)
    cap = 1.0 if whole.kind == "linear" else math.inf  # a fitted head is only ever softened
    if oof is not None:
        weights, source = fit_weights(train.lp, oof, train.gold, cap), f"out-of-fold over train ({FOLDS} folds)"
    else:  # too few labels for folds: the weights come from validation, and the report says so
        weights, source = fit_weights(val.lp, whole.scores(val), val.gold, cap), "validation (train too small for folds)"
    return Fitted("combo", {"weights": weights}, {"component": component, "weights_from": source,
                                                  "weights": [round(float(w), 4) for w in weights]}, [whole])


def _method_table() -> dict[str, tuple[tuple[str, ...], Callable[[View, View], Fitted | None]]]:
    knn_e = lambda tr, va: fit_knn(tr, va, "e")  # noqa: E731
    knn_h = lambda tr, va: fit_knn(tr, va, "h")  # noqa: E731
    lin_e = lambda tr, va: fit_linear(tr, va, "e")  # noqa: E731
    lin_h = lambda tr, va: fit_linear(tr, va, "h")  # noqa: E731
    return {
        "zero-shot": ((), lambda tr, va: Fitted("zero-shot")),
        "knn-minilm": (("e",), knn_e),
        "knn-hidden": (("h",), knn_h),
        "logreg-minilm": (("e",), lin_e),
        "head-hidden": (("h",), lin_h),
        "zs+knn-minilm": (("e",), lambda tr, va: fit_combo(tr, va, "knn-minilm", knn_e)),
        "zs+logreg-minilm": (("e",), lambda tr, va: fit_combo(tr, va, "logreg-minilm", lin_e)),
        "zs+head-hidden": (("h",), lambda tr, va: fit_combo(tr, va, "head-hidden", lin_h)),
    }


# name -> (features it needs besides lp, fit(train, val) -> Fitted | None)
METHODS = _method_table()
# Methods a user would pick instead of onepass (the bench's baselines), all on the packaged encoder.
BASELINES = ("knn-minilm", "logreg-minilm")


def minimum_labels(method: str) -> int:
    """Below this many training labels a method is not fitted (it says so and the question falls back)."""
    return 0 if method == "zero-shot" else 4


def is_finite(scores: np.ndarray) -> bool:
    return bool(np.all(np.isfinite(scores))) and not math.isnan(float(scores.sum()))
