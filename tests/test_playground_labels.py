"""The labels page (/labels) in a real browser: answer states, correct and confirm, download labels.jsonl.

Playwright (Python) drives Debian's chromium exactly as tests/test_playground.py does; the server runs
in-process with the SmolLM2 test model (float32). The downloaded file is checked line by line: only
confirmed cells are gold, the corrected value is there, the served answers ride along.

With ONEPASS_UPDATE_SCREENSHOTS=1 the screenshot is also written to docs/labels-page.png (the README's).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import httpx
import pytest
from conftest import KEYS, ServerThread

from onepass.config import ServerConfig
from onepass.server import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parent.parent
TIMEOUT_MS = 120_000  # CPU answers; generous for a loaded CI machine


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (bash scripts/setup.sh --test)"
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is missing (bash scripts/setup.sh --test installs Debian's chromium)"
    return None


MISSING = _missing()
needs_browser = pytest.mark.skipif(MISSING is not None and not os.environ.get("CI"), reason=MISSING or "")


@pytest.fixture(scope="module")
def browser():
    if MISSING:
        pytest.fail(MISSING)
    from playwright.sync_api import sync_playwright

    profile_dir = tempfile.mkdtemp(prefix="onepass-chromium-")
    playwright = sync_playwright().start()
    try:
        context = playwright.chromium.launch_persistent_context(
            profile_dir, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900}, accept_downloads=True)
        context.set_default_timeout(TIMEOUT_MS)
        yield context
        context.close()
    finally:
        playwright.stop()
        shutil.rmtree(profile_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def open_server(smol):
    """Auth off (loopback only), like `onepass serve` without keys."""
    with ServerThread(create_app(smol, ServerConfig())) as running:
        yield running


@pytest.fixture()
def page(browser):
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: (errors.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    # The browser logs every refused request (401, 422) as a failed load; the page shows those itself.
    expected = "the server responded with a status of 4"
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" and expected not in message.text else None)
    yield page
    page.close()
    assert not errors, f"the page logged errors: {errors}"


QUESTIONS = {
    "billing": {"type": "noul", "instructions": "Is this message about billing?"},
    "team": {"type": "choice", "instructions": "Which team should handle it?",
             "criteria": {"billing": None, "shipping": None, "technical support": None}},
}
STATES = {
    "t-1": "Hi, I was charged twice for order #4411. Please refund one charge today.",
    "line-2": 'My parcel never arrived. <script>alert("x")</script><b>bold?</b> Where is it?',
    "line-4": "The app crashes every time I open the settings page.",
}
PASTED = "\n".join([json.dumps({"id": "t-1", "state": STATES["t-1"]}), STATES["line-2"], "", STATES["line-4"]])


def served(answer: dict, qid: str):
    """The label value a served answer stands for (what the page pre-fills)."""
    return answer["noul"] >= 0.5 if QUESTIONS[qid]["type"] == "noul" else answer["choice"]


def cell(page, row: str, qid: str):
    return page.locator(f'tr[data-row="{row}"] td.cell[data-qid="{qid}"]')


@needs_browser
def test_label_states_correct_confirm_and_download(page, open_server, tmp_path):
    page.goto(open_server.url + "/labels")
    page.wait_for_selector(".model-name")
    assert page.locator("nav a[aria-current=page]").inner_text() == "Labels"

    # A preset fills the editor (the server lists them); then our own set, pasted.
    page.wait_for_selector("#preset option[value=router]", state="attached")
    page.select_option("#preset", "router")
    assert json.loads(page.input_value("#questions-json"))["tool"]["type"] == "choice"
    assert page.locator("#questions-summary li[data-qid=tool]").count() == 1
    page.fill("#questions-json", json.dumps(QUESTIONS, indent=2))
    page.click("#use-questions")
    assert page.locator("#questions-summary li").count() == 2
    assert page.input_value("#preset") == ""  # edited: no longer the preset

    page.fill("#states-text", PASTED)
    page.click("#load-states")
    assert page.inner_text("#states-status") == "3 states loaded."
    assert page.locator("#labels-table tbody tr").count() == 3
    model = page.input_value("#model")
    assert model == "smollm2-135m"

    page.click("#answer-all")
    page.wait_for_function("() => Number(document.body.dataset.runs || 0) >= 1")
    assert page.inner_text("#progress") == "Answered 3 of 3."
    assert page.locator("tr.row-error").count() == 0

    # User text is data: the <script> in a state shows as text and runs nothing.
    assert page.locator('tr[data-row="line-2"] .state-text').inner_text() == STATES["line-2"]
    assert page.locator("#labels-table script, #labels-table b").count() == 0

    # Every cell shows the API's answer for that state, none is gold yet.
    expected = {}
    for row, state in STATES.items():
        r = httpx.post(open_server.url + "/v1/systemone", json={"model": model, "state": state, "questions": QUESTIONS},
                       timeout=120)
        assert r.status_code == 200, r.text
        expected[row] = r.json()["answers"]
        for qid in QUESTIONS:
            value = served(expected[row][qid], qid)
            shown = cell(page, row, qid)
            assert shown.locator(".served-value").inner_text() == ({True: "yes", False: "no"}.get(value, value))
            assert shown.locator("select").input_value() == (str(value).lower() if isinstance(value, bool) else value)
            p = expected[row][qid]["noul"] if qid == "billing" else expected[row][qid]["probabilities"][value]
            p = p if value is not False else 1 - p
            assert float(shown.locator(".served-p").inner_text()) == pytest.approx(p, abs=5e-4)
            assert shown.get_attribute("data-confirmed") == "false"
    assert page.inner_text("#label-count").startswith("0 items with labels")

    # Correct one choice cell: picking another answer confirms it and marks it corrected.
    served_team = expected["t-1"]["team"]["choice"]
    corrected = next(name for name in QUESTIONS["team"]["criteria"] if name != served_team)
    cell(page, "t-1", "team").locator("select").select_option(corrected)
    assert cell(page, "t-1", "team").get_attribute("class") == "cell confirmed corrected"
    assert cell(page, "t-1", "team").locator(".corrected-mark").is_visible()
    assert page.locator(".corrected-mark:visible").count() == 1

    # Confirm the yes/no column, then take one cell back out: line-4 is left with nothing confirmed.
    page.click('th[data-qid="billing"] button.confirm-all')
    assert all(cell(page, row, "billing").get_attribute("data-confirmed") == "true" for row in STATES)
    assert cell(page, "line-2", "team").get_attribute("data-confirmed") == "false"
    cell(page, "line-4", "billing").locator("input.confirm").uncheck()
    assert "1 item with nothing confirmed will be left out" in page.inner_text("#label-count")

    with page.expect_download() as info:
        page.click("#download-labels")
    assert info.value.suggested_filename == "labels.jsonl"
    lines = [json.loads(line) for line in Path(info.value.path()).read_text(encoding="utf-8").splitlines()]
    assert "Downloaded labels.jsonl: 2 items; 1 item with nothing confirmed left out." == page.inner_text("#label-count")

    assert [line["id"] for line in lines] == ["t-1", "line-2"]
    first, second = lines
    assert first["state"] == STATES["t-1"] and second["state"] == STATES["line-2"]  # the state as given
    assert first["gold"] == {"billing": served(expected["t-1"]["billing"], "billing"), "team": corrected}
    assert first["x_corrected"] == ["team"]
    assert second["gold"] == {"billing": served(expected["line-2"]["billing"], "billing")}
    assert second["x_corrected"] == []
    for line in lines:
        assert line["model"] == model
        answers, api = line["answers"], expected[line["id"]]
        assert set(answers) == set(QUESTIONS)
        assert answers["team"]["choice"] == api["team"]["choice"]
        assert answers["billing"]["noul"] == pytest.approx(api["billing"]["noul"], abs=5e-4)
        for name, p in api["team"]["probabilities"].items():
            assert answers["team"]["probabilities"][name] == pytest.approx(p, abs=5e-4)
        assert answers["team"]["x_readout"] == api["team"]["x_readout"]

    with page.expect_download() as info:
        page.click("#download-questions")
    assert info.value.suggested_filename == "questions.json"
    assert json.loads(Path(info.value.path()).read_text(encoding="utf-8")) == QUESTIONS

    shot = tmp_path / "labels-page.png"
    page.set_viewport_size({"width": 1280, "height": page.evaluate("document.documentElement.scrollHeight")})
    page.mouse.move(0, 0)
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 20_000
    if os.environ.get("ONEPASS_UPDATE_SCREENSHOTS"):
        shutil.copy(shot, ROOT / "docs" / "labels-page.png")


@needs_browser
def test_a_failing_state_is_reported_in_its_row_and_keys_are_asked_for(page, smol):
    with ServerThread(create_app(smol, ServerConfig(api_keys=KEYS, max_state_chars=200))) as running:
        failing_state_and_keys(page, running)


def failing_state_and_keys(page, server):
    # Keys on: the page asks for a key (kept in the tab) before it lists models and presets.
    page.goto(server.url + "/labels")
    page.wait_for_selector("#key-panel:not([hidden])")
    page.fill("#key-input", KEYS[1])
    page.click("#key-form button[type=submit]")
    page.wait_for_selector("#preset option[value=router]", state="attached")
    assert page.evaluate("sessionStorage.getItem('onepass.apiKey')") == KEYS[1]
    assert page.evaluate("localStorage.length") == 0
    # A state the server refuses (a 422: over --max-state-chars) is that row's error; the others are answered.
    page.fill("#questions-json", json.dumps({"billing": QUESTIONS["billing"]}))
    page.click("#use-questions")
    page.fill("#states-text", "\n".join([STATES["t-1"], json.dumps({"id": "bad", "state": "x " * 150}), STATES["line-4"]]))
    page.click("#load-states")
    page.click("#answer-all")
    page.wait_for_function("() => Number(document.body.dataset.runs || 0) >= 1")
    assert page.inner_text("#progress") == "Answered 2 of 3; 1 failed (press Answer all to retry them)."
    assert page.locator("tr.row-error").count() == 1
    assert "state" in page.locator('tr.row-error[data-row="bad"] .row-status').inner_text()
    assert cell(page, "line-3", "billing").locator(".served-value").inner_text() in ("yes", "no")


def test_labels_page_and_presets_are_served(open_server, server):
    with httpx.Client(base_url=open_server.url, timeout=30) as client:
        r = client.get("/labels")
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/html")
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert '<script type="module" src="/static/labels.js">' in r.text and "onclick" not in r.text
        assert client.get("/static/labels.js").status_code == 200
        assert 'href="/labels"' in client.get("/").text  # linked from the playground
    with httpx.Client(base_url=server.url, timeout=30) as client:
        assert client.get("/labels").status_code == 200  # the page itself holds nothing
        assert client.get("/presets.json").status_code == 401
        r = client.get("/presets.json", headers={"authorization": f"Bearer {KEYS[0]}"})
        assert r.status_code == 200
        names = {p["name"] for p in r.json()["presets"]}
        assert "router" in names and r.json()["presets"][0]["questions"]
