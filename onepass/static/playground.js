// The onepass playground: build a System One request, send it to this server, draw the answers.
"use strict";

import { api, describeError, el, fmt, getKey, keyPanel, keysOn, ms, parseServerTiming } from "./common.js";
import { EXAMPLES } from "./examples.js";

// A label mass below this means the model mostly wanted to answer something other than the labels.
const LOW_MASS = 0.5;
const READOUT_HELP = {
  slot: "options as lettered slots, one read (fast; can depend on option order)",
  isolated: "each option judged alone (order invariant)",
  likelihood: "each option's own text scored as the answer",
  debiased: "slot from a canonical order, re-read when uncertain (order invariant)",
  shortlist: "slot keeps the top k options, likelihood reranks them (many options; order invariant)",
  head: "a learned head on the model's hidden states, fitted with onepass tune (order invariant)",
};
const TYPE_NAMES = { noul: "Yes/no", choice: "Choice", score: "Score" };

const model = {
  state: "",
  questions: [],
  readout: "",
  calibration: "",
};
let served = { name: "", readouts: ["slot", "isolated", "likelihood", "debiased"], defaultReadout: "slot" };
let last = null; // {request, response, ms, timing}
let busy = false;
let pending = null; // what to run once a key is entered

const $ = (id) => document.getElementById(id);
const keys = keyPanel(() => { connect(); if (pending) { const run = pending; pending = null; run(); } });

// -- the request model ---------------------------------------------------------------------------------

function questionFrom(spec) {
  return {
    id: spec.id,
    type: spec.type,
    instructions: spec.instructions || "",
    options: (spec.options || []).map((o) => ({ name: o.name, description: o.description || "" })),
    levels: (spec.levels || []).slice(),
  };
}

function loadExample(name) {
  const example = EXAMPLES[name];
  model.state = example.state;
  model.questions = example.questions.map(questionFrom);
  $("state").value = model.state;
  renderQuestions();
  last = null;
  renderAnswers(null);
  setStatus(`Loaded the “${example.title}” example. Press Decide.`);
}

function freshId(type) {
  const base = { noul: "yes_no", choice: "choice", score: "score" }[type];
  const used = new Set(model.questions.map((q) => q.id));
  for (let k = 1; ; k++) {
    const id = k === 1 ? base : `${base}_${k}`;
    if (!used.has(id)) return id;
  }
}

function addQuestion(type) {
  const q = questionFrom({ id: freshId(type), type, instructions: "" });
  if (type === "choice") q.options = [{ name: "first", description: "" }, { name: "second", description: "" }];
  if (type === "score") q.levels = ["low", "medium", "high"];
  model.questions.push(q);
  renderQuestions();
  const editors = document.querySelectorAll(".question");
  editors[editors.length - 1].querySelector("textarea").focus();
}

// The request body exactly as sent (also what the copy buttons write out).
export function buildRequest() {
  const questions = {};
  for (const q of model.questions) {
    const item = { type: q.type };
    if (q.instructions.trim()) item.instructions = q.instructions;
    if (q.type === "choice") {
      item.criteria = {};
      for (const o of q.options) item.criteria[o.name] = o.description.trim() ? o.description : null;
    }
    if (q.type === "score") item.criteria = q.levels.slice();
    questions[q.id] = item;
  }
  const body = { model: "jev-latest", state: model.state, questions };
  if (model.readout) body.x_readout = model.readout;
  if (model.calibration === "on") body.x_calibrated = true;
  if (model.calibration === "off") body.x_calibrated = false;
  return body;
}

// Problems the server would refuse anyway, said before sending (duplicate ids and names collapse in JSON).
function localProblems() {
  const problems = [];
  if (!model.questions.length) problems.push("Add at least one question.");
  const ids = new Set();
  for (const q of model.questions) {
    if (!q.id) problems.push("Every question needs an id.");
    else if (ids.has(q.id)) problems.push(`Two questions share the id “${q.id}”.`);
    ids.add(q.id);
    if (q.type === "choice") {
      const names = new Set();
      for (const o of q.options) {
        if (names.has(o.name)) problems.push(`Question “${q.id}” has the option “${o.name}” twice.`);
        names.add(o.name);
      }
    }
  }
  return problems;
}

// -- the question editors ------------------------------------------------------------------------------

function renderQuestions() {
  const box = $("questions");
  box.replaceChildren(...model.questions.map((q, i) => questionEditor(q, i)));
  $("question-count").textContent = model.questions.length === 1 ? "1 question" : `${model.questions.length} questions`;
}

