"""onepass serve | decide | models"""

from __future__ import annotations

import argparse
import ipaddress
import json
import logging
import os
import sys
from pathlib import Path

from onepass import models


def _keys(args) -> list[str]:
    keys = [k.strip() for k in os.environ.get("ONEPASS_API_KEYS", "").split(",") if k.strip()]
    if args.api_key_file:
        keys += [line.strip() for line in Path(args.api_key_file).read_text().splitlines() if line.strip() and not line.startswith("#")]
    return keys


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(args) -> int:
    import uvicorn

    from onepass.engine import Engine
    from onepass.server import Settings, create_app

    keys = _keys(args)
    if not keys and not _loopback(args.host) and not args.no_auth:
        print(f"refusing to listen on {args.host} without API keys: set ONEPASS_API_KEYS, pass --api-key-file, "
              "or pass --no-auth to run an open server deliberately", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    settings = Settings(api_keys=keys, workers=args.workers, max_queue=args.max_queue,
                        max_questions=args.max_questions, max_body_bytes=args.max_body_bytes,
                        max_decompressed_bytes=args.max_decompressed_bytes, queue_timeout_s=args.queue_timeout)
    app = create_app(lambda: Engine(args.model, device=args.device, dtype=args.dtype, readout=args.readout), settings)
    print(f"onepass on http://{args.host}:{args.port} (model {args.model or models.DEFAULT_MODEL}; "
          f"keys {'on' if keys else 'off'}); the model loads in the background, GET /readyz says when", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, access_log=False, timeout_graceful_shutdown=30, log_level="info")
    return 0


def decide(args) -> int:
    from onepass.engine import Engine
    from onepass.wire import APIError, RequestInvalid

    if args.request:
        payload = json.loads(Path(args.request).read_text() if args.request != "-" else sys.stdin.read())
    else:
        if args.state is None or not args.question:
            print("give --request FILE.json, or --state TEXT with one or more --question JSON", file=sys.stderr)
            return 2
        questions = {}
        for i, raw in enumerate(args.question):
            questions[f"q{i}"] = json.loads(raw) if raw.lstrip().startswith("{") else {"type": "noul", "instructions": raw}
        payload = {"model": args.model or "jev-latest", "state": args.state, "questions": questions}
    engine = Engine(args.model or payload.get("model"), device=args.device, dtype=args.dtype, readout=args.readout,
                    log=lambda m: print(m, file=sys.stderr))
    try:
        print(json.dumps(engine.decide(payload), indent=2, ensure_ascii=False))
    except RequestInvalid as error:
        print(json.dumps({"detail": error.detail}, indent=2), file=sys.stderr)
        return 1
    except APIError as error:
        print(json.dumps(error.body(), indent=2), file=sys.stderr)
        return 1
    return 0


def list_models(args) -> int:
    for name in filter(None, (args.build or "").split(",")):
        if name not in models.REGISTRY:
            print(f"unknown registry model {name!r}; known: {sorted(models.REGISTRY)}", file=sys.stderr)
            return 2
        if not models.is_cached(name):
            models.build_cache(models.REGISTRY[name])
    for name, entry in models.REGISTRY.items():
        default = " (default)" if name == models.DEFAULT_MODEL else ""
        cache = f"cached at {models.cache_dir(name)}" if models.is_cached(name) else "not cached (built on first use)"
        print(f"{name}{default}\n  {entry.description}\n  packages: {entry.packages}\n  {cache}")
    print("Any Hugging Face causal-LM directory or .gguf file path also works as --model.")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="onepass", description="System One decision server")
    sub = parser.add_subparsers(dest="command", required=True)

    def model_args(p):
        p.add_argument("--model", default=None, help=f"registry name, .gguf file or HF directory (default {models.DEFAULT_MODEL})")
        p.add_argument("--device", default="cpu")
        p.add_argument("--dtype", default="float32", choices=["float32", "bfloat16", "float16"])
        p.add_argument("--readout", default="slot")

    p = sub.add_parser("serve", help="run the HTTP server")
    model_args(p)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--api-key-file", default=None, help="one key per line (also: ONEPASS_API_KEYS=k1,k2)")
    p.add_argument("--no-auth", action="store_true", help="allow listening on a non-loopback address without keys")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--max-queue", type=int, default=32)
    p.add_argument("--max-questions", type=int, default=64)
    p.add_argument("--max-body-bytes", type=int, default=1 << 20)
    p.add_argument("--max-decompressed-bytes", type=int, default=4 << 20)
    p.add_argument("--queue-timeout", type=float, default=60.0)
    p.set_defaults(fn=serve)

    p = sub.add_parser("decide", help="answer one request and print the System One response")
    model_args(p)
    p.add_argument("--request", help="a System One request JSON file ('-' for stdin)")
    p.add_argument("--state", help="the state text (with --question)")
    p.add_argument("--question", action="append", help="a question JSON object, or plain text for a yes/no question")
    p.set_defaults(fn=decide)

    p = sub.add_parser("models", help="list registry models and their cache state")
    p.add_argument("--build", metavar="NAMES", help="comma-separated registry models whose caches to build first")
    p.set_defaults(fn=list_models)

    args = parser.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
