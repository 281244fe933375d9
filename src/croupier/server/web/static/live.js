// The live table: a dealer's tablet beside a table dealt with real cards (#/live, #/live/{id}).
// The dealer taps what happens; the server (croupier dealer's engine and floor) answers every
// step: who acts and for how much, the pots and side pots, the cards due, who shows first, the
// payouts; an irregularity's ruling with the clause of the book in force. The page keeps no
// rules: it draws the table the server sends and sends the taps (docs/protocol.md, "Live
// tables"; docs/dealer.md, "The live table page").
import { card, el } from "./cards.js";

let live = null; // the table on screen: {id, ctx, view, busy, amount, reports}

export function leaveLive() {
  live = null;
  document.getElementById("l-dialog")?.remove();
  document.body.classList.remove("live-mode");
}

// --- opening a table ----------------------------------------------------------------------------

/** #/live: this dealer's live tables, and the form to open one. */
export async function livePage(ctx, root) {
  leaveLive();
  const me = await ctx.api("GET", "/api/me");
  if (!["dealer", "admin"].includes(me.role)) {
    root.replaceChildren(el("section", { class: "panel" }, el("h1", { text: "Live table" }),
      el("p", { id: "live-refused", text: "Only a dealer or an admin runs a live table: ask an admin for the role." })));
    return;
  }
  const [books, { live: tables }] = await Promise.all([ctx.api("GET", "/api/rulebooks"), ctx.api("GET", "/api/live")]);
  const book = el("select", { id: "l-book" }, books.rulebooks.map((b) => el("option", { value: b.name, text: `${b.name}: ${b.title}` })));
  const game = el("select", { id: "l-game" });
  const structure = el("select", { id: "l-structure" });
  const stakes = el("input", { id: "l-stakes", value: "5/10", title: "the minimum wager (10), or the blinds (5/10)" });
  const options = el("input", { id: "l-options", placeholder: "ante=1 commission_cap=3", title: "table options as croupier rules show BOOK lists them" });
  const seats = el("textarea", { id: "l-seats", rows: 6, text: "ann 1000\nbob 1000\ncy 1000\ndi 1000" });
  const fill = () => {
    const entry = books.rulebooks.find((b) => b.name === book.value);
    const was = game.value;
    game.replaceChildren(...entry.games.map((g) => el("option", { value: g.game, text: g.game })));
    if ([...game.options].some((o) => o.value === was)) game.value = was;
    const g = entry.games.find((x) => x.game === game.value);
    structure.replaceChildren(el("option", { value: "", text: "the book's" }), ...g.structures.map((s) => el("option", { value: s, text: s })));
  };
  book.addEventListener("change", fill);
  game.addEventListener("change", fill);
  fill();
  const open = async (event) => {
    event.preventDefault();
    const opts = {};
    for (const pair of options.value.split(/[\s,]+/).filter(Boolean)) {
      const [key, value] = pair.split("=");
      opts[key] = value !== undefined && value !== "" && !Number.isNaN(Number(value)) ? Number(value) : value;
    }
    const rows = seats.value.split("\n").map((l) => l.trim()).filter(Boolean).map((line) => {
      const words = line.split(/\s+/);
      return { name: words.slice(0, -1).join(" ") || undefined, chips: Number(words[words.length - 1]) };
    });
    try {
      const made = await ctx.api("POST", "/api/live", {
        book: book.value, game: game.value, structure: structure.value || null, stakes: stakes.value, options: opts, seats: rows,
      });
      location.hash = `#/live/${made.live}`;
    } catch (error) {
      ctx.notice(error.message, "refused");
    }
  };
  root.replaceChildren(
    tables.length ? el("section", { class: "panel" }, el("h1", { text: "Your live tables" }),
      el("ul", { id: "l-list" }, tables.map((t) => el("li", {}, el("a", { href: `#/live/${t.live}`, text: `#${t.live} ${t.name} · ${t.book} ${t.game} · ${t.players} players${t.hand ? ` · hand ${t.hand}` : ""}` }))))) : null,
    el("form", { class: "panel create l-create", id: "l-create", onsubmit: open },
      el("h2", { text: "Open a live table" }),
      el("p", { class: "spec", text: "For a table dealt with real cards: you tap what happens, croupier answers with the book's rules and rulings. The seats in seat order, seat 1 on the dealer's left; the book places the first button (or draws cards for it)." }),
      el("label", {}, "Rulebook ", book), el("label", {}, "Game ", game), el("label", {}, "Structure ", structure),
      el("label", {}, "Stakes ", stakes), el("label", {}, "Options ", options),
      el("label", {}, "Seats (name chips, one a line) ", seats),
      el("button", { type: "submit", class: "primary big", id: "l-open", text: "Open the table" })));
}

