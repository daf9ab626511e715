// canasta-sim board: draws the frames the server (or the static export) gives, steps through
// them, runs analyses and edits positions. No framework, no build step, no network beyond the
// board's own server. Text from the server goes in through textContent only.
"use strict";

const EMBED = window.BOARD_EMBED || null; // the static export's deal: no server
const state = { runs: [], source: null, replay: null, index: 0, job: null, pollTimer: null, opening: null, asked: null };
// read by the browser tests (docs/board.md): the first table drawn, each step, and each
// analysis (a hint, a review) from its request to its answer drawn
const timings = { load: null, steps: [], analyses: [] };
window.boardTimings = timings;

const $ = (id) => document.getElementById(id);
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

// rule: the rule id a refused action breaks (the server's "rule"); its "Why?" link opens the
// rule book the board serves at /rules, on the rule's anchor
function showError(message, rule) {
  const box = $("error");
  box.textContent = message || "";
  if (message && /^R-\d\d$/.test(rule || "")) {
    const why = el("a", "why", "Why?");
    why.href = `/rules#${rule}`;
    why.target = "_blank";
    why.rel = "noopener";
    box.append(" ", why);
  }
  box.hidden = !message;
}

async function api(path, options) {
  const response = await fetch(path, options);
  let body = null;
  try { body = await response.json(); } catch (e) { body = { error: response.statusText }; }
  if (!response.ok) {
    const error = new Error(body.error || `${response.status} ${response.statusText}`);
    error.rule = body.rule;
    throw error;
  }
  return body;
}

// --- cards ----------------------------------------------------------------------------------
function card(token, small) {
  const c = el("div", "card" + (small ? " small" : ""));
  if (token === "back") { c.classList.add("back"); return c; }
  if (token === "JK") { c.classList.add("joker"); c.append(el("span", "", "JK"), el("span", "pip", "\u2605")); }
  else if (token === "R3") { c.classList.add("red"); c.append(el("span", "", "3"), el("span", "pip", "\u2665")); }
  else if (token === "B3") { c.append(el("span", "", "3"), el("span", "pip", "\u2660")); }
  else if (token === "2") { c.classList.add("wild"); c.append(el("span", "", "2"), el("span", "pip", "wild")); }
  else { c.append(el("span", "", token)); }
  c.dataset.card = token;
  return c;
}
function cards(text, small) {
  const box = el("div", "hand");
  for (const t of (text || "").split(/\s+/).filter(Boolean)) box.append(card(t, small));
  return box;
}

// --- drawing a frame --------------------------------------------------------------------------
function seatName(s, seats) {
  const bot = seats && seats[s] ? ` \u00b7 ${seats[s]}` : "";
  return `seat ${s}${bot}`;
}

// frame: the server's frame; opts: {players, sides, seats, view ("all" or a seat), hidden
// (per seat: a count of unknown cards to draw as backs, for positions)}
function drawTable(box, frame, opts) {
  box.replaceChildren();
  const table = el("div", "table");
  const n = opts.players;
  for (let s = 0; s < n; s++) {
    // seat 0 at the bottom, then clockwise: left, top, right
    const a = (2 * Math.PI * s) / n;
    const seat = el("div", "seat" + (frame.phase !== "over" && frame.seat === s ? " to-play" : ""));
    seat.dataset.seat = s;
    seat.style.left = `${50 - 37 * Math.sin(a)}%`;
    seat.style.top = `${50 + 38 * Math.cos(a)}%`;
    if (Math.abs(Math.sin(a)) > 0.5) seat.classList.add("flank"); // beside the pile: narrower
    seat.append(el("div", "name", seatName(s, opts.seats)));
    const hidden = opts.view !== "all" && Number(opts.view) !== s;
    const text = frame.hands[s] || "";
    const count = text.split(/\s+/).filter(Boolean).length + (opts.hidden ? opts.hidden[s] : 0);
    if (hidden) {
      const backs = el("div", "hand");
      for (let i = 0; i < count; i++) backs.append(card("back", true));
      seat.append(backs);
    } else {
      const hand = cards(text, n === 6);
      if (opts.hidden) for (let i = 0; i < opts.hidden[s]; i++) hand.append(card("back", true));
      seat.append(hand);
    }
    seat.append(el("div", "count", `${count} cards`));
    table.append(seat);
  }
  const center = el("div", "center");
  const stock = el("div");
  stock.append(frame.stock ? card("back") : card("", false), el("div", "label", `stock ${frame.stock}`));
  stock.firstChild.classList.toggle("empty", !frame.stock);
  const pile = el("div", "pile");
  const pileCards = (frame.pile || "").split(/\s+/).filter(Boolean);
  const top = pileCards.length ? card(pileCards[pileCards.length - 1]) : el("div", "card empty");
  pile.append(top, el("div", "label", `pile ${pileCards.length}`));
  if (frame.frozen) pile.append(el("span", "badge frozen", "frozen"));
  if (frame.blocked) pile.append(el("span", "badge blocked", "blocked"));
  const status = el("div", "status-line");
  status.append(el("div", "", frame.phase === "over" ? `deal over: ${frame.end}` : `seat ${frame.seat} to play`));
  status.append(el("div", "", `turn ${frame.turn}`));
  center.append(stock, pile, status);
  table.append(center);
  box.append(table);
}

function drawSides(box, frame, opts) {
  box.replaceChildren();
  box.className = "sides";
  for (let side = 0; side < opts.sides; side++) {
    const s = el("div", "side");
    s.dataset.side = side;
    const seats = [];
    for (let p = side; p < opts.players; p += opts.sides) seats.push(p);
    s.append(el("h3", "", `side ${side} (seat${seats.length > 1 ? "s" : ""} ${seats.join(", ")})`));
    const canastas = frame.melds[side].filter((m) => m.canasta).length;
    s.append(el("div", "facts", `red threes ${frame.red_threes[side]} \u00b7 canastas ${canastas} \u00b7 minimum count ${frame.minimums[side]} \u00b7 score before the deal ${frame.scores[side]}`));
    const r3 = el("div", "hand");
    for (let i = 0; i < frame.red_threes[side]; i++) r3.append(card("R3", true));
    if (frame.red_threes[side]) s.append(r3);
    const melds = el("div", "melds");
    for (const m of frame.melds[side]) {
      const meld = el("div", "meld" + (m.canasta ? " " + m.canasta : ""));
      meld.title = `${m.rank}: ${m.cards}${m.canasta ? " (" + m.canasta + " canasta)" : ""}`;
      for (const t of m.cards.split(/\s+/)) meld.append(card(t, true));
      melds.append(meld);
    }
    s.append(melds);
    if (frame.result) {
      const r = frame.result[side];
      s.append(el("div", "result", `deal score ${r.total}: red threes ${r.red_threes}, canastas ${r.canasta_bonus}, going out ${r.going_out_bonus}, melds ${r.meld_points}, hand \u2212${r.hand_penalty}`));
    }
    box.append(s);
  }
}

