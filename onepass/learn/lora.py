"""A LoRA adapter on the base model (peft), trained with the slot readout's own objective.

Item i's prompt is exactly what the server reads: `renderer.prefix(state) + renderer.question(q).suffix`.
The loss is the cross-entropy of the gold answer under the label logits at the last position, renormalised
over the label ids (the slot readout's distribution), so training optimises the number a request gets.

The served model is never touched. PEFT wraps a *shadow* of it: a second module tree over the same weight
storage (no copy of the weights), which PEFT may rewire, put in train mode and freeze as it likes; the
served model's modules, flags and weights stay as they were, so its answers are bit-identical afterwards
and concurrent requests never see the adapter.

- `top_layers=N`: LoRA on the q/k/v/o projections (`targets`) of the top N decoder layers only (None: all).
- `cache_frozen`: the frozen bottom layers run once per item (no grad) and the hidden states entering the
  first trained layer stay in memory; every epoch then runs only the top N layers, the final norm and the
  label rows of the output projection (bench/lora_speed.py measures what that saves, docs/learn.md).
- bf16 autocast where `hardware.choose_dtype("auto", device)` says bf16 is native, else float32.
- Early stopping on validation NLL (`patience` epochs without improvement); the best epoch's weights are
  kept (epoch 0 is the untouched model: an adapter never does worse on validation than zero-shot).
- Saved in PEFT's format (`save_pretrained`: adapter_config.json, adapter_model.safetensors) plus
  lora_meta.json (question, rank, layers, epochs, val NLL per epoch, seconds, peak memory).
"""

from __future__ import annotations

import contextlib
import copy
import json
import platform
import resource
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["LoraFit", "train_lora", "load_lora", "ATTENTION", "META"]

ATTENTION = ("q_proj", "k_proj", "v_proj", "o_proj")
META = "lora_meta.json"


# -- the shadow model --------------------------------------------------------------------------------------
def _shadow(module: nn.Module, memo: dict[int, object] | None = None) -> nn.Module:
    """A new module tree over the same tensors: each parameter a new frozen Parameter on the same storage
    (tied weights stay tied), buffers shared, every dict (children, hooks, ...) its own copy."""
    memo = {} if memo is None else memo
    if id(module) in memo:
        return memo[id(module)]  # type: ignore[return-value]
    twin = copy.copy(module)
    memo[id(module)] = twin
    for key, value in list(module.__dict__.items()):
        if isinstance(value, dict):
            twin.__dict__[key] = copy.copy(value)
    params = {}
    for name, p in module._parameters.items():
        if p is not None and id(p) not in memo:
            memo[id(p)] = nn.Parameter(p.data, requires_grad=False)
        params[name] = None if p is None else memo[id(p)]
    twin.__dict__["_parameters"] = params
    twin.__dict__["_modules"] = {name: None if child is None else _shadow(child, memo)
                                 for name, child in module._modules.items()}
    return twin


def _view(decoder: nn.Module, layers: list[nn.Module], norm: bool) -> nn.Module:
    """The decoder running only `layers` (the same module objects, LoRA included); norm=False: no final norm."""
    view = copy.copy(decoder)
    view.__dict__["_modules"] = dict(decoder._modules)
    view.__dict__["_modules"]["layers"] = nn.ModuleList(layers)
    if not norm:
        view.__dict__["_modules"]["norm"] = nn.Identity()
    return view


def _autocast(engine, choice: bool | None) -> bool:
    if choice is not None:
        return choice
    from onepass import hardware

    model = engine.backend.model
    device = next(model.parameters()).device.type
    return next(model.parameters()).dtype == torch.float32 and \
        hardware.choose_dtype("auto", "cuda" if device == "cuda" else "cpu").value == "bfloat16"


def _peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
    return round(peak / (1 << 20 if platform.system() == "Darwin" else 1 << 10), 1)


def _bar(total: int, desc: str, unit: str, leave: bool = True):
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, mininterval=1.0, leave=leave)