// --- the table ------------------------------------------------------------------------------------

/** #/live/{id}: the live table on the dealer's tablet. */
export async function liveTable(ctx, id, root) {
  leaveLive();
  const [view, { groups }] = await Promise.all([ctx.api("GET", `/api/live/${id}`), ctx.api("GET", "/api/live_reports")]);
  live = { id, ctx, view, busy: false, reports: groups, root, amount: "", cards: "" };
  document.body.classList.add("live-mode");
  draw();
}

async function send(body, path = "step") {
  if (!live || live.busy) return null;
  live.busy = true;
  live.ctx.notice("");
  try {
    const answer = await live.ctx.api("POST", `/api/live/${live.id}/${path}`, body);
    live.view = answer.table || answer;
    live.amount = "";
    live.cards = "";
    return answer.done || null;
  } catch (error) {
    live.ctx.notice(error.message, "refused"); // the server's words, with the rule
    return null;
  } finally {
    live.busy = false;
    if (live) draw();
  }
}

function nameOf(p) {
  return live.view.seats[p].name;
}

function seatTile(s, v) {
  const tags = [];
  if (s.button) tags.push(el("span", { class: "l-tag button", text: "button" }));
  if (s.to_act) tags.push(el("span", { class: "l-tag act", text: "to act" }));
  if (v.show_first === s.p) tags.push(el("span", { class: "l-tag show", text: "shows first" }));
  if (s.folded) tags.push(el("span", { class: "l-tag folded", text: "folded" }));
  if (s.all_in) tags.push(el("span", { class: "l-tag allin", text: "all-in" }));
  if (s.mucked) tags.push(el("span", { class: "l-tag folded", text: "mucked" }));
  const cls = ["l-seat", s.to_act ? "to-act" : "", s.folded ? "folded" : "", v.show_first === s.p ? "to-show" : ""].join(" ");
  return el("div", { class: cls, "data-p": s.p },
    el("div", { class: "l-seat-head" }, el("span", { class: "l-pn", title: `seat ${s.seat}`, text: `p${s.p + 1} · s${s.seat}` }), el("strong", { class: "l-name", text: s.name }), ...tags),
    el("div", { class: "l-chips" }, el("span", { class: "l-stack", text: String(s.stack) }), s.bet ? el("span", { class: "l-bet", text: `bet ${s.bet}` }) : null),
    el("div", { class: "l-cards" }, [...s.hole.map((c) => card(c === "?" ? "??" : c, "down")), ...s.up.map((c) => card(c, "up"))]));
}

function keypad(input) {
  const press = (k) => () => {
    if (k === "⌫") input.value = input.value.slice(0, -1);
    else if (k === "C") input.value = "";
    else input.value += k;
    live.amount = input.value;
  };
  return el("div", { class: "l-keypad" }, ["7", "8", "9", "4", "5", "6", "1", "2", "3", "C", "0", "⌫"].map((k) => el("button", { type: "button", class: "l-key", text: k, onclick: press(k) })));
}

/** What the dealer does now: the actions of the player to act, the cards due, the show, the
 * push, a choice a ruling awaits. */