// --- the replay -------------------------------------------------------------------------------
function frameAddress(frame) {
  const r = state.replay;
  if (!r || !r.address || frame.decision === null) return null;
  return `${r.address}:${frame.turn}:${frame.decision}`;
}

function setHash() {
  // the address is the replay's while the replay is shown (a game's while the game is)
  if (EMBED || !state.source || $("replay-view").hidden) return;
  const f = state.replay.frames[state.index];
  const where = f.decision === null ? "end" : `turn=${f.turn}&decision=${f.decision}`;
  const src = state.source.run !== undefined
    ? `run=${state.source.run}&deal=${state.source.deal}`
    : `seed=${state.source.seed}&deal=${state.source.deal}&players=${state.source.players}&bots=${encodeURIComponent(state.source.bots)}`;
  history.replaceState(null, "", `#${src}&${where}`);
}

function render() {
  const r = state.replay;
  if (!r) return;
  const f = r.frames[state.index];
  const opts = { players: r.players, sides: r.sides, seats: r.seats, view: $("view-seat").value };
  drawTable($("table"), f, opts);
  drawSides($("sides"), f, opts);
  $("where").textContent = f.decision === null
    ? `end of the deal (${state.index + 1}/${r.frames.length})`
    : `turn ${f.turn}, decision ${f.decision} (${f.decision === 0 ? "draw or take the pile" : "melds, then discard or go out"}) \u00b7 ${state.index + 1}/${r.frames.length}`;
  const address = frameAddress(f);
  $("address").textContent = address ? `--from-run ${address}` : r.command;
  $("an-run").disabled = EMBED !== null || f.decision === null;
  $("report-hand").disabled = EMBED !== null || f.decision === null;
  $("report-files").replaceChildren(); // a report is of the decision it was asked at
  const items = $("log").children;
  for (let i = 0; i < items.length; i++) {
    items[i].className = i < f.events ? "done" : "todo";
  }
  if (f.events > 0 && items[f.events - 1]) {
    items[f.events - 1].classList.add("last");
    items[f.events - 1].scrollIntoView({ block: "nearest" });
  }
  $("jump-turn").value = f.turn;
  setHash();
}

function step(to) {
  const r = state.replay;
  if (!r) return;
  const t0 = performance.now();
  state.index = Math.max(0, Math.min(r.frames.length - 1, to));
  render();
  void document.body.offsetHeight; // the layout, so the timing includes it
  timings.steps.push(performance.now() - t0);
}

function jumpToTurn(turn, decision) {
  const frames = state.replay.frames;
  let best = frames.length - 1;
  for (let i = 0; i < frames.length; i++) {
    if (frames[i].turn > turn || (frames[i].turn === turn && (frames[i].decision ?? 0) >= decision)) { best = i; break; }
  }
  step(best);
}

function showReplay(replay, at) {
  state.replay = replay;
  $("deal-title").textContent = replay.title;
  const view = $("view-seat");
  view.replaceChildren(el("option", "", "every hand"));
  view.firstChild.value = "all";
  for (let s = 0; s < replay.players; s++) {
    const o = el("option", "", `seat ${s}'s view`);
    o.value = String(s);
    view.append(o);
  }
  const log = $("log");
  log.replaceChildren(...replay.log.map((line) => el("li", "todo", line)));
  state.index = 0;
  if (at && at.end) step(replay.frames.length - 1);
  else if (at && at.turn !== undefined) jumpToTurn(at.turn, at.decision || 0);
  else step(0);
  $("an-result").replaceChildren();
}

// One deal loads at a time: opening another, picking another run in the menu or Cancel stops
// the one loading (its fetch aborted, which ends the server's replay), so an answer never
// arrives after the user moved on to show another deal and reset the menu.
async function openSource(source, at) {
  showError("");
  stopOpening("");
  const opening = { source, controller: new AbortController() };
  state.opening = opening;
  $("pick-cancel").hidden = false;
  $("pick-status").textContent = "opening\u2026";
  const q = new URLSearchParams(source).toString();
  try {
    const replay = await api(`/api/deal?${q}`, { signal: opening.controller.signal });
    if (opening.controller.signal.aborted) return; // stopped while its body was read
    state.source = source;
    if (source.run !== undefined) $("pick-run").value = String(source.run);
    $("pick-deal").value = String(source.deal);
    showReplay(replay, at);
    $("pick-status").textContent = "";
  } catch (e) {
    if (e.name !== "AbortError") { showError(e.message); $("pick-status").textContent = ""; }
  } finally {
    if (state.opening === opening) { state.opening = null; $("pick-cancel").hidden = true; }
  }
}

function stopOpening(why) {
  const opening = state.opening;
  if (!opening) return;
  state.opening = null;
  opening.controller.abort();
  $("pick-cancel").hidden = true;
  const s = opening.source;
  const what = s.run !== undefined ? `run ${s.run}, deal ${s.deal}` : `seed ${s.seed}, deal ${s.deal}`;
  $("pick-status").textContent = why ? `${what} not opened: ${why}` : "";
}

function parseHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (!p.has("deal")) return null;
  const source = p.has("run")
    ? { run: p.get("run"), deal: p.get("deal") }
    : { seed: p.get("seed"), deal: p.get("deal"), players: p.get("players") || "4", bots: p.get("bots") || "expert" };
  const at = p.has("end") ? { end: true } : { turn: Number(p.get("turn") || 0), decision: Number(p.get("decision") || 0) };
  return { source, at };
}

// --- analysis ---------------------------------------------------------------------------------
function bar(row, lo, hi) {
  const box = el("div", "bar");
  const x = (v) => `${((v - lo) / (hi - lo)) * 100}%`;
  const zero = el("div", "zero"); zero.style.left = x(0);
  const mean = el("div", "mean");
  mean.style.left = x(Math.min(0, row.score_diff));
  mean.style.width = `${(Math.abs(row.score_diff) / (hi - lo)) * 100}%`;
  const ci = el("div", "ci");
  ci.style.left = x(row.score_diff_lo);
  ci.style.width = `${((row.score_diff_hi - row.score_diff_lo) / (hi - lo)) * 100}%`;
  box.append(zero, mean, ci);
  return box;
}
const pct = (v) => (v === null || v === undefined ? "n/a" : `${(100 * v).toFixed(1)}%`);
const num = (v) => (v === null || v === undefined ? "\u2013" : (v >= 0 ? "+" : "") + v.toFixed(1));

