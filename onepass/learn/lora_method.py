"""A LoRA adapter as a `onepass learn` method ("lora"), and the read that serves it.

`train_lora` (onepass/learn/lora.py) trains it on the question's training items with the slot readout's own
objective and stops early on validation; this module turns the result into a fitted form an adapter stores
and serves like every other method. The PEFT directory (adapter_config.json, adapter_model.safetensors,
lora_meta.json) lives in the adapter as `lora-<n>/`; a request for the learned question is one read of the
state and question through the base model with that adapter applied, and its answer is that read's label
distribution divided by the fitted temperature (so the arithmetic is the zero-shot one, over other logits).

Choosing: training differs per split, so the re-drawn splits the other methods are chosen on
(learner.RESPLITS) would train it `resplits` times. LoRA is compared on the given validation split only,
against the other methods' numbers on the same items (as retrieved examples are).

Resuming: a finished fit is kept under the cache directory, keyed by the model, the question, the split and
the training settings; a rerun after Ctrl-C or a crash reloads it instead of training again.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from pathlib import Path

import numpy as np

from onepass.learn.calibration import fit_temperature
from onepass.learn.learner import QuestionResult, summarise
from onepass.learn.methods import Fitted

__all__ = ["NAME", "SETTINGS", "add_lora", "lora_dir"]

NAME = "lora"
# Fixed a priori, not chosen on validation (each choice would be another training run): rank 8 on q/k/v/o
# of the top 2 decoder layers with their frozen inputs cached, 6 epochs at most, early stopping.
SETTINGS = {"rank": 8, "alpha": 16, "top_layers": 2, "epochs": 6, "lr": 1e-3, "batch": 8, "patience": 2}
MIN_TRAIN = 8


def lora_dir(fitted: Fitted, adapter_path: Path) -> Path:
    return Path(adapter_path) / fitted.info["dir"]


def _key(engine, question, train: np.ndarray, val: np.ndarray, items: list, settings: dict, seed: int) -> str:
    from onepass import score_cache

    raw = question.model_dump(mode="json", exclude_none=True)
    ids = [[items[int(i)].id for i in train], [items[int(i)].id for i in val]]
    blob = json.dumps([score_cache.setting(engine, "slot"), raw, ids, settings, seed], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def add_lora(result: QuestionResult, engine, question, items: list, train: np.ndarray, val: np.ndarray,
             test: np.ndarray, *, binary: bool, out: Path, dirname: str, cache_dir: Path | None, seed: int = 0,
             settings: dict | None = None, log=print) -> None:
    """Train the LoRA method on `result`'s split, report its test numbers, keep it in `out/dirname`, and choose
    it when its validation log loss is below the chosen method's on the same validation items."""
    from onepass.learn.lora import load_lora, train_lora

    qid = result.qid
    settings = {**SETTINGS, **(settings or {})}
    if len(train) < MIN_TRAIN:
        result.skipped[NAME] = f"{len(train)} training labels, fewer than the {MIN_TRAIN} it needs"
        return
    started = time.perf_counter()
    states = [item.state for item in items]
    gold = np.array([item.gold.get(qid, -1) for item in items])
    done = Path(cache_dir) / f"lora-{_key(engine, question, train, val, items, settings, seed)}" if cache_dir else None
    if done is not None and (done / "lora_meta.json").is_file():
        log(f"{qid}: lora: reusing the finished fit in {done}")
        fit = load_lora(engine, done, states)
    else:
        fit = train_lora(engine, states, gold, question, train, val, cache_frozen=True, seed=seed, out_dir=done,
                         log=lambda m: log(f"{qid}: {m}"), **settings)
    val_scores, test_scores = fit.scores(val), fit.scores(test)
    temperature = fit_temperature(list(val_scores), list(gold[val]), lo=1.0)  # fitted for log loss: only softened
    target = Path(out) / dirname
    if target.exists():
        shutil.rmtree(target)
    if done is not None:
        shutil.copytree(done, target)
    else:
        from onepass.learn.lora import save_lora

        save_lora(fit, target)
    meta = fit.meta
    info = {"dir": dirname, **{k: meta.get(k) for k in ("rank", "alpha", "layers", "epochs_run", "best_epoch", "val_nll",
                                                          "train_loss", "trainable_parameters", "seconds", "peak_memory_mb")}}
    result.fitted[NAME] = Fitted(NAME, {}, info)
    result.temperature[NAME] = temperature
    v = summarise(val_scores, gold[val], temperature, binary)
    result.validation[NAME] = {**v, "nll_mean_over_splits": v["nll"], "splits": 1}
    result.test_scores[NAME] = test_scores
    result.test[NAME] = summarise(test_scores, gold[test], temperature, binary)
    result.seconds[NAME] = round(time.perf_counter() - started, 3)
    current = result.validation[result.chosen]["nll"]
    if v["nll"] < current:
        result.why = (f"lowest validation log loss on the given split ({v['nll']:.3f} with a LoRA adapter, best epoch "
                      f"{meta.get('best_epoch')}, against {current:.3f} there for {result.chosen}, which the other "
                      "methods' choice picked)")
        result.chosen = NAME
