"""`onepass run` (ask a question set about one text, answers drawn as bars) and `onepass presets`.

Also the one way `run`, `label` and `mcp` get answers: a `Decider` over an in-process Engine (the shared
model flags) or over any System One server (`--url`, plain HTTP with httpx).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from typing import Any, Callable

from onepass import presets as presets_mod

LOW_MASS = 0.5  # below this label mass an answer is flagged: the model wanted to say something else


# -- getting answers ---------------------------------------------------------------------------------------
class DecideError(Exception):
    """A request that got no answer: `status` (HTTP-like, None for a connection failure), a message, and
    whether trying again may help (429, 408, 5xx, connection errors)."""

    def __init__(self, message: str, status: int | None = None, error_type: str = "error", retryable: bool = False,
                 retry_after: float | None = None):
        super().__init__(message)
        self.status = status
        self.error_type = error_type
        self.retryable = retryable
        self.retry_after = retry_after

    def as_json(self) -> dict:
        return {"status": self.status, "type": self.error_type, "message": str(self)}


def _retryable(status: int | None) -> bool:
    return status is None or status in (408, 429) or status >= 500


class LocalDecider:
    """An in-process Engine."""

    def __init__(self, engine, extras: dict | None = None):
        self.engine = engine
        self.extras = extras or {}
        self.name = engine.info.id

    def decide(self, state: Any, questions: dict) -> dict:
        from onepass.wire import APIError, RequestInvalid

        payload = {"model": "jev-latest", "state": state, "questions": questions, **self.extras}
        try:
            return self.engine.decide(payload)
        except RequestInvalid as error:
            raise DecideError(str(error), 422, "request_invalid") from None
        except APIError as error:
            raise DecideError(error.message, error.status, error.error_type, _retryable(error.status)) from None

    def models(self) -> list[dict]:
        return self.engine.model_list()

    def describe(self) -> dict:
        engine = self.engine
        profile = engine.profile
        return {"model": engine.info.id, "where": "in-process",
                "dtype": engine.dtype.value if engine.dtype else None,
                "device": engine.device.value if engine.device else None,
                "readout": engine.default_readout,
                "calibration": profile.summary() if profile else "none"}

    def close(self) -> None:
        pass


class RemoteDecider:
    """Any System One server (onepass, the hosted API, vLLM / SGLang front ends) over HTTP."""

    def __init__(self, url: str, api_key: str | None = None, model: str | None = None, timeout: float = 120.0,
                 extras: dict | None = None):
        import httpx

        self.url = url.rstrip("/")
        self.model = model or "jev-latest"
        self.extras = extras or {}
        self.name = self.url
        headers = {"authorization": f"Bearer {api_key or 'none'}", "user-agent": "onepass-cli"}
        self.client = httpx.Client(base_url=self.url, timeout=timeout, headers=headers)

    def decide(self, state: Any, questions: dict) -> dict:
        import httpx

        payload = {"model": self.model, "state": state, "questions": questions, **self.extras}
        try:
            response = self.client.post("/v1/systemone", json=payload)
        except httpx.HTTPError as error:
            raise DecideError(f"{type(error).__name__} talking to {self.url}: {error}", None, "connection_error", True) from None
        if response.status_code == 200:
            body = response.json()
            self.name = body.get("model") or self.name
            return body
        message, kind = _error_text(response)
        retry_after = None
        try:
            retry_after = float(response.headers.get("retry-after"))
        except (TypeError, ValueError):
            pass
        raise DecideError(f"HTTP {response.status_code}: {message}", response.status_code, kind,
                          _retryable(response.status_code), retry_after)

    def models(self) -> list[dict]:
        import httpx

        try:
            response = self.client.get("/v1/models")
        except httpx.HTTPError as error:
            raise DecideError(f"{type(error).__name__} talking to {self.url}: {error}", None, "connection_error", True) from None
        if response.status_code != 200:
            message, kind = _error_text(response)
            raise DecideError(f"HTTP {response.status_code}: {message}", response.status_code, kind)
        return response.json().get("models", [])

    def describe(self) -> dict:
        return {"model": self.model, "where": self.url}

    def close(self) -> None:
        self.client.close()


def _error_text(response) -> tuple[str, str]:
    try:
        detail = response.json().get("detail")
    except (ValueError, AttributeError):
        return response.text[:500], "http_error"
    if isinstance(detail, dict):
        return str(detail.get("message", detail)), str(detail.get("error_type", "http_error"))
    if isinstance(detail, list):
        return "; ".join(f"{'.'.join(map(str, d.get('loc', [])))}: {d.get('msg')}" for d in detail if isinstance(d, dict)), "request_invalid"
    return str(detail)[:500], "http_error"


def decide_with_retries(decider, state: Any, questions: dict, retries: int = 2, backoff: float = 0.5,
                        sleep: Callable[[float], None] = time.sleep) -> tuple[dict, int]:
    """(response, attempts): retries 408 / 429 / 5xx / connection errors with exponential backoff (or the
    server's retry-after); raises the last DecideError, with `.attempts` set."""
    attempt = 0
    while True:
        attempt += 1
        try:
            return decider.decide(state, questions), attempt
        except DecideError as error:
            error.attempts = attempt
            if not error.retryable or attempt > retries:
                raise
            wait = error.retry_after if error.retry_after is not None else backoff * 2 ** (attempt - 1)
            sleep(min(max(wait, 0.0), 30.0))


def add_source_args(p: argparse.ArgumentParser) -> None:
    """--url / --api-key / --timeout, next to the shared model flags (which pick an in-process model)."""
    p.add_argument("--url", default=os.environ.get("ONEPASS_URL"),
                   help="ask any System One server at this base URL instead of loading a model here (also ONEPASS_URL)")
    p.add_argument("--api-key", default=None, help="key for --url (default: ONEPASS_API_KEY or TYPESAFE_API_KEY)")
    p.add_argument("--timeout", type=float, default=600.0,
                   help="seconds one answer may take, waiting for a busy model included (default 600; a server's own "
                        "deadline still applies)")


def make_decider(args, log: Callable[[str], None] | None = None, command: str = "run"):
    """A Decider from the parsed flags: --url for a server, else an in-process model (the model flags)."""
    log = log or (lambda message: print(message, file=sys.stderr, flush=True))
    readout_given = getattr(args, "readout", "slot") != "slot"
    if args.url:
        key = args.api_key or os.environ.get("ONEPASS_API_KEY") or os.environ.get("TYPESAFE_API_KEY")
        extras = {"x_readout": args.readout} if readout_given else {}
        return RemoteDecider(args.url, key, args.model, args.timeout, extras)
    from onepass import cli

    problem = cli._check_model_flags(args) or (
        None if 0 < args.timeout <= 86_400 else f"--timeout must be between 0 and 86400 seconds, got {args.timeout}")
    if problem:
        raise SystemExit(_fail(command, problem))
    engine = cli._engine_factory(args, log=log)()
    # The engine's own 60 s budget protects a server; here a request may also wait for the ones labelled
    # alongside it (--concurrency), so it gets --timeout instead.
    engine.request_timeout_s = args.timeout
    return LocalDecider(engine)


def _fail(command: str, message: str, code: int = 2) -> int:
    print(f"onepass {command}: {message}", file=sys.stderr)
    return code


# -- drawing answers ---------------------------------------------------------------------------------------
class Style:
    """ANSI styling that is a no-op without colour."""

    CODES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35",
             "cyan": "36", "grey": "90"}

    def __init__(self, color: bool):
        self.color = color

    def __call__(self, text: str, *styles: str) -> str:
        if not self.color or not styles:
            return text
        return "\x1b[" + ";".join(self.CODES[s] for s in styles) + "m" + text + "\x1b[0m"