function showAnalysis(answer) {
  const box = $("an-result");
  box.replaceChildren();
  const rows = answer.candidates;
  let lo = 0, hi = 0;
  for (const r of rows) { lo = Math.min(lo, r.score_diff_lo ?? r.score_diff); hi = Math.max(hi, r.score_diff_hi ?? r.score_diff); }
  if (hi - lo < 1) hi = lo + 1;
  const table = el("table", "cands");
  const head = el("tr");
  for (const h of ["#", "candidate", "score diff [95%]", "", "vs best [95%]", "P(win deal)", "P(win game)", "reason"]) head.append(el("th", "", h));
  table.append(head);
  rows.forEach((r, i) => {
    const tr = el("tr", "cand");
    tr.append(el("td", "", i + 1), el("td", "label", r.candidate));
    tr.append(el("td", "", `${num(r.score_diff)} [${num(r.score_diff_lo)}, ${num(r.score_diff_hi)}]`));
    const cell = el("td"); cell.append(bar(r, lo, hi)); tr.append(cell);
    tr.append(el("td", "", i === 0 ? "best" : `${num(r.vs_best)} [${num(r.vs_best_lo)}, ${num(r.vs_best_hi)}]`));
    tr.append(el("td", "", pct(r.p_win_deal)), el("td", "", pct(r.p_win_game)), el("td", "reason", r.reason));
    table.append(tr);
  });
  box.append(table, el("div", "settings", answer.settings), el("div", "command", answer.command));
  if (answer.position) box.append(positionLink(answer.position, answer.file));
}

// The position an analysis read, as the file its command names (a download: no server path).
function positionLink(position, name) {
  const a = el("a", "position-file", `download ${name} (the position analysed)`);
  a.href = URL.createObjectURL(new Blob([JSON.stringify(position, null, 2) + "\n"], { type: "application/json" }));
  a.download = name;
  return a;
}

async function pollJob() {
  if (!state.job) return;
  try {
    const s = await api(`/api/jobs/${state.job}`);
    if (s.state === "running") { state.pollTimer = setTimeout(pollJob, 300); return; }
    const show = state.onDone || showAnalysis; // the review shows its own table
    analysisDone(s.state === "done" ? "done" : s.state);
    if (s.state === "done") {
      show(s);
      void document.body.offsetHeight; // the layout, so the timing includes it
      timings.analyses.push(performance.now() - state.asked);
    } else if (s.error) showError(s.error);
  } catch (e) { analysisDone("failed"); showError(e.message); }
}

function analysisDone(text) {
  state.job = null;
  state.onDone = null;
  $("an-cancel").hidden = true;
  $("an-run").disabled = false;
  $("an-status").textContent = text;
}

async function startAnalysis(body) {
  state.asked = performance.now();
  showError("");
  $("an-result").replaceChildren();
  const settings = { worlds: Number($("an-worlds").value), seed: Number($("an-seed").value), rollout: $("an-rollout").value };
  try {
    const answer = await api("/api/analyse", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ...settings, ...body }) });
    state.job = answer.job;
    $("an-status").textContent = "running\u2026";
    $("an-cancel").hidden = false;
    $("an-run").disabled = true;
    pollJob();
  } catch (e) { showError(e.message); }
}

async function analyseShown() {
  const f = state.replay.frames[state.index];
  if (state.source.run !== undefined) {
    return startAnalysis({ at: { run: state.source.run, deal: state.source.deal, turn: f.turn, decision: f.decision } });
  }
  try { // a deal given by seed has no run folder: analyse its position
    const q = new URLSearchParams({ ...state.source, turn: f.turn, decision: f.decision });
    const position = await api(`/api/position?${q}`);
    return startAnalysis({ position });
  } catch (e) { showError(e.message); }
}

async function cancelAnalysis() {
  if (!state.job) return;
  clearTimeout(state.pollTimer);
  const job = state.job;
  try { await api(`/api/jobs/${job}`, { method: "DELETE" }); } catch (e) { showError(e.message); }
  analysisDone("cancelled");
}

// --- the position editor ----------------------------------------------------------------------
const FIELDS = ["players", "rules", "seat", "current", "phase", "turn", "hand", "pile", "stock",
  "hand_sizes", "known", "melds", "red_threes", "scores", "melded_seats", "concealed_canastas",
  "upcard_cards", "melds_this_turn", "pile_melds", "touched_old", "from_pile", "last_red_three", "switches"];

function editorFields(position) {
  const form = $("editor");
  form.replaceChildren();
  for (const key of FIELDS) {
    if (!(key in position)) continue;
    const value = position[key];
    const input = el("input");
    input.id = `ed-${key}`;
    input.dataset.key = key;
    input.dataset.json = typeof value === "string" ? "" : "1";
    input.value = typeof value === "string" ? value : JSON.stringify(value);
    form.append(el("label", "", key), input);
    form.lastChild.previousSibling.htmlFor = input.id;
  }
}

function editorPosition() {
  const out = {};
  for (const input of $("editor").querySelectorAll("input")) {
    const key = input.dataset.key;
    if (input.dataset.json) {
      try { out[key] = JSON.parse(input.value); }
      catch (e) { throw new Error(`${key}: ${JSON.stringify(input.value)} is not valid (write it as JSON, e.g. [1, 0])`); }
    } else out[key] = input.value;
  }
  return out;
}

function positionFrame(p) {
  // the position on the board: the observer's hand, the known cards, the others as backs
  const hands = [], hidden = [];
  for (let s = 0; s < p.players; s++) {
    const mine = s === p.seat ? p.hand : (p.known || [])[s] || "";
    hands.push(mine);
    hidden.push(p.hand_sizes[s] - mine.split(/\s+/).filter(Boolean).length);
  }
  const sides = p.red_threes.length; // one entry per side
  const melds = (p.melds || []).map((ms) => ms.map((m) => {
    const t = m.split(/\s+/).filter(Boolean);
    const wild = t.some((x) => x === "2" || x === "JK");
    return { rank: t[0], cards: m, canasta: t.length >= 7 ? (wild ? "mixed" : "natural") : "" };
  }));
  const pile = p.pile.split(/\s+/).filter(Boolean);
  const frame = { turn: p.turn, decision: p.phase === "draw" ? 0 : 1, seat: p.current ?? p.seat, phase: p.phase,
    hands, melds, red_threes: p.red_threes, pile: p.pile, frozen: pile.some((x) => x === "2" || x === "JK" || x === "R3"),
    blocked: pile[pile.length - 1] === "B3", stock: p.stock, minimums: p.scores.map(() => "\u2013"), scores: p.scores, events: 0 };
  return { frame, opts: { players: p.players, sides, seats: null, view: "all", hidden } };
}

