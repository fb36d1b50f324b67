"""Seconds per LoRA epoch (onepass/learn/lora.py) with and without caching the frozen layers' states, for the
top 2, top 4 and all layers, on SmolLM2 and the marketplace_moderation labels (data/learn/).

Each configuration trains a fresh adapter on the same items in the same order (one thread, float32 or bf16
as `--dtype auto` would serve here) and reports the one-off caching time, the training seconds per epoch,
the validation pass per epoch, and the validation NLL (epoch 0 is the untouched model).

    .venv/bin/python bench/lora_speed.py                        # 64 train, 16 validation items, 1 epoch each
    .venv/bin/python bench/lora_speed.py --epochs 2 --json bench/out/lora_speed.json
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from onepass.learn.labels import read_labels, read_questions  # noqa: E402
from onepass.learn.lora import train_lora  # noqa: E402
from onepass.learn.splits import stratified  # noqa: E402

TASK = ROOT / "data" / "learn" / "marketplace_moderation"
CONFIGS = [(2, True), (2, False), (4, True), (4, False), (None, False)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--train", type=int, default=64)
    parser.add_argument("--val", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--rank", type=int, default=8)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--configs", default="2c,2,4c,4,all", help="top layers, 'c' = cache_frozen (all: every layer)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)

    import torch

    torch.set_num_threads(1)
    from onepass import Engine

    engine = Engine(args.model, dtype=args.dtype, torch_threads=1, calibration=None)
    raw = read_questions(TASK / "questions.json")
    labels = read_labels(TASK / "labels.jsonl", raw)
    qid = next(iter(labels.questions))
    question = labels.questions[qid]
    items = [labels.items[i] for i in labels.labelled(qid)]
    gold = np.array([item.gold[qid] for item in items])
    train, val, _rest = stratified(gold.tolist(), (args.train / len(items), args.val / len(items),
                                                   1 - (args.train + args.val) / len(items)), seed=0)
    train, val = train[: args.train], val[: args.val]
    states = [item.state for item in items]
    lengths = [len(engine.renderer.prefix(states[i]) + engine.renderer.question(question).suffix) for i in train]
    print(f"{args.model} ({engine.dtype.value}), {TASK.name}/{qid}: {len(train)} train, {len(val)} validation items, "
          f"prompts {min(lengths)}-{max(lengths)} tokens (mean {np.mean(lengths):.0f}), 1 thread, {platform.machine()}",
          file=sys.stderr)
    rows = []
    for spec in args.configs.split(","):
        top = None if spec == "all" else int(spec.rstrip("c"))
        cache = spec.endswith("c")
        started = time.perf_counter()
        fit = train_lora(engine, states, gold, question, train, val, rank=args.rank, top_layers=top, cache_frozen=cache,
                         epochs=args.epochs, batch=args.batch, patience=args.epochs + 1, log=lambda m: print(m, file=sys.stderr))
        meta = fit.meta
        rows.append({"top_layers": "all" if top is None else top, "layers": meta["layers"], "cache_frozen": meta["cache_frozen"],
                     "cache_s": meta["seconds"].get("cache", 0.0), "epoch_s": float(np.mean(meta["epoch_seconds"])),
                     "val_s": float(np.mean(meta["val_seconds"])), "val_nll": meta["val_nll"],
                     "trainable_parameters": meta["trainable_parameters"], "total_s": round(time.perf_counter() - started, 1),
                     "peak_memory_mb": meta["peak_memory_mb"]})
        print(json.dumps(rows[-1]), file=sys.stderr)
    print("| top layers | cache_frozen | trainable params | caching (once) s | train s / epoch | validation s / epoch | val NLL by epoch |")
    print("|---|---|---:|---:|---:|---:|---|")
    for r in rows:
        nll = " → ".join(f"{v:.4f}" for v in r["val_nll"])
        print(f"| {r['top_layers']} | {'yes' if r['cache_frozen'] else 'no'} | {r['trainable_parameters']:,} | "
              f"{r['cache_s']:.1f} | {r['epoch_s']:.1f} | {r['val_s']:.1f} | {nll} |")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"model": args.model, "dtype": engine.dtype.value, "train": len(train),
                                         "val": len(val), "epochs": args.epochs, "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
