"""onepass serve | decide | run | label | presets | mcp | models | eval | calibrate | bench"""

from __future__ import annotations

import argparse
import ipaddress
import json
import logging
import os
import sys
from pathlib import Path

from onepass import hardware, models


class ConfigError(ValueError):
    """A start-up setting that cannot work; the message says what to fix."""


def _keys(args) -> list[str]:
    """API keys from ONEPASS_API_KEYS (comma-separated) and from a key file (--api-key-file or
    ONEPASS_API_KEY_FILE: one key per line, blank lines and # comments ignored). Keys are never printed."""
    keys = [k.strip() for k in os.environ.get("ONEPASS_API_KEYS", "").split(",") if k.strip()]
    path = getattr(args, "api_key_file", None) or os.environ.get("ONEPASS_API_KEY_FILE")
    if path:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ConfigError(f"the API key file {path} does not exist") from None
        except (OSError, UnicodeDecodeError) as error:
            raise ConfigError(f"the API key file {path} cannot be read ({type(error).__name__}: {getattr(error, 'strerror', None) or 'not UTF-8 text'})") from None
        from_file = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
        if not from_file:
            raise ConfigError(f"the API key file {path} has no keys (one key per line; # starts a comment)")
        try:
            if Path(path).stat().st_mode & 0o077:
                print(f"warning: the API key file {path} is readable by other users; chmod 600 it", file=sys.stderr)
        except OSError:
            pass
        keys += from_file
    return keys


def _loopback(host: str) -> bool:
    """True only for addresses that cannot be reached from another machine."""
    host = host.strip()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# serve flag -> Settings field; a flag left out keeps the Settings default (docs/operations.md lists them).
_SETTINGS_FLAGS = {
    "max_body_bytes": "max_body_bytes",
    "max_decompressed_bytes": "max_decompressed_bytes",
    "body_timeout": "body_timeout_s",
    "max_questions": "max_questions",
    "max_options": "max_options",
    "max_levels": "max_levels",
    "max_state_chars": "max_state_chars",
    "max_text_chars": "max_text_chars",
    "max_name_chars": "max_name_chars",
    "max_id_chars": "max_id_chars",
    "max_model_chars": "max_model_chars",
    "max_depth": "max_depth",
    "workers": "workers",
    "max_queue": "max_queue",
    "max_batch_states": "max_batch_states",
    "queue_timeout": "queue_timeout_s",
    "retry_after": "retry_after_s",
    "loading_retry_after": "loading_retry_after_s",
    "max_connections": "max_connections",
    "shutdown_timeout": "shutdown_timeout_s",
    "request_timeout_s": "request_timeout_s",
    "max_drain_bytes": "max_drain_bytes",
    "drain_timeout": "drain_timeout_s",
}


def _engine_factory(args, log=print):
    """A zero-argument Engine builder from the shared model flags (embedded, or a remote vLLM / SGLang)."""
    from onepass.engine import Engine

    calibration = None if args.calibration in ("none", "off") else args.calibration
    options = {"readout": args.readout, "calibration": calibration, "abstain_mass": args.abstain_mass,
               "prior_correction": args.prior_correction,
               "abstain_confidence": args.abstain_confidence,
               "readout_options": {"debiased": {"max_reads": args.debias_max_reads, "entropy_threshold": args.debias_entropy,
                                                   "order": args.debias_order},
                                   "likelihood": {"normalise": args.likelihood_normalise},
                                   "shortlist": {"k": args.shortlist_k, "normalise": args.likelihood_normalise}}}
    if args.backend == "embedded":
        backend_options = {"read_mode": args.read_mode, "batch_wait_ms": args.batch_wait_ms,
                           "memory_budget": parse_bytes(args.memory_budget) if args.memory_budget else None}
        return lambda: Engine(args.model, device=args.device, dtype=args.dtype, log=log,
                              backend_options=backend_options, **options)
    from onepass.backends.http import RetryPolicy
    from onepass.backends.remote import build_remote_engine

    remote = {"timeout_s": args.backend_timeout, "retry": RetryPolicy(retries=args.backend_retries)}
    if args.backend == "vllm" and args.backend_dp_size:
        remote["data_parallel_size"] = args.backend_dp_size
    readout = options.pop("readout")
    return lambda: build_remote_engine(args.backend, args.backend_url, args.model, args.backend_key, args.tokenizer,
                                       readout=readout, engine_kwargs=options, log=log, **remote)