async function editorCheck() {
  showError("");
  try {
    const answer = await api("/api/check-position", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ position: editorPosition() }) });
    editorFields(answer.position);
    const { frame, opts } = positionFrame(answer.position);
    drawTable($("ed-table"), frame, opts);
    drawSides($("ed-sides"), frame, opts);
    $("ed-status").textContent = "the position is legal";
    return answer.position;
  } catch (e) { showError(e.message); $("ed-status").textContent = ""; return null; }
}

async function editorFromReplay() {
  const f = state.replay && state.replay.frames[state.index];
  if (!f || f.decision === null) { showError("open a deal and step to a decision first"); return; }
  try {
    const q = new URLSearchParams({ ...state.source, turn: f.turn, decision: f.decision });
    editorFields(await api(`/api/position?${q}`));
    await editorCheck();
  } catch (e) { showError(e.message); }
}

async function editorSave() {
  const position = await editorCheck();
  if (!position) return;
  try {
    const name = $("ed-name").value;
    const answer = await api(`/api/positions/${encodeURIComponent(name)}`, { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ position }) });
    $("ed-status").textContent = `saved as ${answer.file} in the positions folder`;
    loadSavedList();
  } catch (e) { showError(e.message); }
}

async function editorDownload() {
  const position = await editorCheck();
  if (!position) return;
  const blob = new Blob([JSON.stringify(position, null, 2) + "\n"], { type: "application/json" });
  const a = el("a");
  a.href = URL.createObjectURL(blob);
  a.download = `${$("ed-name").value || "position"}.json`;
  a.click();
  URL.revokeObjectURL(a.href);
}

async function loadSavedList() {
  try {
    const answer = await api("/api/positions");
    $("ed-saved").replaceChildren(...answer.positions.map((n) => el("option", "", n)));
  } catch (e) { $("ed-saved").replaceChildren(); } // no --positions folder: downloads only
}

async function editorLoadSaved() {
  const name = $("ed-saved").value;
  if (!name) { showError("no saved position: save one first (needs --positions)"); return; }
  try {
    const answer = await api(`/api/positions/${encodeURIComponent(name)}`);
    editorFields(answer.position);
    $("ed-name").value = name;
    await editorCheck();
  } catch (e) { showError(e.message); }
}

function editorLoadFile(event) {
  const file = event.target.files[0];
  if (!file) return;
  file.text().then((text) => {
    try { editorFields(JSON.parse(text)); editorCheck(); }
    catch (e) { showError(`${file.name}: not a JSON position file (${e.message})`); }
  });
}

// --- a hand's report ---------------------------------------------------------------------------
// The server sends the files' text (the position at the decision, as `canasta-sim analyse FILE`
// reads it, and the deal's trace, as `canasta-sim verify --trace FILE` referees it); the page
// offers each as a download: no path named, nothing written on the server.
function reportLinks(box, files) {
  box.replaceChildren();
  for (const [name, text] of Object.entries(files)) {
    const a = el("a", "report-file", `download ${name}`);
    a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    a.download = name;
    box.append(a);
  }
}

async function reportShown() {
  showError("");
  const f = state.replay.frames[state.index];
  const q = new URLSearchParams({ ...state.source, turn: f.turn, decision: f.decision });
  try { reportLinks($("report-files"), (await api(`/api/report?${q}`)).files); }
  catch (e) { showError(e.message); }
}

async function reportPlay() {
  showError("");
  const [turn, decision] = $("play-report-at").value.split(":");
  const q = new URLSearchParams({ turn, decision });
  try { reportLinks($("play-report-files"), (await api(`/api/play/${play.id}/report?${q}`)).files); }
  catch (e) { showError(e.message); }
}

// --- a run at a glance ------------------------------------------------------------------------
// The statistics table of `canasta-sim report` with its intervals, the play it describes, and
// the report's figures drawn here as SVG from the numbers the server sends (the report's own).
const SVG_NS = "http://www.w3.org/2000/svg";
const SIDE_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c"];
const PLOT = { w: 420, h: 220, left: 46, right: 10, top: 10, bottom: 30 };

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = String(text);
  return e;
}

const short = (v) => (v === null || v === undefined ? "\u2013" : Math.abs(v) >= 1000 ? v.toFixed(0) : String(Number(v.toPrecision(4))));

// An empty plot with its axes: x from x0 to x1, y from 0 to y1; its scales.
function plotAxes(x0, x1, y1, xLabel, yLabel) {
  const box = svg("svg", { viewBox: `0 0 ${PLOT.w} ${PLOT.h}`, role: "img" });
  const X = (x) => PLOT.left + ((x - x0) / (x1 - x0 || 1)) * (PLOT.w - PLOT.left - PLOT.right);
  const Y = (y) => PLOT.h - PLOT.bottom - (y / (y1 || 1)) * (PLOT.h - PLOT.top - PLOT.bottom);
  box.append(svg("line", { x1: PLOT.left, y1: Y(0), x2: PLOT.w - PLOT.right, y2: Y(0), stroke: "#667" }));
  box.append(svg("line", { x1: PLOT.left, y1: Y(0), x2: PLOT.left, y2: PLOT.top, stroke: "#667" }));
  for (const t of [0, y1 / 2, y1]) {
    box.append(svg("text", { x: PLOT.left - 3, y: Y(t) + 3, "text-anchor": "end" }, short(t)));
  }
  box.append(svg("text", { x: (PLOT.left + PLOT.w) / 2, y: PLOT.h - 2, "text-anchor": "middle" }, xLabel));
  box.append(svg("text", { x: 10, y: PLOT.top + 6, transform: `rotate(-90 10 ${PLOT.top + 6})`, "text-anchor": "end" }, yLabel));
  return { box, X, Y };
}

function errorBar(box, x, lo, hi, Y) {
  if (lo === null || hi === null) return;
  box.append(svg("line", { x1: x, y1: Y(lo), x2: x, y2: Y(hi), stroke: "#222" }));
  for (const y of [lo, hi]) box.append(svg("line", { x1: x - 3, y1: Y(y), x2: x + 3, y2: Y(y), stroke: "#222" }));
}

