"""`onepass run` and `onepass presets`: presets, question sets, drawing answers, text sources, the prompt
loop, and answers that match the Python API (SmolLM2: mechanics, not correctness)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from onepass import cli, deciders, presets, run_cmd, terminal
from tests.conftest import KEYS

CLI = [sys.executable, "-m", "onepass.cli"]
TEXT = "Hi, I was charged twice for order #4411. Please refund one charge today."


@pytest.fixture()
def local(monkeypatch, smol):
    """`run` answers from the session's SmolLM2 engine instead of loading its own."""
    monkeypatch.setattr(run_cmd, "make_decider", lambda args, log=None, command="run": deciders.LocalDecider(smol))
    return smol


def test_builtin_presets_are_valid_requests(smol):
    found = presets.builtin()
    assert {"triage", "phishing", "moderation", "router", "logs"} <= set(found)
    aliases = [a for p in found.values() for a in p.aliases]
    assert len(aliases) == len(set(aliases)) and not set(aliases) & set(found)
    for preset in found.values():
        assert preset.title and preset.description and preset.example
        smol.validate({"model": "jev-latest", "state": preset.example, "questions": preset.questions})
    assert presets.get("email").name == "phishing" and presets.get("LOG-TRIAGE").name == "logs"
    with pytest.raises(presets.PresetError, match="onepass presets"):
        presets.get("nope")


def test_question_set_files_and_merging(tmp_path):
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({"team": {"type": "noul", "instructions": "Billing?"}}))
    shaped = tmp_path / "shaped.json"
    shaped.write_text(json.dumps(presets.get("triage").as_json()))
    assert presets.load_questions(bare) == {"team": {"type": "noul", "instructions": "Billing?"}}
    assert presets.load_questions(shaped) == presets.get("triage").questions
    merged, source = presets.question_set("triage", str(bare), [{"type": "noul", "instructions": "Is it urgent?"}])
    assert list(merged) == ["team", "urgency", "refund", "angry", "team_2", "is_it_urgent"]
    assert source == "triage + bare.json + asked"
    for broken in ("[]", "{}", "not json", '{"q": 3}'):
        path = tmp_path / "broken.json"
        path.write_text(broken)
        with pytest.raises(presets.PresetError):
            presets.load_questions(path)


RESPONSE = {"model": "m", "answers": {
    "spam": {"type": "noul", "noul": 0.1, "x_label_mass": 0.9},
    "team": {"type": "choice", "choice": "billing", "confidence": 0.5,
             "probabilities": {"billing": 0.625, "shipping": 0.25, "sales": 0.125}, "x_label_mass": 0.2},
    "urgency": {"type": "score", "score": 2.4, "confidence": 0.6, "legend": {"0": "can wait", "1": "this week", "2": "today", "3": "now"},
                "probabilities": {"0": 0.0, "1": 0.1, "2": 0.4, "3": 0.5}},
}}


def test_render_rows_bars_and_colour():
    text = terminal.render(RESPONSE, {}, color=False, width=120, title="triage", seconds=1.5)
    lines = text.splitlines()
    assert len(lines) == 4 and "triage" in lines[0] and "1.50 s" in lines[0] and "\x1b[" not in text
    assert lines[1].split()[:2] == ["spam", "no"] and lines[1].rstrip().endswith("0.90")
    assert "billing" in lines[2] and "0.62" in lines[2] and "shipping 0.25" in lines[2] and "label mass 0.20" in lines[2]
    assert "today" in lines[3] and "2.4 / 3" in lines[3]  # the level nearest the score, and the score out of its top
    assert lines[1].count("█") > lines[2].count("█")  # 0.90 draws a longer bar than 0.62
    assert "\x1b[" in terminal.render(RESPONSE, {}, color=True, width=120)
    assert terminal.bar(0.5, 10) == ("█████", "·····") and terminal.bar(1 / 16, 2)[0] == "▏"
    narrow = terminal.render(RESPONSE, {}, color=False, width=60).splitlines()
    assert "label mass" in narrow[2]  # the warning outlives the runners-up on a narrow terminal


def test_ask_choice_and_level_build_questions(local, capsys):
    code = cli.main(["run", "--ask", "Is it spam?", "--ask", "Which team?", "--choice", "billing", "--choice", "shipping",
                     "--ask", "How urgent?", "--level", "low", "--level", "high", "--json", TEXT])
    assert code == 0
    answers = json.loads(capsys.readouterr().out)["answers"]
    assert [a["type"] for a in answers.values()] == ["noul", "choice", "score"]
    assert list(answers) == ["is_it_spam", "which_team", "how_urgent"]
    assert set(answers["which_team"]["probabilities"]) == {"billing", "shipping"}
    assert cli.main(["run", "--ask", "Which?", "--choice", "only", TEXT]) == 2
    assert "at least two options" in capsys.readouterr().err
    assert cli.main(["run", TEXT]) == 2 and "--preset" in capsys.readouterr().err


