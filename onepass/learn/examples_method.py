"""Retrieved in-context examples as a `onepass learn` method ("examples"), and the read that serves it.

`fit_examples` (onepass/learn/examples.py) chooses k and the order on validation; this module turns its
result into a fitted form an adapter stores and serves like every other method: the bank (training texts,
gold answers, MiniLM embeddings) and the choice live in the question's .npz, and a request for a learned
question becomes one read whose suffix is the demonstrations then the question. The answer is that read's
label distribution divided by the fitted temperature.

Retrieval is by MiniLM only here. Retrieval by the base model's hidden state needs the plain read's hidden
state before the examples read can be built: two dependent reads per request, which the one-pass plan a
request runs does not have (bench/examples.py measures it separately).

Choosing: the examples read differs per candidate, so the re-drawn splits the other methods are chosen on
(learner.RESPLITS) would cost a read of every labelled item per candidate. Examples are therefore compared on
the given validation split only, against the other methods' numbers on the same items.
"""

from __future__ import annotations

import time

import numpy as np

from onepass.backends.base import Read
from onepass.learn.examples import ORDERS, Bank, demonstration_suffix, fit_examples
from onepass.learn.learner import QuestionResult, summarise
from onepass.learn.methods import Fitted

__all__ = ["NAME", "KS", "add_examples", "examples_read"]

NAME = "examples"
KS = (2, 4, 8)  # candidates k; with both orders six reads per validation item


def _form(fit) -> Fitted:
    bank = fit.bank
    return Fitted("examples", {"minilm": np.asarray(bank.minilm, np.float32), "golds": bank.golds.astype(np.int64)},
                  {"feature": "e", "k": fit.candidate.k, "order": fit.candidate.order, "by": "minilm",
                   "cap_tokens": fit.cap, "texts": bank.texts, "ids": bank.ids,
                   "validation_by_candidate": {name: {key: row.get(key) for key in ("nll", "accuracy", "temperature",
                                                                                      "extra_tokens", "read_seconds")}
                                               for name, row in fit.report["candidates"].items()}})


def examples_read(fitted: Fitted, renderer, question, embedding: np.ndarray) -> Read:
    """The serve-time read for a new state: its k nearest training examples, then the question."""
    info = fitted.info
    bank = Bank(list(info["texts"]), fitted.params["golds"], fitted.params["minilm"], ids=list(info["ids"]))
    order = bank.neighbours(embedding, int(info["k"]), "minilm", info["order"])
    rendered = renderer.question(question)
    demo = demonstration_suffix(renderer, question, bank.texts, bank.golds, order, int(info["cap_tokens"]))
    return Read(demo + rendered.suffix, rendered.label_ids)


def add_examples(result: QuestionResult, engine, store, question, items: list, train: np.ndarray, val: np.ndarray,
                 test: np.ndarray, *, binary: bool, log=print, ks=KS, orders=ORDERS) -> None:
    """Fit the examples method on `result`'s split, report its test numbers, and choose it when its
    validation log loss is below the chosen method's on the same validation items."""
    qid = result.qid
    if len(train) < 4:
        result.skipped[NAME] = f"{len(train)} training labels, fewer than the 4 it needs"
        return
    started = time.perf_counter()
    fit = fit_examples(engine, store, question, qid, items, train, val, ks=ks, orders=orders, by=("minilm",), log=log)
    row = fit.report["candidates"][fit.candidate.name]
    result.fitted[NAME] = _form(fit)
    result.temperature[NAME] = fit.temperature
    result.validation[NAME] = {**{k: row[k] for k in ("n", "accuracy", "accuracy_se", "ece", "ece_se", "brier", "brier_se",
                                                      "nll", "mean_confidence")},
                               "nll_mean_over_splits": row["nll"], "splits": 1, "candidate": fit.candidate.name,
                               "extra_tokens": row["extra_tokens"], "read_seconds": row.get("read_seconds")}
    gold = np.array([items[i].gold[qid] for i in test])
    result.test_scores[NAME] = fit.scores(test)
    result.test[NAME] = summarise(result.test_scores[NAME], gold, fit.temperature, binary)
    result.seconds[NAME] = round(time.perf_counter() - started, 3)
    current = result.validation[result.chosen]["nll"]
    if row["nll"] < current:
        result.why = (f"lowest validation log loss on the given split ({row['nll']:.3f} with {fit.candidate.name}, "
                      f"against {current:.3f} there for {result.chosen}, which the other methods' choice picked)")
        result.chosen = NAME