def use_color(choice: str = "auto", stream=None) -> bool:
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    stream = stream or sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)()) and os.environ.get("TERM") != "dumb"


EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(fraction: float, width: int) -> tuple[str, str]:
    """(filled, empty) parts of a bar `width` cells wide, in eighths of a cell."""
    fraction = min(1.0, max(0.0, float(fraction)))
    eighths = round(fraction * width * 8)
    full, part = divmod(eighths, 8)
    filled = "█" * full + (EIGHTHS[part] if part else "")
    return filled, "·" * (width - len(filled))


def _level_colour(confidence: float) -> str:
    """Bar colour by how decided the answer is (the wire contract's confidence; |2p - 1| for yes/no), so a
    0.47 among five options is not drawn like a coin flip."""
    return "green" if confidence >= 0.6 else "yellow" if confidence >= 0.3 else "red"


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"


def answer_rows(response: dict, questions: dict) -> list[dict]:
    """One plain row per question: id, answer text, bar fraction, number text, colour value, extras."""
    rows = []
    for qid, answer in response.get("answers", {}).items():
        question = questions.get(qid, {})
        row = {"id": qid, "type": answer.get("type"), "mass": answer.get("x_label_mass"), "abstain": answer.get("x_abstain"),
               "others": []}
        if answer.get("type") == "noul":
            p = float(answer["noul"])
            yes = p >= 0.5
            row.update(answer="yes" if yes else "no", fraction=p if yes else 1 - p, number=f"{p if yes else 1 - p:.2f}",
                       strength=abs(2 * p - 1))
        elif answer.get("type") == "choice":
            probs = answer.get("probabilities", {})
            p = float(probs.get(answer["choice"], 0.0))
            row.update(answer=str(answer["choice"]), fraction=p, number=f"{p:.2f}", strength=float(answer.get("confidence", p)))
            row["others"] = [(name, float(q)) for name, q in sorted(probs.items(), key=lambda kv: -kv[1])
                             if name != answer["choice"]][:2]
        elif answer.get("type") == "score":
            legend = answer.get("legend") or {}
            levels = len(answer.get("probabilities") or legend) or len(question.get("criteria") or []) or 2
            top = levels - 1
            score = float(answer["score"])
            text = legend.get(str(min(top, max(0, round(score)))), "")
            row.update(answer=str(text), fraction=score / top if top else 0.0, number=f"{score:.1f} / {top}",
                       strength=float(answer.get("confidence", 0.0)))
        else:
            row.update(answer=json.dumps(answer)[:60], fraction=0.0, number="", strength=0.0)
        rows.append(row)
    return rows


