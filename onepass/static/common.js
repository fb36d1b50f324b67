// Shared by the onepass pages: the API key (kept in this tab only), calls to this server, small helpers.
"use strict";

const KEY_STORE = "onepass.apiKey";

export function getKey() {
  try {
    return sessionStorage.getItem(KEY_STORE) || "";
  } catch (_) {
    return memoryKey;
  }
}

let memoryKey = "";

export function setKey(key) {
  memoryKey = key;
  try {
    if (key) sessionStorage.setItem(KEY_STORE, key);
    else sessionStorage.removeItem(KEY_STORE);
  } catch (_) { /* storage off: the key lives in this page only */ }
}

// The server answers 401 when keys are on and none (or a wrong one) was sent.
export let keysOn = false;

// fetch against this server, with the key when there is one. Resolves to
// {status, ok, data, headers, ms}; `data` is the parsed JSON body (or null).
export async function api(path, { method = "GET", body } = {}) {
  const headers = {};
  const key = getKey();
  if (key) headers["authorization"] = "Bearer " + key;
  if (body !== undefined) headers["content-type"] = "application/json";
  const started = performance.now();
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store",
    credentials: "omit",
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { data = null; }
  if (response.status === 401) keysOn = true;
  return { status: response.status, ok: response.ok, data, headers: response.headers, ms };
}

// The key panel: shown when the server asks for a key; `onKey` runs after a key is entered.
export function keyPanel(onKey) {
  const panel = document.getElementById("key-panel");
  const form = document.getElementById("key-form");
  const input = document.getElementById("key-input");
  const forget = document.getElementById("key-forget");
  const message = document.getElementById("key-message");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const key = input.value.trim();
    if (!key) { input.focus(); return; }
    setKey(key);
    input.value = "";
    panel.hidden = true;
    forget.hidden = false;
    onKey();
  });
  forget.addEventListener("click", () => {
    setKey("");
    forget.hidden = true;
    show("Key forgotten. Enter a key to go on.");
  });
  forget.hidden = !getKey();
  function show(text) {
    message.textContent = text;
    panel.hidden = false;
    input.focus();
  }
  return {
    ask(wrong) {
      show(wrong ? "That key was refused. Enter a valid API key." : "This server needs an API key.");
    },
  };
}

// An error answer as one readable line (422 details become "loc: msg" lines).
export function describeError(result) {
  const detail = result.data && result.data.detail;
  if (Array.isArray(detail)) {
    return detail.map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("\n");
  }
  if (detail && typeof detail === "object") return `${detail.error_type}: ${detail.message}`;
  return `HTTP ${result.status}`;
}

// "queue;dur=1.0, prefill;dur=20.1;desc=\"miss\", ..." -> {queue: {dur: 1, desc: ""}, ...}
export function parseServerTiming(header) {
  const out = {};
  for (const part of (header || "").split(",")) {
    const [name, ...params] = part.trim().split(";");
    if (!name) continue;
    const entry = { dur: null, desc: "" };
    for (const param of params) {
      const [k, v = ""] = param.split("=");
      if (k.trim() === "dur") entry.dur = Number(v);
      if (k.trim() === "desc") entry.desc = v.replace(/^"|"$/g, "");
    }
    out[name] = entry;
  }
  return out;
}

export function fmt(x, digits = 3) {
  return typeof x === "number" && Number.isFinite(x) ? x.toFixed(digits) : "–";
}

export function ms(x) {
  if (typeof x !== "number" || !Number.isFinite(x)) return "–";
  return x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${Math.round(x)} ms`;
}

// document.createElement with attributes and children (strings become text, never HTML).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k === "value") node.value = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k in node && typeof v !== "string") node[k] = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}