function questionEditor(q, index) {
  const idInput = el("input", {
    id: `q${index}-id`, class: "qid", value: q.id, spellcheck: "false", autocomplete: "off",
    oninput: (e) => { q.id = e.target.value; },
  });
  const instructions = el("textarea", {
    id: `q${index}-instructions`, rows: 2, value: q.instructions,
    placeholder: q.type === "noul" ? "A yes/no question, e.g. Is this about billing?" : "The question to ask",
    oninput: (e) => { q.instructions = e.target.value; },
  });
  const remove = el("button", {
    type: "button", class: "icon danger", text: "Remove",
    "aria-label": `Remove question ${q.id || index + 1}`,
    onclick: () => {
      model.questions.splice(index, 1);
      renderQuestions();
      (document.querySelector(".question .qid") || $("add-noul")).focus();
    },
  });
  const parts = [
    el("div", { class: "q-head" },
      el("span", { class: `tag tag-${q.type}`, text: TYPE_NAMES[q.type] }),
      el("label", { for: `q${index}-id`, class: "inline", text: "id" }), idInput, remove),
    el("label", { for: `q${index}-instructions`, class: "sr-only", text: `Instructions of ${q.id}` }),
    instructions,
  ];
  if (q.type === "choice") parts.push(optionList(q, index));
  if (q.type === "score") parts.push(levelList(q, index));
  return el("fieldset", { class: "question", "data-qid": q.id }, el("legend", { class: "sr-only", text: `Question ${index + 1}` }), parts);
}

function optionList(q, qi) {
  const rows = q.options.map((o, k) => el("li", { class: "opt-row" },
    el("input", {
      class: "opt-name", value: o.name, "aria-label": `Option ${k + 1} name`, spellcheck: "false",
      oninput: (e) => { o.name = e.target.value; },
    }),
    el("input", {
      class: "opt-desc", value: o.description, placeholder: "description (optional)", "aria-label": `Option ${k + 1} description`,
      oninput: (e) => { o.description = e.target.value; },
    }),
    el("button", {
      type: "button", class: "icon", text: "×", "aria-label": `Remove option ${o.name || k + 1}`, disabled: q.options.length <= 2,
      onclick: () => { q.options.splice(k, 1); renderQuestions(); focusIn(qi, ".opt-name"); },
    })));
  return el("div", { class: "sub" },
    el("div", { class: "sub-title", text: "Options" }),
    el("ol", { class: "opt-list" }, rows),
    el("button", {
      type: "button", class: "small", text: "+ Add option",
      onclick: () => {
        q.options.push({ name: `option ${q.options.length + 1}`, description: "" });
        renderQuestions();
        focusIn(qi, ".opt-name", -1);
      },
    }));
}

function levelList(q, qi) {
  const rows = q.levels.map((level, k) => el("li", { class: "opt-row" },
    el("span", { class: "level-no", text: String(k), "aria-hidden": "true" }),
    el("input", {
      class: "opt-name level", value: level, "aria-label": `Level ${k} description`,
      oninput: (e) => { q.levels[k] = e.target.value; },
    }),
    el("button", {
      type: "button", class: "icon", text: "×", "aria-label": `Remove level ${k}`, disabled: q.levels.length <= 2,
      onclick: () => { q.levels.splice(k, 1); renderQuestions(); focusIn(qi, ".level"); },
    })));
  return el("div", { class: "sub" },
    el("div", { class: "sub-title", text: "Levels, lowest first" }),
    el("ol", { class: "opt-list" }, rows),
    el("button", {
      type: "button", class: "small", text: "+ Add level", disabled: q.levels.length >= 10,
      onclick: () => { q.levels.push(`level ${q.levels.length}`); renderQuestions(); focusIn(qi, ".level", -1); },
    }));
}

function focusIn(qi, selector, which = 0) {
  const editor = document.querySelectorAll(".question")[qi];
  if (!editor) return;
  const found = editor.querySelectorAll(selector);
  const target = found[which < 0 ? found.length - 1 : Math.min(which, found.length - 1)];
  if (target) target.focus();
}

// -- the readout choice --------------------------------------------------------------------------------

function renderReadouts() {
  const box = $("readouts");
  box.replaceChildren(...served.readouts.map((name) => {
    const id = `readout-${name}`;
    return el("label", { class: "radio", for: id, title: READOUT_HELP[name] || "" },
      el("input", {
        type: "radio", name: "readout", id, value: name, checked: name === model.readout,
        onchange: () => {
          model.readout = name;
          $("readout-help").textContent = READOUT_HELP[name] || "";
          if (last) decide(); // a result is on screen: show the same request under the new family
        },
      }),
      name);
  }));
  $("readout-help").textContent = READOUT_HELP[model.readout] || "";
}

