"""onepass serve | decide | run | label | presets | mcp | models | eval | calibrate | bench

Each subcommand lives in its own module (serve_cmd, decide_cmd, corpus_cmd, run_cmd, label, mcp_server);
every subcommand that loads a model takes EngineConfig's flags, generated from onepass/config.py.
"""

from __future__ import annotations

import argparse
import sys

from onepass import engine_setup, hardware, models
from onepass.config import EngineConfig, add_flags

__all__ = ["main", "model_args"]


def model_args(p: argparse.ArgumentParser) -> None:
    """EngineConfig's flags (model, hardware, readout, calibration, in-process and remote engine)."""
    add_flags(p, EngineConfig)


def list_models(args) -> int:
    dtype = hardware.choose_dtype(args.dtype or "auto", hardware.choose_device("auto").value)
    for name in filter(None, (args.build or "").split(",")):
        if name not in models.REGISTRY:
            print(f"unknown registry model {name!r}; known: {sorted(models.REGISTRY)}", file=sys.stderr)
            return 2
        if not models.is_cached(name, dtype.value):
            models.build_cache(models.REGISTRY[name], dtype.value)
    print(f"dtype here: {dtype.value} ({dtype.reason})")
    for name, entry in models.REGISTRY.items():
        default = " (default)" if name == models.DEFAULT_MODEL else ""
        cached = [d for d in hardware.DTYPES[1:] if models.is_cached(name, d)]
        cache = f"cached at {models.cache_dir(name)} ({', '.join(cached)})" if cached else "not cached (built on first use)"
        print(f"{name}{default}\n  {entry.description}\n  packages: {entry.packages}\n  {cache}")
    print("Any Hugging Face causal-LM directory or .gguf file path also works as --model.")
    return 0


def run_bench(args) -> int:
    from onepass import bench

    for flag in ("state_tokens", "questions", "options", "concurrency", "requests"):
        if getattr(args, flag) < 1:
            print(f"onepass bench: --{flag.replace('_', '-')} must be at least 1", file=sys.stderr)
            return 2
    if args.options > 255:
        print("onepass bench: --options must be at most 255", file=sys.stderr)
        return 2
    problem = engine_setup.check_flags(args, calibration="none")
    if problem:
        print(f"onepass bench: {problem}", file=sys.stderr)
        return 2
    config, line = engine_setup.hardware_line(args.engine_config)
    print(line, file=sys.stderr)
    engine = engine_setup.build_engine(config, log=lambda m: print(m, file=sys.stderr))
    result = bench.bench(engine, args.state_tokens, args.questions, args.options, args.concurrency, args.requests,
                         repeats=args.repeats, generation_tokens=args.generation_tokens)
    bench.write(result, args.json)
    return 0


def main(argv: list[str] | None = None) -> int:
    from onepass import corpus_cmd, decide_cmd, label, mcp_server, run_cmd, serve_cmd
    from onepass.learn import learn_cmd, tune_cmd

    parser = argparse.ArgumentParser(prog="onepass", description="System One decision server")
    sub = parser.add_subparsers(dest="command", required=True)
    serve_cmd.register(sub)
    decide_cmd.register(sub)
    corpus_cmd.register(sub)

    p = sub.add_parser("bench", help="decisions/s, latency, engine overhead and speedup over generating JSON")
    model_args(p)
    p.add_argument("--state-tokens", type=int, default=200)
    p.add_argument("--questions", type=int, default=4)
    p.add_argument("--options", type=int, default=4)
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--requests", type=int, default=8)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--generation-tokens", type=int, default=8)
    p.add_argument("--json", default=None)
    p.set_defaults(fn=run_bench)

    p = sub.add_parser("models", help="list registry models and their cache state")
    p.add_argument("--build", metavar="NAMES", help="comma-separated registry models whose caches to build first")
    add_flags(p, EngineConfig, names=("dtype",))
    p.set_defaults(fn=list_models)

    for module in (run_cmd, label, mcp_server, tune_cmd, learn_cmd):  # run, presets, label, mcp, tune, learn
        module.register(sub, model_args)

    args = parser.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
