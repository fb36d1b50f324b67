"""Wall time and peak memory of one cold `onepass learn` run: N labelled items of one task of data/learn/, a
fresh output directory (no cached reads), the default split shares, the command a user would type.

    .venv/bin/python bench/learn_time.py --task marketplace_moderation --labels 320 --json docs/learn/learn-time.json
    .venv/bin/python bench/learn_time.py ... --methods zero-shot,head-hidden,examples   # with retrieved examples
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", default="marketplace_moderation")
    parser.add_argument("--labels", type=int, default=320, help="labelled items given to onepass learn (the file's first N)")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--torch-threads", type=int, default=None)
    parser.add_argument("--methods", help="passed to onepass learn --methods (default: its default)")
    parser.add_argument("--json", help="write the result here")
    args = parser.parse_args()
    folder = ROOT / "data" / "learn" / args.task
    lines = (folder / "labels.jsonl").read_text().splitlines()[: args.labels]
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "labels.jsonl"
        data.write_text("\n".join(lines) + "\n")
        out = Path(tmp) / "adapter"
        command = [sys.executable, "-m", "onepass.cli", "learn", "--model", args.model, "--questions",
                   str(folder / "questions.json"), "--data", str(data), "--name", f"{args.task}-{args.labels}", "--out", str(out)]
        if args.torch_threads:
            command += ["--torch-threads", str(args.torch_threads)]
        if args.methods:
            command += ["--methods", args.methods]
        started = time.perf_counter()
        code = subprocess.call(command, cwd=ROOT)
        seconds = time.perf_counter() - started
        if code != 0:
            print(f"onepass learn exited {code}", file=sys.stderr)
            return code
        manifest = json.loads((out / "manifest.json").read_text())
    child_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / (1 << 20 if platform.system() == "Darwin" else 1 << 10)
    result = {"task": args.task, "labels": len(lines), "model": args.model, "torch_threads": args.torch_threads,
              "methods": manifest["methods_tried"], "wall_seconds": round(seconds, 1),
              "training_seconds_reported": manifest["training_seconds"], "peak_memory_mb": round(child_peak, 1),
              "questions": {qid: {"chosen": q["chosen"], "counts": q["counts"],
                                  "test_accuracy": q["test"][q["chosen"]].get("accuracy"),
                                  "zero_shot_test_accuracy": q["test"]["zero-shot"].get("accuracy"),
                                  "fit_seconds": q["fit_seconds"]} for qid, q in manifest["questions"].items()}}
    print(json.dumps(result, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