def test_preset_answers_match_the_python_api(local, capsys):
    assert cli.main(["run", "--preset", "triage", "--json", TEXT]) == 0
    printed = json.loads(capsys.readouterr().out)
    direct = local.decide({"model": "jev-latest", "state": TEXT, "questions": presets.get("triage").questions})
    assert set(printed["answers"]) == {"team", "urgency", "refund", "angry"}
    for qid, answer in direct["answers"].items():
        key = "noul" if answer["type"] == "noul" else "score" if answer["type"] == "score" else "confidence"
        assert abs(printed["answers"][qid][key] - answer[key]) < 1e-5
    assert cli.main(["run", "--preset", "triage", "--color", "never", TEXT]) == 0
    drawn = capsys.readouterr().out.splitlines()
    assert drawn[0].startswith(" triage · smollm2-135m · 4 questions") and len(drawn) == 5


def test_text_from_stdin_file_and_json_state(local, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "stdin", io.StringIO(TEXT + "\n"))
    assert cli.main(["run", "--ask", "Is it about money?", "--json"]) == 0
    from_stdin = json.loads(capsys.readouterr().out)["answers"]["is_it_about_money"]["noul"]
    path = tmp_path / "ticket.txt"
    path.write_text(TEXT + "\n")
    assert cli.main(["run", "--ask", "Is it about money?", "--json", "--file", str(path)]) == 0
    assert abs(json.loads(capsys.readouterr().out)["answers"]["is_it_about_money"]["noul"] - from_stdin) < 1e-6
    assert cli.main(["run", "--ask", "Is it about money?", "--json", "--state-json", '{"subject": "refund", "body": "twice"}']) == 0
    assert json.loads(capsys.readouterr().out)["answers"]["is_it_about_money"]["type"] == "noul"
    assert cli.main(["run", "--ask", "Money?", "--state-json", "{not json"]) == 2


def test_prompt_loop_answers_each_text_until_eof(smol, capsys):
    feed = iter(["The parcel never came.", "", "Refund me", "now please", "", ""])

    def fake_input(prompt):
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    args = type("A", (), {"state_json": False, "retries": 0, "json": False})()
    questions = presets.get("triage").questions
    assert run_cmd._prompt_loop(deciders.LocalDecider(smol), questions, "triage", args, False, input_fn=fake_input) == 0
    out = capsys.readouterr().out
    assert out.count("triage · smollm2-135m · 4 questions") == 2  # two texts, two answer blocks


def test_run_against_a_server_with_url(server, capsys, smol):
    code = cli.main(["run", "--url", server.url, "--api-key", KEYS[0], "--preset", "phishing", "--json", TEXT])
    assert code == 0
    remote = json.loads(capsys.readouterr().out)
    direct = smol.decide({"model": "jev-latest", "state": TEXT, "questions": presets.get("phishing").questions})
    assert abs(remote["answers"]["phishing"]["noul"] - direct["answers"]["phishing"]["noul"]) < 1e-3
    assert cli.main(["run", "--url", server.url, "--api-key", "wrong", "--preset", "phishing", TEXT]) == 1
    assert "HTTP 401" in capsys.readouterr().err


def test_remote_errors_are_retried_then_reported():
    calls = []

    class Flaky:
        def decide(self, state, questions):
            calls.append(1)
            raise deciders.DecideError("HTTP 503: busy", 503, "overloaded", True, retry_after=0)

    with pytest.raises(deciders.DecideError) as caught:
        deciders.decide_with_retries(Flaky(), "x", {}, retries=2, sleep=lambda s: None)
    assert len(calls) == 3 and caught.value.attempts == 3


def test_cli_run_and_presets_end_to_end():
    out = subprocess.run([*CLI, "run", "--model", "smollm2-135m", "--preset", "triage", "--color", "never", TEXT],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    assert out.splitlines()[0].startswith(" triage · smollm2-135m") and "/ 3" in out
    listed = subprocess.run([*CLI, "presets"], capture_output=True, text=True, timeout=120, check=True).stdout
    assert "triage" in listed and "phishing (also: email)" in listed
    shown = subprocess.run([*CLI, "presets", "--show", "router"], capture_output=True, text=True, timeout=120, check=True).stdout
    assert json.loads(shown)["questions"] == presets.get("router").questions