function nowPanel(v) {
  const box = el("div", { class: "l-now", id: "l-now" });
  box.append(el("div", { class: "l-prompt", id: "l-prompt", text: v.prompt }));
  if (v.pending) {
    box.append(el("p", { class: "l-hint", text: "The ruling awaits a choice:" }),
      el("div", { class: "l-buttons" }, v.pending.map((key) => el("button", { class: "big primary", "data-choose": key, text: key, onclick: () => choose(key) }))));
    return box;
  }
  if (v.over) {
    box.append(el("div", { class: "l-buttons" }, el("button", { class: "big primary", id: "l-next", text: "Next hand (n)", onclick: () => send({}, "next") })));
    return box;
  }
  const L = v.legal;
  if (L) {
    const who = nameOf(L.player);
    const amount = el("input", { id: "l-amount", inputmode: "numeric", value: live.amount || (L.raise_range ? String(L.raise_range[0]) : ""), oninput: (e) => { live.amount = e.target.value; } });
    const act = (action, extra = {}) => () => send({ kind: "action", player: L.player, action, ...extra });
    const raiseWord = L.facing ? "Raise to" : "Bet";
    box.append(
      el("div", { class: "l-facts" },
        el("span", { id: "l-to-call", text: L.call ? `${who}: ${L.call} to call` : `${who}: nothing to call` }),
        L.raise_range ? el("span", { id: "l-range", text: `${L.facing ? "raise to" : "bet"} ${L.raise_range[0]}${L.raise_range[1] !== L.raise_range[0] ? ` to ${L.raise_range[1]}` : ""}` }) : el("span", { id: "l-range", text: "no raise" }),
        L.bring_in ? el("span", { text: `or bring in ${L.bring_in}` }) : null),
      el("div", { class: "l-buttons l-actions" },
        L.can_fold ? el("button", { class: "big fold", "data-act": "fold", text: "Fold (f)", onclick: act("fold") }) : null,
        L.can_check ? el("button", { class: "big", "data-act": "check", text: "Check (c)", onclick: act("check") }) : null,
        L.call ? el("button", { class: "big", "data-act": "call", text: `Call ${L.call} (c)`, onclick: act("call") }) : null,
        L.bring_in ? el("button", { class: "big", "data-act": "bring_in", text: `Bring in ${L.bring_in}`, onclick: act("bet", { amount: L.bring_in }) }) : null),
      L.raise_range ? el("div", { class: "l-raise" },
        el("div", { class: "l-raise-row" }, amount,
          el("button", { class: "big primary", "data-act": "bet", text: `${raiseWord} (b)`, onclick: () => send({ kind: "action", player: L.player, action: L.facing ? "raise" : "bet", amount: Number(amount.value) }) })),
        el("div", { class: "l-presets" },
          el("button", { type: "button", "data-preset": "min", text: `min ${L.raise_range[0]}`, onclick: () => { amount.value = String(L.raise_range[0]); live.amount = amount.value; } }),
          ...Object.entries({ half_pot: "½ pot", pot: "pot" }).filter(([key]) => L.presets[key] !== undefined).map(([key, word]) =>
            el("button", { type: "button", "data-preset": key, text: `${word} ${L.presets[key]}`, onclick: () => { amount.value = String(L.presets[key]); live.amount = amount.value; } })),
          el("button", { type: "button", "data-preset": "max", text: `max ${L.raise_range[1]}`, onclick: () => { amount.value = String(L.raise_range[1]); live.amount = amount.value; } }),
          el("button", { type: "button", "data-act": "all-in", text: "all-in", onclick: act("all-in") })),
        keypad(amount)) : null);
    return box;
  }
  if (v.drawing) {
    const d = v.drawing;
    const draw = (n) => () => send(n
      ? { kind: "action", player: d.player, action: "draw", cards: Array(n).fill("?").join(" ") }
      : { kind: "action", player: d.player, action: "pat" });
    box.append(el("p", { class: "l-hint", text: `${nameOf(d.player)} discards: how many cards?` }),
      el("div", { class: "l-buttons l-draws" },
        el("button", { class: "big", "data-draw": 0, text: "Stands pat", onclick: draw(0) }),
        Array.from({ length: d.most }, (_, i) => el("button", { class: "big", "data-draw": i + 1, text: `Draws ${i + 1}`, onclick: draw(i + 1) }))));
    return box;
  }
  const step = v.step;
  if (!step) return box;
  if (step.kind === "push") {
    box.append(el("div", { class: "l-buttons" }, el("button", { class: "big primary", id: "l-push", text: "Push the pots (p)", onclick: () => send({ kind: "push" }) })));
    return box;
  }
  if (step.kind === "show") {
    const shown = el("input", { id: "l-show-cards", placeholder: "cards shown, e.g. As Kd", value: live.cards, oninput: (e) => { live.cards = e.target.value; } });
    box.append(el("p", { class: "l-hint", text: `${nameOf(step.player)} shows first by the book: type the cards shown, or muck.` }), shown,
      el("div", { class: "l-buttons" },
        el("button", { class: "big primary", id: "l-show", text: "Show", onclick: () => send({ kind: "show", player: step.player, cards: shown.value }) }),
        el("button", { class: "big fold", id: "l-muck", text: "Muck", onclick: () => send({ kind: "muck", player: step.player }) })));
    // Cards not entered: the dealer picks the winner by mucking the other hands.
    const others = v.seats.filter((x) => !x.folded && !x.mucked && x.p !== step.player);
    if (others.length) {
      box.append(el("p", { class: "l-hint", text: "No cards to enter? Muck the hands that lose:" }),
        el("div", { class: "l-buttons" }, others.map((x) => el("button", { "data-muck": x.p, text: `Muck ${x.name}`, onclick: () => send({ kind: "muck", player: x.p }) }))));
    }
    return box;
  }
  if (step.kind === "board") {
    const street = v.board.length === 0 && step.count === 3 ? "flop" : v.board.length === 3 ? "turn" : v.board.length === 4 ? "river" : "board";
    const input = el("input", { id: "l-board-cards", placeholder: `${step.count} card${step.count > 1 ? "s" : ""}, e.g. ${"Ah Kd 7c".split(" ").slice(0, step.count).join(" ")}`, value: live.cards, oninput: (e) => { live.cards = e.target.value; } });
    box.append(el("p", { class: "l-hint", text: `Turn the ${street} and type it:` }), input,
      el("div", { class: "l-buttons" }, el("button", { class: "big primary", id: "l-board", text: `Deal the ${street}`, onclick: () => send({ kind: "cards", street, cards: input.value }) })));
    return box;
  }
  if (step.kind === "hole" && step.up) {
    const input = el("input", { id: "l-up-cards", placeholder: `${nameOf(step.player)}'s up card${step.up > 1 ? "s" : ""}`, value: live.cards, oninput: (e) => { live.cards = e.target.value; } });
    const down = Array(step.count - step.up).fill("?").join(" ");
    box.append(el("p", { class: "l-hint", text: `Deal ${nameOf(step.player)} ${step.count - step.up} down and ${step.up} up: type the up card${step.up > 1 ? "s" : ""}.` }), input,
      el("div", { class: "l-buttons" }, el("button", { class: "big primary", id: "l-up", text: "Dealt", onclick: () => send({ kind: "cards", street: "hole", player: step.player, cards: `${down} ${input.value}`.trim() }) })));
    return box;
  }
  box.append(el("div", { class: "l-buttons" }, el("button", { class: "big primary", id: "l-deal", text: dealtText(step), onclick: () => send({ kind: "deal" }) })));
  return box;
}

