// The Lianzhu board page: draws the state the server keeps (GET /api/state, polled; each
// poll is also the heartbeat that keeps a search running) and posts the user's actions.
// Points are written as the engine writes them: a column letter and a row number, row 1 at
// the bottom, h8 the centre of 15x15.
"use strict";

const CELL = 34;
const MARGIN = 30;
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

let state = null;
let lastText = "";
let lastMessageId = null;

function letter(x) { return String.fromCharCode(97 + x); }
function ptName(x, y) { return letter(x) + (y + 1); }
function parsePt(name) {
  const m = /^([a-z])(\d+)$/.exec(name || "");
  return m ? { x: m[1].charCodeAt(0) - 97, y: parseInt(m[2], 10) - 1 } : null;
}
// Screen position of a point: row 1 at the bottom.
function cx(x) { return MARGIN + x * CELL; }
function cy(y, size) { return MARGIN + (size - 1 - y) * CELL; }

function el(name, attrs, parent, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function showMessage(text, info) {
  const m = $("message");
  m.textContent = text || "";
  m.className = info ? "info" : "";
}

async function post(action, params) {
  try {
    const r = await fetch("/api/" + action, { method: "POST", body: new URLSearchParams(params || {}) });
    const body = await r.json();
    if (!r.ok) {
      showMessage(body.error || ("error " + r.status));
      return;
    }
    showMessage("");
    render(body);
  } catch (e) {
    showMessage("the board server is not answering (" + e + ")");
  }
}

async function poll() {
  try {
    const r = await fetch("/api/state", { cache: "no-store" });
    render(await r.json());
  } catch (e) {
    showMessage("the board server is not answering (" + e + ")");
  }
}

function drawGrid(svg, size) {
  const span = (size - 1) * CELL;
  el("rect", { class: "wood", x: 0, y: 0, width: span + 2 * MARGIN, height: span + 2 * MARGIN }, svg);
  const grid = el("g", { class: "grid" }, svg);
  for (let i = 0; i < size; i++) {
    el("line", { x1: cx(0), y1: MARGIN + i * CELL, x2: cx(size - 1), y2: MARGIN + i * CELL }, grid);
    el("line", { x1: cx(i), y1: MARGIN, x2: cx(i), y2: MARGIN + span }, grid);
    el("text", { class: "label", x: cx(i), y: MARGIN - 17 }, svg, letter(i).toUpperCase());
    el("text", { class: "label", x: cx(i), y: MARGIN + span + 17 }, svg, letter(i).toUpperCase());
    el("text", { class: "label", x: MARGIN - 18, y: cy(i, size) }, svg, String(i + 1));
    el("text", { class: "label", x: MARGIN + span + 18, y: cy(i, size) }, svg, String(i + 1));
  }
  // The centre (h8 on 15x15; k11 on 20x20, the engine's centre) and the 4-4 points.
  const c = Math.floor(size / 2), e = 3, f = size - 4;
  const stars = [[c, c], [e, e], [f, e], [e, f], [f, f]];
  for (const [x, y] of stars) el("circle", { class: "star", cx: cx(x), cy: cy(y, size), r: 3.5 }, svg);
}

function drawBoard(s) {
  const svg = $("board");
  const size = s.size;
  const side = (size - 1) * CELL + 2 * MARGIN;
  svg.setAttribute("width", side);
  svg.setAttribute("height", side);
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.replaceChildren();
  drawGrid(svg, size);
  const five = new Set(s.five);
  s.moves.forEach((name, i) => {
    const p = parsePt(name);
    const color = i % 2 === 0 ? "black" : "white";
    const cls = "stone " + color + (five.has(name) ? " five" : "");
    el("circle", { class: cls, cx: cx(p.x), cy: cy(p.y, size), r: CELL * 0.45, "data-stone": name, "data-color": color }, svg);
    el("text", { class: "num on-" + color, x: cx(p.x), y: cy(p.y, size) }, svg, String(i + 1));
  });
  if (s.moves.length > 0) {
    const p = parsePt(s.moves[s.moves.length - 1]);
    el("circle", { class: "last", cx: cx(p.x) + CELL * 0.3, cy: cy(p.y, size) - CELL * 0.3, r: 4, "data-last": s.moves[s.moves.length - 1] }, svg);
  }
  for (const name of s.forbid || []) {
    const p = parsePt(name);
    const g = el("g", { class: "forbid", "data-forbid": name }, svg);
    const d = CELL * 0.22, x = cx(p.x), y = cy(p.y, size);
    el("line", { x1: x - d, y1: y - d, x2: x + d, y2: y + d }, g);
    el("line", { x1: x - d, y1: y + d, x2: x + d, y2: y - d }, g);
  }
  // The n best moves of the last analysis (or the engine's planned move).
  s.lines.forEach((line, i) => {
    const p = parsePt(line.pv[0]);
    if (!p || s.moves.includes(line.pv[0]) || s.mode !== "analysis") return;
    el("circle", { class: "hint", cx: cx(p.x), cy: cy(p.y, size), r: CELL * 0.4, "data-hint": line.pv[0] }, svg);
    el("text", { class: "hint-num", x: cx(p.x), y: cy(p.y, size) }, svg, String(i + 1));
  });
  if (s.realtime_pos) {
    const p = parsePt(s.realtime_pos);
    el("circle", { class: "rt-pos", cx: cx(p.x), cy: cy(p.y, size), r: CELL * 0.47 }, svg);
  }
  // Click targets last, on top of everything.
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const name = ptName(x, y);
      el("rect", { class: "hit", x: cx(x) - CELL / 2, y: cy(y, size) - CELL / 2, width: CELL, height: CELL, "data-pt": name }, svg);
    }
  }
}

