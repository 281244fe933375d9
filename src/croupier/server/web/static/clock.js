// The room's clock screen (/clock/{id}): a TV on the wall, no sign-in. It reads
// GET /api/tournaments/{id}/clock every few seconds and counts down in between; when the server
// does not answer (a restart, a network drop) it keeps counting from what it last heard, says
// so, and tries again until it answers. Every figure is the server's.
import { el } from "./cards.js";

const POLL_MS = 2000;
const MOST_WAIT_MS = 10000;
const root = document.getElementById("screen");
const id = Number(location.pathname.split("/").filter(Boolean)[1]);
const key = new URLSearchParams(location.search).get("key");
const state = { data: null, received: 0, failures: 0, heard: null, gone: null, timer: null, asked: false };

function mmss(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

function blinds(stage) {
  return `${stage.small_blind.toLocaleString()} / ${stage.big_blind.toLocaleString()}`;
}

function anteText(stage) {
  if (stage.ante) return `Ante ${stage.ante.toLocaleString()}`;
  if (stage.big_blind_ante) return `Big-blind ante ${stage.big_blind_ante.toLocaleString()}`;
  return "";
}

function stageText(stage) {
  if (stage.break) return `Break · ${stage.minutes} min`;
  const ante = anteText(stage);
  return `Level ${stage.level} · ${blinds(stage)}${ante ? ` · ${ante.toLowerCase()}` : ""}`;
}

async function poll() {
  clearTimeout(state.timer);
  state.asked = false;
  try {
    const answer = await fetch(`/api/tournaments/${id}/clock${key ? `?key=${encodeURIComponent(key)}` : ""}`, { cache: "no-store" });
    const body = await answer.json();
    if (answer.ok) {
      Object.assign(state, { data: body, received: Date.now() / 1000, failures: 0, heard: new Date(), gone: null });
    } else if (answer.status === 403 || answer.status === 404) {
      state.gone = body.error; // private, or no such tournament: said, and asked again later
      state.failures += 1;
    } else {
      state.failures += 1;
    }
  } catch {
    state.failures += 1; // the server is away: keep counting, try again
  }
  draw();
  const wait = state.failures ? Math.min(POLL_MS * 2 ** Math.min(state.failures, 4), MOST_WAIT_MS) : POLL_MS;
  state.timer = setTimeout(poll, wait);
}

function stat(id_, figure, label) {
  return el("div", { class: "c-stat", id: id_ }, el("div", { class: "c-figure", text: figure }), el("div", { class: "c-label", text: label }));
}

function draw() {
  const { data } = state;
  if (!data) {
    root.replaceChildren(el("p", { class: state.gone ? "gone" : "loading", id: "c-gone", text: state.gone || (state.failures ? "Waiting for the server…" : "Loading the clock…") }));
    return;
  }
  const c = data.clock;
  const now = Date.now() / 1000;
  const gone = c.paused || data.status !== "running" ? 0 : now - state.received;
  const left = c.remaining === null ? null : c.remaining - gone;
  if (left !== null && left <= 0 && !state.asked && data.status === "running") {
    state.asked = true; // the level is over here: ask the server for the next one now
    setTimeout(poll, 300);
  }
  let mode = "running";
  if (data.status === "registering") mode = "registering";
  else if (data.status === "finished") mode = "finished";
  else if (c.paused) mode = "paused";
  else if (c.on_break) mode = "on-break";
  document.body.className = `clock-screen ${mode}`;
  const stage = data.stage;
  const next = data.next[0];
  let level, time, blindLine, anteLine;
  if (mode === "registering") {
    level = "Registration open";
    time = data.starts_at ? new Date(data.starts_at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "Soon";
    blindLine = `Level 1 · ${blinds(stage)}`;
    anteLine = data.starts_at ? "Starts at the time above" : "Starts when the director says";
  } else if (mode === "finished") {
    level = "Tournament over";
    time = "—";
    blindLine = data.leader ? `Winner: ${data.leader.name}` : "";
    anteLine = "";
  } else if (c.on_break) {
    level = "Break";
    time = left === null ? "—" : mmss(left);
    blindLine = next && !next.break ? `Next: ${blinds(next)}` : "";
    anteLine = next && !next.break ? anteText(next) : "";
  } else {
    level = `Level ${c.level}`;
    time = left === null ? "Last level" : mmss(left);
    blindLine = blinds(c);
    anteLine = anteText(c);
  }
  const banner = mode === "paused" ? "PAUSED" : mode === "on-break" ? "BREAK" : "";
  const breakIn = c.next_break === null ? "no break ahead" : c.on_break ? "now" : mmss(c.next_break - gone);
  const down = state.failures > 0;
  const prizes = data.prizes.slice(0, 10);
  root.replaceChildren(
    el("header", { class: "c-head" },
      el("h1", { class: "c-name", id: "c-name", text: data.name }),
      el("span", { class: "c-status", id: "c-status", text: mode === "on-break" ? "on break" : mode }),
      el("span", { class: `c-link${down ? " down" : ""}`, id: "c-link",
        text: down ? `Reconnecting… (last heard ${state.heard ? state.heard.toLocaleTimeString() : "never"})` : "live" })),
    el("section", { class: "c-body" },
      el("div", { class: "c-main", id: "c-main", "data-mode": mode, "data-level": c.level },
        el("div", { class: "c-banner", id: "c-banner", hidden: !banner, text: banner }),
        el("div", { class: "c-level", id: "c-level", text: level }),
        el("div", { class: "c-time", id: "c-time", text: time }),
        el("div", { class: "c-blinds", id: "c-blinds", text: blindLine }),
        el("div", { class: "c-ante", id: "c-ante", text: anteLine })),
      el("div", { class: "c-side" },
        el("div", { class: "c-box" },
          el("h2", { text: "Next" }),
          el("div", { class: "c-next", id: "c-next", text: next ? stageText(next) : "The last level: it lasts until the end" }),
          el("div", { class: "c-next" }, el("span", { class: "c-then", id: "c-break", text: `Next break: ${breakIn}` }))),
        el("div", { class: "c-box c-stats" },
          stat("c-players", `${c.players_left}`, mode === "registering" ? "registered" : `players left · ${c.entries} entries`),
          stat("c-average", c.average_stack.toLocaleString(), "average stack"),
          stat("c-pool", c.prize_pool.toLocaleString(), "prize pool"),
          stat("c-registration", c.registration_open ? "open" : "closed", "registration")),
        el("div", { class: "c-box" },
          el("h2", { text: "Payouts" }),
          prizes.length
            ? el("ol", { class: prizes.length > 5 ? "c-prizes many" : "c-prizes", id: "c-prizes" }, prizes.map((p, i) => el("li", {}, el("span", { text: `${i + 1}.` }), el("span", { text: p.toLocaleString() }))))
            : el("p", { id: "c-prizes", text: "As the field grows" })))),
    el("footer", { class: "c-foot" },
      el("span", { text: data.next[1] ? `Then: ${stageText(data.next[1])}` : "" }),
      data.leader && mode !== "finished" ? el("span", { class: "c-leader", id: "c-leader", text: `Chip leader: ${data.leader.name} · ${data.leader.chips.toLocaleString()}` }) : null),
  );
}

setInterval(() => state.data && draw(), 250);
poll();