function dealtText(step) {
  if (step.kind === "hole") return "Dealt: hole cards (d)";
  if (step.kind === "burn") return "Burned (d)";
  if (step.kind === "replace") return `Dealt: ${step.count} to ${nameOf(step.player)} (d)`;
  return "Done (d)";
}

function choose(key) {
  send({ kind: "choose", key });
}

/** The engine's words with each player's name beside their number: "p3 (cy) call". */
function named(text) {
  const seats = live.view.seats;
  return text.replace(/\bp(\d+)\b/g, (word, n) => (seats[n - 1] ? `${word} (${seats[n - 1].name})` : word));
}

function recordList(v) {
  return el("ol", { class: "l-record", id: "l-record" }, [...v.record].reverse().map((e) => el("li", { class: e.undone ? "undone" : "" },
    e.input && e.input !== e.text ? el("span", { class: "l-input", title: "as the dealer's input", text: e.input }) : null, " ", e.rulings.length ? null : named(e.text),
    ...e.rulings.map((r) => el("div", { class: "l-ruling-line" }, el("b", { class: "cite", text: r.clause }), ` ${named(r.outcome)}`)))));
}

function draw() {
  const v = live.view;
  const root = live.root;
  const pots = v.pots.length
    ? v.pots.map((p, i) => el("li", { class: "l-pot", "data-pot": i }, el("b", { text: `${i === 0 ? "Main pot" : `Side pot ${i}`} ${p.amount}` }), ` · ${p.eligible.join(", ")}`))
    : [];
  const results = v.results.map((r) => el("li", { class: "l-result" },
    el("b", { text: `${r.pot === 0 ? "Main pot" : `Side pot ${r.pot}`} ${r.amount}` }),
    ` to ${r.winners.join(" and ")}${r.hands.length ? ` (${r.hands.join("; ")})` : ""}${r.commission ? ` · commission ${r.commission}` : ""}`));
  const pushed = v.pushed.map((p) => el("li", { class: "l-push" }, el("b", { text: `${p.name}: ${p.chips}` }), " chips to push"));
  const commission = v.commission.kind === "none" ? "no commission" : `commission ${v.commission.kind} ${v.commission.rate}${v.commission.cap ? `, cap ${v.commission.cap}` : ""}`;
  live.version = (live.version || 0) + 1; // tests wait for the next drawing
  root.replaceChildren(el("div", { class: "live", id: "live", "data-hand": v.hand, "data-over": v.over ? "1" : "0", "data-version": live.version },
    el("header", { class: "l-head" },
      el("strong", { class: "l-title", text: v.name }),
      el("span", { class: "spec", id: "l-spec", text: `${v.book} · ${v.game} · ${v.structure} · ${Array.isArray(v.stakes) ? v.stakes.join("/") : v.stakes} · hand ${v.hand} · ${commission}` }),
      el("span", { class: "l-tools" },
        el("button", { class: "warn", id: "l-irregular", text: "Irregularity (i)", onclick: openReports }),
        el("button", { id: "l-undo", text: "Undo (u)", onclick: () => send({ kind: "undo" }) }),
        el("button", { id: "l-seats-open", text: "Seats (s)", onclick: openSeats }),
        el("a", { href: "#/live", text: "Tables" }))),
    el("section", { class: "l-seats", id: "l-seats" }, v.seats.map((s) => seatTile(s, v))),
    el("section", { class: "l-middle" },
      el("div", { class: "l-board", id: "l-board-row" }, el("span", { class: "l-label", text: "Board" }), v.board.length ? v.board.map((c) => card(c)) : el("span", { class: "spec", text: "—" })),
      v.posts.length ? el("p", { class: "l-posts", id: "l-posts" }, `Posted: ${v.posts.join(" · ")}`,
        v.posts.some((p) => p.includes("(missed") || p.includes("(newcomer")) ? el("span", { class: "l-house", id: "l-house", text: " · missed blinds and newcomers: the house's rule (no book rules them)" }) : null) : null,
      buttonLine(v),
      el("ul", { class: "l-pots", id: "l-pots" }, pots),
      results.length ? el("ul", { class: "l-results", id: "l-results" }, results, pushed) : null,
      v.void ? el("p", { class: "l-void", id: "l-void", text: "Void: every chip back; the same button deals again." }) : null),
    nowPanel(v),
    el("section", { class: "l-side" },
      el("h3", { text: "This hand" }), recordList(v),
      v.hands.length ? el("div", { class: "l-hands", id: "l-hands" }, el("h3", { text: "Hands" }),
        el("ul", {}, v.hands.map((h) => el("li", {}, `#${h.hand}${h.void ? " void" : ""} `,
          el("a", { href: `/api/live/${live.id}/hands/${h.hand}/phh`, "data-download": "phh", onclick: (e) => { e.preventDefault(); live.ctx.download(`/api/live/${live.id}/hands/${h.hand}/phh`, `live-${live.id}-hand-${h.hand}.phh`); }, text: "PHH" }), " ",
          el("a", { href: `/api/live/${live.id}/hands/${h.hand}/log`, "data-download": "log", onclick: (e) => { e.preventDefault(); live.ctx.download(`/api/live/${live.id}/hands/${h.hand}/log`, `live-${live.id}-hand-${h.hand}.json`); }, text: "event log" }))))) : null)));
}