def _choose_hardware(args) -> str:
    """Turn --device / --dtype auto into concrete choices (kept in args) and say what was chosen and why."""
    device = hardware.choose_device(args.device)
    dtype = hardware.choose_dtype(args.dtype, device.value)
    args.device, args.dtype = device.value, dtype.value
    return f"device {device.value} ({device.reason}), dtype {dtype.value} ({dtype.reason})"


def _domains(args) -> list[str] | None:
    return [d.strip() for d in args.domains.split(",") if d.strip()] if args.domains else None


def parse_bytes(text: str) -> int:
    """'8GiB', '512M', '1073741824' -> bytes (K/M/G are powers of 1024, with or without 'iB')."""
    units = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    raw = str(text).strip().lower().removesuffix("ib").removesuffix("b")
    number, unit = (raw[:-1], raw[-1]) if raw[-1:] in units and raw[-1:] else (raw, "")
    try:
        value = float(number) * units[unit]
    except ValueError:
        raise ValueError(f"{text!r} is not a size; use bytes or a number with K, M or G (e.g. 8G, 512MiB)") from None
    if not 1 <= value < 1 << 50:
        raise ValueError(f"{text!r} must be at least 1 byte")
    return int(value)


def _check_model_flags(args) -> str | None:
    """What is wrong with the shared model flags, checked before anything loads; None when they work."""
    from onepass.readouts import READOUTS

    if args.readout not in READOUTS:
        return f"unknown --readout {args.readout!r}; choose one of {sorted(READOUTS)}"
    for flag in ("abstain_mass", "abstain_confidence", "debias_entropy"):
        value = getattr(args, flag)
        if value is not None and not 0.0 <= value <= 1.0:
            return f"--{flag.replace('_', '-')} must be between 0 and 1, got {value}"
    if args.prior_correction and args.readout not in ("slot", "isolated", "likelihood"):
        return f"--prior-correction works with --readout slot, isolated or likelihood, not {args.readout!r}"
    if args.shortlist_k < 2:
        return f"--shortlist-k must be at least 2, got {args.shortlist_k}"
    if args.memory_budget:
        try:
            parse_bytes(args.memory_budget)
        except ValueError as error:
            return f"--memory-budget: {error}"
    if args.batch_wait_ms < 0 or args.batch_wait_ms > 1000:
        return f"--batch-wait-ms must be between 0 and 1000, got {args.batch_wait_ms}"
    if args.debias_max_reads < 1:
        return f"--debias-max-reads must be at least 1, got {args.debias_max_reads}"
    if args.calibration not in ("auto", "none", "off") and not Path(args.calibration).is_file():
        return f"--calibration {args.calibration!r} is not a file; give a profile path, 'auto' or 'none'"
    if args.backend == "embedded":
        try:
            models.resolve(args.model)
            _choose_hardware(args)
        except (models.ModelError, ValueError) as error:
            return str(error)
    elif not args.backend_url or not args.model:
        return f"--backend {args.backend} needs --backend-url and --model (the engine's served model name)"
    return None


def _calibration_note(args) -> str:
    """The calibration the engine will apply, known before the model loads (for the serve line)."""
    from onepass import calibration

    if args.calibration in ("none", "off"):
        return "calibration off"
    if args.calibration != "auto":
        return f"calibration {args.calibration}"
    if args.backend != "embedded":
        return "uncalibrated (remote engine)"
    for path in calibration.profile_paths(models.resolve(args.model)[0], args.dtype):
        if path.exists():
            return f"calibration {path.name} ({', '.join(sorted(calibration.Profile.load(path).temperatures))})"
    return f"uncalibrated (no profile for this model in {args.dtype})"


