// The labels page: answer many states with one question set, correct and confirm the answers, and download
// the labels file `onepass learn` reads ({"id", "state", "gold"} per line; only confirmed cells are gold).
"use strict";

import { api, describeError, el, fmt, getKey, keyPanel, keysOn } from "./common.js";

const TYPES = ["noul", "choice", "score"];
const TYPE_NAMES = { noul: "Yes/no", choice: "Choice", score: "Score" };
const IN_FLIGHT = 4; // requests at once (the server's default worker count); each state is its own request
const RETRIES = 4; // a 429 or 503 (the server is busy) is tried again after a pause

let questions = {}; // id -> the question in the System One wire format (the set in use)
let rows = []; // {id, state, answers, model, error, cells: {qid: {value, confirmed}}}
let busy = false;
let pending = null; // what to run once a key is entered
let presetText = ""; // the editor's text as the chosen preset filled it

const $ = (id) => document.getElementById(id);
const keys = keyPanel(() => { connect(); if (pending) { const run = pending; pending = null; run(); } });

// -- answers as label values -------------------------------------------------------------------------------
// A label is true/false (noul), an option key (choice) or a 0-based level index (score).

function servedValue(question, answer) {
  if (!answer) return undefined;
  if (question.type === "noul") return answer.noul >= 0.5;
  if (question.type === "choice") return answer.choice;
  const probs = answer.probabilities || {};
  let best = 0;
  question.criteria.forEach((_, k) => { if ((probs[String(k)] ?? -1) > (probs[String(best)] ?? -1)) best = k; });
  return best;
}

function probabilityOf(question, answer, value) {
  if (!answer) return undefined;
  if (question.type === "noul") return value ? answer.noul : 1 - answer.noul;
  return (answer.probabilities || {})[String(value)];
}

function text(content) {
  return typeof content === "string" ? content : JSON.stringify(content);
}

// [value, option label] for a question's answer picker; values are strings in the <select>.
function choices(question) {
  if (question.type === "noul") return [[true, "yes"], [false, "no"]];
  if (question.type === "choice") return Object.keys(question.criteria).map((name) => [name, name]);
  return question.criteria.map((level, k) => [k, `${k} · ${text(level)}`]);
}

function decode(question, raw) {
  if (question.type === "noul") return raw === "true";
  if (question.type === "score") return Number(raw);
  return raw;
}

function label(question, value) {
  const found = choices(question).find(([v]) => v === value);
  return found ? found[1] : String(value);
}

// -- the question set ----------------------------------------------------------------------------------------

