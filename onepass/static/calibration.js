// The calibration page: the served model's profile as a reliability diagram and the held-out table.
"use strict";

import { api, describeError, el, fmt, getKey, keyPanel, svg } from "./common.js";

const TYPES = ["noul", "choice", "score"];
const NAMES = { noul: "yes/no", choice: "choice", score: "score" };
const COLORS = { noul: "#23704c", choice: "#2f5bd3", score: "#7a3aa5" };

const $ = (id) => document.getElementById(id);
const keys = keyPanel(() => load());

async function load() {
  const result = await api("/calibration.json");
  if (result.status === 401) {
    $("model-line").textContent = "API key needed";
    keys.ask(Boolean(getKey()));
    return;
  }
  if (!result.ok) {
    showError(describeError(result));
    if (result.status === 503) setTimeout(load, 2000);
    return;
  }
  showError("");
  render(result.data);
}

function showError(text) {
  $("cal-error").textContent = text;
  $("cal-error").hidden = !text;
}

function render(view) {
  $("model-line").replaceChildren(
    el("span", { class: "model-name", text: view.model }),
    el("span", { class: view.calibrated ? "pill ok" : "pill warn", text: view.calibrated ? "calibrated" : "uncalibrated" }));
  $("cal-title").textContent = `Calibration of ${view.model}`;
  const body = $("cal-body");
  if (!view.calibrated) {
    $("cal-summary").textContent = view.description || "";
    body.replaceChildren(el("section", { id: "uncalibrated" },
      el("p", { class: "notice" },
        el("strong", { text: "Uncalibrated. " }),
        `${view.model} has no calibration profile, so its probabilities are the model's raw label distribution and ` +
        "every answer reports x_calibrated: false. There is no reliability diagram to draw. Fit a profile with ",
        el("code", { text: "onepass calibrate" }),
        " (docs/calibration.md); the server picks it up at its next start.")));
    return;
  }
  const profile = view.profile;
  $("cal-summary").replaceChildren(
    `Profile v${profile.version}, logits read in ${profile.dtype || "an unrecorded dtype"}, fitted on `,
    el("code", { text: profile.data || "?" }),
    ` (sha256 ${String(profile.data_sha256 || "").slice(0, 12)}). Readout served by default: `,
    el("code", { text: view.default_readout || "?" }), ".");
  const sections = Object.keys(profile.temperatures).sort().map((readout) => readoutSection(view, profile, readout));
  body.replaceChildren(...sections);
}

function readoutSection(view, profile, readout) {
  const report = (profile.report || {})[readout] || {};
  const before = report.held_out_before || {};
  const after = report.held_out_after || {};
  const types = TYPES.filter((t) => t in before || t in after || t in (profile.temperatures[readout] || {}));
  const curves = (profile.report && profile.report.curves) || {};
  return el("section", { class: "panel", "data-readout": readout },
    el("div", { class: "panel-head" },
      el("h2", {}, "Readout ", el("code", { text: readout }),
        readout === view.default_readout ? el("span", { class: "pill ok", text: "default" }) : null)),
    el("div", { class: "cal-grid" },
      diagram(readout, types, before, after, curves[`${readout} before`], curves[`${readout} after`]),
      el("div", {},
        heldOutTable(types, before, after),
        temperatureTable(types, profile, readout, report.cross_validation || {}))));
}

// -- the reliability diagram ---------------------------------------------------------------------------

