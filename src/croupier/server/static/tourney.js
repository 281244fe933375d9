// Tournaments in the browser: the lobby's list, and a tournament table with its clock and level.
// The rules, the seats and the moves are the server's (docs/protocol.md); the page follows the
// table the server says is yours, also when the tournament moves you.
import { el } from "./cards.js";
import { renderActions, renderTable } from "./table.js";

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
        ctx.notice(`You ${done.done} in ${t.name}.`);
        ctx.refreshBalance();
        location.hash = `#/tournament/${t.tournament}`;
      } catch (error) {
        ctx.notice(error.message, "refused");
      }
    };
    return el("tr", { "data-tournament": t.tournament },
      el("td", { text: t.name }),
      el("td", { class: "t-status", text: t.status }),
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
      el("tbody", {}, rows)));
}

/** A tournament's page: your table (or the table you watch), the clock and the level. */
export async function tournamentPage(ctx, id, root) {
  const info = await ctx.api("GET", `/api/tournaments/${id}`);
  shown = { id, size: info.table_size, key: "", ctx, received: Date.now() / 1000 };
  root.replaceChildren(
    el("div", { class: "table-page tournament-page" },
      el("div", { class: "table-head" },
        el("h1", { id: "table-name", text: info.name }),
        el("span", { id: "t-table", class: "spec" }),
        el("div", { id: "t-clock", class: "t-clock" })),
      el("div", { id: "table", class: "table" }),
      el("div", { id: "actions", class: "actions" }),
      el("div", { class: "side" },
        el("h2", { text: "Moves and results" }), el("ol", { id: "t-log", class: "log" }))));
  if (ctx.ready()) ctx.send({ type: "tournament_watch", tournament: id }); // else at the welcome
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
      log(m.tournament, `table ${m.table} hand ${m.hand}${m.void ? ` void: ${m.reason}` : " over"}`);
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
  if (shown && shown.id === m.tournament) redraw();
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
  const turn = st.hand ? `${st.table}:${st.hand.number}:${st.hand.events.length}:${st.hand.to_act}` : "";
  if (turn !== shown.key) {
    shown.key = turn;
    const send = (action, fields = {}) => {
      shown.ctx.notice("");
      shown.ctx.send({ type: "tournament_act", tournament: st.tournament, table: st.table, hand: st.hand.number, action, ...fields });
    };
    const actions = document.getElementById("actions");
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
