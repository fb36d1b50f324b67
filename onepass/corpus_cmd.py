"""`onepass eval` and `onepass calibrate`: a labelled corpus through the same engine the server runs."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from onepass import engine_setup
from onepass.config import EngineConfig, add_flags

__all__ = ["register", "evaluate", "calibrate"]


def _domains(args) -> list[str] | None:
    return [d.strip() for d in args.domains.split(",") if d.strip()] if args.domains else None


def evaluate(args) -> int:
    from onepass import evaluate as ev

    items = ev.load_corpus(Path(args.data), args.split, args.fraction, _domains(args))
    if args.limit:
        items = items[: args.limit]
    if not items:
        print(f"no items in {args.data} for split {args.split!r}", file=sys.stderr)
        return 2
    if args.url:
        scored = ev.score_with_server(args.url, items, args.readout, args.api_key or os.environ.get("ONEPASS_API_KEY"), args.timeout)
        name = args.url
        result = ev.report(scored)  # the server's own probabilities, calibrated or not as it serves them
    else:
        problem = engine_setup.check_flags(args)
        if problem:
            print(f"onepass eval: {problem}", file=sys.stderr)
            return 2
        engine = engine_setup.build_engine(args.engine_config, log=lambda m: print(m, file=sys.stderr))
        scored = ev.score_with_engine(engine, items, args.readout)
        name = engine.info.id
        if engine.profile is not None and not args.uncalibrated:
            from onepass.learn.priors import profile_key

            readout = args.readout or engine.default_readout
            temps = engine.profile.temperatures.get(profile_key(readout, engine.prior_correction), {})
            result = ev.report(scored, temps)
            result["calibration"] = {"applied": True, "readout": readout, "temperatures": temps}
        else:
            result = ev.report(scored)
            result["calibration"] = {"applied": False}
    result.update({"model": name, "data": args.data, "split": args.split, "readout": args.readout})
    overall = result["overall"]
    print(f"{name}: n={overall['n']} accuracy={overall['accuracy']:.3f} ECE={overall['ece']:.3f} "
          f"Brier={overall['brier']:.3f} NLL={overall['nll']:.3f}")
    for qtype, m in result["by_type"].items():
        print(f"  {qtype:7s} n={m['n']:4d} accuracy={m['accuracy']:.3f} ECE={m['ece']:.3f} Brier={m['brier']:.3f} NLL={m['nll']:.3f}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    if args.plot:
        ev.plot({name: result}, Path(args.plot), f"{name} on {Path(args.data).name} ({args.split})")
    return 0


def calibrate(args) -> int:
    from onepass import evaluate as ev
    from onepass.learn.fit import fit_families

    problem = engine_setup.check_flags(args, calibration="none")  # fit on raw logits, whatever profile exists
    if problem:
        print(f"onepass calibrate: {problem}", file=sys.stderr)
        return 2
    engine = engine_setup.build_engine(args.engine_config, log=lambda m: print(m, file=sys.stderr))
    if engine.dtype is None:
        print("onepass calibrate: fit against an in-process model (--backend embedded)", file=sys.stderr)
        return 2
    items = ev.load_corpus(Path(args.data), fraction=args.fraction, domains=_domains(args))
    if args.limit:
        items = items[: args.limit]
    families = args.readouts.split(",") if args.readouts else None  # None: the engine's --readout
    fit_families(engine, items, families, data_path=Path(args.data), out=args.out, update=args.update,
                 scores_path=args.scores, report_path=args.report, plot_path=args.plot, log=print)
    return 0


def register(sub) -> None:
    p = sub.add_parser("eval", help="accuracy, ECE, Brier, NLL and label mass on a labelled corpus")
    add_flags(p, EngineConfig)
    p.add_argument("--data", required=True, help="corpus JSONL (see docs/corpus.md)")
    p.add_argument("--url", help="evaluate any System One server at this base URL instead of an in-process model")
    p.add_argument("--api-key", help="key for --url (also ONEPASS_API_KEY)")
    p.add_argument("--split", default="test", help="calibration | test | all (default test)")
    p.add_argument("--fraction", type=float, default=1.0, help="use a deterministic share of the corpus (hash of item id)")
    p.add_argument("--domains", help="comma-separated corpus domains to use (default: all)")
    p.add_argument("--limit", type=int, default=None)
    p.add_argument("--timeout", type=float, default=300.0)
    p.add_argument("--uncalibrated", action="store_true", help="report raw probabilities (in-process only)")
    p.add_argument("--json", help="write the report here")
    p.add_argument("--plot", help="write a reliability diagram (PNG) here")
    p.set_defaults(fn=evaluate)

    p = sub.add_parser("calibrate", help="fit temperature profiles per question type (and readout family)")
    add_flags(p, EngineConfig)
    p.add_argument("--data", required=True)
    p.add_argument("--readouts", help="comma-separated families to fit (default: the --readout)")
    p.add_argument("--out", help="profile path (default: the model's cache directory)")
    p.add_argument("--update", action="store_true", help="keep other families' temperatures already in --out")
    p.add_argument("--fraction", type=float, default=1.0, help="use a deterministic share of the corpus (hash of item id)")
    p.add_argument("--domains", help="comma-separated corpus domains to use (default: all)")
    p.add_argument("--scores", help="JSONL cache of per-item label logits: written as it goes, reused on rerun")
    p.add_argument("--limit", type=int, default=None)
    p.add_argument("--report", help="write cross-validation and held-out metrics (JSON) here")
    p.add_argument("--plot", help="write the held-out reliability diagram (PNG) here")
    p.set_defaults(fn=calibrate)