function legend(box, labels) {
  labels.forEach((label, i) => {
    const x = PLOT.w - PLOT.right - 70, y = PLOT.top + 4 + 12 * i;
    box.append(svg("rect", { x, y, width: 9, height: 9, fill: SIDE_COLORS[i % 3] }));
    box.append(svg("text", { x: x + 12, y: y + 8 }, label));
  });
}

function scoreFigure(fig) {
  const edges = fig.edges;
  if (!edges.length) return plotAxes(0, 1, 1, "no deals", "").box;
  const top = Math.max(...fig.sides.flat()) || 1;
  const { box, X, Y } = plotAxes(edges[0], edges[edges.length - 1], top, "deal score (points)", "fraction of deals");
  for (const [t, anchor] of [[edges[0], "start"], [edges[edges.length - 1], "end"]]) {
    box.append(svg("text", { x: X(t), y: PLOT.h - PLOT.bottom + 11, "text-anchor": anchor }, short(t)));
  }
  fig.sides.forEach((fractions, s) => { // the report's stairs: a step per bin
    let d = `M${X(edges[0])},${Y(0)}`;
    fractions.forEach((v, i) => { d += ` V${Y(v)} H${X(edges[i + 1])}`; });
    box.append(svg("path", { d: d + ` V${Y(0)}`, fill: "none", stroke: SIDE_COLORS[s % 3], "stroke-width": 1.5, class: "stairs" }));
  });
  legend(box, fig.sides.map((_, s) => `side ${s}`));
  return box;
}

function barFigure(groups, series, yLabel, exact) {
  // groups: labels on x; series[s][g] = {value, ci_low, ci_high}
  const top = Math.max(exact || 0, ...series.flat().map((b) => b.ci_high ?? b.value ?? 0)) * 1.1 || 1;
  const { box, X, Y } = plotAxes(0, groups.length, top, "", yLabel);
  const width = 0.8 / series.length;
  series.forEach((bars, s) => bars.forEach((b, g) => {
    const x = g + 0.1 + width * s;
    box.append(svg("rect", { x: X(x), y: Y(b.value ?? 0), width: X(x + width) - X(x), height: Y(0) - Y(b.value ?? 0), fill: series.length > 1 ? SIDE_COLORS[s % 3] : "#d62728", opacity: 0.8, class: "fig-bar" }));
    errorBar(box, X(x + width / 2), b.ci_low, b.ci_high, Y);
  }));
  groups.forEach((label, g) => box.append(svg("text", { x: X(g + 0.5), y: PLOT.h - PLOT.bottom + 12, "text-anchor": "middle" }, label)));
  if (exact !== null && exact !== undefined) { // the exact expectation of the dealt ones
    box.append(svg("line", { x1: X(0.05), y1: Y(exact), x2: X(0.95), y2: Y(exact), stroke: "#000", "stroke-dasharray": "5 3", "stroke-width": 2 }));
  }
  if (series.length > 1) legend(box, series.map((_, s) => `side ${s}`));
  return box;
}

function figure(title, drawing) {
  const f = el("figure");
  f.append(el("figcaption", "", title), drawing);
  return f;
}

function statsTable(rows) {
  const table = el("table", "stats-table");
  const head = el("tr");
  for (const h of ["statistic", "value", "95% interval", "n"]) head.append(el("th", "", h));
  table.append(head);
  let group = null;
  for (const r of rows) {
    if (r.group !== group) {
      group = r.group;
      const g = el("tr", "group");
      const cell = el("td", "", group);
      cell.colSpan = 4;
      g.append(cell);
      table.append(g);
    }
    const tr = el("tr");
    tr.append(el("td", "", r.statistic), el("td", "v", short(r.value)));
    tr.append(el("td", "v", r.ci_low === null ? "" : `[${short(r.ci_low)}, ${short(r.ci_high)}]`), el("td", "n", r.n));
    table.append(tr);
  }
  return table;
}

function statsPane(run, s) {
  const pane = el("div", "stats-pane");
  pane.dataset.run = String(run.run);
  pane.append(el("h2", "", `${s.name}: ${s.deals} deals, ${s.players} players, seed ${s.seed}`));
  pane.append(el("div", "policy", `play: ${s.policy}`));
  const deals = el("div", "deals", "deals: ");
  const last = run.first_deal + run.deals - 1;
  for (let k = run.first_deal; k <= Math.min(last, run.first_deal + 29); k++) {
    const a = el("a", "", k);
    a.href = `#run=${run.run}&deal=${k}`; // the hash opens the deal in the replay
    deals.append(a);
  }
  if (last > run.first_deal + 29) deals.append(`\u2026 ${last} (Deal field of the replay)`);
  const f = s.figures;
  pane.append(deals,
    figure(f.scores.title, scoreFigure(f.scores)),
    figure(f.red_threes.title, barFigure(f.red_threes.bars.map((b) => b.source), [f.red_threes.bars], "per side per deal", f.red_threes.exact)),
    figure(`${f.canastas.title} (95% intervals)`, barFigure(f.canastas.kinds, f.canastas.sides.map((side) => side.map(([value, ci_low, ci_high]) => ({ value, ci_low, ci_high }))), "per side per deal", null)),
    statsTable(s.rows));
  return pane;
}

async function showStats() {
  showError("");
  const picked = [$("stats-run").value, $("stats-other").value].filter((v, i, all) => v !== "" && all.indexOf(v) === i);
  try {
    const summaries = await Promise.all(picked.map((r) => api(`/api/run/${r}/summary`)));
    $("stats-panes").replaceChildren(...summaries.map((s, i) => statsPane(state.runs[Number(picked[i])], s)));
    window.boardStatsShown = (window.boardStatsShown || 0) + 1; // the browser test waits on it
  } catch (e) { showError(e.message); }
}

function fillStatsRuns() {
  const options = (none) => [...(none ? [Object.assign(el("option", "", none), { value: "" })] : []),
    ...state.runs.map((r) => Object.assign(el("option", "", r.name), { value: String(r.run) }))];
  $("stats-run").replaceChildren(...options(null));
  $("stats-other").replaceChildren(...options("no other run"));
  $("stats-other").closest("label").hidden = state.runs.length < 2;
}

// --- wiring -----------------------------------------------------------------------------------
function showTab(name) {
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.tab === name);
  $("replay-view").hidden = name !== "replay";
  $("editor-view").hidden = name !== "editor";
  $("play-view").hidden = name !== "play";
  $("stats-view").hidden = name !== "stats";
  $("log-box").hidden = name === "editor";
  $("panel").hidden = name === "stats"; // the statistics take the page's width
  if (name === "stats" && !$("stats-panes").children.length) showStats();
  if (name === "replay" && state.replay) { const i = state.index; showReplay(state.replay, null); step(i); }
  if (name === "play" && play.view) showPlay(play.view);
  if (name === "play" && play.game) history.replaceState(null, "", gameHash(play.record));
}

