"""`onepass mcp`: the server run over stdio (and streamable HTTP on 127.0.0.1) with the official `mcp` SDK's
client; tools decide / models / presets and the preset resources (SmolLM2: mechanics, not correctness)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import anyio
import httpx
import pytest

from onepass import cli, mcp_server, presets
from tests.conftest import free_port

STATE = "Hi, I was charged twice for order #4411. Please refund one charge today."


def _env() -> dict[str, str]:
    keep = ("ONEPASS_CACHE_DIR", "OMP_NUM_THREADS", "PYTHONPATH", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
    return {k: os.environ[k] for k in keep if k in os.environ}


def _args() -> list[str]:
    return ["-m", "onepass.cli", "mcp", "--model", "smollm2-135m", "--dtype", "float32"]


async def _exercise(client, smol) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == {"decide", "models", "presets"}
    assert {"state", "ask", "options", "levels", "preset", "questions"} <= set(tools["decide"].input_schema["properties"])

    resources = {str(r.uri): r for r in (await client.list_resources()).resources}
    assert set(resources) == {f"onepass://presets/{name}" for name in presets.builtin()}
    assert resources["onepass://presets/triage"].mime_type == "application/json"
    read = await client.read_resource("onepass://presets/triage")
    assert json.loads(read.contents[0].text) == presets.get("triage").as_json()

    listed = (await client.call_tool("presets", {})).structured_content["presets"]
    assert {p["name"] for p in listed} == set(presets.builtin())

    # yes/no, choice and score from one `ask`, with the numbers the Python API gives
    yes_no = await client.call_tool("decide", {"state": STATE, "ask": "Is this about billing?"})
    assert not yes_no.is_error
    answer = yes_no.structured_content["answers"]["is_this_about_billing"]
    direct = smol.decide({"model": "jev-latest", "state": STATE,
                          "questions": {"q": {"type": "noul", "instructions": "Is this about billing?"}}})
    assert abs(answer["noul"] - direct["answers"]["q"]["noul"]) < 1e-4
    assert yes_no.structured_content["x_summary"][0].startswith("is_this_about_billing: ")
    choice = (await client.call_tool("decide", {"state": STATE, "ask": "Which team?", "options": ["billing", "shipping", "sales"]}))
    probs = choice.structured_content["answers"]["which_team"]["probabilities"]
    assert set(probs) == {"billing", "shipping", "sales"} and abs(sum(probs.values()) - 1) < 1e-6
    score = (await client.call_tool("decide", {"state": STATE, "ask": "How urgent?", "levels": ["later", "today", "now"]}))
    assert 0 <= score.structured_content["answers"]["how_urgent"]["score"] <= 2
    by_preset = await client.call_tool("decide", {"state": {"subject": "refund", "body": STATE}, "preset": "triage"})
    assert set(by_preset.structured_content["answers"]) == set(presets.get("triage").questions)
    own = await client.call_tool("decide", {"state": STATE, "questions": {"x": {"type": "noul", "instructions": "Angry?"}}})
    assert own.structured_content["answers"]["x"]["type"] == "noul"

    # mistakes come back as tool errors with a message, not as a broken session
    for bad, needle in (({"state": STATE}, "exactly one"), ({"state": STATE, "ask": "?", "preset": "triage"}, "exactly one"),
                        ({"state": STATE, "preset": "nope"}, "unknown preset"),
                        ({"state": STATE, "ask": "Which?", "options": ["one"]}, "two options"),
                        ({"state": STATE, "questions": {"x": {"type": "score", "criteria": {"0": "a", "1": "b"}}}}, "")):
        result = await client.call_tool("decide", bad)
        assert result.is_error and needle in result.content[0].text

    models = (await client.call_tool("models", {})).structured_content["models"]
    assert models[0]["name"] == "smollm2-135m"


def test_mcp_over_stdio_with_the_sdk_client(smol):
    from mcp import Client, StdioServerParameters

    async def main():
        params = StdioServerParameters(command=sys.executable, args=_args(), env=_env(), cwd=os.getcwd())
        async with Client(params, read_timeout_seconds=300) as client:
            await _exercise(client, smol)

    anyio.run(main)


def test_mcp_over_streamable_http(smol):
    from mcp import Client

    port = free_port()
    proc = subprocess.Popen([sys.executable, *_args(), "--transport", "http", "--port", str(port)],
                            env={**os.environ, **_env()}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.time() + 120
        while True:
            try:
                httpx.get(url, timeout=2)
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.time() < deadline, proc.stderr.read() if proc.poll() is not None else "no start"
                time.sleep(0.2)

        async def main():
            async with Client(url, read_timeout_seconds=300) as client:
                result = await client.call_tool("decide", {"state": STATE, "ask": "Is this about billing?"})
                assert not result.is_error and 0 <= result.structured_content["answers"]["is_this_about_billing"]["noul"] <= 1

        anyio.run(main)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        proc.stderr.close()


def test_http_refuses_a_public_address_without_no_auth(capsys):
    assert cli.main(["mcp", "--transport", "http", "--host", "0.0.0.0", "--model", "smollm2-135m"]) == 2
    assert "no authentication" in capsys.readouterr().err


def test_quick_questions():
    assert mcp_server.quick_question("Spam?", None, None) == {"type": "noul", "instructions": "Spam?"}
    assert mcp_server.quick_question("Team?", ["a", "b"], None)["criteria"] == {"a": None, "b": None}
    assert mcp_server.quick_question("Level?", None, ["lo", "hi"])["criteria"] == ["lo", "hi"]
    with pytest.raises(ValueError):
        mcp_server.quick_question("?", ["a", "b"], ["lo", "hi"])