function diagram(readout, types, before, after, binsBefore, binsAfter) {
  const W = 400, H = 380, L = 48, R = 14, T = 14, B = 44;
  const x = (v) => L + v * (W - L - R);
  const y = (v) => H - B - v * (H - T - B);
  const parts = [];
  for (let k = 0; k <= 5; k++) {
    const v = k / 5;
    parts.push(svg("line", { x1: x(v), y1: y(0), x2: x(v), y2: y(1), stroke: "#eceef2" }));
    parts.push(svg("line", { x1: x(0), y1: y(v), x2: x(1), y2: y(v), stroke: "#eceef2" }));
    parts.push(svg("text", { x: x(v), y: y(0) + 16, "text-anchor": "middle", "font-size": 11, fill: "#5d6778", text: v.toFixed(1) }));
    parts.push(svg("text", { x: x(0) - 8, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#5d6778", text: v.toFixed(1) }));
  }
  parts.push(svg("rect", { x: x(0), y: y(1), width: x(1) - x(0), height: y(0) - y(1), fill: "none", stroke: "#c9cfd9" }));
  parts.push(svg("line", { x1: x(0), y1: y(0), x2: x(1), y2: y(1), stroke: "#9aa3b2", "stroke-dasharray": "5 4" }));
  parts.push(svg("text", { x: (x(0) + x(1)) / 2, y: H - 8, "text-anchor": "middle", "font-size": 12, fill: "#1c2330", text: "mean confidence" }));
  parts.push(svg("text", {
    x: 14, y: (y(0) + y(1)) / 2, "text-anchor": "middle", "font-size": 12, fill: "#1c2330",
    transform: `rotate(-90 14 ${(y(0) + y(1)) / 2})`, text: "accuracy",
  }));
  // Binned curves, when the profile carries them (onepass calibrate --report writes this shape).
  for (const [bins, dashed] of [[binsBefore, true], [binsAfter, false]]) {
    if (!Array.isArray(bins) || !bins.length) continue;
    const points = bins.map((b) => `${x(b.confidence)},${y(b.accuracy)}`).join(" ");
    parts.push(svg("polyline", {
      points, fill: "none", stroke: dashed ? "#9aa3b2" : "#2f5bd3", "stroke-width": 1.5,
      "stroke-dasharray": dashed ? "4 3" : null, class: dashed ? "curve-before" : "curve-after",
    }));
  }
  // One point per question type: held-out mean confidence against accuracy, before and after.
  for (const t of types) {
    const b = before[t], a = after[t];
    if (!b || !a) continue;
    const r = 4 + Math.sqrt(a.n || b.n || 1) * 0.7;
    parts.push(svg("line", {
      x1: x(b.mean_confidence), y1: y(b.accuracy), x2: x(a.mean_confidence), y2: y(a.accuracy),
      stroke: COLORS[t], "stroke-width": 1.5, opacity: 0.7,
    }));
    parts.push(svg("circle", {
      cx: x(b.mean_confidence), cy: y(b.accuracy), r, fill: "#fff", stroke: COLORS[t], "stroke-width": 2,
      class: "point-before", "data-type": t,
    }, svg("title", { text: `${NAMES[t]} before: confidence ${fmt(b.mean_confidence)}, accuracy ${fmt(b.accuracy)}, ECE ${fmt(b.ece)}` })));
    parts.push(svg("circle", {
      cx: x(a.mean_confidence), cy: y(a.accuracy), r, fill: COLORS[t], "fill-opacity": 0.85, stroke: COLORS[t],
      class: "point-after", "data-type": t,
    }, svg("title", { text: `${NAMES[t]} after: confidence ${fmt(a.mean_confidence)}, accuracy ${fmt(a.accuracy)}, ECE ${fmt(a.ece)} (n=${a.n})` })));
  }
  const legend = el("div", { class: "legend" },
    ...types.map((t) => {
      const swatch = el("span", { class: "swatch" });
      swatch.style.background = COLORS[t];
      return el("span", {}, swatch, NAMES[t]);
    }),
    el("span", {}, el("span", { class: "swatch hollow" }), "before"),
    el("span", {}, el("span", { class: "swatch filled" }), "after calibration"));
  const hasBins = (Array.isArray(binsBefore) && binsBefore.length) || (Array.isArray(binsAfter) && binsAfter.length);
  return el("figure", { class: "diagram", id: `diagram-${readout}` },
    svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `Held-out reliability diagram, readout ${readout}` }, parts),
    legend,
    el("figcaption", {
      text: "Held-out items of each question type: mean top-answer confidence against accuracy, before (hollow) and " +
        "after (filled) temperature scaling. On the dashed diagonal confidence equals accuracy; point area grows with " +
        "the number of items." + (hasBins ? " Lines: the binned curve of all held-out items (dashed before, solid after)." : ""),
    }));
}

// -- the tables ----------------------------------------------------------------------------------------

function change(before, after, lowerIsBetter = true) {
  if (typeof before !== "number" || typeof after !== "number") return [fmt(before), " → ", fmt(after)];
  const better = lowerIsBetter ? after < before : after > before;
  const same = Math.abs(after - before) < 5e-4;
  return [fmt(before), " → ", el("span", { class: same ? "" : better ? "better" : "worse", text: fmt(after) })];
}

function heldOutTable(types, before, after) {
  const rows = types.filter((t) => before[t] || after[t]).map((t) => {
    const b = before[t] || {}, a = after[t] || {};
    return el("tr", { "data-type": t },
      el("td", { text: NAMES[t] }),
      el("td", { class: "n", text: String(a.n ?? b.n ?? "–") }),
      el("td", { class: "accuracy", text: fmt(a.accuracy ?? b.accuracy) }),
      el("td", { class: "ece" }, change(b.ece, a.ece)),
      el("td", { class: "brier" }, change(b.brier, a.brier)),
      el("td", { class: "nll" }, change(b.nll, a.nll)));
  });
  return el("div", { class: "table-wrap" }, el("table", { class: "data held-out" },
    el("caption", { text: "Held out (not used to fit): before → after calibration" }),
    el("thead", {}, el("tr", {}, ["type", "n", "accuracy", "ECE", "Brier", "NLL"].map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, rows)));
}

function temperatureTable(types, profile, readout, cv) {
  const temps = profile.temperatures[readout] || {};
  const fitted = (profile.fitted_on || {})[readout] || {};
  const rows = types.filter((t) => t in temps).map((t) => {
    const fold = cv[t] || {};
    return el("tr", { "data-type": t },
      el("td", { text: NAMES[t] }),
      el("td", { class: "temperature", text: fmt(temps[t]) }),
      el("td", { class: "fitted", text: String(fitted[t] ?? "–") }),
      el("td", { class: "cv-ece" }, fold.before ? change(fold.before.ece, fold.after.ece) : "–"));
  });
  return el("div", { class: "table-wrap" }, el("table", { class: "data temperatures" },
    el("caption", { text: "Fitted temperatures (T > 1 softens, T < 1 sharpens)" }),
    el("thead", {}, el("tr", {}, ["type", "T", "fitted on", "5-fold ECE"].map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, rows)));
}

load();
