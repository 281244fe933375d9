// The tournament director's console: create a tournament in the browser (#/director) and run
// it (#/director/{id}): the registrants, the prize pool and the payouts as they grow, the seat
// draw as a list to read out, the state as the server has it (paused says "paused"), the moves
// as slips, the log in one order, the clock screen's link. Every figure and every check is the
// server's (GET /api/tournament_templates, POST /api/tournament_check, GET .../console); the
// page only gathers the director's choices and draws the answers.
import { el } from "./cards.js";

const POLL_MS = 2000;
let live = null; // the console on screen: {id, timer, data, received}

function mmss(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function leaveDirector() {
  if (live) clearTimeout(live.timer);
  live = null;
}

// --- creating a tournament --------------------------------------------------------------------

function numberInput(id, value, attrs = {}) {
  return el("input", { id, type: "number", min: 0, step: 1, value, ...attrs });
}

function field(label, input, hint) {
  return el("label", { class: "f-field" }, el("span", { class: "f-label", text: label }), input, hint ? el("small", { class: "f-hint", text: hint }) : null);
}

/** One row of the level structure: a level (blinds, antes, minutes) or a break (minutes). */
function stageRow(stage, rows) {
  const isBreak = "break" in stage;
  const cell = (name, value) => el("td", {}, el("input", { type: "number", min: 0, step: "any", "data-field": name, value: value ?? 0, disabled: isBreak && name !== "minutes" }));
  const row = el("tr", { class: isBreak ? "f-break" : "f-level", "data-kind": isBreak ? "break" : "level" },
    el("td", { class: "f-no" }),
    cell("small_blind", isBreak ? "" : stage.small_blind),
    cell("big_blind", isBreak ? "" : stage.big_blind),
    cell("ante", isBreak ? "" : stage.ante || 0),
    cell("big_blind_ante", isBreak ? "" : stage.big_blind_ante || 0),
    cell("minutes", isBreak ? stage.break : stage.minutes),
    el("td", {}, el("button", { type: "button", class: "f-remove", title: "remove this row", text: "✕", onclick: () => { row.remove(); numberRows(rows); rows.dispatchEvent(new Event("change", { bubbles: true })); } })));
  return row;
}

function numberRows(rows) {
  let level = 0;
  for (const row of rows.children) {
    row.querySelector(".f-no").textContent = row.dataset.kind === "break" ? "break" : `level ${++level}`;
  }
}

function readStages(rows) {
  return [...rows.children].map((row) => {
    const value = (name) => Number(row.querySelector(`[data-field='${name}']`).value);
    if (row.dataset.kind === "break") return { break: value("minutes") };
    const level = { small_blind: value("small_blind"), big_blind: value("big_blind"), minutes: value("minutes") };
    if (value("ante")) level.ante = value("ante");
    if (value("big_blind_ante")) level.big_blind_ante = value("big_blind_ante");
    return level;
  });
}

function percents(text) {
  return text.split(/[\s,/]+/).filter(Boolean).map(Number);
}

/** #/director: the tournaments, each with its console, and the form to create one. */
export async function directorPage(ctx, root) {
  leaveDirector();
  const [me, templates, { tournaments }] = await Promise.all([
    ctx.api("GET", "/api/me"), ctx.api("GET", "/api/tournament_templates"), ctx.api("GET", "/api/tournaments"),
  ]);
  if (!["dealer", "admin"].includes(me.role)) {
    root.replaceChildren(el("section", { class: "panel" }, el("h1", { text: "Tournament director" }),
      el("p", { id: "d-refused", text: "Only a dealer or an admin directs tournaments: ask an admin for the role." })));
    return;
  }
  const levelTemplate = el("select", { id: "f-template" }, Object.entries(templates.levels).map(([name, t]) => el("option", { value: name, text: t.title })));
  const rows = el("tbody", { id: "f-levels" });
  const inputs = {
    name: el("input", { id: "f-name", maxlength: 60, placeholder: "Thursday league", required: true }),
    chips: numberInput("f-chips", 10000, { min: 1 }),
    denominations: el("input", { id: "f-denominations", value: templates.denominations.join(", ") }),
    price: numberInput("f-price", 5500, { min: 1 }),
    fee: numberInput("f-fee", 500),
    lateLevel: numberInput("f-late", 0),
    reEntries: numberInput("f-reentries", 0),
    tableSize: numberInput("f-table-size", 9, { min: 2, max: 10 }),
    rebuys: el("input", { id: "f-rebuys", type: "checkbox" }),
    rebuyPrice: numberInput("f-rebuy-price", 5000), rebuyChips: numberInput("f-rebuy-chips", 10000),
    rebuyUntil: numberInput("f-rebuy-until", 2), rebuyStack: numberInput("f-rebuy-stack", 10000), rebuyMost: numberInput("f-rebuy-most", 0),
    addOn: el("input", { id: "f-addon", type: "checkbox" }),
    addOnPrice: numberInput("f-addon-price", 5000), addOnChips: numberInput("f-addon-chips", 15000), addOnLevel: numberInput("f-addon-level", 4),
    payouts: el("select", { id: "f-payouts" },
      Object.entries(templates.payouts).map(([name, t]) => el("option", { value: name, text: t.title })),
      el("option", { value: "custom", text: "Custom: your own shares" })),
    custom: el("input", { id: "f-custom", value: "50, 30, 20", title: "percent for places 1, 2, ...: they must sum to 100" }),
    unit: numberInput("f-unit", 1, { min: 1 }),
    start: el("select", { id: "f-start" }, el("option", { value: "hand", text: "when I start it" }), el("option", { value: "time", text: "at a time" })),
    startsAt: el("input", { id: "f-starts-at", type: "datetime-local" }),
    entries: numberInput("f-entries", 20, { min: 1 }),
  };
  const customSum = el("span", { id: "f-custom-sum", class: "spec" });
  const preview = el("div", { id: "f-preview", class: "f-preview" });
  const load = () => {
    const t = templates.levels[levelTemplate.value];
    inputs.chips.value = t.chips;
    rows.replaceChildren(...t.levels.map((s) => stageRow(s, rows)));
    numberRows(rows);
  };
  levelTemplate.addEventListener("change", () => { load(); check(); });
  load();

  const settings = () => {
    const data = {
      name: inputs.name.value || "tournament",
      table_size: Number(inputs.tableSize.value),
      denominations: inputs.denominations.value.split(/[\s,]+/).filter(Boolean).map(Number),
      buy_in: { price: Number(inputs.price.value), fee: Number(inputs.fee.value), chips: Number(inputs.chips.value) },
      registration: { late_until_level: Number(inputs.lateLevel.value), re_entries: Number(inputs.reEntries.value) },
      levels: readStages(rows),
    };
    if (inputs.rebuys.checked) {
      data.rebuys = { price: Number(inputs.rebuyPrice.value), chips: Number(inputs.rebuyChips.value), until_level: Number(inputs.rebuyUntil.value), stack_at_most: Number(inputs.rebuyStack.value) };
      if (Number(inputs.rebuyMost.value)) data.rebuys.most = Number(inputs.rebuyMost.value);
    }
    if (inputs.addOn.checked) data.add_on = { price: Number(inputs.addOnPrice.value), chips: Number(inputs.addOnChips.value), at_level: Number(inputs.addOnLevel.value) };
    if (inputs.payouts.value === "custom") {
      data.payouts = { unit: Number(inputs.unit.value), ranges: [{ from: 2, percent: percents(inputs.custom.value) }] };
    } else if (templates.payouts[inputs.payouts.value].plan) {
      data.payouts = { ...templates.payouts[inputs.payouts.value].plan, unit: Number(inputs.unit.value) };
    }
    return data;
  };
  let asked = 0;
  const check = async () => {
    const sum = percents(inputs.custom.value).reduce((a, b) => a + b, 0);
    customSum.textContent = `sum ${sum}%`;
    customSum.className = sum === 100 ? "spec ok" : "spec bad";
    inputs.custom.closest("label").hidden = inputs.payouts.value !== "custom";
    inputs.startsAt.closest("label").hidden = inputs.start.value !== "time";
    const mine = ++asked;
    try {
      const answer = await ctx.api("POST", "/api/tournament_check", { settings: settings(), entries: Number(inputs.entries.value) || 1 });
      if (mine !== asked) return;
      preview.className = "f-preview ok";
      preview.replaceChildren(
        el("strong", { text: `${answer.entries} entries: prize pool ${answer.pool}. ` }),
        el("span", { id: "f-prizes", text: `Pays ${answer.prizes.map((p, i) => `${i + 1}. ${p}`).join(" · ")}` }));
    } catch (error) {
      if (mine !== asked) return;
      preview.className = "f-preview bad";
      preview.replaceChildren(el("span", { id: "f-problem", text: error.message }));
    }
  };
  const create = async (event) => {
    event.preventDefault();
    const body = { name: inputs.name.value, settings: settings() };
    if (inputs.start.value === "time") {
      const when = Date.parse(inputs.startsAt.value);
      if (Number.isNaN(when)) { ctx.notice("Pick the start time, or start it by hand.", "refused"); return; }
      body.starts_at = when / 1000;
    }
    try {
      const made = await ctx.api("POST", "/api/tournaments", body);
      ctx.carry(`Tournament ${made.tournament} created: ${made.name}. Players register from the lobby.`);
      location.hash = `#/director/${made.tournament}`;
    } catch (error) {
      ctx.notice(error.message, "refused");
    }
  };
  const form = el("form", { id: "f-create", class: "panel f-create", onsubmit: create, onchange: check, oninput: () => { clearTimeout(form.later); form.later = setTimeout(check, 400); } },
    el("h1", { text: "Create a tournament" }),
    el("p", { class: "spec", text: "The card room's tournaments are no-limit hold'em under the league's rules (league 2-48), money in the smallest chip. The server checks every setting and names the rule a mistake breaks." }),
    el("div", { class: "f-grid" },
      field("Name", inputs.name),
      field("Level structure template", levelTemplate, "then edit the rows below"),
      field("Starting chips", inputs.chips),
      field("Chips in play", inputs.denominations, "denominations, each a multiple of the one below (league 48)"),
      field("Buy-in (price)", inputs.price, "all of it, fee included"),
      field("of which the fee", inputs.fee),
      field("Players a table", inputs.tableSize),
      field("Late registration until level", inputs.lateLevel, "0: none (league 19)"),
      field("Re-entries a player", inputs.reEntries),
      field("Start", inputs.start),
      field("Start time", inputs.startsAt)),
    el("h2", { text: "Levels and breaks" }),
    el("div", { class: "f-levels-box" },
      el("table", { class: "f-levels" },
        el("thead", {}, el("tr", {}, ["", "small blind", "big blind", "ante", "big-blind ante", "minutes", ""].map((h) => el("th", { text: h })))),
        rows)),
    el("div", { class: "buttons" },
      el("button", { type: "button", id: "f-add-level", text: "+ level", onclick: () => {
        const last = readStages(rows).filter((s) => !("break" in s)).pop() || { small_blind: 25, big_blind: 50, minutes: 20 };
        rows.append(stageRow({ ...last, small_blind: last.small_blind * 2, big_blind: last.big_blind * 2 }, rows)); numberRows(rows); check();
      } }),
      el("button", { type: "button", id: "f-add-break", text: "+ break", onclick: () => { rows.append(stageRow({ break: 10 }, rows)); numberRows(rows); check(); } })),
    el("h2", { text: "Rebuys and add-on (house options)" }),
    el("div", { class: "f-grid" },
      el("label", { class: "f-check" }, inputs.rebuys, " rebuys"),
      field("rebuy price", inputs.rebuyPrice), field("rebuy chips", inputs.rebuyChips),
      field("until level", inputs.rebuyUntil), field("with a stack at most", inputs.rebuyStack), field("most a player (0: no limit)", inputs.rebuyMost),
      el("label", { class: "f-check" }, inputs.addOn, " add-on"),
      field("add-on price", inputs.addOnPrice), field("add-on chips", inputs.addOnChips), field("at level", inputs.addOnLevel)),
    el("h2", { text: "Payouts" }),
    el("div", { class: "f-grid" },
      field("Plan", inputs.payouts),
      el("label", { class: "f-field" }, el("span", { class: "f-label", text: "Shares, percent" }), inputs.custom, customSum),
      field("Prizes rounded to", inputs.unit, "every prize but the first"),
      field("Preview for entries", inputs.entries)),
    preview,
    el("div", { class: "buttons" }, el("button", { type: "submit", id: "f-submit", class: "primary big", text: "Create the tournament" })));

  root.replaceChildren(
    el("section", { class: "panel", id: "d-list" },
      el("h1", { text: "Tournaments" }),
      tournaments.length
        ? el("table", { class: "lobby" },
          el("thead", {}, el("tr", {}, ["#", "name", "status", "players", ""].map((h) => el("th", { text: h })))),
          el("tbody", {}, tournaments.map((t) => el("tr", { "data-tournament": t.tournament },
            el("td", { text: String(t.tournament) }), el("td", { text: t.name }), el("td", { text: t.status }),
            el("td", { text: t.registered !== undefined ? String(t.registered) : "" }),
            el("td", {}, el("a", { href: `#/director/${t.tournament}`, text: "Console" }), " ",
              el("a", { href: `/clock/${t.tournament}`, target: "_blank", rel: "noopener", text: "Clock" }))))))
        : el("p", { class: "empty", text: "No tournament yet." })),
    form);
  check();
}

// --- the console -------------------------------------------------------------------------------

/** #/director/{id}: one tournament's console, read again every two seconds. */
export async function consolePage(ctx, id, root) {
  leaveDirector();
  const mine = (live = { id, timer: null, data: null, received: 0, ctx, root });
  mine.bots = numberInput("dc-bots", 3, { min: 1, max: 100 });
  mine.minutes = numberInput("dc-minutes", 1, { min: undefined, title: "minutes to add (negative: to take off)" });
  const poll = async () => {
    if (live !== mine) return;
    try {
      mine.data = await ctx.api("GET", `/api/tournaments/${id}/console`);
      mine.received = Date.now() / 1000;
      mine.failed = false;
    } catch (error) {
      if (!mine.data) { root.replaceChildren(el("section", { class: "panel" }, el("p", { id: "dc-error", text: error.message }))); }
      mine.failed = true;
    }
    if (live !== mine) return;
    if (mine.data) drawConsole(mine);
    mine.timer = setTimeout(poll, POLL_MS);
  };
  mine.refresh = async () => { clearTimeout(mine.timer); await poll(); };
  await poll();
}

function stateWord(d) {
  if (d.status !== "running") return d.status;
  if (d.clock.paused) return "paused";
  return d.clock.on_break ? "on break" : "running";
}

function drawConsole(mine) {
  const { data: d, ctx, root } = mine;
  const c = d.clock;
  const word = stateWord(d);
  const control = async (action, fields = {}) => {
    try {
      const answer = await ctx.api("POST", `/api/tournaments/${d.tournament}/director`, { action, ...fields });
      ctx.notice(`Director: ${answer.done}.`);
    } catch (error) {
      ctx.notice(error.message, "refused");
    }
    await mine.refresh();
  };
  const { bots, minutes } = mine; // kept from one drawing to the next
  const gone = c.paused || d.status !== "running" ? 0 : Date.now() / 1000 - mine.received;
  const left = c.remaining === null ? (d.status === "running" ? "no limit" : "not started") : mmss(c.remaining - gone);
  const ante = c.ante ? ` · ante ${c.ante}` : c.big_blind_ante ? ` · big-blind ante ${c.big_blind_ante}` : "";
  const screen = d.screen;
  const setScreen = async (change) => {
    try {
      await ctx.api("POST", `/api/tournaments/${d.tournament}/screen`, { private: screen.private, leader: screen.leader, ...change });
    } catch (error) {
      ctx.notice(error.message, "refused");
    }
    await mine.refresh();
  };
  const byTable = new Map();
  for (const row of d.draw) {
    if (!byTable.has(row.table)) byTable.set(row.table, []);
    byTable.get(row.table).push(row);
  }
  const upcoming = d.schedule.filter((s) => d.stage === null || s.stage >= d.stage).slice(0, 8);
  root.replaceChildren(
    el("div", { class: "console", id: "console", "data-status": d.status, "data-state": word },
      el("section", { class: "panel dc-head" },
        el("h1", {}, d.name, " ", el("span", { class: `dc-state dc-${word.replace(" ", "-")}`, id: "dc-state", text: word })),
        el("div", { class: "dc-clock", id: "dc-clock" },
          el("span", { id: "dc-level", text: c.on_break ? "Break" : `Level ${c.level}: ${c.small_blind}/${c.big_blind}${ante}` }),
          el("span", { id: "dc-time", text: `${left}${c.paused ? " (paused)" : ""}` }),
          el("span", { id: "dc-players", text: `${c.players_left} ${d.status === "registering" ? "registered" : `left of ${c.entries} entries`}` }),
          el("span", { id: "dc-pool", text: `prize pool ${c.prize_pool}` }),
          el("span", { text: `average ${c.average_stack}` }),
          d.status === "registering" ? el("span", { id: "dc-starts", text: d.starts_at ? `starts at ${new Date(d.starts_at * 1000).toLocaleString()}` : "starts when you press Start" }) : null,
          mine.failed ? el("span", { class: "bad", text: "reconnecting…" }) : null),
        el("div", { class: "buttons dc-controls" },
          d.status === "registering" ? el("button", { class: "primary big", "data-dc": "start", text: `Start now (${d.controls.start})`, onclick: () => control("start") }) : null,
          d.status === "running" && !c.paused ? el("button", { class: "big", "data-dc": "pause", text: "Pause", onclick: () => control("pause") }) : null,
          d.status === "running" && c.paused ? el("button", { class: "primary big", "data-dc": "resume", text: "Resume", onclick: () => control("resume") }) : null,
          d.status === "running" ? el("span", { class: "d-group" }, minutes, " min ",
            el("button", { "data-dc": "add_time", text: "Add time", onclick: () => control("add_time", { seconds: Math.round(Number(minutes.value) * 60) }) })) : null,
          d.status !== "finished" ? el("span", { class: "d-group" }, bots,
            el("button", { "data-dc": "bots", text: "Seat house bots", onclick: async () => {
              try {
                const made = await ctx.api("POST", `/api/tournaments/${d.tournament}/bots`, { count: Number(bots.value) });
                ctx.notice(`${made.bots.length} bots entered.`);
              } catch (error) { ctx.notice(error.message, "refused"); }
              await mine.refresh();
            } })) : null,
          el("a", { class: "button-link", id: "dc-tables", href: `#/tournament/${d.tournament}`, text: "Tables and all controls" }))),
      el("div", { class: "dc-grid" },
        el("section", { class: "panel" },
          el("h2", { text: d.status === "registering" ? `Registered (${d.registrants.length})` : `Players (${d.players.filter((p) => p.status === "playing").length} left)` }),
          d.status === "registering"
            ? el("ol", { id: "dc-registrants", class: "dc-list" }, d.registrants.map((n) => el("li", { text: n })))
            : el("ol", { id: "dc-chips", class: "dc-list" }, d.players.filter((p) => p.status === "playing").sort((a, b) => b.chips - a.chips).map((p) =>
              el("li", { text: `${p.name} · ${p.chips} · table ${p.table} seat ${p.seat}${p.absent ? " · absent" : ""}` }))),
          el("h2", { text: "Prize pool and payouts" }),
          el("p", { id: "dc-buyin", text: `Buy-in ${d.buy_in.price} (fee ${d.buy_in.fee}) for ${d.buy_in.chips} chips · pool ${c.prize_pool}` }),
          d.prizes.length
            ? el("ol", { id: "dc-prizes", class: "dc-list" }, d.prizes.map((p) => el("li", { text: String(p) })))
            : el("p", { id: "dc-prizes", class: "spec", text: "No entries yet." })),
        el("section", { class: "panel dc-draw" },
          el("div", { class: "dc-title" }, el("h2", { text: "Seat draw (league 2)" }),
            d.draw.length ? el("button", { id: "dc-print", text: "Print", onclick: () => window.print() }) : null),
          d.draw.length
            ? el("div", { id: "dc-draw" }, [...byTable].map(([table, seated]) => el("div", { class: "dc-table" },
              el("h3", { text: `Table ${table}` }),
              el("ol", { class: "dc-list" }, seated.map((s) => el("li", { "data-player": s.player, text: `seat ${s.seat}: ${s.player}` }))))))
            : el("p", { id: "dc-draw", class: "spec", text: "The seats are drawn at the start." }),
          el("h2", { text: "Move slips" }),
          d.slips.length
            ? el("ol", { id: "dc-slips", class: "dc-list slips" }, [...d.slips].reverse().map((s) => el("li", { class: "slip", text: s.text })))
            : el("p", { id: "dc-slips", class: "spec", text: "No moves yet: balancing and broken tables are listed here as slips." })),
        el("section", { class: "panel" },
          el("h2", { text: "Clock screen" }),
          el("p", {}, el("a", { id: "dc-screen-link", href: screen.link, target: "_blank", rel: "noopener", text: `${location.origin}${screen.link}` })),
          el("label", { class: "f-check" }, el("input", { type: "checkbox", id: "dc-private", checked: screen.private, onchange: (e) => setScreen({ private: e.target.checked }) }), " private: only with this link"),
          el("label", { class: "f-check" }, el("input", { type: "checkbox", id: "dc-leader", checked: screen.leader, onchange: (e) => setScreen({ leader: e.target.checked }) }), " show the chip leader"),
          el("h2", { text: "Schedule" }),
          el("ol", { id: "dc-schedule", class: "dc-list" }, upcoming.map((s) => el("li", { class: s.stage === d.stage ? "now" : "",
            text: s.break ? `break ${s.minutes} min` : `level ${s.level}: ${s.small_blind}/${s.big_blind}${s.ante ? ` ante ${s.ante}` : ""}${s.big_blind_ante ? ` bb ante ${s.big_blind_ante}` : ""} · ${s.minutes} min` }))),
          el("h2", { text: "Log" }),
          el("ol", { id: "dc-log", class: "log dc-log" }, [...d.log].reverse().map((line) => el("li", {},
            el("span", { class: "spec", text: `${new Date(line.at * 1000).toLocaleTimeString()} ` }), line.text)))))));
}

/** Between polls: the console's time left counts down. */
setInterval(() => {
  if (!live || !live.data) return;
  const box = document.getElementById("dc-time");
  const c = live.data.clock;
  if (!box || c.remaining === null || c.paused || live.data.status !== "running") return;
  box.textContent = mmss(c.remaining - (Date.now() / 1000 - live.received));
}, 500);