# -- the fit -----------------------------------------------------------------------------------------------
@dataclass
class LoraFit:
    """A trained (or reloaded) adapter over one engine's model, for one question."""

    engine: object
    peft: nn.Module  # the PeftModel over the shadow
    question: object
    states: list
    meta: dict = field(default_factory=dict)
    path: Path | None = None
    autocast: bool = False

    def __post_init__(self):
        rendered = self.engine.renderer.question(self.question)
        self.suffix, self.label_ids = list(rendered.suffix), list(rendered.label_ids)
        inner = self.peft.get_base_model()
        self.decoder = inner.get_decoder()
        head = inner.get_output_embeddings()
        self.label_weight = head.weight[self.label_ids].detach().clone()
        self.label_bias = None if head.bias is None else head.bias[self.label_ids].detach().clone()
        self.device = self.label_weight.device

    def prompt(self, state) -> list[int]:
        return self.engine.renderer.prefix(state) + self.suffix

    def label_logits(self, hidden: torch.Tensor, lengths: list[int]) -> torch.Tensor:
        """(B, k) float32 label logits at each row's last real position of right-padded hidden states."""
        last = hidden[torch.arange(len(lengths)), torch.tensor(lengths) - 1]
        logits = last.float() @ self.label_weight.float().T
        return logits if self.label_bias is None else logits + self.label_bias.float()

    def forward(self, decoder: nn.Module, rows: list[torch.Tensor], ids: bool) -> torch.Tensor:
        """Label logits of several items in one right-padded pass (causal attention: real positions never
        see the padding, positions run 0..len-1 as in a lone pass): `rows` are token ids (ids=True) or
        the hidden states entering `decoder`'s first layer."""
        lengths = [len(r) for r in rows]
        width = max(lengths)
        if ids:
            batch = torch.zeros((len(rows), width), dtype=torch.long, device=self.device)
            for n, r in enumerate(rows):
                batch[n, : len(r)] = r
            kwargs = {"input_ids": batch}
        else:
            batch = rows[0].new_zeros((len(rows), width, rows[0].shape[-1]))
            for n, r in enumerate(rows):
                batch[n, : len(r)] = r
            kwargs = {"inputs_embeds": batch}
        amp = torch.autocast(self.device.type, dtype=torch.bfloat16) if self.autocast else contextlib.nullcontext()
        with amp:
            hidden = decoder(**kwargs, use_cache=False).last_hidden_state
        return self.label_logits(hidden, lengths)

    @torch.no_grad()
    def score_states(self, states: list) -> np.ndarray:
        """(n, k) label log-probabilities (log-softmax over the label ids) with the adapter applied, each
        item in a pass of its own (its numbers depend on its own tokens only)."""
        self.peft.eval()
        out = np.zeros((len(states), len(self.label_ids)))
        for n, state in enumerate(states):
            ids = torch.tensor(self.prompt(state), device=self.device)
            out[n] = torch.log_softmax(self.forward(self.decoder, [ids], ids=True)[0].double(), -1).cpu().numpy()
        return out

    @torch.no_grad()
    def read(self, prefix: list[int], reads: list) -> list[np.ndarray]:
        """What `Backend.logprobs` gives, with the adapter applied: per read (`backends.base.Read`), the
        full-vocabulary log-probabilities of its label ids after prefix + suffix (so x_label_mass stays the
        label tokens' share). One lone pass per read, the pass `score_states` makes; the label logits are
        its float32 ones (the trained numbers), the rest of the vocabulary only normalises, in the head's dtype."""
        head = self.peft.get_base_model().get_output_embeddings()
        out = []
        for read in reads:
            ids = torch.tensor([list(prefix) + list(read.suffix)], device=self.device)
            amp = torch.autocast(self.device.type, dtype=torch.bfloat16) if self.autocast else contextlib.nullcontext()
            with amp:
                last = self.decoder(input_ids=ids, use_cache=False).last_hidden_state[:, -1]
            labels = list(read.token_ids)
            rows = head.weight[labels].float()
            logits = F.linear(last.to(head.weight.dtype), head.weight, head.bias)[0].double()
            logits[labels] = (last.float() @ rows.T)[0].double() + (0 if head.bias is None else head.bias[labels].double())
            out.append((logits[labels] - torch.logsumexp(logits, -1)).cpu().numpy())
        return out

    def scores(self, idx) -> np.ndarray:
        """(len(idx), k) label log-probabilities of the items `idx` of `states`."""
        return self.score_states([self.states[int(i)] for i in np.asarray(idx).reshape(-1)])


def _peft_model(model: nn.Module, layers: list[int], rank: int, alpha: float, targets: tuple[str, ...], seed: int):
    """PEFT's LoRA over a shadow of `model` (base_model_name_or_path: the model's own directory)."""
    from peft import LoraConfig, get_peft_model

    config = LoraConfig(r=rank, lora_alpha=alpha, lora_dropout=0.0, bias="none", target_modules=list(targets),
                        layers_to_transform=layers, layers_pattern="layers", task_type="CAUSAL_LM")
    with torch.random.fork_rng(devices=[]), warnings.catch_warnings():  # LoRA's A init draws; the caller's RNG stays
        warnings.simplefilter("ignore", FutureWarning)  # peft asks the model for is_gradient_checkpointing
        torch.manual_seed(seed)
        return get_peft_model(_shadow(model), config)


