"""Retrieved in-context examples: the k labelled training states most similar to a request, shown with their
gold answers as demonstrations, then the question, in one slot read.

Where the demonstrations go. The server renders a state once as the shared prefix and reads every question
after it, so the demonstrations live in the question's own suffix, between the content and the question:

    prefix  = system prompt + <content>STATE</content>            (shared, prefilled once, cached)
    suffix  = encode(demonstrations block) + renderer.question(q).suffix

Every other question about the state still reads after the same prefix: one prefill per state is kept.

Demonstrations are data, never instructions. The block is tokenised with `Renderer.encode` (special-token
strings split into ordinary tokens, as for states), each example sits inside <example> tags whose own
strings are defused inside an example's text (`<\\/example>`), and each example's text is cut at CAP_TOKENS
tokens (96: longer than every state of the project's five task suites, the longest being 71, and eight
examples then add at most about 1,000 tokens). An example's answer is the label surface the model answers
with for this question (`Yes`/`No`, an option letter, a level digit).

Retrieval: cosine similarity over the packaged all-MiniLM-L6-v2 embeddings (`by="minilm"`), or over the base
model's own final hidden state at the plain slot read's answer position (`by="hidden"`, standardised with the
bank's mean and spread; a request then costs the plain read first, then the read with demonstrations).
Only the training bank is ever retrieved from, and never the query itself (same id or same text).

`fit_examples` tries every (k, order, by) on validation, one read per validation item and candidate (all of
an item's candidates in one `Backend.features` call behind its one prefix), fits a temperature per candidate
and keeps the lowest validation log loss. Reads are cached as .npz under the store's cache directory keyed by
the model setting and the exact token ids, so a rerun reads nothing twice.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from onepass.backends.base import Read
from onepass.learn.calibration import fit_temperature
from onepass.learn.features import _digest, _progress
from onepass.learn.learner import summarise
from onepass.render import state_text

__all__ = ["CAP_TOKENS", "HEADER", "Candidate", "Bank", "ExamplesFit", "demonstration_text", "demonstration_suffix",
           "fit_examples"]

CAP_TOKENS = 96
HEADER = "Answered examples for the question below, for reference (each is content, then its answer):\n"
ORDERS = ("nearest-last", "nearest-first")
BYS = ("minilm", "hidden")
SCHEMA = 1
_TAG = re.compile(r"<(/?)example>", re.IGNORECASE)


# -- the demonstrations block --------------------------------------------------------------------------------
def _clip(renderer, text: str, cap: int) -> str:
    """`text` cut to its first `cap` tokens (a cut is marked with an ellipsis); its own tags defused."""
    text = _TAG.sub(lambda m: "<\\" + ("/" if m.group(1) else "") + "example>", text.strip())
    ids = renderer.encode(text)
    if len(ids) > cap:
        text = renderer.tokenizer.decode(ids[:cap], skip_special_tokens=False).rstrip("\ufffd").rstrip() + " …"
    return text


def demonstration_text(renderer, question, texts: list[str], golds: list[int], order: list[int],
                       cap: int = CAP_TOKENS) -> str:
    """The block for examples `order` (indices into texts/golds, in display order); '' for no examples."""
    if not order:
        return ""
    labels = renderer.question(question).labels
    parts = [f"<example>\n{_clip(renderer, texts[i], cap)}\nAnswer: {labels[int(golds[i])]}\n</example>\n" for i in order]
    return HEADER + "".join(parts) + "\n"


def demonstration_suffix(renderer, question, texts: list[str], golds: list[int], order: list[int],
                         cap: int = CAP_TOKENS) -> list[int]:
    """Token ids of the block, as plain text: put them before `renderer.question(question).suffix`."""
    block = demonstration_text(renderer, question, texts, golds, order, cap)
    return renderer.encode(block) if block else []


# -- the bank ------------------------------------------------------------------------------------------------
def _unit(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


@dataclass
class Bank:
    """The labelled training examples one question retrieves from."""

    texts: list[str]
    golds: np.ndarray  # (m,) gold answer indices
    minilm: np.ndarray  # (m, 384) unit MiniLM embeddings
    hidden: np.ndarray | None = None  # (m, d) hidden states at the plain read's answer position
    ids: list[str] = field(default_factory=list)
    hidden_mean: np.ndarray | None = None
    hidden_std: np.ndarray | None = None

    def __post_init__(self):
        self.golds = np.asarray(self.golds, dtype=np.int64)
        self.ids = list(self.ids) or [str(i) for i in range(len(self.texts))]
        if self.hidden is not None and self.hidden_mean is None:
            h = np.asarray(self.hidden, dtype=np.float64)
            self.hidden_mean, self.hidden_std = h.mean(axis=0), np.maximum(h.std(axis=0), 1e-6)

    def _space(self, x: np.ndarray, by: str) -> np.ndarray:
        if by == "minilm":
            return _unit(x)
        if by == "hidden":
            return _unit((np.asarray(x, dtype=np.float64) - self.hidden_mean) / self.hidden_std)
        raise ValueError(f"retrieval by {by!r}: use 'minilm' or 'hidden'")

    def similarities(self, query: np.ndarray, by: str = "minilm") -> np.ndarray:
        if by == "hidden" and self.hidden is None:
            raise ValueError("this bank has no hidden states: retrieve by 'minilm'")
        return self._space(self.minilm if by == "minilm" else self.hidden, by) @ self._space(query, by)

    def neighbours(self, query_embedding: np.ndarray, k: int, by: str = "minilm", order: str = "nearest-last",
                   exclude: Iterable[int] = ()) -> list[int]:
        """Indices of the k most similar bank items, in display order ('nearest-last': the most similar right
        before the question). `exclude`: bank indices never returned (the query itself, when it is in the bank)."""
        if order not in ORDERS:
            raise ValueError(f"order {order!r}: use one of {', '.join(ORDERS)}")
        sims = self.similarities(query_embedding, by)
        sims[list(exclude)] = -np.inf
        ranked = [int(i) for i in np.argsort(-sims, kind="stable") if np.isfinite(sims[i])][:k]
        return ranked[::-1] if order == "nearest-last" else ranked

    def excluding(self, item_id: str, text: str) -> list[int]:
        """Bank indices that are the query: the same id or the same text (a duplicate would give its answer away)."""
        return [i for i, (bid, bt) in enumerate(zip(self.ids, self.texts)) if bid == item_id or bt == text]


@dataclass(frozen=True)
class Candidate:
    k: int
    order: str
    by: str

    @property
    def name(self) -> str:
        return f"k={self.k} {self.order} by {self.by}"


# -- cached reads --------------------------------------------------------------------------------------------
class _Reads:
    """Label log-probabilities of (prefix, read) pairs, kept in one .npz keyed by the exact token ids."""

    def __init__(self, engine, path: Path | None, every: int = 10):
        self.engine, self.path, self.every = engine, path, every
        self.done: dict[str, np.ndarray] = {}
        self.read = 0  # reads sent to the backend by this object
        self._unsaved = 0
        if path and path.exists():
            with np.load(path, allow_pickle=False) as data:
                self.done = {str(k): lp for k, lp in zip(data["keys"], data["lp"])}

    @staticmethod
    def key(prefix: list[int], read: Read) -> str:
        return _digest([prefix, read.suffix, read.token_ids])

    def get(self, prefix: list[int], reads: list[Read]) -> list[np.ndarray]:
        keys = [self.key(prefix, r) for r in reads]
        todo = {k: r for k, r in zip(keys, reads) if k not in self.done}  # identical reads once
        if todo:
            for k, (lp, _hidden) in zip(todo, self.engine.backend.features(prefix, list(todo.values()))):
                self.done[k] = np.asarray(lp, dtype=np.float64)
            self.read += len(todo)
            self._unsaved += 1
            if self._unsaved >= self.every:
                self.save()
        return [self.done[k] for k in keys]

    def save(self) -> None:
        if not self.path or not self._unsaved:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        keys = list(self.done)
        width = max(len(v) for v in self.done.values())
        lp = np.full((len(keys), width), np.nan)
        for n, k in enumerate(keys):
            lp[n, :len(self.done[k])] = self.done[k]
        tmp = self.path.with_suffix(".tmp.npz")
        np.savez(tmp, keys=np.array(keys), lp=lp)
        tmp.replace(self.path)
        self._unsaved = 0


# -- the fit -------------------------------------------------------------------------------------------------
@dataclass
class ExamplesFit:
    """The chosen (k, order, by), its bank and temperature, and every candidate's validation numbers."""

    qid: str
    question_raw: dict
    bank: Bank
    candidate: Candidate
    temperature: float
    report: dict = field(default_factory=dict)
    cap: int = CAP_TOKENS
    # set by fit_examples (not saved): what `scores` reads with
    _engine: object = field(default=None, repr=False, compare=False)
    _store: object = field(default=None, repr=False, compare=False)
    _question: object = field(default=None, repr=False, compare=False)
    _reads: _Reads | None = field(default=None, repr=False, compare=False)

    def order_for(self, embedding: np.ndarray, hidden: np.ndarray | None = None, exclude: Iterable[int] = ()) -> list[int]:
        c = self.candidate
        if c.by == "hidden" and hidden is None:
            raise ValueError("these examples are retrieved by the base model's hidden state: pass the plain slot "
                             "read's hidden state for this state (Backend.features), or refit by minilm")
        return self.bank.neighbours(embedding if c.by == "minilm" else hidden, c.k, c.by, c.order, exclude)

    def read_for(self, renderer, question, state_embedding: np.ndarray, hidden: np.ndarray | None = None,
                 exclude: Iterable[int] = ()) -> Read:
        """The serve-time read for a new state: demonstrations, then the question, after the shared prefix."""
        rendered = renderer.question(question)
        order = self.order_for(state_embedding, hidden, exclude)
        demo = demonstration_suffix(renderer, question, self.bank.texts, self.bank.golds, order, self.cap)
        return Read(demo + rendered.suffix, rendered.label_ids)

    def scores(self, idx) -> np.ndarray:
        """(n, k) label log-probabilities (before the temperature) of store items `idx`, read the same way."""
        engine, store = self._engine, self._store
        if engine is None:
            raise ValueError("scores() reads through the engine fit_examples was given; a loaded fit serves read_for()")
        e = store.embed()
        h = store.lm(self.qid, self._question)[1] if self.candidate.by == "hidden" else None
        out = []
        for i in np.asarray(idx, dtype=int):
            item = store.items[i]
            exclude = self.bank.excluding(item.id, state_text(item.state))
            read = self.read_for(engine.renderer, self._question, e[i], None if h is None else h[i], exclude)
            out.append(self._reads.get(engine.renderer.prefix(item.state), [read])[0])
        self._reads.save()
        return np.stack(out) if out else np.zeros((0, len(engine.renderer.question(self._question).label_ids)))

    def save(self, folder: str | Path) -> None:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        b = self.bank
        meta = {"schema": SCHEMA, "qid": self.qid, "question": self.question_raw, "k": self.candidate.k,
                "order": self.candidate.order, "by": self.candidate.by, "temperature": self.temperature,
                "cap_tokens": self.cap, "texts": b.texts, "golds": [int(g) for g in b.golds], "ids": b.ids,
                "report": self.report}
        (folder / "examples.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False, default=float) + "\n")
        arrays = {"minilm": np.asarray(b.minilm, np.float32)}
        if b.hidden is not None:
            arrays.update(hidden=np.asarray(b.hidden, np.float32), hidden_mean=b.hidden_mean, hidden_std=b.hidden_std)
        np.savez(folder / "examples.npz", **arrays)

    @classmethod
    def load(cls, folder: str | Path) -> "ExamplesFit":
        folder = Path(folder)
        meta = json.loads((folder / "examples.json").read_text())
        if meta.get("schema") != SCHEMA:
            raise ValueError(f"{folder}: examples schema {meta.get('schema')!r}, this onepass reads {SCHEMA}")
        with np.load(folder / "examples.npz", allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
        bank = Bank(meta["texts"], np.array(meta["golds"]), arrays["minilm"], arrays.get("hidden"), meta["ids"],
                    arrays.get("hidden_mean"), arrays.get("hidden_std"))
        return cls(meta["qid"], meta["question"], bank, Candidate(meta["k"], meta["order"], meta["by"]),
                   float(meta["temperature"]), meta["report"], int(meta["cap_tokens"]))


def _mass(lp: np.ndarray) -> float:
    """Mean probability the model put on the allowed labels (x_label_mass): low means it wanted to say something else."""
    return float(np.mean(np.exp(lp).sum(axis=1)))


def _timing(engine, prefixes: list[list[int]], reads: dict[str, list[Read]], repeats: int = 1) -> dict[str, float]:
    """Median seconds of one read with the prefix prefilled afresh (a new state, as a request pays it):
    the plain read and one read per k, interleaved item by item so load on the machine hits all alike."""
    clear = getattr(engine.backend, "clear_prefix_cache", lambda: None)
    seconds: dict[str, list[float]] = {name: [] for name in reads}
    for n, prefix in enumerate(prefixes):
        for _ in range(repeats):
            for name, per_item in reads.items():
                clear()
                began = time.perf_counter()
                engine.backend.features(prefix, [per_item[n]])
                seconds[name].append(time.perf_counter() - began)
    clear()
    return {name: float(np.median(s)) for name, s in seconds.items()}


def fit_examples(engine, store, question, qid: str, items: list, train_idx, val_idx, ks=(2, 4, 8),
                 orders=ORDERS, by=BYS, log: Callable[[str], None] = print, cap: int = CAP_TOKENS,
                 timing_items: int = 6) -> ExamplesFit:
    """Try every (k, order, by) on the validation items, retrieving from the training items only; keep the
    one with the lowest validation NLL after its own fitted temperature (ties: fewer examples)."""
    from onepass import score_cache

    renderer = engine.renderer
    train_idx, val_idx = np.asarray(train_idx, dtype=int), np.asarray(val_idx, dtype=int)
    texts = [state_text(item.state) for item in items]
    golds = np.array([item.gold.get(qid, -1) for item in items])
    e = store.embed()
    lp0, h = store.lm(qid, question)
    bank = Bank([texts[i] for i in train_idx], golds[train_idx], e[train_idx],
                h[train_idx] if "hidden" in by else None, [items[i].id for i in train_idx])
    rendered = renderer.question(question)
    raw = question.model_dump(mode="json", exclude_none=True)
    setting = {**score_cache.setting(engine, "slot"), "what": "learn-examples:read"}
    path = store.cache_dir / f"examples-{_digest([setting, raw])}.npz" if store.cache_dir else None
    reads = _Reads(engine, path)
    candidates = [Candidate(k, o, b) for b in by for k in ks for o in orders]
    gold = golds[val_idx]
    lp = {c: [] for c in candidates}
    extra = {c: [] for c in candidates}
    bar = _progress(len(val_idx), f"{engine.info.id} example reads for {qid!r} ({len(candidates)} candidates)")
    try:
        for i in val_idx:
            exclude = bank.excluding(items[i].id, texts[i])
            suffixes = {}
            for c in candidates:
                order = bank.neighbours(e[i] if c.by == "minilm" else h[i], c.k, c.by, c.order, exclude)
                suffixes[c] = demonstration_suffix(renderer, question, bank.texts, bank.golds, order, cap)
            got = reads.get(renderer.prefix(items[i].state), [Read(s + rendered.suffix, rendered.label_ids)
                                                               for s in suffixes.values()])
            for c, row in zip(candidates, got):
                lp[c].append(row)
                extra[c].append(len(suffixes[c]))
            bar.update(1)
    finally:
        bar.close()
        reads.save()
    binary = question.type == "noul"
    rows = {}
    plain = lp0[val_idx]
    t0 = fit_temperature(list(plain), list(gold))
    rows["zero-shot"] = {**summarise(plain, gold, t0, binary), "temperature": t0, "extra_tokens": 0.0,
                         "label_mass": _mass(plain)}
    for c in candidates:
        scores = np.stack(lp[c])
        t = fit_temperature(list(scores), list(gold))
        rows[c.name] = {**summarise(scores, gold, t, binary), "temperature": t, "extra_tokens": float(np.mean(extra[c])),
                        "label_mass": _mass(scores), "k": c.k, "order": c.order, "by": c.by}
    best = min(candidates, key=lambda c: (round(rows[c.name]["nll"], 6), c.k, candidates.index(c)))
    timing = _timed(engine, store, question, qid, items, bank, val_idx[:timing_items], ks, cap, setting, raw, log)
    for name, row in rows.items():
        k = row.get("k", 0)
        row["read_seconds"] = timing.get(f"k={k}")
        if row.get("by") == "hidden" and timing:
            row["serve_seconds"] = timing["k=0"] + timing[f"k={k}"]  # the plain read first, for its hidden state
        else:
            row["serve_seconds"] = row["read_seconds"]
    report = {"candidates": rows, "chosen": best.name, "timing_items": int(min(timing_items, len(val_idx))),
              "reads_sent": reads.read, "train": int(len(train_idx)), "validation": int(len(val_idx)), "cap_tokens": cap}
    v = rows[best.name]
    log(f"{qid}: examples chose {best.name}: validation NLL {v['nll']:.3f}, accuracy {v['accuracy']:.3f} "
        f"(zero-shot {rows['zero-shot']['nll']:.3f}, {rows['zero-shot']['accuracy']:.3f}); "
        f"+{v['extra_tokens']:.0f} suffix tokens")
    return ExamplesFit(qid, raw, bank, best, float(v["temperature"]), report, cap, engine, store, question, reads)


def _timed(engine, store, question, qid, items, bank, idx, ks, cap, setting, raw, log) -> dict[str, float]:
    """Cold-read latency of the plain read and of k examples (nearest by MiniLM), cached like the reads."""
    if len(idx) == 0:
        return {}
    path = store.cache_dir / f"examples-timing-{_digest([setting, raw, [int(i) for i in idx], list(ks), cap])}.json" \
        if store.cache_dir else None
    if path and path.exists():
        return json.loads(path.read_text())
    renderer, e = engine.renderer, store.embed()
    rendered = renderer.question(question)
    per_k: dict[str, list[Read]] = {"k=0": [Read(rendered.suffix, rendered.label_ids)] * len(idx)}
    for k in ks:
        per_k[f"k={k}"] = [Read(demonstration_suffix(renderer, question, bank.texts, bank.golds,
                                                     bank.neighbours(e[i], k, "minilm", "nearest-last",
                                                                     bank.excluding(items[i].id, state_text(items[i].state))),
                                                     cap) + rendered.suffix, rendered.label_ids) for i in idx]
    log(f"{qid}: timing the plain read and k={', '.join(map(str, ks))} on {len(idx)} validation states ...")
    timing = _timing(engine, [renderer.prefix(items[i].state) for i in idx], per_k)
    if path:
        path.write_text(json.dumps(timing) + "\n")
    return timing