function keys(event) {
  if (!state.replay || event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
  const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 1, ArrowUp: -1 };
  if (event.key in moves) { step(state.index + moves[event.key]); event.preventDefault(); }
  else if (event.key === "Home") step(0);
  else if (event.key === "End") step(state.replay.frames.length - 1);
}

async function start() {
  $("first").onclick = () => step(0);
  $("prev").onclick = () => step(state.index - 1);
  $("next").onclick = () => step(state.index + 1);
  $("last").onclick = () => step(state.replay.frames.length - 1);
  $("jump").onclick = () => jumpToTurn(Number($("jump-turn").value), 0);
  $("view-seat").onchange = render;
  document.addEventListener("keydown", keys);
  if (EMBED) {
    for (const e of document.querySelectorAll(".server-only")) e.hidden = true;
    showReplay(EMBED.deal, null);
    timings.load = performance.now();
    return;
  }
  for (const b of document.querySelectorAll(".tab")) b.onclick = () => showTab(b.dataset.tab);
  $("pick").onsubmit = (e) => { e.preventDefault(); openSource({ run: $("pick-run").value, deal: $("pick-deal").value }); };
  $("pick-cancel").onclick = () => stopOpening("cancelled");
  $("pick-run").onchange = () => stopOpening("another run picked; press Open");
  $("open-seed").onclick = () => openSource({ seed: $("pick-seed").value, deal: $("pick-deal").value, players: $("pick-players").value, bots: $("pick-bots").value });
  $("an-run").onclick = analyseShown;
  $("report-hand").onclick = reportShown;
  $("stats-run").onchange = showStats;
  $("stats-other").onchange = showStats;
  $("an-cancel").onclick = cancelAnalysis;
  $("ed-from-replay").onclick = editorFromReplay;
  $("ed-check").onclick = editorCheck;
  $("ed-save").onclick = editorSave;
  $("ed-download").onclick = editorDownload;
  $("ed-load-saved").onclick = editorLoadSaved;
  $("ed-file").onchange = editorLoadFile;
  wirePlay();
  $("ed-analyse").onclick = async () => { const p = await editorCheck(); if (p) startAnalysis({ position: p }); };
  const fromHash = parseHash();
  const game = parseGameHash();
  if (game) { showTab("play"); resumeGame(game); } // a game's address: the game, played again
  // the deal of the address is fetched while the run list loads
  const opening = fromHash ? openSource(fromHash.source, fromHash.at) : null;
  try {
    state.runs = await api("/api/runs");
    $("pick-run").replaceChildren(...state.runs.map((r) => {
      const o = el("option", "", `${r.name} (${r.players} players, deals ${r.first_deal}\u2013${r.first_deal + r.deals - 1})`);
      o.value = String(r.run);
      return o;
    }));
    if (state.source && state.source.run !== undefined) $("pick-run").value = String(state.source.run);
    fillStatsRuns();
  } catch (e) { showError(e.message); }
  loadSavedList();
  window.addEventListener("hashchange", () => { // an address typed or pasted
    const h = parseHash();
    if (h) { showTab("replay"); openSource(h.source, h.at); }
    const g = parseGameHash();
    if (g) { showTab("play"); resumeGame(g); }
  });
  if (opening) await opening;
  else if (state.runs.length && !game) await openSource({ run: "0", deal: String(state.runs[0].first_deal) });
  timings.load = performance.now();
}

// --- play -------------------------------------------------------------------------------------
// A turn is entered with the environment's actions (docs/environment.md): a click on a natural
// in your hand stages it onto its meld, a wild card clicked then a meld's rank stages it there,
// a staged card clicked goes back to the hand, and a discard (discard mode) commits the turn.
// play.game: the id of the whole game being played (null for a single deal); its actions go
// through the game, whose answer adds the score sheet.
const play = { id: null, view: null, wild: null, game: null, record: null };

function post(path, body) {
  return api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
}

// Undo and Done (practice): through the game when one is played, as the actions go.
function practiceStep(what) {
  showError("");
  const answer = play.game ? post(`/api/game/${play.game}/${what}`).then(showGame)
    : post(`/api/play/${play.id}/${what}`).then(showPlay);
  answer.catch((e) => showError(e.message));
}

function playAction(name) {
  if (!play.id) return;
  showError("");
  const answer = play.game ? post(`/api/game/${play.game}/act`, { action: name }).then(showGame)
    : post(`/api/play/${play.id}/act`, { action: name }).then(showPlay);
  answer.catch((e) => showError(e.message, e.rule));
}

function rankOf(token) { return token === "R3" || token === "B3" ? "B3" : token; }

function onPlayCard(event) {
  const c = event.target.closest(".card");
  if (!c || !play.view || !play.view.legal.length) return;
  const token = c.dataset.card;
  const staged = c.closest("#play-staged");
  const inMeld = c.closest(".meld");
  if (staged) {
    const kind = token === "2" ? "deuce" : token === "JK" ? "joker" : "natural";
    return playAction(`unstage_${kind}:${c.closest(".meld").dataset.rank}`);
  }
  if (inMeld && play.wild) { // a wild card chosen, then a meld's rank
    const name = `stage_${play.wild}:${inMeld.dataset.rank}`;
    play.wild = null;
    return playAction(name);
  }
  if (!c.closest(`#play-table .seat[data-seat="${play.view.you}"]`)) return;
  if ($("play-discard").checked) return playAction(`discard:${token}`);
  if (token === "2" || token === "JK") {
    play.wild = token === "2" ? "deuce" : "joker";
    $("play-status").textContent = `${token} chosen: click the meld (or staged meld) it goes on`;
    return;
  }
  playAction(`stage_natural:${rankOf(token)}`);
}