// A questions.json ({id: question}) or a preset-shaped object ({"questions": {...}}), checked enough to draw.
function parseQuestions(raw) {
  if (!raw.trim()) throw new Error("Paste a questions.json, upload one or choose a preset.");
  let data;
  try { data = JSON.parse(raw); } catch (error) { throw new Error(`Not JSON: ${error.message}`); }
  if (data && typeof data === "object" && !Array.isArray(data) && data.questions && typeof data.questions === "object") {
    data = data.questions;
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error("questions.json is an object {id: question}.");
  const ids = Object.keys(data);
  if (!ids.length) throw new Error("Add at least one question.");
  for (const id of ids) {
    const q = data[id];
    if (!q || typeof q !== "object" || !TYPES.includes(q.type)) {
      throw new Error(`Question “${id}”: the type must be one of ${TYPES.join(", ")} (labels have no other kind).`);
    }
    if (q.type === "choice" && (!q.criteria || typeof q.criteria !== "object" || Array.isArray(q.criteria) ||
        Object.keys(q.criteria).length < 2)) {
      throw new Error(`Question “${id}”: a choice question needs a criteria object with at least 2 options.`);
    }
    if (q.type === "score" && (!Array.isArray(q.criteria) || q.criteria.length < 2)) {
      throw new Error(`Question “${id}”: a score question needs a criteria array of at least 2 levels.`);
    }
  }
  return data;
}

function useQuestions() {
  let parsed;
  try {
    parsed = parseQuestions($("questions-json").value);
  } catch (error) {
    showBox("questions-error", error.message);
    return;
  }
  showBox("questions-error", "");
  const changed = JSON.stringify(parsed) !== JSON.stringify(questions);
  questions = parsed;
  if (changed) {
    for (const row of rows) clearAnswers(row); // answers to another question set are not answers to this one
  }
  $("questions-summary").replaceChildren(...Object.entries(questions).map(([qid, q]) => el("li", { "data-qid": qid },
    el("span", { class: `tag tag-${q.type}`, text: TYPE_NAMES[q.type] }), " ",
    el("code", { text: qid }), " ",
    el("span", { text: q.instructions === undefined ? "" : text(q.instructions) }),
    q.type === "noul" ? null : el("span", { class: "muted", text: ` (${choices(q).map(([, l]) => l).join(" / ")})` }))));
  renderTable();
}

async function loadPresets() {
  const result = await api("/presets.json");
  if (!result.ok) return result;
  const select = $("preset");
  const presets = result.data.presets || [];
  select.replaceChildren(el("option", { value: "", text: "choose…" }),
    ...presets.map((p) => el("option", { value: p.name, text: p.title ? `${p.name}: ${p.title}` : p.name })));
  select.onchange = () => {
    const preset = presets.find((p) => p.name === select.value);
    if (!preset) return;
    $("questions-json").value = presetText = JSON.stringify(preset.questions, null, 2);
    useQuestions();
  };
  return result;
}

// -- the states ----------------------------------------------------------------------------------------------

// One item per non-blank line: {"id", "state"} objects keep their id; a JSON string, array or object is the
// state itself; anything else (plain text, numbers) is the line's text.
function parseStates(raw) {
  const items = [];
  const seen = new Set();
  raw.split(/\r?\n/).forEach((line, index) => {
    if (!line.trim()) return;
    let value;
    let id = `line-${index + 1}`;
    try { value = JSON.parse(line); } catch (_) { value = undefined; }
    let state = line;
    if (value && typeof value === "object" && !Array.isArray(value) && "state" in value) {
      state = value.state;
      if (typeof value.id === "string" || typeof value.id === "number") id = String(value.id);
    } else if (typeof value === "string" || (value && typeof value === "object")) {
      state = value;
    }
    let unique = id;
    for (let k = 2; seen.has(unique); k++) unique = `${id}#${k}`;
    seen.add(unique);
    items.push({ id: unique, state });
  });
  return items;
}

function loadStates() {
  const items = parseStates($("states-text").value);
  rows = items.map(({ id, state }) => ({ id, state, answers: null, model: "", error: "", cells: {} }));
  $("states-status").textContent = items.length === 1 ? "1 state loaded." : `${items.length} states loaded.`;
  progress("");
  renderTable();
}

function clearAnswers(row) {
  row.answers = null;
  row.model = "";
  row.error = "";
  row.cells = {};
}

// -- the table -----------------------------------------------------------------------------------------------

function renderTable() {
  const qids = Object.keys(questions);
  const head = el("tr", {},
    el("th", { scope: "col", text: "id" }),
    el("th", { scope: "col", text: "state" }),
    ...qids.map((qid) => el("th", { scope: "col", class: "qcol", "data-qid": qid },
      el("div", {}, el("code", { text: qid }), " ", el("span", { class: `tag tag-${questions[qid].type}`, text: TYPE_NAMES[questions[qid].type] })),
      el("button", {
        type: "button", class: "small confirm-all", text: "confirm all shown", "aria-label": `Confirm every shown answer of ${qid}`,
        onclick: () => confirmColumn(qid),
      }))),
    el("th", { scope: "col", text: "status" }));
  const body = rows.length ? rows.map(rowElement) : [el("tr", {}, el("td", {
    colspan: qids.length + 3, class: "empty", text: "Load states, then press Answer all.",
  }))];
  $("labels-table").replaceChildren(el("thead", {}, head), el("tbody", {}, body));
  countLabels();
}

// One state's row; row.tr is kept so an answer arriving redraws only its own row.
function rowElement(row) {
  row.painters = {};
  row.tr = el("tr", { "data-row": row.id, class: row.error ? "row-error" : "" },
    el("td", { class: "row-id", text: row.id }),
    el("td", { class: "state-cell" }, el("div", { class: "state-text", text: text(row.state) })),
    ...Object.keys(questions).map((qid) => cell(row, qid)),
    el("td", { class: "row-status", text: row.error || (row.answers ? `answered by ${row.model}` : "–") }));
  return row.tr;
}

function renderRow(row) {
  if (row.tr && row.tr.isConnected) row.tr.replaceWith(rowElement(row));
  countLabels();
}

function cell(row, qid) {
  const question = questions[qid];
  const answer = row.answers && row.answers[qid];
  const served = servedValue(question, answer);
  const state = row.cells[qid] || (row.cells[qid] = { value: served, confirmed: false });
  const td = el("td", { class: "cell", "data-qid": qid });
  const select = el("select", {
    class: "answer-pick", "aria-label": `${qid} for ${row.id}`, disabled: state.value === undefined,
    onchange: () => {
      state.value = decode(question, select.value);
      state.confirmed = true; // editing a cell is confirming it
      paint(true);
    },
  }, state.value === undefined ? el("option", { value: "", text: "–" }) : null,
  choices(question).map(([value, name]) => {
    const p = probabilityOf(question, answer, value);
    return el("option", { value: String(value), text: p === undefined ? name : `${name} · ${fmt(p, 2)}` });
  }));
  if (state.value !== undefined) select.value = String(state.value);
  const check = el("input", {
    type: "checkbox", class: "confirm", disabled: state.value === undefined, "aria-label": `Confirm ${qid} for ${row.id}`,
    onchange: () => { state.confirmed = check.checked; paint(true); },
  });
  const servedLine = el("div", { class: "served" });
  if (answer) {
    servedLine.append("served ", el("strong", { class: "served-value", text: label(question, served) }), " ",
      el("span", { class: "served-p", text: fmt(probabilityOf(question, answer, served), 3) }));
    if (typeof answer.x_label_mass === "number" && answer.x_label_mass < 0.5) {
      servedLine.append(" ", el("span", { class: "pill warn", text: "low mass", title: `label mass ${fmt(answer.x_label_mass)}` }));
    }
  }
  const mark = el("span", { class: "pill corrected-mark", text: "corrected" });
  function paint(count) {
    const corrected = state.confirmed && Boolean(answer) && state.value !== served;
    td.classList.toggle("confirmed", state.confirmed);
    td.classList.toggle("corrected", corrected);
    mark.hidden = !corrected;
    check.checked = state.confirmed;
    td.dataset.confirmed = String(state.confirmed);
    if (count) countLabels();
  }
  row.painters[qid] = paint;
  td.append(el("div", { class: "cell-row" }, select, el("label", { class: "confirm-label" }, check, "ok"), mark), servedLine);
  paint(false);
  return td;
}

// "confirm all shown": every answered cell of the column becomes gold as it stands.
function confirmColumn(qid) {
  for (const row of rows) {
    const state = row.cells[qid];
    if (!state || state.value === undefined || state.confirmed) continue;
    state.confirmed = true;
    if (row.painters && row.painters[qid]) row.painters[qid](false);
  }
  countLabels();
}

// -- answering -----------------------------------------------------------------------------------------------

const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

// One state's answers; "key" when the server wants a (valid) key, else true (answered) or false (an error).
async function answerRow(row, modelName) {
  const body = { model: modelName, state: row.state, questions };
  for (let attempt = 0; ; attempt++) {
    let result;
    try {
      result = await api("/v1/systemone", { method: "POST", body });
    } catch (error) {
      row.error = `The request failed: ${error.message}`;
      return false;
    }
    if (result.status === 401) return "key";
    if ((result.status === 429 || result.status === 503) && attempt < RETRIES) {
      await sleep(Math.min(5, Number(result.headers.get("retry-after")) || 1));
      continue;
    }
    if (!result.ok) {
      row.error = describeError(result);
      return false;
    }
    row.answers = result.data.answers;
    row.model = result.data.model;
    row.error = "";
    row.cells = {}; // the served answers become the cells' values, not yet confirmed
    return true;
  }
}

async function answerAll() {
  if (busy) return;
  if (!Object.keys(questions).length) useQuestions();
  if (!Object.keys(questions).length) return;
  if (!rows.length) loadStates();
  const todo = rows.filter((row) => !row.answers);
  if (!todo.length) {
    progress(rows.length ? "Every state has its answers." : "Load some states first.");
    return;
  }
  const modelName = $("model").value || "jev-latest";
  busy = true;
  setBusy(true);
  showBox("table-error", "");
  let next = 0;
  let done = 0;
  let failed = 0;
  let needKey = false;
  progress(`Answering… 0 / ${todo.length}`);
  async function worker() {
    while (next < todo.length && !needKey) {
      const row = todo[next++];
      const outcome = await answerRow(row, modelName);
      if (outcome === "key") { needKey = true; return; }
      done += 1;
      if (!outcome) failed += 1;
      progress(`Answering… ${done} / ${todo.length}${failed ? ` (${failed} failed)` : ""}`);
      renderRow(row);
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, todo.length) }, worker));
  } finally {
    busy = false;
    setBusy(false);
    if (needKey) {
      progress(`Stopped after ${done} / ${todo.length}: the server needs a key.`);
      pending = answerAll;
      keys.ask(Boolean(getKey()));
    } else {
      progress(`Answered ${done - failed} of ${todo.length}${failed ? `; ${failed} failed (press Answer all to retry them)` : ""}.`);
    }
    // Finished rounds, for anyone waiting on the page (the browser tests do).
    document.body.dataset.runs = String(Number(document.body.dataset.runs || 0) + 1);
  }
}