def serve(args) -> int:
    def fail(message: str) -> int:
        print(f"onepass serve: {message}", file=sys.stderr)
        return 2

    try:
        keys = _keys(args)
    except ConfigError as error:
        return fail(str(error))
    if keys and args.no_auth:
        return fail("--no-auth conflicts with the API keys given (ONEPASS_API_KEYS / --api-key-file); drop one of them")
    if not keys and not _loopback(args.host) and not args.no_auth:
        return fail(f"refusing to listen on {args.host} without API keys: set ONEPASS_API_KEYS, pass --api-key-file, "
                    "or pass --no-auth to run an open server deliberately")
    if not 0 <= args.port <= 65535:
        return fail(f"--port must be between 0 and 65535, got {args.port}")

    from onepass.server import Settings, SettingsError, create_app, uvicorn_config

    problem = _check_model_flags(args)
    if problem:
        return fail(problem)
    if args.torch_threads is not None and not 1 <= args.torch_threads <= 1024:
        return fail(f"--torch-threads must be between 1 and 1024, got {args.torch_threads}")
    overrides = {field: getattr(args, flag) for flag, field in _SETTINGS_FLAGS.items() if getattr(args, flag) is not None}
    try:
        settings = Settings(api_keys=keys, **overrides)
    except SettingsError as error:
        return fail(str(error))

    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.torch_threads is not None:
        import torch

        torch.set_num_threads(args.torch_threads)
    app = create_app(_engine_factory(args), settings)
    auth = f"{len(keys)} API key(s)" if keys else ("auth off (--no-auth)" if args.no_auth else "auth off (loopback only)")
    if args.backend == "embedded":
        _choose_hardware(args)
        where = f"{args.dtype} on {args.device}"
    else:
        where = f"{args.backend} engine at {args.backend_url}"
    host = f"[{args.host}]" if ":" in args.host and not args.host.startswith("[") else args.host
    browse = "127.0.0.1" if args.host in ("0.0.0.0", "::", "[::]", "") else host
    print(f"onepass on http://{host}:{args.port} · model {args.model or models.DEFAULT_MODEL} · {where} · readout "
          f"{args.readout} · {_calibration_note(args)} · playground http://{browse}:{args.port}/ · {auth} "
          "(the model loads in the background; GET /readyz says when)", flush=True)
    logging.getLogger("onepass").info(json.dumps({"event": "settings", **settings.describe()}))
    uvicorn.Server(uvicorn_config(app, settings, args.host, args.port, log_level="info")).run()
    return 0


# Limits `onepass decide` enforces exactly as `onepass serve` does (same flags, same Settings defaults).
_DECIDE_LIMITS = ("max_questions", "max_options", "max_levels", "max_state_chars", "max_text_chars", "max_name_chars",
                  "max_id_chars", "max_model_chars", "max_depth", "request_timeout_s")


def decide(args) -> int:
    from onepass.backends.batcher import Deadline
    from onepass.server import Settings, SettingsError
    from onepass.wire import APIError, RequestInvalid, check_limits, parse_json

    def refused(error) -> int:
        body = {"detail": error.detail} if isinstance(error, RequestInvalid) else error.body()
        print(json.dumps(body, indent=2, ensure_ascii=False), file=sys.stderr)
        return 1

    try:
        limits = Settings(**{name: getattr(args, name) for name in _DECIDE_LIMITS if getattr(args, name, None) is not None})
    except SettingsError as error:
        print(f"onepass decide: {error}", file=sys.stderr)
        return 2
    try:
        # The same strict parser and limits as the server: duplicate keys, NaN, lone surrogates, depth, sizes.
        if args.request:
            try:
                raw = Path(args.request).read_bytes() if args.request != "-" else sys.stdin.buffer.read()
            except OSError as error:
                print(f"onepass decide: cannot read {args.request}: {error.strerror or error}", file=sys.stderr)
                return 2
            payload = parse_json(raw)
        else:
            if args.state is None or not args.question:
                print("give --request FILE.json, or --state TEXT with one or more --question JSON", file=sys.stderr)
                return 2
            questions = {}
            for i, text in enumerate(args.question):
                questions[f"q{i}"] = (parse_json(text.encode("utf-8", "surrogateescape")) if text.lstrip().startswith("{")
                                      else {"type": "noul", "instructions": text})
            payload = {"model": args.model or "jev-latest", "state": args.state, "questions": questions}
        check_limits(payload, limits)
    except RequestInvalid as error:
        return refused(error)
    if args.model is None and args.backend == "embedded" and isinstance(payload, dict) and isinstance(payload.get("model"), str) \
            and payload["model"] != "jev-latest":
        args.model = payload["model"]
    problem = _check_model_flags(args)
    if problem:
        print(f"onepass decide: {problem}", file=sys.stderr)
        return 2
    engine = _engine_factory(args, log=lambda m: print(m, file=sys.stderr))()
    try:
        with Deadline(limits.request_timeout_s, setting="--request-timeout-s").active():
            result = engine.decide(payload)
    except (RequestInvalid, APIError) as error:
        return refused(error)
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0