function showPlay(view) {
  play.view = view;
  window.boardPlayUpdates = (window.boardPlayUpdates || 0) + 1; // the browser test waits on it
  const f = view.frame;
  const opts = { players: view.players, sides: view.sides, seats: view.seats, view: "all", hidden: view.hidden };
  drawTable($("play-table"), f, opts);
  drawSides($("play-sides"), f, opts);
  for (const side of $("play-sides").querySelectorAll(".side")) {
    const melds = side.querySelectorAll(".meld");
    f.melds[Number(side.dataset.side)].forEach((m, i) => { melds[i].dataset.rank = m.rank; });
  }
  const staged = $("play-staged");
  staged.replaceChildren(el("span", "", view.staged_rows.length ? "staged: " : "nothing staged"));
  for (const row of view.staged_rows) {
    const meld = el("div", "meld");
    meld.dataset.rank = row.rank;
    for (const t of row.cards.split(/\s+/)) meld.append(card(t, true));
    staged.append(meld);
  }
  const box = $("play-actions");
  box.replaceChildren();
  for (const name of view.legal) {
    const b = el("button", "action", name);
    b.dataset.action = name;
    b.onclick = () => playAction(name);
    box.append(b);
  }
  const over = f.phase === "over";
  const practice = view.undos ? ` \u00b7 practice deal (${view.undos} undo${view.undos > 1 ? "s" : ""})` : "";
  $("play-status").textContent = (over
    ? `deal over (${f.end}): your side ${f.result[view.you % view.sides].total} points`
    : view.waiting ? "your turn is over: Undo takes your discard back, Done lets the bots play"
    : view.legal.length ? "your turn" : `seat ${f.seat} to play`) + practice;
  $("play-undo").hidden = !view.practice;
  $("play-undo").disabled = !view.undo;
  $("play-done").hidden = !view.waiting;
  $("play-hint").disabled = over || !view.legal.length;
  $("play-review").hidden = !over;
  $("play-report-box").hidden = !over;
  if (over) { // the user's decisions, for a hand's report
    const at = $("play-report-at"), kept = at.value;
    at.replaceChildren(...view.decisions.map(([t, d]) => Object.assign(el("option", "", `${t}:${d}`), { value: `${t}:${d}` })));
    if (kept) at.value = kept;
  }
  showSkill(view.skill);
  $("log").replaceChildren(...view.log.map((line) => el("li", "done", line)));
}

// Luck and skill after a deal (the view's skill, server side): your side's result, the
// bot of your seat's with the same cards (the deal played again by the bots alone), and the
// difference between the two. A result is a score difference: your side minus the others.
function showSkill(skill) {
  const box = $("play-skill");
  box.hidden = !skill;
  if (!skill) return box.replaceChildren();
  const points = (v) => (v > 0 ? "+" : "") + (Number.isInteger(v) ? v : v.toFixed(1));
  const bot = skill.bot.level ? `the ${skill.bot.level} bot (${skill.bot.spec})` : `the bot ${skill.bot.spec}`;
  const others = play.view.sides > 2 ? "the other sides' mean" : "the other side";
  const verdict = skill.more === 0 ? `you scored as ${bot} would have with these cards`
    : `you scored ${Math.abs(skill.more)} points ${skill.more > 0 ? "more" : "less"} than ${bot} would have with these cards`;
  const line = (id, label, value) => {
    const row = el("div", "skill-row", label);
    row.append(" ", Object.assign(el("strong", "", value), { id }));
    return row;
  };
  box.replaceChildren(
    el("h3", "", "Luck and skill"),
    line("skill-you", "Your side this deal:", `${skill.you.score} points, ${points(skill.you.difference)} against ${others}`),
    line("skill-bot", `With ${bot} in your seat and the same cards:`, `${skill.bot.score} points, ${points(skill.bot.difference)}`),
    line("skill-more", "Difference:", `${points(skill.more)} points: ${verdict}`),
    el("div", "settings", "The other bots react to different play: the same cards, not the same deal."),
  );
}

// The play form as a request: the bots, or levels by name (the server maps them to their bots).
function playRequest() {
  const body = { seed: Number($("play-seed").value), deal: Number($("play-deal").value), players: Number($("play-players").value), bots: $("play-bots").value, seat: Number($("play-seat").value), practice: $("play-practice").checked };
  if ($("play-opponents").value) {
    delete body.bots;
    body.opponents = $("play-opponents").value;
    if ($("play-partner").value) body.partner = $("play-partner").value;
  }
  return body;
}

async function startPlay() {
  showError("");
  const body = playRequest();
  try {
    const answer = await post("/api/play", body);
    play.id = answer.game;
    play.game = null;
    $("game-box").hidden = true;
    clearPlayResults();
    showPlay(answer.view);
  } catch (e) { showError(e.message); }
}

function clearPlayResults() {
  $("an-result").replaceChildren();
  $("play-review-result").replaceChildren();
  $("play-report-files").replaceChildren();
}

// --- whole games ------------------------------------------------------------------------------
// A game is dealt deal after deal to its target; its address (the page's, and the link
// in the game's box) holds its record: the request and your actions in every deal, from which
// the server plays the game again (POST /api/game/resume).
async function startGame() {
  showError("");
  const body = playRequest();
  delete body.deal; // a game starts at its first deal
  if ($("game-target").value) body.target = Number($("game-target").value);
  try { clearPlayResults(); showGame(await post("/api/game", body)); } catch (e) { showError(e.message); }
}

async function resumeGame(record) {
  showError("");
  // the form shows the game's request (its levels as the bot specs they name)
  for (const [id, key] of [["play-players", "players"], ["play-seat", "seat"], ["play-seed", "seed"], ["game-target", "target"], ["play-bots", "bots"]]) $(id).value = String(record[key]);
  $("play-opponents").value = "";
  $("play-bots").disabled = false;
  $("play-practice").checked = record.practice;
  $("play-status").textContent = "playing the game again from its address\u2026";
  try { clearPlayResults(); showGame(await post("/api/game/resume", record)); } catch (e) { showError(e.message); }
}

async function nextDeal() {
  showError("");
  try { clearPlayResults(); showGame(await post(`/api/game/${play.game}/next`)); } catch (e) { showError(e.message); }
}

function gameHash(record) {
  const p = new URLSearchParams({ game: "", seed: record.seed, players: record.players, bots: record.bots, seat: record.seat, target: record.target });
  for (const moves of record.moves) p.append("moves", moves.join(","));
  if (record.practice) { p.set("practice", "1"); p.set("undos", record.undos.join(",")); }
  return `#${p.toString()}`;
}

function parseGameHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (!p.has("game")) return null;
  const record = { moves: p.getAll("moves").map((m) => m.split(",").filter(Boolean)) };
  for (const key of ["seed", "players", "seat", "target"]) record[key] = Number(p.get(key));
  record.bots = p.get("bots");
  record.practice = p.get("practice") === "1";
  if (record.practice) record.undos = (p.get("undos") || "").split(",").map(Number);
  return record;
}

