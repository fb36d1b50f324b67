"""LoRA training settings compared on validation only: which learning rate, epoch count and patience the
`lora` method of `onepass learn` ships (onepass/learn/lora_method.py SETTINGS).

The split is bench/learn.py's (seed, label budget; 70 % train, 30 % validation); its test items are never
read here. Each setting trains a fresh adapter on the same training items (the frozen layers' states are
computed once and shared) and reports the validation NLL after every epoch (epoch 0: the untouched model),
the best epoch and the seconds.

    .venv/bin/python bench/lora_settings.py --task marketplace_moderation --labels 128 --json docs/learn/lora-settings.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from onepass.learn.labels import read_labels, read_questions  # noqa: E402
from onepass.learn.lora import train_lora  # noqa: E402
from onepass.learn.lora_method import SETTINGS  # noqa: E402
from onepass.learn.splits import budget, stratified  # noqa: E402

# name -> overrides of the shipped SETTINGS
CANDIDATES = {"shipped": {}, "12 epochs, patience 4": {"epochs": 12, "patience": 4},
              "lr 3e-3, 12 epochs, patience 4": {"lr": 3e-3, "epochs": 12, "patience": 4}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--dtype", default="auto")
    parser.add_argument("--torch-threads", type=int, default=None)
    parser.add_argument("--task", default="marketplace_moderation")
    parser.add_argument("--labels", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--test-size", type=int, default=150, help="as bench/learn.py: these items are left out")
    parser.add_argument("--json", help="write the rows here")
    args = parser.parse_args()
    from onepass import Engine

    log = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    folder = ROOT / "data" / "learn" / args.task
    labels = read_labels(folder / "labels.jsonl", read_questions(folder / "questions.json"))
    qid, question = next(iter(labels.questions.items()))
    strata = [item.gold[qid] for item in labels.items]
    n = len(strata)
    test = stratified(strata, (1 - args.test_size / n, args.test_size / n), args.seed)[1]
    train, val = budget(strata, args.labels, test, args.seed)
    engine = Engine(args.model, dtype=args.dtype, torch_threads=args.torch_threads, calibration="none", log=log)
    states = [item.state for item in labels.items]
    gold = [item.gold[qid] for item in labels.items]
    frozen: dict = {}
    rows = []
    for name, overrides in CANDIDATES.items():
        settings = {**SETTINGS, **overrides}
        started = time.perf_counter()
        fit = train_lora(engine, states, gold, question, train, val, cache_frozen=True, seed=args.seed, frozen=frozen,
                         log=log, **settings)
        meta = fit.meta
        rows.append({"setting": name, **settings, "val_nll_by_epoch": meta["val_nll"], "best_epoch": meta["best_epoch"],
                     "best_val_nll": min(meta["val_nll"]), "epochs_run": meta["epochs_run"],
                     "seconds": round(time.perf_counter() - started, 1)})
        log(json.dumps(rows[-1]))
    out = {"model": args.model, "dtype": engine.dtype.value if engine.dtype else None, "task": args.task, "question": qid,
           "labels": args.labels, "seed": args.seed, "train": len(train), "validation": len(val), "rows": rows}
    print(json.dumps(out, indent=1))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