def render(response: dict, questions: dict, *, color: bool = False, width: int | None = None, title: str = "",
           seconds: float | None = None) -> str:
    """The answers as text: a header, then one row per question (id, answer, bar, probability)."""
    style = Style(color)
    width = width or shutil.get_terminal_size((100, 24)).columns
    rows = answer_rows(response, questions)
    id_w = min(18, max([len(r["id"]) for r in rows] + [4]))
    ans_w = min(24, max([len(r["answer"]) for r in rows] + [6]))
    num_w = max([len(r["number"]) for r in rows] + [4])
    bar_w = max(10, min(28, width - id_w - ans_w - num_w - 12))
    head = [style(title or "answers", "bold")]
    if response.get("model"):
        head.append(style(response["model"], "cyan"))
    head.append(style(f"{len(rows)} question{'s' if len(rows) != 1 else ''}", "grey"))
    if seconds is not None:
        head.append(style(f"{seconds:.2f} s", "grey"))
    lines = [" " + style(" · ", "grey").join(head)]
    for row in rows:
        filled, empty = bar(row["fraction"], bar_w)
        colour = _level_colour(row["strength"])
        line = (" " + style(_fit(row["id"], id_w).ljust(id_w), "blue") + "  "
                + style(_fit(row["answer"], ans_w).ljust(ans_w), "bold") + "  "
                + style(filled, colour) + style(empty, "grey") + "  " + row["number"].rjust(num_w))
        used = 1 + id_w + 2 + ans_w + 2 + bar_w + 2 + num_w
        room = width - used - 3
        warnings = []  # kept before the runners-up when the terminal is narrow
        if row["mass"] is not None and row["mass"] < LOW_MASS:
            warnings.append((f"⚠ label mass {row['mass']:.2f}", "yellow"))
        if row["abstain"]:
            warnings.append(("abstain", "magenta"))
        notes = []
        left = room - sum(len(t) + 2 for t, _ in warnings)
        if row["others"] and left > 12:
            notes.append((_fit(" · ".join(f"{name} {p:.2f}" for name, p in row["others"]), left), "grey"))
        notes += warnings if left >= 0 else warnings[:1]
        if notes:
            line += "   " + "  ".join(style(t, s) for t, s in notes)
        lines.append(line)
    return "\n".join(lines)