/** The button as the table placed it (a dead button where the book has one), the book's rule
 * for it, the draw for the first button, and the seats not dealt in (sitting out, owing). */
function buttonLine(v) {
  const b = v.button_seat;
  if (!b) return null;
  const rules = v.table_rules;
  const out = v.chairs.filter((c) => c.name && c.state !== "dealt");
  const first = v.hand === 1 && !v.hands.length;
  return el("div", { class: "l-button-line", id: "l-button" },
    el("span", { class: b.dead ? "l-tag dead" : "l-tag button", id: "l-button-seat", text: b.dead ? `dead button: seat ${b.seat}${b.name ? ` (${b.name}, not dealt in)` : " (empty)"}` : `button: seat ${b.seat} (${b.name})` }),
    " ", el("b", { class: "cite", id: "l-button-clause", text: first ? rules.first_button.clause : rules.blind_policy.clause }),
    v.draw.length && first ? el("span", { id: "l-draw", text: ` · drawn for the button: ${v.draw.map((d) => `${d.name} ${d.card}`).join(", ")}` }) : null,
    out.length ? el("span", { id: "l-out", text: ` · not dealt: ${out.map((c) => `s${c.seat} ${c.name} (${c.state === "away" ? "sits out" : "waits"}${c.owes.length ? `, owes ${c.owes.join(" and ")} blind` : ""})`).join(", ")}` }) : null);
}