// -- the files -------------------------------------------------------------------------------------------------

// The labels file: one line per item with at least one confirmed cell; the rest are left out.
export function labelLines() {
  const lines = [];
  let leftOut = 0;
  let cells = 0;
  let corrected = 0;
  for (const row of rows) {
    const gold = {};
    const changed = [];
    for (const [qid, question] of Object.entries(questions)) {
      const state = row.cells[qid];
      if (!state || !state.confirmed || state.value === undefined) continue;
      gold[qid] = state.value;
      const answer = row.answers && row.answers[qid];
      if (answer && state.value !== servedValue(question, answer)) changed.push(qid);
    }
    if (!Object.keys(gold).length) { leftOut += 1; continue; }
    cells += Object.keys(gold).length;
    corrected += changed.length;
    const line = { id: row.id, state: row.state, gold };
    if (row.answers) line.answers = row.answers;
    if (row.model) line.model = row.model;
    line.x_corrected = changed;
    lines.push(line);
  }
  return { lines, leftOut, cells, corrected };
}

function plural(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

function countLabels() {
  const { lines, leftOut, cells, corrected } = labelLines();
  $("label-count").textContent = `${plural(lines.length, "item", "items")} with labels (${plural(cells, "cell", "cells")} ` +
    `confirmed, ${corrected} corrected)` + (leftOut ? `; ${plural(leftOut, "item", "items")} with nothing confirmed will be left out.` : ".");
}

function download(name, content, type) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = el("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function downloadLabels() {
  const { lines, leftOut } = labelLines();
  if (!lines.length) {
    showBox("table-error", "Nothing is confirmed yet: confirm or correct some answers first.");
    return;
  }
  showBox("table-error", "");
  download("labels.jsonl", lines.map((line) => JSON.stringify(line) + "\n").join(""), "application/x-ndjson");
  $("label-count").textContent = `Downloaded labels.jsonl: ${plural(lines.length, "item", "items")}` +
    (leftOut ? `; ${plural(leftOut, "item", "items")} with nothing confirmed left out.` : ".");
}

function downloadQuestions() {
  if (!Object.keys(questions).length) useQuestions();
  if (!Object.keys(questions).length) return;
  download("questions.json", JSON.stringify(questions, null, 2) + "\n", "application/json");
}

// -- page wiring -----------------------------------------------------------------------------------------------

function progress(message) { $("progress").textContent = message; }

function showBox(id, message) {
  $(id).textContent = message;
  $(id).hidden = !message;
}

function setBusy(on) {
  // While answers arrive, the question set and the states stay as they were sent.
  for (const id of ["answer-all", "use-questions", "load-states", "preset", "questions-file", "states-file"]) $(id).disabled = on;
  $("answer-all").textContent = on ? "Answering…" : "Answer all";
  document.body.classList.toggle("busy", on);
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
  const models = result.data.models || [];
  const select = $("model");
  const chosen = select.value;
  select.replaceChildren(...models.map((m) => el("option", { value: m.name, text: m.name })));
  if (models.some((m) => m.name === chosen)) select.value = chosen;
  $("model-line").replaceChildren(
    el("span", { class: "model-name", text: (models[0] || {}).name || "" }),
    ...(keysOn ? [el("span", { class: "pill", text: "keys on" })] : []));
  await loadPresets();
}

function readFileInto(inputId, areaId, then) {
  $(inputId).addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    $(areaId).value = await file.text();
    event.target.value = ""; // the same file can be chosen again
    then();
  });
}

function init() {
  $("use-questions").addEventListener("click", () => {
    if ($("questions-json").value !== presetText) $("preset").value = ""; // edited: no longer that preset
    useQuestions();
  });
  $("load-states").addEventListener("click", loadStates);
  $("answer-all").addEventListener("click", answerAll);
  $("download-labels").addEventListener("click", downloadLabels);
  $("download-questions").addEventListener("click", downloadQuestions);
  readFileInto("questions-file", "questions-json", useQuestions);
  readFileInto("states-file", "states-text", loadStates);
  $("questions-json").placeholder = '{\n  "billing": {"type": "noul", "instructions": "Is this about billing?"},\n' +
    '  "team": {"type": "choice", "instructions": "Which team?", "criteria": {"billing": null, "shipping": null}}\n}';
  $("states-text").placeholder = "I was charged twice.\nMy parcel never arrived.\n" +
    '{"id": "t-3", "state": "The app crashes on start."}';
  renderTable();
  connect();
}

init();
