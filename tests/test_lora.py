"""LoRA on the base model (onepass/learn/lora.py): trained on the served prompt's label logits, validation
tracked with early stopping, saved in PEFT's format, reloaded to the same scores, and the served model
answering bit-identically afterwards. A 2-layer random Llama (SmolLM2's tokenizer) for the mechanics,
SmolLM2 for a real architecture; each run a few items and epochs."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from onepass import Engine
from onepass.backends.base import Read
from onepass.learn.lora import META, load_lora, train_lora
from onepass.learn.methods import log_softmax
from onepass.wire import parse_request
from tests.tiny_random import llama_with_smollm_tokenizer

WORDS = ["refund", "invoice", "charged twice", "parcel", "courier", "tracking number", "app crash", "login error"]


def question(instructions: str = "Is this ticket about billing?"):
    raw = {"type": "noul", "instructions": instructions}
    return parse_request({"model": "jev-latest", "state": "", "questions": {"q": raw}}).questions["q"]


def tickets(n: int) -> tuple[list[str], np.ndarray]:
    states = [f"Ticket {k}: the customer writes about the {WORDS[k % len(WORDS)]} again." for k in range(n)]
    gold = np.array([0 if (k % len(WORDS)) < 3 else 1 for k in range(n)])  # 0 = Yes (billing), 1 = No
    return states, gold


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory):
    return llama_with_smollm_tokenizer(tmp_path_factory.mktemp("lora") / "tiny", seed=7)


@pytest.fixture(scope="module")
def tiny(tiny_dir):
    return Engine(str(tiny_dir), dtype="float32", calibration=None, log=lambda _m: None, torch_threads=1)


def served_reads(engine, states, q) -> list[np.ndarray]:
    rendered = engine.renderer.question(q)
    return [engine.backend.read_request(engine.renderer.prefix(s), [Read(rendered.suffix, rendered.label_ids)])[0]
            for s in states]


def fingerprint(model) -> tuple:
    """Everything of the served model training could touch: weights, module types, flags, mode."""
    weights = {k: v.clone() for k, v in model.state_dict().items()}
    return weights, [type(m).__name__ for m in model.modules()], [p.requires_grad for p in model.parameters()], model.training


def assert_untouched(before: tuple, after: tuple) -> None:
    assert before[1:] == after[1:]
    assert before[0].keys() == after[0].keys()
    assert all(torch.equal(before[0][k], after[0][k]) for k in before[0])


def test_training_on_the_tiny_model_lowers_the_loss_saves_peft_and_reloads(tiny, tiny_dir, tmp_path):
    states, gold = tickets(24)
    q = question()
    train, val = np.arange(16), np.arange(16, 24)
    reads_before, before = served_reads(tiny, states[:4], q), fingerprint(tiny.backend.model)
    fit = train_lora(tiny, states, gold, q, train, val, rank=4, alpha=8, top_layers=1, epochs=4, lr=2e-2, batch=4,
                     patience=10, out_dir=tmp_path / "adapter", log=lambda _m: None)
    meta = fit.meta
    assert meta["epochs_run"] == 4 and len(meta["val_nll"]) == 5 and len(meta["train_loss"]) == 5
    assert meta["layers"] == [1] and meta["cache_frozen"] is True and meta["rank"] == 4
    assert meta["best_epoch"] == int(np.argmin(meta["val_nll"]))
    # Training lowers the training loss: the served (zero-shot) reading versus the adapter's.
    zero_shot = log_softmax(np.array(served_reads(tiny, [states[i] for i in train], q)))
    nll = lambda lp, idx: float(-np.mean(lp[np.arange(len(idx)), gold[idx]]))  # noqa: E731
    assert nll(fit.scores(train), train) < nll(zero_shot, train) - 0.02
    assert np.allclose(np.exp(fit.scores(val)).sum(axis=1), 1.0)
    # The served model answers exactly as before.
    assert_untouched(before, fingerprint(tiny.backend.model))
    assert all(np.array_equal(a, b) for a, b in zip(reads_before, served_reads(tiny, states[:4], q)))

    # Saved in PEFT's format, with the meta file.
    out = tmp_path / "adapter"
    assert {"adapter_config.json", "adapter_model.safetensors", META} <= {p.name for p in out.iterdir()}
    config = json.loads((out / "adapter_config.json").read_text())
    assert config["peft_type"] == "LORA" and config["r"] == 4 and config["layers_to_transform"] == [1]
    assert json.loads((out / META).read_text())["val_nll"] == meta["val_nll"]

    # Reloaded through onepass: identical scores, and still an untouched served model.
    again = load_lora(tiny, out, states)
    assert np.array_equal(again.scores(val), fit.scores(val))
    assert_untouched(before, fingerprint(tiny.backend.model))

    # Plain PEFT on a freshly loaded base model reads the same label distribution at the answer position.
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    plain = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(tiny_dir, dtype=torch.float32), out).eval()
    # Under the same bf16 autocast where the CPU has native bf16 (the fit records it); two bf16 computations of
    # one prompt agree to bf16 rounding, float32 ones to float rounding.
    amp = torch.autocast("cpu", dtype=torch.bfloat16, enabled=fit.autocast)
    with torch.no_grad(), amp:
        logits = np.stack([plain(input_ids=torch.tensor([fit.prompt(states[i])])).logits[0, -1, fit.label_ids].double().numpy()
                           for i in val])
    assert np.allclose(log_softmax(logits), fit.scores(val), atol=2e-3 if fit.autocast else 1e-5)


def test_cached_frozen_layers_give_the_uncached_losses(tiny, tmp_path):
    states, gold = tickets(12)
    q = question()
    runs = {cache: train_lora(tiny, states, gold, q, np.arange(8), np.arange(8, 12), rank=4, top_layers=1,
                              cache_frozen=cache, epochs=1, batch=4, log=lambda _m: None, progress=False).meta
            for cache in (True, False)}
    assert runs[True]["cache_frozen"] and not runs[False]["cache_frozen"] and "cache" in runs[True]["seconds"]
    for key in ("val_nll", "train_loss"):
        assert np.allclose(runs[True][key][1:], runs[False][key][1:], rtol=1e-4, atol=1e-5)
    assert abs(runs[True]["val_nll"][0] - runs[False]["val_nll"][0]) < 1e-5


def test_early_stopping_keeps_the_best_epoch(tiny):
    """A learning rate far too high makes validation swing: training stops `patience` epochs after the best
    one and keeps that epoch's weights, not the last ones (epoch 0 would be the untouched model)."""
    states, gold = tickets(12)
    val = np.arange(8, 12)
    fit = train_lora(tiny, states, gold, question(), np.arange(8), val, rank=4, top_layers=2, epochs=6, lr=5.0,
                     batch=4, patience=2, log=lambda _m: None, progress=False)
    meta = fit.meta
    best = meta["best_epoch"]
    assert meta["epochs_run"] == best + 2 < 6 and len(meta["val_nll"]) == meta["epochs_run"] + 1
    assert meta["val_nll"][best] == min(meta["val_nll"]) < meta["val_nll"][-1] - 0.01
    kept = float(-np.mean(fit.scores(val)[np.arange(len(val)), gold[val]]))
    assert abs(kept - meta["val_nll"][best]) < 1e-5
    if best == 0:  # the untouched model: every LoRA B matrix back at zero
        assert all(float(p.abs().max()) == 0.0 for n, p in fit.peft.named_parameters() if "lora_B" in n)


def test_smollm2_adapter_round_trip_leaves_the_served_model_alone(smol, tmp_path):
    states = ["Refund my double charge please.", "Where is my parcel?", "I was billed twice.", "App crashes on login.",
              "Invoice total is wrong.", "Courier lost the box."]
    gold = np.array([0, 1, 0, 1, 0, 1])
    q = question("Is this about billing?")
    before_reads, before = served_reads(smol, states[:2], q), fingerprint(smol.backend.model)
    fit = train_lora(smol, states, gold, q, np.arange(4), np.arange(4, 6), rank=4, top_layers=1, epochs=1, batch=2,
                     out_dir=tmp_path / "smol", log=lambda _m: None)
    assert fit.meta["layers"] == [len(smol.backend.model.get_decoder().layers) - 1] and fit.meta["epochs_run"] == 1
    assert all(np.isfinite(v) for v in fit.meta["val_nll"])
    assert_untouched(before, fingerprint(smol.backend.model))
    assert all(np.array_equal(a, b) for a, b in zip(before_reads, served_reads(smol, states[:2], q)))
    again = load_lora(smol, tmp_path / "smol", states)
    assert np.array_equal(again.scores([4, 5]), fit.scores([4, 5]))