// --- the seats dialog: players sit down, leave, sit out and come back ----------------------------

function openSeats() {
  const dialog = el("div", { class: "l-dialog", id: "l-dialog", role: "dialog", "aria-modal": "true" });
  const seatSend = async (body) => {
    const done = await send(body, "seat");
    if (done) fill();
  };
  const fill = () => {
    const v = live.view;
    const rows = v.chairs.map((c) => {
      if (!c.name) {
        const name = el("input", { class: "l-sit-name", "data-seat": c.seat, placeholder: "name" });
        const chips = el("input", { class: "l-sit-chips", "data-seat": c.seat, inputmode: "numeric", placeholder: "chips" });
        return el("tr", { "data-seat": c.seat }, el("td", { text: `s${c.seat}` }), el("td", {}, name), el("td", {}, chips),
          el("td", {}, el("button", { class: "big", "data-sit": c.seat, text: "Sits down", onclick: () => seatSend({ action: "sit", seat: c.seat, name: name.value, chips: Number(chips.value) }) })));
      }
      const state = { dealt: "dealt in", away: "sits out", out: "not dealt this hand" }[c.state];
      return el("tr", { "data-seat": c.seat }, el("td", { text: `s${c.seat}` }), el("td", {}, el("strong", { text: c.name })),
        el("td", { text: `${c.chips} · ${state}${c.owes.length ? ` · owes ${c.owes.join(" and ")} blind` : ""}` }),
        el("td", {},
          c.state === "away"
            ? el("button", { class: "big", "data-back": c.seat, text: "Back", onclick: () => seatSend({ action: "back", seat: c.seat }) })
            : el("button", { class: "big", "data-away": c.seat, text: "Sits out", onclick: () => seatSend({ action: "away", seat: c.seat }) }),
          el("button", { class: "big fold", "data-leave": c.seat, text: "Leaves", onclick: () => seatSend({ action: "leave", seat: c.seat }) })));
    });
    const h = v.house;
    dialog.replaceChildren(el("div", { class: "l-dialog-body", id: "l-seats-dialog" },
      el("div", { class: "l-dialog-head" }, el("h2", { text: "Seats" }), el("button", { id: "l-seats-close", class: "big primary", text: "Back to the hand", onclick: () => dialog.remove() })),
      el("p", { class: "spec", text: `Changes take effect between hands, as the book allows. The button: ${v.table_rules.blind_policy.clause} (${v.table_rules.blind_policy.value}); the first button: ${v.table_rules.first_button.clause}. No book rules missed blinds or newcomers: the house's rule here, missed blinds ${h.missed_blinds === "post-dead" ? "posted (the big live, the small dead)" : "wait for the big blind"}, a newcomer ${h.new_player === "wait-for-big-blind" ? "waits for the big blind" : "posts a big blind to come in"}.` }),
      el("table", { class: "l-seat-table" }, el("tbody", {}, rows))));
  };
  fill();
  document.getElementById("l-dialog")?.remove();
  document.body.append(dialog);
}