// -- sending -------------------------------------------------------------------------------------------

// The families in the order they are explained in docs/readouts.md (unknown ones last).
function orderReadouts(names) {
  const order = Object.keys(READOUT_HELP);
  const rank = (n) => (order.includes(n) ? order.indexOf(n) : order.length);
  return names.slice().sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

async function connect() {
  const result = await api("/v1/models");
  if (result.status === 401) {
    $("model-line").textContent = "API key needed";
    keys.ask(Boolean(getKey()));
    return;
  }
  if (!result.ok) {
    $("model-line").textContent = result.status === 503 ? "model loading…" : describeError(result);
    if (result.status === 503) setTimeout(connect, 2000);
    return;
  }
  const first = result.data.models[0] || {};
  served = {
    name: first.name || "",
    readouts: orderReadouts(first.x_readouts || served.readouts),
    defaultReadout: first.x_default_readout || "slot",
    calibration: first.x_calibration || "",
  };
  if (!model.readout) model.readout = served.defaultReadout;
  renderReadouts();
  const calibrated = served.calibration && !served.calibration.startsWith("uncalibrated");
  $("model-line").replaceChildren(
    el("span", { class: "model-name", text: served.name }),
    el("span", { class: calibrated ? "pill ok" : "pill", text: calibrated ? "calibrated" : "uncalibrated" }),
    ...(keysOn ? [el("span", { class: "pill", text: "keys on" })] : []));
}

async function decide() {
  if (busy) return null;
  model.state = $("state").value;
  const problems = localProblems();
  if (problems.length) {
    showError(problems.join("\n"));
    return null;
  }
  const request = buildRequest();
  busy = true;
  setBusy(true);
  setStatus("Deciding…");
  showError("");
  try {
    const result = await api("/v1/systemone", { method: "POST", body: request });
    if (result.status === 401) {
      pending = decide;
      setStatus("");
      keys.ask(Boolean(getKey()));
      return null;
    }
    if (!result.ok) {
      setStatus("");
      showError(describeError(result));
      return null;
    }
    last = { request, response: result.data, ms: result.ms, timing: parseServerTiming(result.headers.get("server-timing")) };
    renderAnswers(last);
    setStatus(`Answered in ${ms(result.ms)}.`);
    if (window.matchMedia("(max-width: 860px)").matches) $("answers-title").scrollIntoView({ block: "start" });
    return last;
  } catch (error) {
    setStatus("");
    showError(`The request failed: ${error.message}`);
    return null;
  } finally {
    busy = false;
    setBusy(false);
    // Finished sends (answered or refused), for anyone waiting on the page (the browser tests do).
    document.body.dataset.runs = String(Number(document.body.dataset.runs || 0) + 1);
  }
}

// Reverse every choice question's options, run again, and compare: an order-invariant readout keeps
// its winner (and its numbers); the slot readout may not.
async function reverseAndRun() {
  if (busy) return;
  model.state = $("state").value;
  const current = JSON.stringify(buildRequest());
  if (!last || JSON.stringify(last.request) !== current) {
    if (!(await decide())) return;
  }
  const before = last;
  for (const q of model.questions) {
    if (q.type === "choice") q.options.reverse();
  }
  renderQuestions();
  const after = await decide();
  if (after) renderOrderCheck(before, after);
}

function renderOrderCheck(before, after) {
  const box = $("order-check");
  const rows = [];
  for (const [qid, question] of Object.entries(after.request.questions)) {
    if (question.type !== "choice") continue;
    const a = before.response.answers[qid];
    const b = after.response.answers[qid];
    if (!a || !b) continue;
    let delta = 0;
    for (const name of Object.keys(b.probabilities)) {
      if (name in a.probabilities) delta = Math.max(delta, Math.abs(a.probabilities[name] - b.probabilities[name]));
    }
    const same = a.choice === b.choice;
    rows.push(el("li", { class: same ? "same" : "changed", "data-qid": qid, "data-same": String(same) },
      el("strong", { text: qid }), ": ",
      el("span", { class: "was", text: a.choice }), " → ", el("span", { class: "now", text: b.choice }), " ",
      el("span", { class: same ? "pill ok" : "pill warn", text: same ? "same winner" : "winner changed" }),
      el("span", { class: "muted", text: ` largest probability change ${fmt(delta)}` })));
  }
  if (!rows.length) {
    box.hidden = true;
    return;
  }
  box.replaceChildren(
    el("h3", { text: `Order check (${after.response.answers[Object.keys(after.request.questions)[0]]?.x_readout || ""} readout)` }),
    el("p", { class: "muted", text: "The options of every choice question were reversed and the request sent again." }),
    el("ul", {}, rows));
  box.hidden = false;
}

// -- the answers ---------------------------------------------------------------------------------------

function renderAnswers(run) {
  const box = $("answers");
  $("order-check").hidden = true;
  if (!run) {
    box.replaceChildren(el("p", { class: "empty", text: "Answers appear here: one bar per option, with its probability." }));
    $("meta").replaceChildren();
    return;
  }
  const answers = run.response.answers;
  const usage = run.response.usage || {};
  const t = run.timing;
  const timing = ["queue", "prefill", "reads"].filter((k) => t[k]).map((k) =>
    `${k} ${ms(t[k].dur)}${t[k].desc ? ` (${t[k].desc === "hit" ? "cached" : "computed"})` : ""}`);
  $("meta").replaceChildren(el("dl", { class: "meta" },
    el("dt", { text: "model" }), el("dd", { text: run.response.model }),
    el("dt", { text: "latency" }), el("dd", { id: "latency", text: `${ms(run.ms)} round trip` }),
    timing.length ? [el("dt", { text: "server" }), el("dd", { id: "server-timing", text: timing.join(" · ") })] : null,
    el("dt", { text: "tokens" }), el("dd", { text: `${usage.input_tokens ?? "–"} in, ${usage.output_tokens ?? "–"} read` })));
  box.replaceChildren(...Object.entries(run.request.questions).map(([qid, question]) =>
    answerCard(qid, question, answers[qid])));
}

function answerCard(qid, question, answer) {
  if (!answer) return el("article", { class: "answer" }, el("h3", { text: qid }), el("p", { text: "no answer" }));
  let rows;
  let winner;
  let headline;
  if (answer.type === "noul") {
    const p = answer.noul;
    rows = [["yes", "yes", p], ["no", "no", 1 - p]];
    winner = p >= 0.5 ? "yes" : "no";
    headline = `${winner} (p yes = ${fmt(p)})`;
  } else if (answer.type === "choice") {
    rows = Object.keys(question.criteria).map((name) => [name, name, answer.probabilities[name]]);
    winner = answer.choice;
    headline = winner;
  } else {
    rows = question.criteria.map((level, k) => [String(k), `${k} · ${level}`, answer.probabilities[String(k)]]);
    winner = rows.reduce((best, row) => (row[2] > best[2] ? row : best), rows[0])[0];
    headline = `${winner} · ${question.criteria[Number(winner)]}  (expected level ${fmt(answer.score, 2)})`;
  }
  const mass = answer.x_label_mass;
  const low = typeof mass === "number" && mass < LOW_MASS;
  const bars = el("ol", { class: "bars", "aria-label": `Probabilities for ${qid}` }, rows.map(([key, label, p]) => {
    const fill = el("span", { class: "bar-fill" });
    fill.style.width = `${Math.max(0, Math.min(1, p)) * 100}%`;
    const isWinner = key === winner;
    return el("li", { class: isWinner ? "bar-row winner" : "bar-row", "data-option": key, "data-prob": String(p) },
      el("span", { class: "bar-label", title: label, text: label }),
      el("span", { class: "bar-track", "aria-hidden": "true" }, fill),
      el("span", { class: "bar-value", text: fmt(p) }),
      isWinner ? el("span", { class: "sr-only", text: " (winner)" }) : null);
  }));
  return el("article", { class: "answer", "data-qid": qid },
    el("header", { class: "answer-head" },
      el("h3", { text: qid }),
      el("span", { class: `tag tag-${answer.type}`, text: TYPE_NAMES[answer.type] || answer.type })),
    el("p", { class: "winner-line" }, "Answer: ", el("strong", { class: "winner-name", text: headline })),
    bars,
    el("dl", { class: "facts" },
      fact("confidence", "confidence", "confidence" in answer ? fmt(answer.confidence) : "– (yes/no has none)"),
      fact("label mass", low ? "label-mass low" : "label-mass", fmt(mass)),
      fact("readout", "readout-used", answer.x_readout || "–"),
      fact("calibrated", "calibrated", answer.x_calibrated ? "yes" : "no")),
    low ? el("p", { class: "warn-box", role: "note" },
      el("strong", { text: "Low label mass. " }),
      `The model put only ${Math.round(mass * 100)}% of its probability on the allowed answers: it wanted to say ` +
      "something else. Rephrase the question or the options before trusting these numbers.") : null,
    answer.x_abstain ? el("p", { class: "warn-box", text: "Marked x_abstain by the server's thresholds." }) : null);
}

function fact(name, cls, value) {
  return el("div", {}, el("dt", { text: name }), el("dd", { class: cls, text: value }));
}

// -- copy as curl / Python -----------------------------------------------------------------------------

function curlCommand(request) {
  const json = JSON.stringify(request, null, 2).replace(/'/g, "'\\''");
  const lines = [`curl -s ${location.origin}/v1/systemone \\`, "  -H 'content-type: application/json' \\"];
  if (keysOn || getKey()) lines.push("  -H \"authorization: Bearer $TYPESAFE_API_KEY\" \\");
  lines.push(`  -d '${json}'`);
  return lines.join("\n");
}

function py(value, indent = "") {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  const inner = indent + "    ";
  if (Array.isArray(value)) {
    if (!value.length) return "[]";
    return "[\n" + value.map((v) => inner + py(v, inner) + ",\n").join("") + indent + "]";
  }
  const entries = Object.entries(value);
  if (!entries.length) return "{}";
  return "{\n" + entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${py(v, inner)},\n`).join("") + indent + "}";
}

function pythonSnippet(request) {
  const classes = { noul: "Noul", choice: "Choice", score: "Score" };
  const used = [...new Set(Object.values(request.questions).map((q) => classes[q.type]))].sort();
  const pad = "            ";
  const questions = Object.entries(request.questions).map(([qid, q]) => {
    const args = [];
    if ("instructions" in q) args.push(`instructions=${py(q.instructions, pad)}`);
    if ("criteria" in q) args.push(`criteria=${py(q.criteria, pad)}`);
    return `        ${JSON.stringify(qid)}: ${classes[q.type]}(\n${args.map((a) => `${pad}${a},\n`).join("")}        ),\n`;
  }).join("");
  const extra = Object.fromEntries(Object.entries(request).filter(([k]) => k.startsWith("x_")));
  return [
    "import os",
    "",
    `from typesafe_sdk import ${[...used, "TypeSafeClient"].join(", ")}`,
    "",
    "# With keys on, export TYPESAFE_API_KEY; with keys off any value is accepted.",
    `client = TypeSafeClient(base_url=${JSON.stringify(location.origin)}, api_key=os.environ.get("TYPESAFE_API_KEY", "none"))`,
    "with client:",
    "    response = client.system_one(",
    `        model=${JSON.stringify(request.model)},`,
    `        state=${py(request.state, "        ")},`,
    "        questions={",
    questions + "        },",
    Object.keys(extra).length ? `        extra_body=${py(extra, "        ")},` : null,
    "    )",
    "print(response.model_dump_json(indent=2))",
    "",
  ].filter((line) => line !== null).join("\n");
}

async function copySnippet(kind) {
  model.state = $("state").value;
  const request = buildRequest();
  const text = kind === "curl" ? curlCommand(request) : pythonSnippet(request);
  const area = $("snippet");
  area.value = text;
  area.rows = Math.min(24, text.split("\n").length + 1);
  $("snippet-title").textContent = kind === "curl" ? "curl" : "Python (typesafe-sdk)";
  $("snippet-box").hidden = false;
  $("snippet-box").dataset.kind = kind;
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch (_) { /* no clipboard permission: the text is selected instead */ }
  area.focus();
  area.select();
  $("copy-status").textContent = copied ? "Copied to the clipboard." : "Selected: press Ctrl+C (⌘C) to copy.";
}

// -- page wiring ---------------------------------------------------------------------------------------

function setStatus(text) { $("status").textContent = text; }

function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = !text;
}

function setBusy(on) {
  for (const id of ["decide", "reverse"]) $(id).disabled = on;
  $("decide").textContent = on ? "Deciding…" : "Decide";
  document.body.classList.toggle("busy", on);
}

function init() {
  for (const button of document.querySelectorAll("[data-example]")) {
    button.addEventListener("click", () => loadExample(button.dataset.example));
  }
  for (const type of ["noul", "choice", "score"]) $(`add-${type}`).addEventListener("click", () => addQuestion(type));
  $("state").addEventListener("input", (e) => { model.state = e.target.value; });
  $("calibration").addEventListener("change", (e) => { model.calibration = e.target.value; });
  $("decide").addEventListener("click", decide);
  $("reverse").addEventListener("click", reverseAndRun);
  $("copy-curl").addEventListener("click", () => copySnippet("curl"));
  $("copy-python").addEventListener("click", () => copySnippet("python"));
  $("snippet-close").addEventListener("click", () => { $("snippet-box").hidden = true; $("copy-curl").focus(); });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      decide();
    }
  });
  loadExample("tickets");
  setStatus("");
  renderReadouts();
  connect();
}

init();