function showGame(answer) {
  play.game = answer.id;
  play.id = answer.play;
  play.record = answer.game.record;
  showPlay(answer.view);
  const g = answer.game;
  $("game-box").hidden = false;
  drawSheet(g, answer.view.sides);
  const over = answer.view.frame.phase === "over";
  const you = g.you_side;
  const names = g.scores.map((_, s) => (s === you ? `you (side ${s})` : `side ${s}`));
  const standing = g.scores.map((v, s) => `${names[s]} ${v}`).join(", ");
  if (g.winner !== null) {
    const others = g.scores.filter((_, s) => s !== g.winner).join(" and ");
    const who = g.winner === you ? `You win (side ${you})` : `Side ${g.winner} wins`;
    $("game-status").textContent = `Game over after ${g.sheet.length} deals: ${who} with ${g.scores[g.winner]} points to ${others} (target ${g.target}, R-55).`;
  } else {
    $("game-status").textContent = `Deal ${g.deal + 1} of the game to ${g.target}: ${standing}` + (over ? " \u00b7 deal over: deal the next one" : "");
  }
  $("game-next").hidden = !over || g.winner !== null;
  const hash = gameHash(g.record);
  $("game-address").href = hash;
  if (!$("play-view").hidden) history.replaceState(null, "", hash);
}

// The score sheet: a row per deal that is over, per side its minimum count and the
// deal's score parts (R-50..R-54), the deal's total and the game's score after it.
const SHEET = [["minimum", "minimum count"], ["red_threes", "red threes"], ["canasta_bonus", "canastas"],
  ["meld_points", "melds"], ["going_out_bonus", "going out"], ["hand_penalty", "hand \u2212"],
  ["total", "deal"], ["cumulative", "game"]];

function drawSheet(game, sides) {
  const table = $("game-sheet");
  const top = el("tr"), head = el("tr");
  top.append(el("th", "", ""));
  head.append(el("th", "", "deal"));
  for (let s = 0; s < sides; s++) {
    const th = el("th", "side-head", s === game.you_side ? `you (side ${s})` : `side ${s}`);
    th.colSpan = SHEET.length;
    top.append(th);
    for (const [, label] of SHEET) head.append(el("th", "", label));
  }
  table.replaceChildren(top, head);
  for (const row of game.sheet) {
    const tr = el("tr", "sheet-row");
    tr.dataset.deal = row.deal;
    tr.append(el("td", row.practice ? "practice" : "", row.practice ? `${row.deal + 1} (practice)` : row.deal + 1));
    for (const side of row.sides) {
      for (const [key] of SHEET) {
        const td = el("td", key === "cumulative" ? "cumulative" : "", side[key]);
        td.dataset.side = row.sides.indexOf(side);
        td.dataset.part = key;
        tr.append(td);
      }
    }
    table.append(tr);
  }
}

// A regret with its 95% interval; "within noise" when the interval holds 0: the rollouts
// cannot tell that play from the best (more worlds narrow the interval). A regret of no
// rollouts (no decision of the type, or your choice the best) is 0 exactly: no interval.
function regretCell(value, lo, hi) {
  const cell = el("td", "", `${num(value)} [${num(lo)}, ${num(hi)}]`);
  if (lo !== null && hi !== null && lo < hi && lo <= 0 && hi >= 0) cell.append(" ", el("span", "noise", "within noise"));
  return cell;
}

function showReview(answer) {
  const box = $("play-review-result");
  box.replaceChildren(el("h3", "", "Where you lost points (regret, points per deal)"));
  if (answer.undos) box.append(el("div", "practice", `Practice deal: you used undo ${answer.undos} time${answer.undos > 1 ? "s" : ""}; the review is of the line finally played.`));
  const table = el("table", "cands review");
  const head = el("tr");
  for (const h of ["decision type", "decisions", "not the best", "regret (re-scored) [95%]"]) head.append(el("th", "", h));
  table.append(head);
  for (const r of answer.summary) {
    const tr = el("tr");
    tr.append(el("td", "", r.type), el("td", "", r.decisions), el("td", "", pct(r.not_best)));
    tr.append(regretCell(r.rescored, r.rescored_lo, r.rescored_hi));
    table.append(tr);
  }
  const list = el("table", "cands decisions");
  const h2 = el("tr");
  for (const h of ["turn", "decision", "type", "your choice", "best", "regret [95%]"]) h2.append(el("th", "", h));
  list.append(h2);
  for (const d of answer.decisions.filter((x) => x.choice !== x.best)) {
    const tr = el("tr");
    for (const v of [d.turn, d.decision, d.type, d.choice, d.best]) tr.append(el("td", "", v));
    tr.append(regretCell(d.rescored, d.rescored_lo, d.rescored_hi));
    list.append(tr);
  }
  const note = `${answer.worlds} worlds a candidate, seed ${answer.seed}. Each regret is re-scored on fresh worlds ` +
    "(best minus your choice, paired); \u201cwithin noise\u201d: its 95% interval holds 0, so the rollouts " +
    "cannot tell your play from the best. More worlds narrow the intervals.";
  box.append(table, el("div", "settings", note), el("h3", "", "Decisions where another candidate was best"), list);
}

async function reviewPlay() {
  state.asked = performance.now();
  showError("");
  try {
    const answer = await api("/api/analyse", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ review: play.id, worlds: Number($("play-review-worlds").value), seed: Number($("an-seed").value) }) });
    state.job = answer.job;
    state.onDone = showReview;
    $("an-status").textContent = "reviewing\u2026";
    $("an-cancel").hidden = false;
    pollJob();
  } catch (e) { showError(e.message); }
}

// The levels' names fill the Opponents and Partner lists, weakest first (GET /api/levels).
async function loadLevels() {
  const levels = await api("/api/levels");
  for (const id of ["play-opponents", "play-partner"]) {
    for (const level of levels) {
      const option = el("option", "", level.name);
      option.value = level.name;
      option.title = `${level.spec}: ${level.description}`;
      $(id).append(option);
    }
  }
}

function wirePlay() {
  loadLevels().catch((e) => showError(e.message));
  $("play-opponents").onchange = () => { $("play-bots").disabled = Boolean($("play-opponents").value); };
  $("play-start").onclick = startPlay;
  $("play-undo").onclick = () => practiceStep("undo");
  $("play-done").onclick = () => practiceStep("done");
  $("game-start").onclick = startGame;
  $("game-next").onclick = nextDeal;
  $("play-table").onclick = onPlayCard;
  $("play-sides").onclick = onPlayCard;
  $("play-staged").onclick = onPlayCard;
  $("play-hint").onclick = () => startAnalysis({ play: play.id });
  $("play-review").onclick = reviewPlay;
  $("play-report").onclick = reportPlay;
}

start();