// --- the irregularity dialog ---------------------------------------------------------------------

function openReports() {
  const dialog = el("div", { class: "l-dialog", id: "l-dialog", role: "dialog", "aria-modal": "true" });
  const close = () => dialog.remove();
  const list = el("div", { class: "l-dialog-body" },
    el("div", { class: "l-dialog-head" }, el("h2", { text: "Report an irregularity" }), el("button", { id: "l-dialog-close", text: "Close", onclick: close })),
    el("div", { class: "l-groups" }, live.reports.map((g) => el("div", { class: "l-group" },
      el("h3", { text: g.group }),
      el("div", { class: "l-report-buttons" }, g.reports.map((r) => el("button", { "data-report": r.verb, title: r.usage, text: r.verb, onclick: () => ask(dialog, r) })))))));
  dialog.append(list);
  document.getElementById("l-dialog")?.remove();
  document.body.append(dialog); // above the table, which each answer draws again
}

function fieldInput(f) {
  const v = live.view;
  const label = f.name.replaceAll("_", " ");
  if (f.kind === "player") {
    return el("label", { class: "l-q" }, el("span", { text: label }),
      el("select", { "data-field": f.name }, f.required ? null : el("option", { value: "", text: "—" }), v.seats.map((s) => el("option", { value: s.p, text: `p${s.p + 1} ${s.name}` }))));
  }
  if (f.kind === "flag") return el("label", { class: "l-q l-flag" }, el("input", { type: "checkbox", "data-field": f.name }), ` ${label}`, f.means ? el("small", { class: "spec", text: ` (${f.means})` }) : null);
  const hint = { card: "a card, e.g. Qh", cards: "cards, e.g. 5d 4h 3c", number: "a number", numbers: "numbers, e.g. 25 5", seat: "seat number", words: "more, as typed: p4 Jc", text: "a word" }[f.kind] || "";
  return el("label", { class: "l-q" }, el("span", { text: `${label}${f.required ? "" : " (if any)"}` }),
    el("input", { "data-field": f.name, "data-kind": f.kind, placeholder: hint, inputmode: f.kind === "number" ? "numeric" : undefined }));
}

