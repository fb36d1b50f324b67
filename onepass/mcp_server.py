"""`onepass mcp`: an MCP server (official `mcp` SDK, stdio or streamable HTTP) so an agent can ask yes/no,
choice and score questions and get probabilities.

Tools: `decide` (a question set, a preset by name, or one quick question), `models`, `presets`.
Resources: every preset as `onepass://presets/NAME` (application/json).
Answers come from an in-process model (the shared model flags) or any System One server (`--url`).
"""

from __future__ import annotations

import json
import sys
import threading
from typing import Annotated, Any, Callable

from pydantic import Field

from onepass import __version__
from onepass import presets as presets_mod
from onepass.deciders import (
    DecideError,
    add_source_args,
    decide_with_retries,
    make_decider,
)
from onepass.terminal import answer_rows
from onepass.terminal import fail as _fail

INSTRUCTIONS = (
    "onepass answers questions about a piece of content (the state) with a probability for every possible "
    "answer, read from a language model in one forward pass. Ask with the `decide` tool: a yes/no question "
    "(ask), a choice (ask + options), a score (ask + levels, lowest first), a built-in preset by name, or any "
    "System One question set. Low x_label_mass (< 0.5) means the model wanted to say something else: treat "
    "that answer as unreliable."
)


class LazyDecider:
    """Loads the decider once, in a background thread started at server start, so `initialize` and the
    listing tools answer at once while a model loads."""

    def __init__(self, factory: Callable[[], Any]):
        self._factory = factory
        self._done = threading.Event()
        self._decider = None
        self._error: BaseException | None = None
        self._started = False
        self._lock = threading.Lock()

    def start(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._load, name="onepass-mcp-load", daemon=True).start()

    def _load(self) -> None:
        try:
            self._decider = self._factory()
        except BaseException as error:  # noqa: BLE001 - reported to every caller
            self._error = error
        finally:
            self._done.set()

    def get(self):
        self.start()
        self._done.wait()
        if self._error is not None:
            raise RuntimeError(f"the model could not be loaded: {self._error}")
        return self._decider


def quick_question(ask: str, options: list[str] | None, levels: list[str] | None) -> dict:
    if options and levels:
        raise ValueError("give options (a choice) or levels (a score), not both")
    if options:
        if len(options) < 2:
            raise ValueError("a choice needs at least two options")
        return {"type": "choice", "instructions": ask, "criteria": {str(o): None for o in options}}
    if levels:
        if len(levels) < 2:
            raise ValueError("a score needs at least two levels")
        return {"type": "score", "instructions": ask, "criteria": [str(level) for level in levels]}
    return {"type": "noul", "instructions": ask}


def summary_lines(response: dict, questions: dict) -> list[str]:
    """One line per answer, for a reader that skims: 'team: billing (p=0.71; shipping 0.20, ...)'."""
    lines = []
    for row in answer_rows(response, questions):
        if row["type"] == "score":
            text = f"{row['id']}: {row['number']} ({row['answer']})"
        else:
            text = f"{row['id']}: {row['answer']} (p={row['number']}"
            text += "; " + ", ".join(f"{n} {p:.2f}" for n, p in row["others"]) + ")" if row["others"] else ")"
        if row["mass"] is not None and row["mass"] < 0.5:
            text += f" [low label mass {row['mass']:.2f}: unreliable]"
        lines.append(text)
    return lines