# -- onepass run -------------------------------------------------------------------------------------------
class _Ask(argparse.Action):
    """--ask TEXT adds a yes/no question; --choice OPTION turns the latest --ask into a choice (or starts a
    choice of its own); --level TEXT turns it into a score (levels in order, lowest first)."""

    def __call__(self, parser, namespace, value, option_string=None):
        asked = list(getattr(namespace, "asked", None) or [])
        if option_string == "--ask":
            asked.append({"type": "noul", "instructions": value})
        else:
            kind, key = ("choice", dict) if option_string == "--choice" else ("score", list)
            last = asked[-1] if asked else None
            if last is None or (last["type"] != kind and last["type"] != "noul") or (last["type"] == "noul" and "criteria" in last):
                last = {"type": kind, "instructions": "Which of these fits best?" if kind == "choice" else "Where on this scale does it fall?"}
                asked.append(last)
            if last["type"] == "noul":
                last["type"] = kind
            criteria = last.setdefault("criteria", key())
            if kind == "choice":
                criteria[value] = None
            else:
                criteria.append(value)
        namespace.asked = asked


def _read_text(args) -> str | None:
    if args.file:
        with open(args.file, encoding="utf-8") as f:
            return f.read()
    if args.text == "-" or (args.text is None and not sys.stdin.isatty()):
        return sys.stdin.read()
    return args.text


def _state_of(text: str, as_json: bool):
    if not as_json:
        return text.strip("\n")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"--state-json: the text is not JSON ({error})") from None


def run(args) -> int:
    asked = getattr(args, "asked", None) or []
    if not (args.preset or args.questions or asked):
        return _fail("run", "give --preset NAME (onepass presets lists them), --questions FILE, or --ask 'question?'")
    try:
        questions, source = presets_mod.question_set(args.preset, args.questions, asked)
    except presets_mod.PresetError as error:
        return _fail("run", str(error))
    bad = [qid for qid, q in questions.items() if q.get("type") == "choice" and len(q.get("criteria") or {}) < 2]
    if bad:
        return _fail("run", f"a choice needs at least two options (--choice A --choice B): {', '.join(bad)}")
    try:
        text = _read_text(args)
    except OSError as error:
        return _fail("run", f"cannot read {args.file}: {error}")
    interactive = text is None
    color = use_color(args.color)
    err_style = Style(use_color(args.color, sys.stderr))
    if not interactive and not text.strip():
        return _fail("run", "the text is empty")
    if interactive and args.json:
        return _fail("run", "--json needs a text (an argument, --file or stdin)")
    where = args.url or (args.model or "the default model")
    if sys.stderr.isatty():
        print(err_style(f"loading {where} …", "grey"), file=sys.stderr, flush=True)
    try:
        decider = make_decider(args, command="run")
    except KeyboardInterrupt:
        return 130
    try:
        if interactive:
            return _prompt_loop(decider, questions, source, args, color)
        return _answer_once(decider, text, questions, source, args, color)
    except KeyboardInterrupt:
        return 130
    finally:
        decider.close()


def _answer_once(decider, text: str, questions: dict, source: str, args, color: bool) -> int:
    try:
        state = _state_of(text, args.state_json)
    except ValueError as error:
        return _fail("run", str(error))
    started = time.perf_counter()
    try:
        response, _ = decide_with_retries(decider, state, questions, retries=args.retries)
    except DecideError as error:
        return _fail("run", str(error), 1)
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps(response, indent=2, ensure_ascii=False))
    else:
        print(render(response, questions, color=color, title=source, seconds=seconds))
    return 0