def _trainable(peft: nn.Module) -> dict[str, torch.Tensor]:
    return {n: p for n, p in peft.named_parameters() if p.requires_grad}


def train_lora(engine, states: list, gold: np.ndarray, question, train_idx, val_idx, *, rank: int = 8,
               alpha: float = 16, top_layers: int | None = 4, cache_frozen: bool = True, epochs: int = 6,
               lr: float = 1e-3, batch: int = 8, patience: int = 2, seed: int = 0,
               targets: tuple[str, ...] = ATTENTION, autocast: bool | None = None, out_dir: Path | None = None,
               log: Callable[[str], None] = print, progress: bool = True, frozen: dict | None = None) -> LoraFit:
    """Train a LoRA adapter for `question` on items `train_idx` of `states` (gold answer indices `gold`),
    choose the epoch on `val_idx` by NLL, save it into `out_dir` (PEFT format + lora_meta.json).
    `frozen`: a dict kept across calls on the same engine, states and autocast, so that several settings
    trained on the same items compute the frozen layers' states once (keyed by the first trained layer)."""
    started = time.perf_counter()
    gold = np.asarray(gold)
    train_idx, val_idx = np.asarray(train_idx, dtype=int), np.asarray(val_idx, dtype=int)
    if len(train_idx) == 0:
        raise ValueError("train_lora needs at least one training item")
    k = len(engine.renderer.question(question).label_ids)
    used = gold[np.concatenate([train_idx, val_idx])]
    if used.min() < 0 or used.max() >= k:
        raise ValueError(f"every train and validation item needs a gold answer index 0..{k - 1}")
    model = engine.backend.model
    total = len(model.get_decoder().layers)
    n_top = total if top_layers is None else max(1, min(int(top_layers), total))
    first = total - n_top
    layers = list(range(first, total))
    peft = _peft_model(model, layers, rank, alpha, targets, seed)
    fit = LoraFit(engine, peft, question, states, autocast=_autocast(engine, autocast))
    decoder = fit.decoder
    gold_t = torch.as_tensor(gold, dtype=torch.long)
    ids = {int(i): torch.tensor(fit.prompt(states[int(i)]), device=fit.device) for i in np.concatenate([train_idx, val_idx])}
    caching = cache_frozen and first > 0
    if cache_frozen and not caching:
        log("lora: every layer is trained, so there are no frozen layers to cache")
    seconds: dict = {}
    if caching:
        t0 = time.perf_counter()
        bottom = _view(decoder, list(decoder.layers[:first]), norm=False)
        run = _view(decoder, list(decoder.layers[first:]), norm=True)
        rows = frozen.setdefault(first, {}) if frozen is not None else {}
        todo = {i: x for i, x in ids.items() if i not in rows}
        bar = _bar(len(todo), f"lora: caching states entering layer {first}", "item") if progress and todo else None
        with torch.no_grad():
            for i, x in todo.items():  # one item per pass: no padding, exactly the lone pass's numbers
                amp = torch.autocast(fit.device.type, dtype=torch.bfloat16) if fit.autocast else contextlib.nullcontext()
                with amp:
                    rows[i] = bottom(input_ids=x[None], use_cache=False).last_hidden_state[0].detach()
                bar and bar.update(1)
        bar and bar.close()
        seconds["cache"] = round(time.perf_counter() - t0, 3)
        rows = {i: rows[i] for i in ids}
        held = sum(r.numel() * r.element_size() for r in rows.values())
        log(f"lora: cached {len(rows)} items' states entering layer {first} ({held / 2**20:.1f} MiB) in {seconds['cache']:.1f} s")
    else:
        run, rows = decoder, ids

    def logits_of(items) -> torch.Tensor:
        return fit.forward(run, [rows[int(i)] for i in items], ids=not caching)

    @torch.no_grad()
    def val_nll() -> float | None:
        if len(val_idx) == 0:
            return None
        peft.eval()
        losses = [F.cross_entropy(logits_of(chunk), gold_t[chunk], reduction="sum").item()
                  for chunk in np.array_split(val_idx, max(1, -(-len(val_idx) // batch)))]
        return float(sum(losses) / len(val_idx))

    params = _trainable(peft)
    optimiser = torch.optim.AdamW(list(params.values()), lr=lr, weight_decay=0.0)
    rng = np.random.default_rng(seed)
    history = {"val_nll": [val_nll()], "train_loss": [None], "epoch_seconds": [], "val_seconds": []}
    best_epoch, best = 0, history["val_nll"][0]
    best_state = {n: p.detach().clone() for n, p in params.items()}
    steps = -(-len(train_idx) // batch)
    bar = _bar(epochs * steps, f"lora r={rank} on layers {first}-{total - 1}", "step") if progress else None
    stale = 0
    try:
        for epoch in range(1, epochs + 1):
            t0 = time.perf_counter()
            peft.train()
            order, losses = rng.permutation(train_idx), []
            for s in range(steps):
                chunk = order[s * batch:(s + 1) * batch]
                with torch.enable_grad():
                    loss = F.cross_entropy(logits_of(chunk), gold_t[chunk])
                    optimiser.zero_grad(set_to_none=True)
                    loss.backward()
                optimiser.step()
                losses.append((loss.item(), len(chunk)))
                if bar:
                    bar.update(1)
                    bar.set_postfix(epoch=epoch, loss=f"{loss.item():.3f}")
            history["epoch_seconds"].append(round(time.perf_counter() - t0, 3))
            history["train_loss"].append(sum(v * n for v, n in losses) / len(train_idx))
            t1 = time.perf_counter()
            nll = val_nll()
            history["val_seconds"].append(round(time.perf_counter() - t1, 3))
            history["val_nll"].append(nll)
            log(f"lora: epoch {epoch}: train loss {history['train_loss'][-1]:.4f}"
                + (f", validation NLL {nll:.4f}" if nll is not None else "") + f" ({history['epoch_seconds'][-1]:.1f} s)")
            if nll is None or nll < best - 1e-6:
                best_epoch, best, stale = epoch, nll, 0
                best_state = {n: p.detach().clone() for n, p in params.items()}
            else:
                stale += 1
                if stale >= patience:
                    log(f"lora: stopping early: no validation improvement for {patience} epochs")
                    break
    finally:
        if bar:
            bar.close()
    with torch.no_grad():
        for n, p in params.items():
            p.copy_(best_state[n])
    peft.eval()
    seconds["total"] = round(time.perf_counter() - started, 3)
    fit.meta = {"schema": 1, "base_model": engine.info.id, "question": question.model_dump(mode="json", exclude_none=True),
                "label_ids": fit.label_ids, "rank": rank, "alpha": alpha, "targets": list(targets), "layers": layers,
                "top_layers": top_layers, "cache_frozen": caching, "autocast_bf16": fit.autocast, "lr": lr,
                "batch": batch, "seed": seed, "patience": patience, "train_items": len(train_idx),
                "validation_items": len(val_idx), "epochs_run": len(history["epoch_seconds"]), "best_epoch": best_epoch,
                "trainable_parameters": int(sum(p.numel() for p in params.values())), **history,
                "seconds": seconds, "peak_memory_mb": _peak_rss_mb()}
    if out_dir is not None:
        save_lora(fit, Path(out_dir))
    return fit


def save_lora(fit: LoraFit, out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    fit.peft.save_pretrained(str(out_dir))
    (out_dir / META).write_text(json.dumps(fit.meta, indent=2) + "\n")
    fit.path = out_dir
    return out_dir


def load_lora(engine, path: str | Path, states: list | None = None) -> LoraFit:
    """The adapter saved in `path`, over `engine`'s model (shadowed: the served model stays untouched);
    its scores equal the trained fit's. `states` are what `scores(idx)` indexes."""
    from peft import PeftModel

    from onepass.wire import parse_request

    path = Path(path)
    meta = json.loads((path / META).read_text())
    if meta.get("base_model") not in (None, engine.info.id):
        raise ValueError(f"LoRA adapter {path} was trained on {meta['base_model']}, not {engine.info.id}")
    question = parse_request({"model": "jev-latest", "state": "", "questions": {"q": meta["question"]}}).questions["q"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # peft asks the model for is_gradient_checkpointing
        peft = PeftModel.from_pretrained(_shadow(engine.backend.model), str(path))
    peft.eval()
    fit = LoraFit(engine, peft, question, list(states or []), meta, path, autocast=bool(meta.get("autocast_bf16")))
    if fit.label_ids != meta["label_ids"]:
        raise ValueError(f"LoRA adapter {path}: this tokenizer renders the labels as {fit.label_ids}, "
                         f"the adapter learned {meta['label_ids']}")
    return fit
