// Tournaments in the browser: the lobby's list, and a tournament table with its clock and level.
// The rules, the seats and the moves are the server's (docs/protocol.md); the page follows the
// table the server says is yours, also when the tournament moves you.
import { el } from "./cards.js";
import { renderActions, renderTable, seatName } from "./table.js";
import { describeAll } from "./view.js";

const states = new Map(); // tournament id -> the latest tournament_state, kept up to date
let shown = null; // {id, size, key, ctx, received}

function mmss(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The lobby's tournaments: status, players, level, starting time; register or open. */
export async function tournamentSection(ctx) {
  const { tournaments } = await ctx.api("GET", "/api/tournaments");
  const rows = tournaments.map((t) => {
    const c = t.clock || {};
    const starts = t.starts_at ? new Date(t.starts_at * 1000).toLocaleTimeString() : "by the director";
    const register = async () => {
      try {
        const done = await ctx.api("POST", `/api/tournaments/${t.tournament}/register`);
        // carried to the tournament's page, which the hash opens next
        (ctx.carry || ctx.notice)(`You ${done.done} in ${t.name}${t.buy_in !== undefined ? `: ${t.buy_in} chips from your balance` : ""}.`);
        ctx.refreshAccount();
        location.hash = `#/tournament/${t.tournament}`;
      } catch (error) {
        ctx.notice(error.message, "refused");
      }
    };
    return el("tr", { "data-tournament": t.tournament },
      el("td", { text: t.name }),
      el("td", { class: "t-status", text: t.status === "running" && c.paused ? "running · paused" : t.status }),
      el("td", { text: c.level ? `${c.level}: ${c.small_blind}/${c.big_blind}` : "" }),
      el("td", { text: c.players_left !== undefined ? `${c.players_left} of ${c.entries}` : "" }),
      el("td", { text: t.buy_in !== undefined ? String(t.buy_in) : "" }),
      el("td", { text: t.status === "registering" ? starts : "" }),
      el("td", {},
        t.status !== "finished" ? el("button", { class: "link register", text: "Register", onclick: register }) : null, " ",
        el("a", { class: "open", href: `#/tournament/${t.tournament}`, text: "Open" })));
  });
  return el("section", { class: "panel" },
    el("h2", { text: "Tournaments" }),
    el("table", { class: "lobby", id: "tournaments" },
      el("thead", {}, el("tr", {}, ["name", "status", "level", "players", "buy-in", "starts", ""].map((h) => el("th", { text: h })))),
      el("tbody", {}, rows)),
    rows.length ? null : el("p", { id: "tournaments-empty", class: "empty", text: "No tournament yet: a dealer or an admin creates them." }));
}

/** A tournament's page: your table (or the table you watch), the clock and the level; for a
 * dealer or an admin, the director's controls too. */
export async function tournamentPage(ctx, id, root) {
  const [info, me] = await Promise.all([ctx.api("GET", `/api/tournaments/${id}`), ctx.api("GET", "/api/me")]);
  shown = { id, size: info.table_size, key: "", ctx, received: Date.now() / 1000, director: null };
  const directs = DIRECTORS.includes(me.role); // the server refuses anyone else in any case
  root.replaceChildren(
    el("div", { class: `table-page tournament-page${directs ? " directing" : ""}` },
      el("div", { class: "table-head" },
        el("h1", { id: "table-name", text: info.name }),
        el("span", { id: "t-table", class: "spec" }),
        el("div", { id: "t-clock", class: "t-clock" })),
      el("div", { id: "table", class: "table" }),
      el("div", { id: "actions", class: "actions" }),
      directs ? directorPanel(ctx, id, info) : null,
      el("div", { class: "side" },
        el("h2", { text: "This hand" }), el("ol", { id: "t-hand", class: "log" }),
        el("h2", { text: "Tournament log" }), el("ol", { id: "t-log", class: "log" }))));
  if (shown.director) fillDirector(shown.director);
  if (ctx.ready()) ctx.send({ type: "tournament_watch", tournament: id }); // else at the welcome
}

// --- the director's controls ------------------------------------------------------------------

const DIRECTORS = ["dealer", "admin"]; // who may direct (server/tourney_http.py, DIRECTORS)
// The clauses the server cites for each control (tourney_views.control, tournaments.VOID_RULE).
/** The director's panel: the controls of POST /api/tournaments/{id}/director, each with what it
 * needs, filled from the tournament's details (players, tables) and kept up to date. */
function directorPanel(ctx, id, info) {
  const CITES = info.controls;  // each control's clause, as the server applies it
  const player = el("select", { id: "d-player", title: "the player the controls below act on" });
  const toTable = el("select", { id: "d-table" });
  const toSeat = el("select", { id: "d-seat" });
  const minutes = el("input", { id: "d-minutes", type: "number", step: 1, value: 1, title: "minutes to add (negative: to take off)" });
  const penalty = el("input", { id: "d-penalty", type: "number", min: 1, step: 1, value: 1 });
  const unit = el("select", { id: "d-unit" }, el("option", { value: "orbits", text: "orbits" }), el("option", { value: "minutes", text: "minutes" }));
  const voidTable = el("select", { id: "d-void-table" });
  const reason = el("input", { id: "d-reason", placeholder: "reason (for the record)", maxlength: 200 });
  const status = el("span", { id: "d-status", class: "spec" });
  const d = { info, player, toTable, toSeat, voidTable, status, busy: false, fetched: 0, later: null };
  shown.director = d;

  const control = async (action, fields = {}) => {
    if (d.busy) return;
    d.busy = true;
    ctx.notice("");
    try {
      const answer = await ctx.api("POST", `/api/tournaments/${id}/director`, { action, ...fields });
      ctx.notice(`Director: ${answer.done}.`);
      const st = states.get(id);
      // a void at the table on screen is logged by its tournament_hand_over
      if (action !== "void" || !st || st.table !== fields.table) log(id, `director: ${answer.done}`);
      if (st && answer.clock) {
        st.clock = answer.clock; // as the server has it now; the state that follows agrees
        shown.received = Date.now() / 1000;
      }
    } catch (error) {
      ctx.notice(error.message, "refused"); // the server's words, with the clause it cites
    } finally {
      d.busy = false;
      await refreshDirector(true);
      if (shown && shown.id === id) redraw();
    }
  };
  const button = (action, text, fields, extra = {}) => el("button", {
    "data-control": action, text, title: CITES[action] ? `${text} (${CITES[action]})` : text,
    onclick: () => control(action, fields ? fields() : {}), ...extra,
  });
  const cite = (action) => el("span", { class: "cite", text: CITES[action] });
  const chosen = () => ({ player: player.value });
  toTable.addEventListener("change", () => fillSeats(d));

  return el("section", { id: "director", class: "director" },
    el("div", { class: "d-head" }, el("h2", { text: "Director" }), status),
    el("div", { class: "d-row", "data-row": "clock" },
      el("span", { class: "d-label", text: "Clock" }),
      el("span", { class: "d-group d-registering" }, button("start", "Start now", null, { class: "primary" }), cite("start")),
      el("span", { class: "d-group d-running" }, button("pause", "Pause"), button("resume", "Resume")),
      el("span", { class: "d-group d-running" }, minutes, " min ",
        button("add_time", "Add time", () => ({ seconds: Math.round(Number(minutes.value) * 60) }))),
      el("span", { class: "d-group d-running" }, button("close_registration", "Close registration"), cite("close_registration"))),
    el("div", { class: "d-row d-running", "data-row": "player" },
      el("label", { class: "d-label", for: "d-player", text: "Player" }), player,
      el("span", { class: "d-group" }, button("absent", "Absent", chosen), button("present", "Present", chosen), cite("absent")),
      el("span", { class: "d-group" }, el("button", {
        "data-control": "disqualify", class: "fold", text: "Disqualify", title: `Disqualify (${CITES.disqualify})`,
        onclick: () => confirm(`Disqualify ${player.value}? Their chips leave play (${CITES.disqualify}).`) && control("disqualify", chosen()),
      }), cite("disqualify"))),
    el("div", { class: "d-row d-running d-indent", "data-row": "player-controls" },
      el("span", { class: "d-group" }, "to table ", toTable, " seat ", toSeat,
        button("move", "Move", () => ({ ...chosen(), table: Number(toTable.value), seat: Number(toSeat.value) })), cite("move")),
      el("span", { class: "d-group" }, "sits out ", penalty, unit,
        button("penalty", "Penalty", () => ({ ...chosen(), [unit.value]: Number(penalty.value) })), cite("penalty"))),
    el("div", { class: "d-row d-running", "data-row": "hand" },
      el("label", { class: "d-label", for: "d-void-table", text: "Hand" }), voidTable, reason,
      button("void", "Void the hand", () => ({ table: Number(voidTable.value), reason: reason.value || undefined })), cite("void")),
    el("p", { class: "d-note", text: "Each control is the server's to apply or refuse, with the rule it cites; every one is audited." }));
}

/** The tournament's details again (players, tables, hands in play) for the panel's choices:
 * at once after a control, else at most once a second (a change meanwhile is fetched then). */
async function refreshDirector(now = false) {
  const d = shown && shown.director;
  if (!d) return;
  const wait = d.fetched + 1000 - Date.now();
  if (!now && wait > 0) {
    d.later = d.later || setTimeout(() => { d.later = null; refreshDirector(); }, wait);
    return;
  }
  d.fetched = Date.now();
  const asked = (d.asked = (d.asked || 0) + 1);
  let info;
  try {
    info = await shown.ctx.api("GET", `/api/tournaments/${shown.id}`);
  } catch {
    return; // the panel keeps what it had; the next state asks again
  }
  if (asked !== d.asked || !shown || shown.director !== d) return; // a later answer is on its way, or the page is gone
  d.info = info;
  fillDirector(d);
}

function keep(select, options) {
  const was = select.value;
  select.replaceChildren(...options);
  if ([...select.options].some((o) => o.value === was)) select.value = was;
}

function fillDirector(d) {
  const { info } = d;
  const root = document.getElementById("director");
  if (!root) return;
  root.dataset.status = info.status;
  const paused = info.clock && info.clock.paused;
  root.querySelector("[data-control='pause']").hidden = paused;
  root.querySelector("[data-control='resume']").hidden = !paused;
  const seated = info.players.filter((p) => p.table !== null);
  d.status.textContent = `${info.status} · ${seated.length} seated at ${info.tables.length} table${info.tables.length === 1 ? "" : "s"}`;
  keep(d.player, seated.map((p) => el("option", {
    value: p.name,
    text: `${p.name} · table ${p.table} seat ${p.seat} · ${p.chips}${sitsOut(p)}`,
  })));
  keep(d.toTable, info.tables.map((t) => el("option", { value: t.table, text: String(t.table) })));
  fillSeats(d);
  keep(d.voidTable, info.tables.map((t) => el("option", {
    value: t.table, text: `table ${t.table} · ${t.hand ? `hand #${t.hand} in play` : "between hands"}`,
  })));
}

function sitsOut(p) {
  if (p.penalty_hands) return ` · penalty: ${p.penalty_hands} hands`;
  if (p.penalty_seconds) return ` · penalty: ${mmss(p.penalty_seconds)}`;
  return p.absent ? " · absent" : "";
}

/** The empty seats of the table picked to move to. */
function fillSeats(d) {
  const table = d.info.tables.find((t) => String(t.table) === d.toTable.value);
  const taken = new Set(table ? table.seats.map((s) => s.seat) : []);
  const size = table ? table.size : 0;
  const free = Array.from({ length: size }, (_, i) => i + 1).filter((s) => !taken.has(s));
  keep(d.toSeat, free.length ? free.map((s) => el("option", { value: s, text: String(s) })) : [el("option", { value: "", text: "none free" })]);
}

export function leaveTournamentPage() {
  shown = null;
}

/** A tournament message from the socket. */
export function tournamentReceive(m) {
  const st = states.get(m.tournament);
  switch (m.type) {
    case "tournament_state":
      states.set(m.tournament, m);
      if (shown && shown.id === m.tournament) shown.received = Date.now() / 1000;
      break;
    case "tournament_events": {
      if (!st || !st.hand || st.table !== m.table || st.hand.number !== m.hand) return;
      if (m.from > st.hand.events.length) {
        shown?.ctx.send({ type: "tournament_watch", tournament: m.tournament }); // a gap
        return;
      }
      st.hand.events = st.hand.events.slice(0, m.from).concat(m.events);
      Object.assign(st.hand, { pot: m.pot, to_act: m.to_act, clock_end: m.clock_end, legal: m.legal });
      break;
    }
    case "tournament_hand_over":
      if (st && st.hand && st.table === m.table) Object.assign(st.hand, { to_act: null, legal: null });
      log(m.tournament, `table ${m.table} hand ${m.hand} ${m.void ? m.reason : "over"}`); // "void (clause): why"
      break;
    case "tournament_move":
      log(m.tournament, `${m.player} moved to table ${m.table} seat ${m.seat} (${m.reason})`);
      shown?.ctx.notice(`You move to table ${m.table}, seat ${m.seat} (${m.reason}).`);
      break;
    case "tournament_over":
      log(m.tournament, `Over: ${m.standings.filter((s) => s.prize).map((s) => `${s.place}. ${s.name} ${s.prize}`).join(", ")}`);
      break;
    default:
      return;
  }
  if (shown && shown.id === m.tournament) {
    redraw();
    if (m.type !== "tournament_events") refreshDirector();
  }
}

function log(id, text) {
  if (!shown || shown.id !== id) return;
  document.getElementById("t-log")?.prepend(el("li", { text }));
}

/** The tournament state as the table drawing knows a table. */
function asTable(st) {
  const hand = st.hand ? { ...st.hand } : null;
  const seats = st.seats.map((s) => ({ ...s, status: s.absent ? "sitting_out" : "playing", leaving: false }));
  return { table: st.table, spec: { seats: shown.size }, you: st.you, seats, hand };
}

function redraw() {
  const st = states.get(shown.id);
  if (!st) return;
  drawClock();
  document.getElementById("t-table").textContent = st.table ? `table ${st.table}${st.you ? `, seat ${st.you}` : ""} · ${st.status}` : st.status;
  const table = asTable(st);
  renderTable(document.getElementById("table"), table);
  const nameOf = (p) => seatName(st, st.hand.order[p]);
  const hand = document.getElementById("t-hand");
  hand.replaceChildren(...(st.hand ? describeAll(st.hand.events, nameOf).filter(Boolean).map((t) => el("li", { text: t })) : []));
  hand.scrollTop = hand.scrollHeight;
  const turn = st.hand ? `${st.table}:${st.hand.number}:${st.hand.events.length}:${st.hand.to_act}` : "";
  if (turn !== shown.key) {
    shown.key = turn;
    const send = (action, fields = {}) => {
      shown.ctx.notice("");
      shown.ctx.send({ type: "tournament_act", tournament: st.tournament, table: st.table, hand: st.hand.number, action, ...fields });
    };
    const actions = document.getElementById("actions");
    actions.hidden = !st.you; // nothing to act on without a seat (a watcher, the director)
    renderActions(actions, table, send, { selected: new Set() });
    actions.dataset.turn = turn;
  }
}

/** The clock and level, counting down from what the server last said. */
function drawClock() {
  const st = states.get(shown.id);
  const box = document.getElementById("t-clock");
  if (!st || !box) return;
  const c = st.clock;
  const gone = c.paused ? 0 : Date.now() / 1000 - shown.received;
  const left = c.remaining === null ? "no limit" : mmss(c.remaining - gone);
  const next = c.next_break === null ? "none" : mmss(c.next_break - gone);
  const ante = c.ante ? ` ante ${c.ante}` : c.big_blind_ante ? ` big-blind ante ${c.big_blind_ante}` : "";
  box.replaceChildren(
    el("span", { id: "t-level", class: "t-level", text: c.on_break ? "Break" : `Level ${c.level}` }),
    el("span", { id: "t-blinds", text: `Blinds ${c.small_blind}/${c.big_blind}${ante}` }),
    el("span", { id: "t-time", text: `${left} left${c.paused ? " (paused)" : ""}` }),
    el("span", { id: "t-break", text: `next break ${next}` }),
    el("span", { id: "t-players", text: `${c.players_left} players left of ${c.entries}` }),
    el("span", { id: "t-average", text: `average stack ${c.average_stack}` }),
    el("span", { id: "t-pool", text: `prize pool ${c.prize_pool}` }),
  );
}

setInterval(() => shown && drawClock(), 500);