def _prompt_loop(decider, questions: dict, source: str, args, color: bool, input_fn=input) -> int:
    style = Style(color)
    print(style(f"onepass run · {source} · {decider.describe().get('model')}", "bold"))
    print(style("Type or paste a text; a blank line sends it, Ctrl-D quits.", "grey"))
    while True:
        lines: list[str] = []
        try:
            while True:
                line = input_fn("› " if not lines else "… ")
                if not line.strip() and lines:
                    break
                if line.strip():
                    lines.append(line)
        except (EOFError, KeyboardInterrupt):
            if not lines:
                print()
                return 0
        text = "\n".join(lines)
        try:
            code = _answer_once(decider, text, questions, source, args, color)
        except KeyboardInterrupt:
            print(style("(interrupted)", "grey"))
            continue
        if code == 2:
            return code
        print()


def list_presets(args) -> int:
    found = presets_mod.builtin()
    if args.show:
        try:
            print(json.dumps(presets_mod.get(args.show).as_json(), indent=2, ensure_ascii=False))
        except presets_mod.PresetError as error:
            return _fail("presets", str(error))
        return 0
    if args.json:
        print(json.dumps([p.as_json() for p in found.values()], indent=2, ensure_ascii=False))
        return 0
    style = Style(use_color(args.color))
    for preset in found.values():
        aliases = f" (also: {', '.join(preset.aliases)})" if preset.aliases else ""
        print(style(preset.name, "bold", "cyan") + style(aliases, "grey") + f"  {preset.title}")
        print(f"  {preset.description}")
        for qid, question in preset.questions.items():
            print(style(f"    {qid:12s} {presets_mod.describe_question(question):11s} ", "grey") + _fit(str(question.get("instructions", "")), 70))
    print(style("Try: onepass run --preset triage \"Hi, I was charged twice for order #4411.\"  ·  "
                "onepass presets --show NAME prints one as a --questions file.", "grey"))
    return 0


def register(sub, model_args) -> None:
    p = sub.add_parser("run", help="ask a preset or your own questions about a text; answers as bars",
                       description="Ask a question set about one text and draw each answer: the answer, a bar and its "
                                   "probability (scores as 'x / max' with the level's text). Text from the argument, "
                                   "--file, or stdin; with none on a terminal, a prompt loop.")
    model_args(p)
    add_source_args(p)
    p.add_argument("text", nargs="?", help="the text to ask about ('-' for stdin)")
    p.add_argument("--file", help="read the text from this file")
    p.add_argument("--preset", help="a built-in question set (onepass presets lists them)")
    p.add_argument("--questions", help="a question-set JSON file: {id: question} or a preset-shaped object")
    p.add_argument("--ask", action=_Ask, dest="asked", metavar="QUESTION", help="add a yes/no question (repeatable)")
    p.add_argument("--choice", action=_Ask, dest="asked", metavar="OPTION",
                   help="an option of a choice: makes the latest --ask a choice (repeat for each option)")
    p.add_argument("--level", action=_Ask, dest="asked", metavar="LEVEL",
                   help="a level of a score, lowest first: makes the latest --ask a score (repeat for each level)")
    p.add_argument("--state-json", action="store_true", help="parse the text as JSON (an object or array state)")
    p.add_argument("--json", action="store_true", help="print the System One response as JSON")
    p.add_argument("--color", choices=["auto", "always", "never"], default="auto", help="colour (auto: on a terminal, unless NO_COLOR)")
    p.add_argument("--retries", type=int, default=2, help="retries on 429 / 5xx / connection errors")
    p.set_defaults(fn=run)

    p = sub.add_parser("presets", help="list the built-in question sets")
    p.add_argument("--show", metavar="NAME", help="print one preset as JSON (usable as --questions FILE)")
    p.add_argument("--json", action="store_true", help="all presets as JSON")
    p.add_argument("--color", choices=["auto", "always", "never"], default="auto")
    p.set_defaults(fn=list_presets)
