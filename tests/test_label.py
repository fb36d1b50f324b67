"""`onepass label`: input shapes, pass-through fields, resuming, failures written with their error,
concurrency, the summary, and the CLI end to end (SmolLM2: mechanics, not correctness)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest

from onepass import cli, deciders, label, presets
from tests.conftest import KEYS

CLI = [sys.executable, "-m", "onepass.cli"]
QUESTIONS = {"billing": {"type": "noul", "instructions": "Is this message about billing?"},
             "team": {"type": "choice", "instructions": "Which team?", "criteria": {"billing": None, "shipping": None, "tech": None}},
             "urgency": {"type": "score", "instructions": "How urgent?", "criteria": ["can wait", "today", "now"]}}
LINES = [
    json.dumps({"id": "a", "state": "I was charged twice for my subscription.", "customer": "dana", "tags": ["vip"]}),
    json.dumps("My parcel has not moved in a week."),
    "The app crashes when I upload a long video.",  # not JSON: the line is the state
    json.dumps({"subject": "VAT", "body": "Please add our VAT number to invoices."}),  # no state field: the object is the state
    json.dumps("My parcel has not moved in a week."),  # a duplicate line is its own item
]


@pytest.fixture()
def items(tmp_path):
    path = tmp_path / "items.jsonl"
    path.write_text("\n".join(LINES[:3]) + "\n\n" + "\n".join(LINES[3:]) + "\n")
    return path


class Counting:
    """A decider that counts calls and fails chosen states."""

    def __init__(self, inner, fail=(), status=503):
        self.inner, self.fail, self.status = inner, set(fail), status
        self.calls = []
        self.lock = threading.Lock()

    def decide(self, state, questions):
        with self.lock:
            self.calls.append(state)
        if json.dumps(state) in self.fail:
            raise deciders.DecideError(f"HTTP {self.status}: nope", self.status, "test_error", self.status >= 500)
        return self.inner.decide(state, questions)


def rows(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_items_keep_their_shape_and_get_stable_keys(items):
    got = list(label.read_items(items))
    assert [i.line for i in got] == [1, 2, 3, 5, 6]
    assert got[0].state == "I was charged twice for my subscription." and got[0].fields["customer"] == "dana"
    assert got[0].key == "id:a"
    assert got[1].state == got[4].state and got[1].key != got[4].key  # duplicates are two items
    assert got[2].state == LINES[2] and got[2].fields == {"state": LINES[2]}
    assert got[3].state == {"subject": "VAT", "body": "Please add our VAT number to invoices."}
    again = list(label.read_items(items))
    assert [i.key for i in again] == [i.key for i in got]
    by_text = list(label.read_items(items, state_field="body"))
    assert by_text[3].state == "Please add our VAT number to invoices." and by_text[3].fields["subject"] == "VAT"


def test_label_writes_every_item_and_resumes(items, tmp_path, smol):
    out = tmp_path / "answers.jsonl"
    decider = Counting(deciders.LocalDecider(smol))
    all_items = list(label.read_items(items))
    counts = label.label(decider, all_items, QUESTIONS, out, concurrency=2, progress=False)
    assert counts["answered"] == 5 and counts["failed"] == 0 and len(decider.calls) == 5
    written = rows(out)
    assert sorted(r["x_line"] for r in written) == [1, 2, 3, 5, 6]
    first = next(r for r in written if r["x_line"] == 1)
    assert first["id"] == "a" and first["customer"] == "dana" and first["tags"] == ["vip"]
    assert set(first["answers"]) == set(QUESTIONS) and first["model"] == "smollm2-135m"
    direct = smol.decide({"model": "jev-latest", "state": first["state"], "questions": QUESTIONS})
    assert abs(first["answers"]["billing"]["noul"] - direct["answers"]["billing"]["noul"]) < 1e-4

    # A rerun asks nothing; a lost row is asked again, alone.
    decider.calls.clear()
    assert label.label(decider, all_items, QUESTIONS, out, progress=False)["skipped"] == 5 and decider.calls == []
    out.write_text("\n".join(json.dumps(r) for r in written if r["x_line"] != 3) + "\n" + '{"x_line": 9, "answ')  # + a torn line
    counts = label.label(decider, all_items, QUESTIONS, out, progress=False)
    assert decider.calls == [LINES[2]] and counts["answered"] == 1 and counts["skipped"] == 4
    assert sorted(r["x_line"] for r in rows(out)) == [1, 2, 3, 5, 6]  # the torn line is gone

    with pytest.raises(ValueError, match="different question set"):
        label.label(decider, all_items, {"other": {"type": "noul", "instructions": "?"}}, out, progress=False)


def test_failures_are_retried_written_with_their_error_and_redone(items, tmp_path, smol):
    out = tmp_path / "answers.jsonl"
    all_items = list(label.read_items(items))
    bad = json.dumps(all_items[2].state)
    flaky = Counting(deciders.LocalDecider(smol), fail=[bad])
    counts = label.label(flaky, all_items, QUESTIONS, out, retries=2, backoff=0, progress=False)
    assert counts["failed"] == 1 and counts["answered"] == 4
    assert flaky.calls.count(all_items[2].state) == 3  # first try + 2 retries
    failed = [r for r in rows(out) if "error" in r]
    assert len(failed) == 1 and failed[0]["x_line"] == 3 and failed[0]["state"] == LINES[2]
    assert failed[0]["error"] == {"status": 503, "type": "test_error", "message": "HTTP 503: nope", "attempts": 3}
    summary = label.summarise(out, QUESTIONS)
    assert summary["answered"] == 4 and summary["failed"] == 1

    rejected = Counting(deciders.LocalDecider(smol), fail=[bad], status=400)
    label.label(rejected, all_items, QUESTIONS, out, retries=2, backoff=0, progress=False)
    assert rejected.calls == [all_items[2].state]  # a 4xx is not retried

    fixed = Counting(deciders.LocalDecider(smol))
    counts = label.label(fixed, all_items, QUESTIONS, out, progress=False)
    assert fixed.calls == [all_items[2].state] and counts["retried_failures"] == 1
    assert len(rows(out)) == 5 and not any("error" in r for r in rows(out))


def test_summary_counts_answers_confidence_and_low_mass(tmp_path):
    out = tmp_path / "answers.jsonl"
    qs = {"spam": {"type": "noul"}, "team": {"type": "choice"}, "level": {"type": "score"}}
    made = [({"type": "noul", "noul": 0.9, "x_label_mass": 0.9}, {"type": "choice", "choice": "a", "confidence": 0.5, "x_label_mass": 0.2},
             {"type": "score", "score": 1.8, "confidence": 0.4, "legend": {"0": "low", "1": "mid", "2": "high"},
              "probabilities": {"0": 0.1, "1": 0.0, "2": 0.9}}),
            ({"type": "noul", "noul": 0.2, "x_label_mass": 0.3}, {"type": "choice", "choice": "a", "confidence": 0.7, "x_label_mass": 0.8},
             {"type": "score", "score": 0.2, "confidence": 0.8, "legend": {"0": "low", "1": "mid", "2": "high"},
              "probabilities": {"0": 0.8, "1": 0.2, "2": 0.0}})]
    out.write_text("".join(json.dumps({"x_key": str(i), "answers": dict(zip(qs, a))}) + "\n" for i, a in enumerate(made))
                   + json.dumps({"x_key": "9", "error": {"message": "x"}}) + "\n")
    s = label.summarise(out, qs)
    assert s["answered"] == 2 and s["failed"] == 1
    assert s["questions"]["spam"]["distribution"] == {"yes": {"n": 1, "share": 0.5}, "no": {"n": 1, "share": 0.5}}
    assert s["questions"]["spam"]["mean_confidence"] == pytest.approx((0.8 + 0.6) / 2)
    assert s["questions"]["spam"]["low_label_mass_share"] == 0.5
    assert s["questions"]["team"]["distribution"] == {"a": {"n": 2, "share": 1.0}}
    assert s["questions"]["level"]["distribution"] == {"2: high": {"n": 1, "share": 0.5}, "0: low": {"n": 1, "share": 0.5}}
    assert s["questions"]["level"]["mean_score"] == pytest.approx(1.0)


def test_label_through_a_server_with_url(server, items, tmp_path, capsys):
    out, summary = tmp_path / "answers.jsonl", tmp_path / "summary.json"
    code = cli.main(["label", str(items), "--preset", "triage", "--out", str(out), "--url", server.url, "--api-key", KEYS[0],
                     "--concurrency", "3", "--no-progress", "--summary", str(summary)])
    assert code == 0
    written = rows(out)
    assert len(written) == 5 and all(set(r["answers"]) == set(presets.get("triage").questions) for r in written)
    printed = capsys.readouterr().out
    assert "5 answered, 0 failed" in printed and "team (choice, n=5)" in printed
    assert json.loads(summary.read_text())["answered"] == 5
    assert cli.main(["label", str(items), "--preset", "triage", "--out", str(out), "--url", server.url, "--api-key", KEYS[0]]) == 0
    assert "nothing to do" in capsys.readouterr().out
    # a wrong key fails every item, and each is written with its error: nothing is lost
    bad_out = tmp_path / "bad.jsonl"
    assert cli.main(["label", str(items), "--preset", "triage", "--out", str(bad_out), "--url", server.url, "--api-key", "nope",
                     "--no-progress"]) == 1
    assert [r["error"]["status"] for r in rows(bad_out)] == [401] * 5


def test_cli_label_end_to_end(items, tmp_path):
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps(QUESTIONS))
    out = tmp_path / "answers.jsonl"
    done = subprocess.run([*CLI, "label", str(items), "--questions", str(questions), "--out", str(out),
                           "--model", "smollm2-135m", "--concurrency", "2"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert len(rows(out)) == 5
    assert "labelled 5 item(s)" in done.stdout and "items/s" in done.stdout and "mean confidence" in done.stdout
    assert "labelling: 100%" in done.stderr and "items/s" in done.stderr  # the progress bar
