"""`onepass learn` on the default model (Qwen2.5-Coder-1.5B-Instruct), then the adapter served by name to the
official SDK. 48 labelled items of data/learn/marketplace_moderation and a separate test file of 16: about two
minutes of reads on two cores. What the full task suite measures is in docs/learn.md (bench/learn.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import numpy as np
import pytest
from typesafe_sdk import Noul, RetryPolicy, TypeSafeClient

from onepass import Engine, cli, models
from onepass.backends.base import Read
from onepass.config import ServerConfig
from onepass.learn.adapter import Adapter
from onepass.learn.features import embed_texts
from onepass.readouts.base import softmax
from onepass.render import state_text
from onepass.server import create_app
from onepass.wire import parse_request
from tests.test_hardening_support import LoopbackServer

pytestmark = pytest.mark.slow

TASK = Path(__file__).resolve().parent.parent / "data" / "learn" / "marketplace_moderation"


@pytest.fixture(scope="module")
def adapter_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("qwen-learn")
    lines = (TASK / "labels.jsonl").read_text().splitlines()
    (folder / "labels.jsonl").write_text("\n".join(lines[:48]) + "\n")
    (folder / "test.jsonl").write_text("\n".join(lines[48:64]) + "\n")
    out = folder / "moderation"
    assert cli.main(["learn", "--model", models.DEFAULT_MODEL, "--questions", str(TASK / "questions.json"),
                     "--data", str(folder / "labels.jsonl"), "--test", str(folder / "test.jsonl"),
                     "--name", "moderation", "--out", str(out)]) == 0
    return out


def test_learn_on_the_default_model_reports_every_method_and_chooses_on_validation(adapter_dir):
    manifest = json.loads((adapter_dir / "manifest.json").read_text())
    assert manifest["base_model"]["id"] == models.DEFAULT_MODEL and manifest["labels"]["items"] == 48
    entry = manifest["questions"]["violates"]
    assert entry["counts"]["test"] == 16 and entry["counts"]["train"] + entry["counts"]["validation"] == 48
    assert {"zero-shot", "knn-minilm", "logreg-minilm", "head-hidden", "zs+head-hidden"} <= set(entry["test"])
    mean = {m: v["nll_mean_over_splits"] for m, v in entry["validation"].items()}
    assert entry["chosen"] == min(mean, key=mean.get)
    # the default model's hidden state carries the task: its head separates validation better than chance
    assert entry["validation"]["head-hidden"]["nll"] < np.log(2)


def test_the_default_models_adapter_is_served_by_name_with_its_fitted_arithmetic(adapter_dir):
    engine = Engine(models.DEFAULT_MODEL, adapters=(str(adapter_dir),), log=lambda _m: None)
    adapter = Adapter.load(adapter_dir)
    question = json.loads((TASK / "questions.json").read_text())["violates"]
    state = json.loads((TASK / "labels.jsonl").read_text().splitlines()[100])["state"]
    settings = ServerConfig()
    with LoopbackServer(create_app(engine, settings), settings) as s, \
            TypeSafeClient(base_url=s.url, api_key="k", retry=RetryPolicy(max_retries=0), timeout=300) as client:
        got = client.system_one(state=state, model="moderation", questions={
            "remove": Noul(instructions=question["instructions"], criteria=question.get("criteria"))})
        body = httpx.post(f"{s.url}/v1/systemone", headers={"Authorization": "Bearer k"}, timeout=300, json={
            "model": "moderation", "state": state, "questions": {"remove": question}}).json()
    parsed = parse_request({"model": "x", "state": state, "questions": {"q": question}}).questions["q"]
    learned = adapter.match(parsed.model_dump(mode="json"))
    rendered = engine.renderer.question(parsed)
    (lp, h), = engine.backend.features(engine.renderer.prefix(state), [Read(rendered.suffix, rendered.label_ids)])
    want = softmax(learned.scores(lp, h, embed_texts([state_text(state)])[0]))
    assert abs(got.nouls["remove"].noul - want[0]) < 1e-9
    assert body["answers"]["remove"]["x_adapter"] == {"name": "moderation", "question": "violates", "method": learned.method}