function ask(dialog, report) {
  const fields = report.fields.filter((f) => f.kind !== "word");
  const form = el("form", { class: "l-dialog-body", id: "l-ask", onsubmit: async (event) => {
    event.preventDefault();
    const answers = {};
    for (const input of form.querySelectorAll("[data-field]")) {
      const name = input.dataset.field;
      if (input.type === "checkbox") answers[name] = input.checked;
      else if (input.tagName === "SELECT") answers[name] = input.value === "" ? null : Number(input.value);
      else if (input.value.trim() !== "") answers[name] = input.dataset.kind === "number" ? Number(input.value) : input.value.trim();
    }
    const done = await send({ kind: "report", report: report.verb, answers });
    if (done) ruled(dialog, done);
  } },
    el("div", { class: "l-dialog-head" }, el("h2", { text: report.verb }), el("button", { type: "button", text: "Back", onclick: () => { dialog.remove(); openReports(); } })),
    el("p", { class: "spec", text: report.about || report.usage }),
    el("p", { class: "l-usage", text: `as typed: ${report.usage}` }),
    el("div", { class: "l-questions" }, fields.map(fieldInput)),
    el("div", { class: "l-buttons" }, el("button", { type: "submit", class: "big primary", id: "l-report-send", text: "Ask the floor" })));
  dialog.replaceChildren(form);
}

/** The ruling: the clause of the book in force, what happens, what the dealer does now, and the
 * choices the book leaves to the floor. */
function ruled(dialog, done) {
  const v = live.view;
  const body = el("div", { class: "l-dialog-body l-ruling", id: "l-ruling" },
    el("div", { class: "l-dialog-head" }, el("h2", { text: "Ruling" }), el("button", { id: "l-ruling-close", class: "big primary", text: "Back to the hand", onclick: () => dialog.remove() })),
    done.rulings.length ? done.rulings.map((r) => el("div", { class: "l-ruled" },
      el("div", { class: "l-clause cite", text: r.clause }),
      el("p", { class: "l-outcome", text: named(r.outcome) }),
      el("p", { class: "spec", text: r.basis === "own" ? `the book in force (${r.book})` : `${r.basis}${r.filled_from ? ` from ${r.filled_from}` : ""}` }),
      r.choices.length ? el("div", {}, el("p", { class: "l-hint", text: "The book leaves this to the floor: choose." }),
        el("div", { class: "l-buttons" }, r.choices.map((key) => el("button", { class: "big", "data-choose": key, text: key, onclick: async () => {
          const next = await send({ kind: "choose", key });
          if (next) ruled(dialog, next);
        } })))) : null))
      : el("p", { text: done.text }),
    el("p", { class: "l-now-line", id: "l-ruling-now", text: `Now: ${v.prompt}` }));
  dialog.replaceChildren(body);
}

// --- keys on a laptop ------------------------------------------------------------------------------

document.addEventListener("keydown", (event) => {
  if (!live || event.ctrlKey || event.metaKey || event.altKey) return;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement?.tagName)) {
    if (event.key === "Enter" && document.activeElement.id === "l-amount") document.querySelector("[data-act='bet']")?.click();
    return;
  }
  if (document.getElementById("l-dialog")) {
    if (event.key === "Escape") document.getElementById("l-dialog").remove();
    return;
  }
  const click = (selector) => document.querySelector(selector)?.click();
  const keys = {
    f: () => click("[data-act='fold']"),
    c: () => click("[data-act='check']") || click("[data-act='call']"),
    b: () => document.getElementById("l-amount")?.focus(),
    d: () => click("#l-deal"),
    p: () => click("#l-push"),
    n: () => click("#l-next"),
    u: () => click("#l-undo"),
    i: () => click("#l-irregular"),
    s: () => click("#l-seats-open"),
  };
  if (keys[event.key]) {
    event.preventDefault();
    keys[event.key]();
  }
});