function pct(w) { return w === null || w === undefined ? "–" : (100 * w).toFixed(1) + "%"; }

function drawAnalysis(s) {
  const best = s.lines[0];
  $("ev").textContent = best ? best.ev : "–";
  $("winrate").textContent = best ? pct(best.winrate) : "–";
  $("depth").textContent = best ? best.depth : "–";
  $("bestline").textContent = best ? best.pv.join(" ") : "–";
  const body = $("nbest-table").tBodies[0];
  body.replaceChildren();
  s.lines.forEach((l, i) => {
    const tr = document.createElement("tr");
    for (const t of [i + 1, l.pv[0] || "", l.ev, pct(l.winrate), l.depth, l.pv.join(" ")]) {
      const td = document.createElement("td");
      td.textContent = t;
      tr.appendChild(td);
    }
    tr.lastChild.className = "line";
    body.appendChild(tr);
  });
  let vcf;
  if (s.vcf === "unavailable") {
    vcf = "VCF: not available (this engine has no solve command; the Gomocup protocol has no VCF query)";
  } else if (s.vcf === "pending") {
    vcf = s.mode === "analysis" && s.outcome === "ongoing" ? "VCF: …" : "VCF: –";
  } else {
    const side = (name, a) => {
      const tag = name + (s.to_move === name ? " (to move)" : "");
      if (a.result === "win") return tag + ": VCF " + a.line.join(" ");
      if (a.result === "none") return tag + ": no VCF";
      if (a.result === "unknown") return tag + ": not proven either way";
      return tag + ": " + a.why;
    };
    vcf = side("black", s.vcf.black) + " · " + side("white", s.vcf.white);
  }
  $("vcf").textContent = vcf;
}

function drawStatus(s) {
  let text;
  if (s.outcome !== "ongoing") text = s.result;
  else if (s.thinking === "move") text = "the engine is thinking (" + s.to_move + ")";
  else if (s.thinking === "analysis") text = "analysing (" + s.to_move + " to move)";
  else text = s.to_move + " to move";
  $("status").textContent = text;
  const e = s.engine;
  $("engine-status").textContent = "engine: " + (e.name || e.command) + " — " + (e.error ? "failed" : e.state);
}

function syncControls(s) {
  const set = (id, value) => { if (document.activeElement !== $(id)) $(id).value = value; };
  set("rule", s.rule === "caro5" ? "caro" : s.rule);
  set("size", String(s.size));
  set("mode", s.mode);
  set("move-time", s.move_ms / 1000);
  set("analysis-time", s.analysis_ms / 1000);
  set("nbest", s.nbest);
  $("moves").value = s.moves.join(" ");
  $("stop").disabled = !s.thinking;
}

function render(s) {
  const text = JSON.stringify(s);
  if (text === lastText) return;
  lastText = text;
  state = s;
  drawBoard(s);
  drawAnalysis(s);
  drawStatus(s);
  syncControls(s);
  if (lastMessageId !== null && s.message.id !== lastMessageId) showMessage(s.message.text);
  if (lastMessageId === null && s.engine.error) showMessage(s.engine.error);
  lastMessageId = s.message.id;
}

// A time field in seconds as ms, or null while it holds no number (being edited).
function ms(id) {
  const s = parseFloat($(id).value);
  return Number.isFinite(s) ? String(Math.round(s * 1000)) : null;
}
function postSetting(key, value) { if (value !== null && value !== "") post("settings", { [key]: value }); }

function setup() {
  $("board").addEventListener("click", (ev) => {
    const pt = ev.target.getAttribute && ev.target.getAttribute("data-pt");
    if (pt) post("play", { pt });
  });
  $("new").addEventListener("click", () => post("new", { rule: $("rule").value, size: $("size").value }));
  $("undo").addEventListener("click", () => post("undo"));
  $("mode").addEventListener("change", () => post("settings", { mode: $("mode").value }));
  $("move-time").addEventListener("change", () => postSetting("move_ms", ms("move-time")));
  $("analysis-time").addEventListener("change", () => postSetting("analysis_ms", ms("analysis-time")));
  $("nbest").addEventListener("change", () => postSetting("nbest", $("nbest").value));
  $("analyze").addEventListener("click", () => post("analyze"));
  $("stop").addEventListener("click", () => post("stop"));
  $("set-position").addEventListener("click", () => post("position", { moves: $("paste").value }));
  $("paste").addEventListener("keydown", (ev) => { if (ev.key === "Enter") post("position", { moves: $("paste").value }); });
  $("copy").addEventListener("click", async () => {
    const text = $("moves").value;
    try {
      await navigator.clipboard.writeText(text);
      showMessage("copied: " + text, true);
    } catch (e) {
      $("moves").select();
      showMessage(document.execCommand("copy") ? "copied" : "select the moves and copy them", true);
    }
  });
  // Closing the tab stops the engine's search at once (the heartbeat would after 3 s).
  window.addEventListener("pagehide", () => navigator.sendBeacon("/api/bye"));
  poll();
  setInterval(poll, 250);
}

setup();