def list_models(args) -> int:
    dtype = hardware.choose_dtype(args.dtype, hardware.choose_device("auto").value)
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
        from onepass.engine import Engine

        problem = _check_model_flags(args)
        if problem:
            print(f"onepass eval: {problem}", file=sys.stderr)
            return 2
        engine = _engine_factory(args, log=lambda m: print(m, file=sys.stderr))()
        scored = ev.score_with_engine(engine, items, args.readout)
        name = engine.info.id
        if engine.profile is not None and not args.uncalibrated:
            readout = args.readout or engine.default_readout
            from onepass.priors import profile_key

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
    from onepass import calibration, evaluate as ev, priors

    args.calibration = "none"  # fit on raw logits, whatever profile exists
    problem = _check_model_flags(args)
    if problem:
        print(f"onepass calibrate: {problem}", file=sys.stderr)
        return 2
    engine = _engine_factory(args, log=lambda m: print(m, file=sys.stderr))()
    if engine.dtype is None:
        print("onepass calibrate: fit against an in-process model (--backend embedded)", file=sys.stderr)
        return 2
    items = ev.load_corpus(Path(args.data), fraction=args.fraction, domains=_domains(args))
    if args.limit:
        items = items[: args.limit]
    dtype = engine.dtype.value
    out = Path(args.out) if args.out else models.cache_dir(engine.info.id) / f"calibration.{dtype}.json"
    previous = calibration.Profile.load(out) if out.exists() and args.update else None
    readouts = args.readouts.split(",") if args.readouts else [engine.default_readout]
    profile = previous
    plots = {}
    for family in readouts:
        scored = ev.score_with_engine(engine, items, family, Path(args.scores) if args.scores else None)
        readout = priors.profile_key(family, engine.prior_correction)  # the name answers are calibrated under
        profile = ev.fit_profile(scored, engine.info.id, readout, Path(args.data), profile, dtype=dtype)
        test = [s for s in scored if s.item.get("split") == "test"]
        plots[f"{readout} before"] = ev.report(test)
        plots[f"{readout} after"] = ev.report(test, profile.temperatures[readout])
        for qtype, t in profile.temperatures[readout].items():
            before = profile.report[readout]["held_out_before"].get(qtype, {})
            after = profile.report[readout]["held_out_after"].get(qtype, {})
            print(f"{readout}/{qtype}: T={t:.3f}  held-out ECE {before.get('ece', float('nan')):.3f} -> {after.get('ece', float('nan')):.3f}"
                  f"  Brier {before.get('brier', float('nan')):.3f} -> {after.get('brier', float('nan')):.3f}"
                  f"  accuracy {before.get('accuracy', float('nan')):.3f}")
    profile.save(out)
    print(f"wrote {out}")
    if args.report:
        Path(args.report).parent.mkdir(parents=True, exist_ok=True)
        Path(args.report).write_text(json.dumps({"profile": str(out), **profile.report, "temperatures": profile.temperatures,
                                                 "curves": {k: v["reliability"] for k, v in plots.items()},
                                                 "held_out_overall": {k: v["overall"] for k, v in plots.items()}}, indent=2) + "\n")
    if args.plot:
        ev.plot(plots, Path(args.plot), f"{engine.info.id}: held-out reliability")
    return 0


