"""Choice over many options, per option-count band and readout family: accuracy, ECE, latency, reads.

Runs the many-options bench (data/many_options/items.jsonl, docs/many-options.md) through an in-process
model, one request per item and family, and reports for each band (20, 50, 100, 200+ options) and family:
accuracy (with its binomial standard error), ECE of the top answer, median and p90 latency, and reads per
question (the answer positions the engine read: `usage.output_tokens`). Items are taken per band in a fixed
order from a hash of their id (`--per-band`), so a smaller run is a prefix of a larger one. Results are
appended to `--cache` as they come and reused on rerun (same model, dtype and family); `--cached-only`
reports them without loading a model. Against slot on the same items each family gets a paired accuracy
difference and latency ratio, and `--policy-out PROFILE` writes the `--readout auto` policy per option
count chosen from them (`choose_policy`) into a profile.

    .venv/bin/python bench/many_options.py --model qwen2.5-coder-1.5b-instruct --per-band 10 \
        --families slot,shortlist,likelihood --json bench/out/many-options-qwen.json

Every request pays its own state prefill (the prefix cache is cleared before each), as a router's
traffic of distinct messages would.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from onepass import Engine, bench
from onepass.learn.calibration import ece
from onepass.stats import percentile

__all__ = ["main"]

ROOT = Path(__file__).resolve().parents[1]
BANDS = ("20", "50", "100", "200+")
RECALL_AT = (1, 4, 8, 16, 32)


def sample(items: list[dict], per_band: dict[str, int]) -> list[dict]:
    """The first `per_band[band]` items of each band in the order of a hash of their id (stable across
    runs), taken in turn from each band so that a run stopped part-way has covered every band alike."""
    ranked = [sorted((i for i in items if i["band"] == band), key=lambda i: hashlib.sha256(i["id"].encode()).hexdigest())[:n]
              for band, n in per_band.items()]
    return [row[n] for n in range(max(per_band.values())) for row in ranked if n < len(row)]


def variant(family: str) -> tuple[str, dict]:
    """'shortlist-k16' -> ('shortlist', {'shortlist_k': 16}); 'shortlist-k8-likelihood-isolated' also sets
    the first pass and the rerank; a plain family name -> (family, {})."""
    if family.startswith("shortlist-k"):
        k, *stages = family.removeprefix("shortlist-k").split("-")
        settings = {"shortlist_k": int(k)}
        if stages:
            settings.update(shortlist_first=stages[0], shortlist_rerank=stages[1])
        return "shortlist", settings
    return family, {}


def run_one(engine: Engine, item: dict, readout: str) -> dict:
    request = {**item["request"], "x_readout": readout, "x_calibrated": False}
    engine.backend.clear_prefix_cache()
    started = time.perf_counter()
    try:
        response = engine.decide(request)
    except Exception as error:  # a request the model cannot take (context) is reported, not fatal
        return {"id": item["id"], "error": f"{type(error).__name__}: {str(error)[:200]}"}
    seconds = time.perf_counter() - started
    answer = response["answers"]["q"]
    probs = answer["probabilities"]
    top = max(probs, key=probs.get)
    # The gold's rank (1 = top) is what a shortlist of k needs from its first pass: recall at k is rank <= k.
    gold_rank = 1 + sum(p > probs.get(item["gold"], 0.0) for p in probs.values())
    row = {"id": item["id"], "band": item["band"], "correct": top == item["gold"], "confidence": probs[top],
           "p_gold": probs.get(item["gold"], 0.0), "gold_rank": gold_rank, "seconds": seconds,
           "reads": response["usage"]["output_tokens"], "input_tokens": response["usage"]["input_tokens"]}
    if "x_shortlist" in answer:
        row["gold_shortlisted"] = item["gold"] in answer["x_shortlist"]
    return row


def summarise(rows: list[dict]) -> dict:
    done = [r for r in rows if "error" not in r]
    if not done:
        return {"n": 0, "errors": len(rows)}
    correct = np.array([r["correct"] for r in done], dtype=float)
    accuracy = float(correct.mean())
    seconds = [r["seconds"] for r in done]
    return {"n": len(done), "errors": len(rows) - len(done), "accuracy": round(accuracy, 3),
            "accuracy_se": round(math.sqrt(max(accuracy * (1 - accuracy), 1e-12) / len(done)), 3),
            "ece": round(float(ece(np.array([r["confidence"] for r in done]), correct)), 3),
            "p50_s": round(percentile(seconds, 50), 2), "p90_s": round(percentile(seconds, 90), 2),
            "reads_per_question": round(float(np.mean([r["reads"] for r in done])), 1),
            # The share of items whose gold is in this family's top k: what a shortlist of k built on
            # this family's distribution would keep (rows from before gold_rank was recorded: left out).
            "gold_in_top_k": {k: round(float(np.mean([r["gold_rank"] <= k for r in done if "gold_rank" in r])), 3)
                              for k in RECALL_AT if any("gold_rank" in r for r in done)},
            "input_tokens": round(float(np.mean([r["input_tokens"] for r in done]))),
            **({"gold_shortlisted": round(float(np.mean([r["gold_shortlisted"] for r in done if "gold_shortlisted" in r])), 3)}
               if any("gold_shortlisted" in r for r in done) else {})}


def paired(rows: list[dict], slot_rows: list[dict]) -> dict:
    """Accuracy minus slot's on the items both answered (mean, paired standard error), and the ratio of
    their median latencies."""
    slot = {r["id"]: r for r in slot_rows if "error" not in r}
    both = [(r, slot[r["id"]]) for r in rows if "error" not in r and r["id"] in slot]
    if len(both) < 2:
        return {}
    d = np.array([float(a["correct"]) - float(b["correct"]) for a, b in both])
    return {"n": len(both), "accuracy_minus_slot": round(float(d.mean()), 3),
            "se": round(float(d.std(ddof=1) / math.sqrt(len(d))), 3),
            "latency_vs_slot": round(percentile([a["seconds"] for a, _ in both], 50) / percentile([b["seconds"] for _, b in both], 50), 2)}


def choose_policy(results: dict, options_of_band: dict[str, int]) -> tuple[dict[str, str], dict]:
    """Per band, in order of option count: the family (shortlist-kN... counts as shortlist) whose accuracy
    beats slot's by more than twice the paired standard error at no more than twice slot's median latency;
    failing that, the family chosen for the band below if it is measured there no worse than slot (the
    advantage of reading options' own words grows with their number, so a larger band does not go back to
    slot on a difference within noise); else slot. Returned as choice@N keys: N the band's measured option
    count, one key where the chosen family changes."""
    policy, report, previous = {}, {}, "slot"
    for band in sorted(options_of_band, key=options_of_band.get):
        gains = {f: paired(results[f][band], results["slot"][band]) for f in results if f != "slot" and band in results[f]}
        fast = {f: g for f, g in gains.items() if g and g["latency_vs_slot"] <= 2.0}
        fit = {f: g for f, g in fast.items() if g["accuracy_minus_slot"] > 2 * g["se"]}
        kept = {f: g for f, g in fast.items() if variant(f)[0] == previous and g["accuracy_minus_slot"] >= 0}
        pool = fit or (kept if previous != "slot" else {})
        best = max(pool, key=lambda f: pool[f]["accuracy_minus_slot"]) if pool else "slot"
        report[band] = {"options": options_of_band[band], "chosen": best,
                        "why": "beats slot by > 2 paired SE" if fit else "kept from the band below" if pool else "none beats slot",
                        "vs_slot": gains}
        family = variant(best)[0]
        if family != previous:
            policy[f"choice@{options_of_band[band]}"] = family
            previous = family
    return policy, report


def write_policy(path: Path, results: dict, options_of_band: dict[str, int], model_id: str, dtype: str) -> None:
    """The per-option-count part of the profile's readout policy (its choice@N keys), replaced; the rest of
    the profile is kept."""
    from onepass.learn.calibration import Profile

    profile = Profile.load(path) if path.exists() else Profile(model=model_id, temperatures={}, dtype=dtype)
    policy, report = choose_policy(results, options_of_band)
    profile.readout_policy = {**{k: v for k, v in profile.readout_policy.items() if "@" not in k}, **policy}
    profile.policy_report = {**profile.policy_report, "by_option_count": {
        "rule": "per option-count band of data/many_options, the family whose accuracy beats slot by > 2 paired SE "
                "at <= 2x slot's median latency, else the band below's family where it is no worse than slot; "
                "a shortlist variant is served with the server's --shortlist-k/-first/-rerank", "bands": report}}
    profile.save(path)
    print(f"readout policy {profile.readout_policy} written to {path}", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--dtype", default="auto")
    parser.add_argument("--families", default="slot,shortlist,likelihood",
                        help="comma-separated readout families; shortlist-kN sets the shortlist's k, "
                             "shortlist-kN-FIRST-RERANK its first pass and rerank too")
    parser.add_argument("--bands", default=",".join(BANDS))
    parser.add_argument("--per-band", default="10", help="items per band: one number, or one per --bands entry")
    parser.add_argument("--data", default=str(ROOT / "data" / "many_options" / "items.jsonl"))
    parser.add_argument("--cache", default=None, help="JSONL of per-item results (default bench/out/many-options-<model>-<dtype>.jsonl)")
    parser.add_argument("--cached-only", action="store_true",
                        help="report the cache's rows of the sampled items only: load no model, run nothing "
                             "(needs --cache and an explicit --dtype)")
    parser.add_argument("--json", default=None)
    parser.add_argument("--policy-out", default=None,
                        help="write the --readout auto policy per option count chosen from this table into this profile")
    args = parser.parse_args()
    bands = tuple(b.strip() for b in args.bands.split(",") if b.strip())
    counts = [int(n) for n in args.per_band.split(",")]
    counts = counts * len(bands) if len(counts) == 1 else counts
    if not set(bands) <= set(BANDS) or len(counts) != len(bands) or not all(1 <= n <= 1000 for n in counts):
        parser.error(f"--bands from {BANDS}; --per-band 1..1000, one number or one per band")
    if args.cached_only and (not args.cache or args.dtype == "auto"):
        parser.error("--cached-only needs --cache and the dtype the cache was measured in (--dtype)")
    items = sample([json.loads(line) for line in Path(args.data).read_text().splitlines() if line.strip()], dict(zip(bands, counts)))
    engine = None
    if not args.cached_only:
        engine = Engine(args.model, dtype=args.dtype, calibration=None, request_timeout_s=None,
                        log=lambda m: print(m, file=sys.stderr))
    model_id, dtype = (engine.info.id, engine.dtype.value) if engine else (args.model, args.dtype)
    cache = Path(args.cache or ROOT / "bench" / "out" / f"many-options-{model_id}-{dtype}.jsonl")
    cache.parent.mkdir(parents=True, exist_ok=True)
    seen: dict[tuple[str, str], dict] = {}
    if cache.exists():
        for line in cache.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                seen[(row["family"], row["id"])] = row
    results: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    engines: dict[str, Engine] = {}
    families = [f.strip() for f in args.families.split(",") if f.strip()]
    for family in families:
        _, settings = variant(family)
        if settings and engine is not None:
            engines[family] = Engine(config=engine.config.replace(**settings), backend=engine.backend,
                                     tokenizer=engine.tokenizer, model_id=engine.info.id)
    # Item-major, so a run stopped part-way leaves every family measured on the same items (paired).
    for n, item in enumerate(items, 1):
        for family in families:
            readout, _ = variant(family)
            runner = engines.get(family, engine)
            row = seen.get((family, item["id"]))
            if row is None and engine is None:
                continue
            if row is None:
                row = {"family": family, **run_one(runner, item, readout)}
                with cache.open("a") as out:
                    out.write(json.dumps(row) + "\n")
                print(f"{family} {n}/{len(items)} {item['band']}: {row.get('correct', row.get('error'))} "
                      f"{row.get('seconds', 0):.1f}s", file=sys.stderr, flush=True)
            results[family][item["band"]].append(row)
    table = {family: {band: {**summarise(rows), **({"paired": paired(rows, results["slot"][band])} if family != "slot" and "slot" in results else {})}
                      for band, rows in by_band.items()} for family, by_band in results.items()}
    report = {"model": model_id, "dtype": dtype, "per_band": dict(zip(bands, counts)), "table": table}
    bench.write(report, args.json)
    if args.policy_out:
        if "slot" not in results:
            parser.error("--policy-out compares every family with slot: include slot in --families")
        write_policy(Path(args.policy_out), results, {i["band"]: i["options"] for i in items}, model_id, dtype)
    return 0


if __name__ == "__main__":
    sys.exit(main())