def build_server(decider_factory: Callable[[], Any], retries: int = 2):
    """The MCPServer with onepass's tools and resources; the decider is built lazily from the factory."""
    import anyio.to_thread
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.server.mcpserver.resources.types import TextResource

    lazy = LazyDecider(decider_factory)
    server = MCPServer("onepass", title="onepass: System One decisions", instructions=INSTRUCTIONS, version=__version__,
                       log_level="WARNING")
    server.onepass_decider = lazy  # for the caller: start() it when serving

    @server.tool(description=(
        "Answer questions about a state (a text, or a JSON object/array) with probabilities. Give exactly one of: "
        "`ask` (a yes/no question; with `options` a choice among them, with `levels` a score over them, lowest first), "
        "`preset` (a built-in question set by name, see the presets tool), or `questions` (a System One question set: "
        "{id: {type: noul|choice|score, instructions, criteria}}). Returns the System One response (answers with "
        "probabilities, confidence, x_label_mass) plus x_summary, one line per answer."))
    async def decide(
        state: Annotated[str | dict[str, Any] | list[Any], Field(description="the content to judge: text, or a JSON object/array")],
        ask: Annotated[str | None, Field(description="one question; alone it is yes/no")] = None,
        options: Annotated[list[str] | None, Field(description="with ask: the options of a choice")] = None,
        levels: Annotated[list[str] | None, Field(description="with ask: the levels of a score, lowest first")] = None,
        preset: Annotated[str | None, Field(description="a built-in question set by name (triage, phishing, ...)")] = None,
        questions: Annotated[dict[str, dict[str, Any]] | None,
                             Field(description="a System One question set {id: {type, instructions, criteria}}")] = None,
    ) -> dict[str, Any]:
        given = [name for name, value in (("ask", ask), ("preset", preset), ("questions", questions)) if value]
        if len(given) != 1:
            raise ToolError("give exactly one of ask (with options or levels for a choice or a score), preset, or questions"
                            + (f"; got {', '.join(given)}" if given else ""))
        try:
            if ask:
                asked = quick_question(ask, options, levels)
                chosen = {presets_mod.slug(ask): asked}
            elif preset:
                chosen = presets_mod.get(preset).questions
            else:
                chosen = questions
        except (ValueError, presets_mod.PresetError) as error:
            raise ToolError(str(error)) from None

        def work():
            return decide_with_retries(lazy.get(), state, chosen, retries=retries)[0]

        try:
            response = await anyio.to_thread.run_sync(work)
        except DecideError as error:
            raise ToolError(str(error)) from None
        except RuntimeError as error:
            raise ToolError(str(error)) from None
        return {**response, "x_summary": summary_lines(response, chosen)}

    @server.tool(description="The models that answer here (name, description, calibration, readouts).")
    async def models() -> dict[str, Any]:
        try:
            listed = await anyio.to_thread.run_sync(lambda: lazy.get().models())
        except (DecideError, RuntimeError) as error:
            raise ToolError(str(error)) from None
        return {"models": listed}

    @server.tool(description="The built-in question sets: name, what they ask, and their questions "
                             "(pass a name as `preset` to decide; each is also a resource onepass://presets/NAME).")
    async def presets() -> dict[str, Any]:
        return {"presets": [{**p.as_json(), "uri": f"onepass://presets/{p.name}"} for p in presets_mod.builtin().values()]}

    for preset in presets_mod.builtin().values():
        server.add_resource(TextResource(uri=f"onepass://presets/{preset.name}", name=preset.name, title=preset.title,
                                         description=preset.description, mime_type="application/json",
                                         text=json.dumps(preset.as_json(), indent=2, ensure_ascii=False)))
    return server


def run_mcp(args) -> int:
    from onepass import engine_setup, serve_cmd

    if args.transport == "http":
        if not serve_cmd.loopback(args.host) and not args.no_auth:
            return _fail("mcp", f"refusing to serve MCP on {args.host}: this endpoint has no authentication; listen on "
                                "127.0.0.1, or pass --no-auth to expose it deliberately")
        if not 0 <= args.port <= 65535:
            return _fail("mcp", f"--port must be between 0 and 65535, got {args.port}")
    if not args.url:
        problem = engine_setup.check_flags(args)
        if problem:
            return _fail("mcp", problem)

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)  # never stdout: with stdio it carries the protocol

    server = build_server(lambda: make_decider(args, log=log, command="mcp"), retries=args.retries)
    server.onepass_decider.start()
    source = args.url or (args.model or "the default model")
    if args.transport == "stdio":
        log(f"onepass mcp on stdio (answers from {source}; tools decide, models, presets)")
        server.run("stdio")
    else:
        import anyio

        log(f"onepass mcp on http://{args.host}:{args.port}/mcp (streamable HTTP; answers from {source})")
        anyio.run(lambda: server.run_streamable_http_async(host=args.host, port=args.port, streamable_http_path="/mcp"))
    return 0


def register(sub, model_args) -> None:
    p = sub.add_parser("mcp", help="serve the decide / models / presets tools over MCP (stdio or streamable HTTP)",
                       description="An MCP server: an agent asks yes/no, choice and score questions (or a preset) and "
                                   "gets probabilities. Presets are also resources onepass://presets/NAME.")
    model_args(p)
    add_source_args(p)
    p.add_argument("--transport", choices=["stdio", "http"], default="stdio",
                   help="stdio (an agent starts `onepass mcp`), or streamable HTTP at http://HOST:PORT/mcp")
    p.add_argument("--host", default="127.0.0.1", help="HTTP listen address (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8001, help="HTTP port (default 8001)")
    p.add_argument("--no-auth", action="store_true", help="allow --host other than loopback (the endpoint has no keys)")
    p.add_argument("--retries", type=int, default=2, help="retries on 429 / 5xx / connection errors")
    p.set_defaults(fn=run_mcp)
