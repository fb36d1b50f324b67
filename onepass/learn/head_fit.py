"""Fitting a learned head (`onepass tune`, bench/head_lodo.py): hidden states of a labelled corpus computed
once through the engine's own reads, then a penalised logistic fit per question type in seconds.

Features: for every item, the reads the head family makes (readouts/head.py), each as (Yes-vs-No log-odds
z, final hidden state h), kept in a features file (.npz) under a key of everything that changes them
(score_cache.setting with the head's options left out), so an interrupted run resumes and a changed model,
dtype or prompt recomputes.

Fit, per type: minimise mean cross-entropy of the gold answer + lam / 2 * |delta|^2 over (a, b, delta)
(onepass/learn/head.py has the score). The penalty lam is chosen from PENALTIES by cross-validation that keeps
whole domains out (items grouped by their `domain` field into folds; random folds without domains), by
held-out log loss; lam = inf (delta = 0: the isolated reading with a fitted temperature and bias) is one
of the candidates, so a head whose learned directions do not transfer falls back to recalibration.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from onepass.learn.head import TYPES, Head, HeadType
from onepass.readouts.head import feature_reads

__all__ = ["PENALTIES", "Example", "features_setting", "extract", "fit_type", "choose_penalty", "fit_head", "predict"]

PENALTIES = (0.1, 1.0, 10.0, 100.0, 1000.0, math.inf)
FOLDS = 4


@dataclass
class Example:
    id: str
    domain: str | None
    qtype: str
    gold: int  # index into the answer distribution (yes/no: 0 = yes)
    z: np.ndarray  # (reads,) Yes-vs-No log-odds
    h: np.ndarray  # (reads, hidden) final hidden states


def features_setting(engine) -> dict:
    """What changes a feature: the model, its weights, dtype and backend (the scores-cache setting), and the
    code that writes the reads (render.py and `feature_reads`), not the head or the other families."""
    import inspect

    from onepass import render, score_cache

    key = score_cache.setting(engine, "isolated")
    code = Path(render.__file__).read_bytes() + inspect.getsource(feature_reads).encode()
    key.update(readout="head-features", readout_options={}, prompt="reads:" + hashlib.sha256(code).hexdigest()[:16])
    return key


def extract(engine, items: list[dict], cache: Path | None = None, log: Callable[[str], None] = print,
            every: int = 25) -> list[Example]:
    """Every item's head reads (z, h), computed through the engine (resuming from `cache` when its key
    matches) and written back to `cache` every `every` items."""
    from onepass.evaluate import _progress, gold_index
    from onepass.wire import parse_request

    key = features_setting(engine)
    key_id = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    done: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    if cache and Path(cache).exists():
        data = np.load(cache, allow_pickle=False)
        if str(data["setting"]) == key_id:
            # Each `data[name]` reads the whole array again, and a slice keeps it alive: read each once.
            offsets, z_all, h_all = data["offsets"], data["z"], data["h"]
            for n, request_key in enumerate(data["keys"]):
                done[str(request_key)] = (z_all[offsets[n]:offsets[n + 1]], h_all[offsets[n]:offsets[n + 1]])
        else:
            log(f"features {cache}: written under another setting (model, dtype, backend or prompt changed); recomputing")
    examples, fresh = [], 0

    def save() -> None:
        if not cache:
            return
        keys = list(done)
        sizes = [len(done[k][0]) for k in keys]
        Path(cache).parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(str(cache) + ".tmp.npz")
        np.savez(tmp, setting=np.array(key_id), keys=np.array(keys), offsets=np.concatenate([[0], np.cumsum(sizes)]),
                 z=np.concatenate([done[k][0] for k in keys]).astype(np.float32),
                 h=np.concatenate([done[k][1] for k in keys]).astype(np.float32))
        tmp.replace(cache)

    for item in _progress(items, f"{engine.info.id}/head features"):
        request = item["request"]
        question = request["questions"]["q"]
        request_key = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()
        if request_key not in done:
            parsed = parse_request(request)
            reads = feature_reads(engine.renderer, parsed.questions["q"])
            pairs = engine.backend.features(engine.renderer.prefix(parsed.state), reads)
            lp = np.stack([p[0] for p in pairs])
            done[request_key] = ((lp[:, 0] - lp[:, 1]).astype(np.float32), np.stack([p[1] for p in pairs]).astype(np.float32))
            fresh += 1
            if fresh % every == 0:
                save()
        z, h = done[request_key]
        examples.append(Example(item["id"], item.get("domain"), question["type"], gold_index(question, item["gold"]),
                                np.asarray(z, np.float64), np.asarray(h, np.float64)))
    if fresh:
        save()
    return examples


# -- the fit ---------------------------------------------------------------------------------------------
def _tensors(examples: list[Example], mean: np.ndarray, std: np.ndarray):
    import torch

    k = max(len(e.z) for e in examples)
    d = examples[0].h.shape[1]
    z = torch.zeros(len(examples), k, dtype=torch.float64)
    x = torch.zeros(len(examples), k, d, dtype=torch.float64)
    mask = torch.zeros(len(examples), k, dtype=torch.bool)
    for n, e in enumerate(examples):
        z[n, : len(e.z)] = torch.from_numpy(e.z)
        x[n, : len(e.z)] = torch.from_numpy((e.h - mean) / std)
        mask[n, : len(e.z)] = True
    gold = torch.tensor([e.gold for e in examples])
    return z, x, mask, gold


def fit_type(examples: list[Example], penalty: float, max_iter: int = 200) -> HeadType:
    """(a, b, delta) minimising mean cross-entropy + penalty / 2 * |delta|^2 (delta = 0 when penalty is inf).
    A choice or score has no b: a bias shared by every option cancels in the softmax."""
    import torch

    h = np.concatenate([e.h for e in examples])
    mean, std = h.mean(axis=0), np.maximum(h.std(axis=0), 1e-6)
    z, x, mask, gold = _tensors(examples, mean, std)
    noul = examples[0].qtype == "noul"
    # a = exp(log_a) > 0: a temperature never turns the model's reading around (start: the zero-shot reading)
    log_a = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
    b = torch.tensor(0.0, dtype=torch.float64, requires_grad=noul)
    learn = not math.isinf(penalty)
    delta = torch.zeros(x.shape[-1], dtype=torch.float64, requires_grad=learn)
    optimiser = torch.optim.LBFGS([t for t in (log_a, b, delta) if t.requires_grad], lr=1.0, max_iter=max_iter,
                                  line_search_fn="strong_wolfe", tolerance_grad=1e-9, tolerance_change=1e-12)

    def closure():
        optimiser.zero_grad()
        s = log_a.exp() * z + (x @ delta if learn else 0.0) + b
        logits = torch.stack([s[:, 0], torch.zeros_like(s[:, 0])], dim=1) if noul else s.masked_fill(~mask, -math.inf)
        loss = torch.nn.functional.cross_entropy(logits, gold) + (penalty / 2 * (delta ** 2).sum() if learn else 0.0)
        loss.backward()
        return loss

    optimiser.step(closure)
    a = log_a.exp()
    return HeadType(float(a.detach()), float(b.detach()), delta.detach().numpy().copy(), mean, std)


def predict(head_type: HeadType, examples: list[Example]) -> list[np.ndarray]:
    """The answer distribution of each example under a fitted head type."""
    from onepass.readouts.base import softmax

    out = []
    for e in examples:
        s = head_type.scores(e.z, e.h)
        out.append(softmax(np.array([s[0], 0.0]) if e.qtype == "noul" else s))
    return out


def _folds(examples: list[Example], folds: int = FOLDS) -> list[list[int]]:
    """Indices per fold: whole domains kept together (assigned round-robin by size), or items by hash."""
    domains = sorted({e.domain for e in examples if e.domain})
    if len(domains) >= folds:
        sizes = {d: sum(e.domain == d for e in examples) for d in domains}
        fold_of = {d: n % folds for n, d in enumerate(sorted(domains, key=lambda d: (-sizes[d], d)))}
        key = lambda e: fold_of.get(e.domain, 0)  # noqa: E731
    else:
        key = lambda e: int(hashlib.sha256(e.id.encode()).hexdigest(), 16) % folds  # noqa: E731
    groups = [[i for i, e in enumerate(examples) if key(e) == f] for f in range(folds)]
    return [g for g in groups if g]


def _nll(probs: list[np.ndarray], examples: list[Example]) -> float:
    return float(np.mean([-math.log(max(p[e.gold], 1e-12)) for p, e in zip(probs, examples)]))


def choose_penalty(examples: list[Example], penalties=PENALTIES) -> tuple[float, dict]:
    """The penalty with the lowest held-out log loss over folds that keep domains apart, and every
    candidate's held-out log loss."""
    folds = _folds(examples)
    losses = {}
    for penalty in penalties:
        probs: list = [None] * len(examples)
        for held in folds:
            out = set(held)
            train = [e for i, e in enumerate(examples) if i not in out]
            if not train:
                continue
            fitted = fit_type(train, penalty)
            for i, p in zip(held, predict(fitted, [examples[i] for i in held])):
                probs[i] = p
        kept = [(p, e) for p, e in zip(probs, examples) if p is not None]
        losses[penalty] = _nll([p for p, _ in kept], [e for _, e in kept])
    best = min(losses, key=lambda k: (losses[k], -k))  # ties: the stronger penalty
    return best, {("inf" if math.isinf(k) else f"{k:g}"): v for k, v in losses.items()}


def fit_head(examples: list[Example], model_id: str, hidden_size: int, *, penalty: float | None = None,
             meta: dict | None = None, min_items: int = 10, log: Callable[[str], None] = print) -> Head:
    """A head with one fitted type per question type that has at least `min_items` examples; the penalty
    chosen per type by domain-held-out cross-validation unless given."""
    types, chosen = {}, {}
    for qtype in TYPES:
        rows = [e for e in examples if e.qtype == qtype]
        if len(rows) < min_items:
            if rows:
                log(f"{qtype}: {len(rows)} labelled items, fewer than {min_items}: no head for {qtype} questions")
            continue
        lam, losses = (penalty, {}) if penalty is not None else choose_penalty(rows)
        types[qtype] = fit_type(rows, lam)
        chosen[qtype] = {"penalty": "inf" if math.isinf(lam) else lam, "items": len(rows), "cv_log_loss": losses}
        log(f"{qtype}: {len(rows)} items, penalty {chosen[qtype]['penalty']}"
            + (f" (held-out log loss by penalty: {', '.join(f'{k} {v:.3f}' for k, v in losses.items())})" if losses else ""))
    return Head(model_id, hidden_size, types, {**(meta or {}), "types": chosen})