def run_bench(args) -> int:
    from onepass import bench
    from onepass.engine import Engine

    for flag in ("state_tokens", "questions", "options", "concurrency", "requests"):
        if getattr(args, flag) < 1:
            print(f"onepass bench: --{flag.replace('_', '-')} must be at least 1", file=sys.stderr)
            return 2
    if args.options > 255:
        print("onepass bench: --options must be at most 255", file=sys.stderr)
        return 2
    try:
        print(_choose_hardware(args), file=sys.stderr)
    except ValueError as error:
        print(f"onepass bench: {error}", file=sys.stderr)
        return 2
    engine = Engine(args.model, device=args.device, dtype=args.dtype, calibration=None, log=lambda m: print(m, file=sys.stderr))
    result = bench.bench(engine, args.state_tokens, args.questions, args.options, args.concurrency, args.requests,
                         repeats=args.repeats, generation_tokens=args.generation_tokens)
    bench.write(result, args.json)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="onepass", description="System One decision server")
    sub = parser.add_subparsers(dest="command", required=True)

    def hardware_args(p):
        p.add_argument("--device", default="auto", help="auto (a CUDA GPU when torch sees one, else cpu) | cpu | cuda | cuda:N")
        p.add_argument("--dtype", default="auto", choices=hardware.DTYPES,
                       help="auto: bfloat16 where the processor multiplies bf16 natively (AMX / AVX-512 BF16, CUDA), else float32")

    def model_args(p):
        p.add_argument("--model", default=None, help=f"registry name, .gguf file or HF directory (default {models.DEFAULT_MODEL})")
        hardware_args(p)
        p.add_argument("--readout", default="slot", help="slot | isolated | likelihood | debiased | shortlist (docs/readouts.md)")
        p.add_argument("--calibration", default="auto", help="'auto' (the model's own profile), 'none', or a profile path")
        p.add_argument("--abstain-mass", type=float, default=None, help="mark x_abstain below this label mass (0-1)")
        p.add_argument("--abstain-confidence", type=float, default=None, help="mark x_abstain below this confidence (0-1)")
        p.add_argument("--debias-max-reads", type=int, default=4, help="debiased: most reads per choice question")
        p.add_argument("--debias-entropy", type=float, default=0.5, help="debiased: normalised entropy above which to read again")
        p.add_argument("--debias-order", choices=["canonical", "given"], default="canonical",
                       help="debiased: start from options sorted by name (order invariant) or as the request lists them")
        p.add_argument("--likelihood-normalise", choices=["mean", "sum"], default="mean",
                       help="likelihood: score an option by its mean or total token log-probability")
        p.add_argument("--prior-correction", action="store_true",
                       help="divide each question's content-free label prior out of its answers (slot, isolated, "
                            "likelihood; per request: x_debias_prior); docs/calibration.md")
        p.add_argument("--shortlist-k", type=int, default=8,
                       help="shortlist: options a first slot read keeps for the likelihood rerank (docs/readouts.md)")
        p.add_argument("--memory-budget", default=None,
                       help="embedded: bytes a request may make the engine hold beyond the weights (cached states, "
                            "KV copies, activations, logits), e.g. 8G; default half the memory free after loading")
        p.add_argument("--read-mode", default="auto", choices=["auto", "batched", "packed"],
                       help="embedded: a request's question reads in one packed sequence or in padded rows (docs/throughput.md)")
        p.add_argument("--batch-wait-ms", type=float, default=2.0,
                       help="embedded: longest wait for concurrent requests to share a forward pass (0: never wait)")
        p.add_argument("--backend", default="embedded", choices=["embedded", "vllm", "sglang"],
                       help="where logits come from: in-process, or a vLLM / SGLang server (docs/deployment.md)")
        p.add_argument("--backend-url", default=os.environ.get("ONEPASS_BACKEND_URL"), help="engine base URL")
        p.add_argument("--backend-key", default=None, help="engine API key (prefer ONEPASS_BACKEND_KEY: argv shows in ps)")
        p.add_argument("--tokenizer", default=None, help="served model's tokenizer: directory, .gguf or registry name (default: --model)")
        p.add_argument("--backend-timeout", type=float, default=60.0, help="seconds to wait for one engine answer")
        p.add_argument("--backend-retries", type=int, default=3, help="retries on 5xx/429/connection errors, with backoff")
        p.add_argument("--backend-dp-size", type=int, default=None, help="vLLM --data-parallel-size: pin a state's prompts to one rank")

    p = sub.add_parser("serve", help="run the HTTP server",
                       description="Run the HTTP server. Every limit rejects requests past it (never clamps); "
                                   "defaults and behaviour are in docs/operations.md.")
    model_args(p)
    p.add_argument("--host", default="127.0.0.1", help="listen address (default 127.0.0.1; others need keys or --no-auth)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--api-key-file", default=None,
                   help="one key per line, # comments (also: ONEPASS_API_KEY_FILE=PATH, ONEPASS_API_KEYS=k1,k2)")
    p.add_argument("--no-auth", action="store_true", help="allow listening on a non-loopback address without keys")
    limits = p.add_argument_group("limits (413 / 422 when exceeded; defaults in docs/operations.md)")
    limits.add_argument("--max-body-bytes", type=int, help="request body as sent, compressed or not (default 1048576, 1 MiB)")
    limits.add_argument("--max-decompressed-bytes", type=int, help="request body after decompression (default 4194304, 4 MiB)")
    limits.add_argument("--body-timeout", type=float, help="seconds to receive a body before 408 (default 30)")
    limits.add_argument("--max-drain-bytes", type=int, help="bytes of a refused body read and discarded before the answer, "
                        "so a client still sending sees it instead of a reset (default 8388608, 8x --max-body-bytes)")
    limits.add_argument("--drain-timeout", type=float, help="seconds spent draining a refused body (default 5)")
    limits.add_argument("--max-questions", type=int, help="questions per request (default 64)")
    limits.add_argument("--max-options", type=int, help="options per choice question, 2..255 (default 255)")
    limits.add_argument("--max-levels", type=int, help="levels per score question, 2..10 (default 10)")
    limits.add_argument("--max-state-chars", type=int, help="characters of the state (default 262144)")
    limits.add_argument("--max-text-chars", type=int, help="characters of each instruction or description (default 16384)")
    limits.add_argument("--max-name-chars", type=int, help="characters of each option name (default 1024)")
    limits.add_argument("--max-id-chars", type=int, help="characters of each question id (default 256)")
    limits.add_argument("--max-model-chars", type=int, help="characters of the model name (default 256)")
    limits.add_argument("--max-depth", type=int, help="JSON nesting depth (default 32)")
    load = p.add_argument_group("backpressure (429 / 503 with retry-after)")
    load.add_argument("--workers", type=int, help="requests handed to the engine at once; the embedded engine batches their reads (default 4)")
    load.add_argument("--max-queue", type=int, help="requests admitted beyond the running ones (default 32)")
    load.add_argument("--max-batch-states", type=int,
                      help="states per POST /v1/systemone/batch call; each state also counts as one request (default 16)")
    load.add_argument("--queue-timeout", type=float, help="seconds a request may wait for a worker before 503 (default 60)")
    load.add_argument("--retry-after", type=int, help="retry-after seconds on 429 and queue-timeout 503 (default 1)")
    load.add_argument("--loading-retry-after", type=int, help="retry-after seconds while the model loads (default 5)")
    load.add_argument("--max-connections", type=int, help="open connections + requests before an immediate 429 (default 1024)")
    load.add_argument("--shutdown-timeout", type=float, help="seconds SIGTERM waits for in-flight requests (default 30)")
    load.add_argument("--request-timeout-s", type=float, help="seconds a running request may take, checked between forward "
                      "passes, before 503 deadline_exceeded (default 60)")
    load.add_argument("--torch-threads", type=int, help="intra-op threads of an in-process model (default: torch's, one per "
                      "core); use fewer than the cores on a machine shared with other CPU work (docs/operations.md)")
    p.set_defaults(fn=serve)

    p = sub.add_parser("decide", help="answer one request and print the System One response")
    model_args(p)
    p.add_argument("--request", help="a System One request JSON file ('-' for stdin)")
    p.add_argument("--state", help="the state text (with --question)")
    p.add_argument("--question", action="append", help="a question JSON object, or plain text for a yes/no question")
    shape = p.add_argument_group("limits, as `onepass serve` enforces them (defaults in docs/operations.md)")
    for name in _DECIDE_LIMITS[:-1]:
        shape.add_argument("--" + name.replace("_", "-"), type=int, help="as for onepass serve")
    shape.add_argument("--request-timeout-s", type=float, help="seconds the request may run, checked between forward passes (default 60)")
    p.set_defaults(fn=decide)

    p = sub.add_parser("eval", help="accuracy, ECE, Brier, NLL and label mass on a labelled corpus")
    model_args(p)
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
    model_args(p)
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

    p = sub.add_parser("bench", help="decisions/s, latency, engine overhead and speedup over generating JSON")
    p.add_argument("--model", default=None)
    hardware_args(p)
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
    p.add_argument("--dtype", default="auto", choices=hardware.DTYPES, help="the dtype of the caches to build (auto: as served here)")
    p.set_defaults(fn=list_models)

    from onepass import label, mcp_server, run_cmd

    for module in (run_cmd, label, mcp_server):  # run, presets, label, mcp
        module.register(sub, model_args)

    args = parser.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
