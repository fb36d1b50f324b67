"""`onepass decide`: one request from a file, stdin or flags, answered in-process under exactly the limits,
strict JSON parsing and deadline `onepass serve` applies; prints the System One response."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from onepass import engine_setup, ignored
from onepass.config import (
    SHAPE_LIMITS,
    EngineConfig,
    ServerConfig,
    add_flags,
    from_args,
)
from onepass.errors import ConfigError, OnepassError, RequestInvalid
from onepass.limits import check_limits
from onepass.strict_json import parse_json

__all__ = ["register", "decide"]


def decide(args) -> int:
    def refused(error: OnepassError) -> int:
        print(json.dumps(error.body(), indent=2, ensure_ascii=False), file=sys.stderr)
        return 1

    try:
        limits = from_args(ServerConfig, args)
    except ConfigError as error:
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
    # A request naming a registry model loads that model when no --model was given.
    if args.model is None and args.backend in (None, "embedded") and isinstance(payload, dict) \
            and isinstance(payload.get("model"), str) and payload["model"] != "jev-latest":
        args.model = payload["model"]
    problem = engine_setup.check_flags(args)
    if problem:
        print(f"onepass decide: {problem}", file=sys.stderr)
        return 2
    engine = engine_setup.build_engine(args.engine_config, log=lambda m: print(m, file=sys.stderr))
    try:
        request = engine.validate(payload)
        if request.ignored:  # stdout stays the response alone
            print(f"onepass decide: ignored top-level fields: {', '.join(map(ignored.sanitise, request.ignored))}",
                  file=sys.stderr)
        result = engine.run(request)  # under the engine's request_timeout_s (--request-timeout-s)
    except OnepassError as error:
        return refused(error)
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0


def register(sub) -> None:
    p = sub.add_parser("decide", help="answer one request and print the System One response")
    add_flags(p, EngineConfig)
    add_flags(p, ServerConfig, names=SHAPE_LIMITS)
    p.add_argument("--request", help="a System One request JSON file ('-' for stdin)")
    p.add_argument("--state", help="the state text (with --question)")
    p.add_argument("--question", action="append", help="a question JSON object, or plain text for a yes/no question")
    p.set_defaults(fn=decide)
