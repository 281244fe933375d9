// The card room in the browser: sign-in, the lobby, the table, hand histories and rulebooks.
// It speaks docs/protocol.md (HTTP and one WebSocket) and keeps no game logic of its own.
import { cards, el } from "./cards.js";
import { describeAll, derive } from "./view.js";
import { clockText, idleText, rememberNames, renderActions, renderTable, renderWaiting, resultEntry,
  seatName } from "./table.js";
import { leaveTournamentPage, tournamentPage, tournamentReceive, tournamentSection } from "./tourney.js";
import { accountPage } from "./account.js";
import { consolePage, directorPage, leaveDirector } from "./director.js";
import { leaveLive, livePage, liveTable } from "./live.js";

const main = document.getElementById("main");
const bar = document.getElementById("bar");
const session = {
  token: localStorage.getItem("croupier.token"),
  name: localStorage.getItem("croupier.name"),
};
const tables = new Map(); // table id -> the latest state, kept up to date by the socket
const results = new Map(); // table id -> the last hands' result elements
const chats = new Map(); // table id -> its chat lines, oldest first
// The players this viewer muted (their lines are not shown here), kept in this browser.
const muted = new Set(JSON.parse(localStorage.getItem("croupier.muted") || "[]"));
let seats = []; // where the welcome says we sit
let transfers = []; // the welcome's open rights to sit with a broken game's stack (buy-in 3)
let waits = []; // the waiting lists we are on: {table, offer, offer_until} (welcome, then kept)
let socket = null;
let home = null; // the server process the socket goes to, when not this page's own (follow)
let ready = false;
let counter = 0;
const pending = new Map(); // action id -> what to do with the answer
const pick = { selected: new Set(), toggle: null };

// --- HTTP ------------------------------------------------------------------------------------

async function api(method, path, body) {
  const headers = { "content-type": "application/json" };
  if (session.token) headers.authorization = `Bearer ${session.token}`;
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new Error(typeof data === "object" ? data.error : data);
  return data;
}

async function download(path, filename) {
  const response = await fetch(path, { headers: { authorization: `Bearer ${session.token}` } });
  if (!response.ok) {
    notice((await response.json()).error, "error");
    return;
  }
  const link = el("a", { href: URL.createObjectURL(await response.blob()), download: filename });
  document.body.append(link);
  link.click();
  link.remove();
}

let noticeTimer = null;
function notice(text, kind = "info") {
  const box = document.getElementById("notice");
  box.className = kind;
  box.textContent = text;
  box.hidden = !text;
  // News ("200 chips added") goes after a while; an error stays until the next action.
  clearTimeout(noticeTimer);
  if (text && kind === "info") noticeTimer = setTimeout(() => { if (box.textContent === text) box.hidden = true; }, 8000);
}

// --- the socket ------------------------------------------------------------------------------

function nextId() {
  counter += 1;
  return `w${Date.now().toString(36)}-${counter}`;
}

function send(message, answer) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    notice("Reconnecting to the card room; try again in a moment.", "error");
    return null;
  }
  const id = nextId();
  if (answer) pending.set(id, answer);
  socket.send(JSON.stringify({ ...message, id }));
  return id;
}

/** The socket address of the process that served this page. */
function ownSocket() {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}`;
}

function connect() {
  if (!session.token) return;
  socket = new WebSocket(`${home || ownSocket()}/ws`);
  ready = false;
  socket.onopen = () => send({ type: "hello", token: session.token }, (m) => {
    if (m.type === "error" && m.code === "unauthorised") signOut(); // the token expired
  });
  socket.onmessage = (frame) => receive(JSON.parse(frame.data));
  socket.onclose = () => {
    // A process that would not welcome us (stopped, its tables taken over): back to the
    // page's own, which sends us on to wherever the table is now.
    if (!ready) home = null;
    ready = false;
    document.body.classList.add("offline");
    setTimeout(connect, 1000); // reconnect: the server gives the seat back, hand intact
  };
}

/** The table (or tournament) is run by another server process (docs/scaling.md): the socket
 *  moves there, and its welcome watches what is on screen again. */
function follow(url) {
  const target = url.replace(/^http/, "ws").replace(/\/+$/, "");
  home = target === ownSocket() ? null : target;
  if (socket) { socket.onclose = null; socket.close(); }
  connect();
}

function receive(m) {
  switch (m.type) {
    case "welcome":
      ready = true;
      document.body.classList.remove("offline");
      seats = m.seats;
      transfers = m.transfers;
      waits = m.waits;
      session.balance = m.balance;
      session.role = m.role;
      drawBar();
      // A table on screen is watched afresh; the lobby only reloads its list, so that a
      // half-filled new-table form survives a (re)connect.
      if (lobbyReload) lobbyReload();
      else route();
      break;
    case "state": {
      const before = tables.get(m.table);
      if (before && before.you !== null && m.you === null) seatGone(m.table);
      tables.set(m.table, m);
      rememberNames(m);
      keepWaits(m.table, m.waiting);
      pick.selected.clear();
      redraw(m.table);
      break;
    }
    case "events": {
      const st = tables.get(m.table);
      if (!st || !st.hand || st.hand.number !== m.hand) break;
      const known = st.hand.events.length;
      if (m.from > known) {
        send({ type: "watch", table: m.table }); // a gap: ask for the whole state again
        break;
      }
      st.hand.events = st.hand.events.slice(0, m.from).concat(m.events);
      Object.assign(st.hand, { pot: m.pot, to_act: m.to_act, clock_end: m.clock_end, bank_end: m.bank_end, legal: m.legal });
      if (m.to_act !== st.you) pick.selected.clear();
      redraw(m.table);
      break;
    }
    case "hand_over": {
      const st = tables.get(m.table);
      if (!st) break;
      const list = results.get(m.table) || [];
      if (m.void) {
        list.unshift(el("li", { class: "result void", "data-hand": m.hand }, el("b", { text: `#${m.hand}` }), ` void: ${m.reason}`));
      } else if (st.hand && st.hand.number === m.hand) {
        st.hand.to_act = null;
        st.hand.legal = null;
        list.unshift(resultEntry(m.hand, derive(st.hand), (seat) => seatName(st, seat), st.spec.game));
      }
      results.set(m.table, list.slice(0, 8));
      redraw(m.table);
      break;
    }
    case "seats": {
      const st = tables.get(m.table);
      if (!st) break;
      rememberNames(st); // a leaver's name stays on the hand they were dealt
      st.seats = m.seats;
      st.waiting = m.waiting;
      keepWaits(m.table, m.waiting);
      const now = m.seats.find((s) => s.name === session.name);
      if (st.you !== null && now && now.seat !== st.you) {
        // A seat change won on the waiting list: the server moved us, chips and all.
        st.you = now.seat;
        seats = seats.filter((s) => s.table !== m.table);
        seats.push({ table: m.table, seat: now.seat });
      } else if (st.you !== null && !now) {
        st.you = null;
        seatGone(m.table);
      }
      redraw(m.table);
      break;
    }
    case "chat": {
      // A line of a table's chat: kept (once: a new watch is sent the last lines again).
      const lines = chats.get(m.table) || [];
      const key = `${m.at}:${m.name}:${m.text}`;
      if (!lines.some((l) => l.key === key)) {
        lines.push({ ...m, key });
        chats.set(m.table, lines.slice(-100));
        if (onScreen && onScreen.table === m.table && !onScreen.replay) drawChat(m.table);
      }
      break;
    }
    case "seat_offer": {
      // Told wherever we are: the lobby tags the table, another page says so.
      keepWaits(m.table, [{ name: session.name, offer: m.seat, offer_until: m.until }]);
      if (!onScreen || onScreen.table !== m.table) {
        const until = new Date(m.until * 1000).toLocaleTimeString();
        notice(`Seat ${m.seat} at ${m.name} is held for you until ${until}: open the table from the lobby to take it.`);
        if (lobbyReload) lobbyReload();
      }
      break;
    }
    case "table_closed": {
      // Every seat was cashed out: ours (if we sat there) is back in the balance.
      tables.delete(m.table);
      if (seats.some((s) => s.table === m.table)) seatGone(m.table);
      if (onScreen && onScreen.table === m.table && !onScreen.replay) {
        onScreen = null;
        const moved = m.moved_stack
          ? ` You may sit with those ${m.moved_stack} chips, once within the hour, at another table of the same game and stakes under this book, even below its minimum buy-in (cardroom buy-in 3).`
          : "";
        carried = `Table ${m.table} closed: ${m.reason}. Any chips you had there are back in your balance.${moved}`;
        location.hash = "#/lobby";
      } else if (lobbyReload) {
        lobbyReload(); // the lobby on screen drops the closed table
      }
      break;
    }
    case "ok":
    case "error": {
      const answer = pending.get(m.id);
      pending.delete(m.id);
      if (m.type === "error" && m.code === "elsewhere" && m.url) {
        follow(m.url); // not the player's mistake: nothing to tell them
      } else if (m.type === "error") {
        const refusal = document.getElementById("refusal");
        const beside = Boolean(refusal) && m.code === "refused";
        // A refused action is said once, beside the buttons, where the player looks; the
        // notice above the table would push it down while they decide.
        if (!beside) notice(m.message, m.code === "refused" ? "refused" : "error");
        // The table on screen was let go while its database was unreadable: watch it again
        // (the server loads it once the database answers; until then this comes back).
        if (m.id === null && m.code === "unavailable" && onScreen && !onScreen.replay) {
          const table = onScreen.table;
          setTimeout(() => { if (ready && onScreen && onScreen.table === table) send({ type: "watch", table }); }, 2000);
        }
        if (beside) {
          refusal.textContent = m.message;
          refusal.hidden = false;
        }
        if (answer) answer(m);
      } else if (answer) {
        answer(m);
      }
      break;
    }
    default:
      if (m.type.startsWith("tournament_")) tournamentReceive(m);
      break;
  }
}

// Our seat at ``table`` is gone (a cash-out at Leave, or a seat taken away): the chips went
// back to the balance, and the table offers its seats again.
/** Our place on ``table``'s waiting list, as its latest list (or a seat offer) says. */
function keepWaits(table, list) {
  const mine = (list || []).find((w) => w.name === session.name);
  waits = waits.filter((w) => w.table !== table);
  if (mine) waits.push({ table, offer: mine.offer, offer_until: mine.offer_until });
}

function seatGone(table) {
  seats = seats.filter((s) => s.table !== table);
  refreshAccount();
}

/** The whole number of chips in the input ``box``, or null after saying what is wrong. */
function chipsIn(box, what) {
  const chips = Number(box.value);
  if (box.value.trim() !== "" && Number.isInteger(chips) && chips > 0) return chips;
  const least = onScreen && onScreen.rules ? ` (the table's minimum buy-in is ${onScreen.rules.minimum_buy_in})` : "";
  notice(`The ${what} must be a whole number of chips${what === "buy-in" ? least : ""}.`, "error");
  return null;
}

/** The balance and the open rights to sit with a broken game's stack, from GET /api/me. */
async function refreshAccount() {
  try {
    const me = await api("GET", "/api/me");
    session.balance = me.balance;
    session.role = me.role;
    ({ seats, transfers, waits } = me);
    drawBar();
  } catch { /* shown again at the next welcome */ }
}

// --- pages -----------------------------------------------------------------------------------

function drawBar() {
  const links = session.token
    ? [
        el("a", { href: "#/lobby", text: "Lobby" }),
        el("a", { href: "#/history", text: "Hand history" }),
        ["dealer", "admin"].includes(session.role) ? el("a", { href: "#/director", id: "director-link", text: "Director" }) : null,
        ["dealer", "admin"].includes(session.role) ? el("a", { href: "#/live", id: "live-link", text: "Live table" }) : null,
        el("a", { class: "me", id: "me", href: "#/account", title: "your account and its chip ledger", text: `${session.name}${session.balance !== undefined ? ` · ${session.balance} chips` : ""}` }),
        el("button", { class: "link", id: "sign-out", onclick: signOut, text: "Sign out" }),
      ]
    : [];
  const four = el("label", { class: "four-toggle" },
    el("input", { type: "checkbox", id: "four-colour", checked: document.body.classList.contains("four"), onchange: (e) => {
      document.body.classList.toggle("four", e.target.checked);
      localStorage.setItem("croupier.four", e.target.checked ? "1" : "");
    } }), " four colours");
  const sound = el("label", { class: "four-toggle", title: "a sound when it is your turn, and when your clock runs low" },
    el("input", { type: "checkbox", id: "sound", checked: Boolean(localStorage.getItem("croupier.sound")), onchange: (e) => {
      localStorage.setItem("croupier.sound", e.target.checked ? "1" : "");
    } }), " sound");
  bar.replaceChildren(el("a", { href: "#/lobby", class: "brand", text: "croupier" }), ...links.filter(Boolean), sound, four);
}

function signIn() {
  const name = el("input", { id: "name", autocomplete: "username", placeholder: "name", required: true });
  const password = el("input", { id: "password", type: "password", autocomplete: "current-password", placeholder: "password", required: true });
  const go = (path) => async (event) => {
    event.preventDefault();
    try {
      const answer = await api("POST", path, { name: name.value, password: password.value });
      session.token = answer.token;
      session.name = answer.name;
      localStorage.setItem("croupier.token", answer.token);
      localStorage.setItem("croupier.name", answer.name);
      notice("");
      connect();
      location.hash = "#/lobby";
    } catch (error) {
      notice(error.message, "error");
    }
  };
  main.replaceChildren(
    el("form", { class: "panel sign-in", id: "sign-in", onsubmit: go("/api/login") },
      el("h1", { text: "The card room" }),
      el("p", { text: "Poker dealt as five casino rulebooks say. Sign in, or register a new account (it comes with chips to play)." }),
      el("label", {}, "Name ", name),
      el("label", {}, "Password ", password),
      el("div", { class: "buttons" },
        el("button", { type: "submit", id: "login", class: "primary", text: "Sign in" }),
        el("button", { type: "button", id: "register", text: "Register", onclick: go("/api/register") }))));
}

async function signOut() {
  try { await api("POST", "/api/logout"); } catch { /* the token is gone either way */ }
  session.token = null;
  localStorage.removeItem("croupier.token");
  if (socket) { socket.onclose = null; socket.close(); }
  tables.clear();
  drawBar();
  location.hash = "#/";
}

let books = null;
let lobbyReload = null; // the lobby's list loader while the lobby is on screen
const LOBBY_POLL_MS = 5000; // how often the lobby on screen is read again
async function lobby() {
  books = books || (await api("GET", "/api/rulebooks"));
  const list = el("tbody");
  const empty = el("p", { id: "tables-empty", class: "empty", hidden: true });
  const tournamentList = el("div", { id: "tournament-list" }); // filled below: this page's own
  const filters = {
    game: el("select", { id: "filter-game" }, el("option", { value: "", text: "any game" }),
      books.games.map((g) => el("option", { value: g, text: g }))),
    rulebook: el("select", { id: "filter-rulebook" }, el("option", { value: "", text: "any rulebook" }),
      books.rulebooks.map((b) => el("option", { value: b.name, text: b.name })),
      el("option", { value: "None", text: "house rules" })), // the filter matches str(spec.rulebook)
    open: el("input", { type: "checkbox", id: "filter-open" }),
  };
  const rights = el("ul", { id: "transfers" });
  const load = async () => {
    rights.replaceChildren(...transfers.map((t) => el("li", {
      text: `Table ${t.from_table} closed: you may sit with your ${t.chips} chips, once, until ${new Date(t.expires * 1000).toLocaleTimeString()}, at a ${t.rulebook ?? "house rules"} ${t.game} ${t.structure} ${t.stakes} table, even below its minimum buy-in (${t.clause}).`,
    })));
    rights.hidden = !transfers.length;
    const query = new URLSearchParams();
    if (filters.game.value) query.set("game", filters.game.value);
    if (filters.rulebook.value) query.set("rulebook", filters.rulebook.value);
    if (filters.open.checked) query.set("open_seats", "1");
    const { tables: rows } = await api("GET", `/api/tables?${query}`);
    list.replaceChildren(...rows.map((t) => el("tr", { "data-table": t.table },
      el("td", {}, t.name, seats.some((s) => s.table === t.table) ? el("span", { class: "tag mine", text: "your seat" }) : null,
        waitTag(t.table),
        t.closing ? el("span", { class: "tag closing", text: "closing" }) : null),
      el("td", { text: t.spec.rulebook || "house" }),
      el("td", { text: t.spec.game }),
      structureCell(t),
      el("td", { text: t.spec.stakes }),
      el("td", {
        class: "seats",
        text: `${t.seats_taken}/${t.spec.seats}` + (t.waiting ? ` · ${t.waiting} waiting` : ""),
      }),
      el("td", { class: "hands", text: String(t.hands) }),
      el("td", {},
        el("a", { class: "join", href: `#/table/${t.table}`, text: "Join" }), " ",
        el("a", { class: "watch", href: `#/table/${t.table}?watch`, text: "Watch" }), " ",
        el("a", { class: "rules", href: `#/rules/${t.table}`, text: "Rules" })))));
    empty.hidden = rows.length > 0;
    empty.textContent = query.size ? "No table matches these filters." : "No table yet: create one below.";
    list.closest("table")?.setAttribute("data-loaded", ""); // the rows are in: tests wait for this
  };
  Object.values(filters).forEach((f) => f.addEventListener("change", load));
  lobbyReload = load;
  main.replaceChildren(
    el("section", { class: "panel" },
      el("h1", { text: "Tables" }),
      rights,
      el("div", { class: "filters" }, filters.game, filters.rulebook, el("label", {}, filters.open, " open seats")),
      el("table", { class: "lobby", id: "tables" },
        el("thead", {}, el("tr", {}, ["name", "rulebook", "game", "structure", "stakes", "seats", "hands", ""].map((h) => el("th", { text: h })))),
        list),
      empty),
    createForm(),
    tournamentList,
  );
  await refreshAccount(); // the balance, and the rights to sit with a broken game's stack
  await load();
  // Kept current while on screen: others' new tables, seats taken, a seat held for us (told
  // by a process our socket is not on), the balance.
  const poll = setInterval(async () => {
    if (lobbyReload !== load) { clearInterval(poll); return; }
    try {
      await refreshAccount();
      if (lobbyReload === load) await load();
    } catch { /* the next poll tries again */ }
  }, LOBBY_POLL_MS);
  try {
    tournamentList.replaceChildren(await tournamentSection({ api, notice, refreshAccount, carry: (text) => { carried = text; } }));
  } catch (error) {
    notice(error.message, "error");
  }
}

function waitTag(table) {
  const mine = waits.find((w) => w.table === table);
  if (!mine) return null;
  return mine.offer
    ? el("span", { class: "tag held", text: `seat ${mine.offer} held for you` })
    : el("span", { class: "tag waits", text: "on the waiting list" });
}

// A table without a structure plays its book's default for the game: the rules say which.
const structures = new Map(); // table id -> its structure
function structureCell(t) {
  const cell = el("td", { class: "structure", text: t.spec.structure || structures.get(t.table) || "" });
  if (!cell.textContent) {
    api("GET", `/api/tables/${t.table}/rules`)
      .then((info) => { structures.set(t.table, info.structure); cell.textContent = info.structure; })
      .catch(() => { cell.textContent = "the book's default"; });
  }
  return cell;
}

function createForm() {
  const book = el("select", { id: "new-rulebook" },
    books.rulebooks.map((b) => el("option", { value: b.name, text: `${b.name}: ${b.title}` })),
    el("option", { value: "", text: "house rules (croupier's own)" }));
  const game = el("select", { id: "new-game" });
  const structure = el("select", { id: "new-structure" });
  const fillGames = () => {
    const chosen = books.rulebooks.find((b) => b.name === book.value);
    const games = chosen ? chosen.games : books.games.map((g) => ({ game: g, structures: books.structures }));
    // The game chosen stays when the new book deals it; else hold'em, the game most come for.
    const keep = game.value;
    const houseOnly = books.house_only || [];
    game.replaceChildren(...games.map((g) => el("option", { value: g.game,
      text: !chosen && houseOnly.includes(g.game) ? `${g.game} (house rules: no book deals it)` : g.game })));
    const names = games.map((g) => g.game);
    game.value = names.includes(keep) ? keep : names.includes("holdem") ? "holdem" : names[0];
    fillStructures();
  };
  const fillStructures = () => {
    const chosen = books.rulebooks.find((b) => b.name === book.value);
    const entry = chosen ? chosen.games.find((g) => g.game === game.value) : null;
    const allowed = entry ? entry.structures : books.structures;
    // The structure left to the table: the book's default for the game, else the game's usual.
    const usual = entry ? entry.default : (books.usual || {})[game.value];
    const label = entry ? `the book's default${usual ? ` (${usual})` : ""}` : `the game's usual${usual ? ` (${usual})` : ""}`;
    structure.replaceChildren(el("option", { value: "", text: label }),
      ...allowed.map((s) => el("option", { value: s, text: s })));
    // What a player from elsewhere would not expect of this book, with its clause; a game no
    // book deals is dealt by house rules, said here too.
    const lines = entry ? (entry.notes || []).map((n) => `${n.text} (${n.clause})`)
      : [`${game.value}: ${books.house_note}`];
    notes.replaceChildren(...lines.map((text) => el("li", { text })));
    notes.hidden = !lines.length;
  };
  const notes = el("ul", { id: "new-notes", class: "form-notes" });
  book.addEventListener("change", fillGames);
  game.addEventListener("change", fillStructures);
  fillGames();
  const name = el("input", { id: "new-name", placeholder: "table name" });
  const stakes = el("input", { id: "new-stakes", value: "1/2", size: 6, title: "blinds S/B; stud: ante S, bet B" });
  const count = el("input", { id: "new-seats", type: "number", min: 2, max: 10, value: 6 });
  // The house's money options, each left to the book's default when empty.
  const chips = (id, title) => el("input", { id, type: "number", min: 1, step: 1, size: 7, placeholder: "book's", title });
  const buyIn = chips("new-buy-in", "the full buy-in, in chips: by default 100 big blinds (ten maximum bets at limit); at least 20 big blinds at a big-bet table");
  const rake = el("input", { id: "new-rake", size: 5, placeholder: "book's", title: "commission as a percentage of each pot, e.g. 5%" });
  const rakeCap = chips("new-rake-cap", "the most commission a hand pays, in chips");
  const optional = (input) => (input.value === "" ? null : input.type === "number" ? Number(input.value) : input.value);
  const create = async (event) => {
    event.preventDefault();
    try {
      const made = await api("POST", "/api/tables", {
        name: name.value || undefined,
        spec: {
          rulebook: book.value || null, game: game.value, structure: structure.value || null, stakes: stakes.value,
          seats: Number(count.value), buy_in: optional(buyIn), rake: optional(rake), rake_cap: optional(rakeCap),
        },
      });
      location.hash = `#/table/${made.table}`;
    } catch (error) {
      notice(error.message, "error");
    }
  };
  const form = el("form", { class: "panel create", id: "create", onsubmit: create },
    el("h2", { text: "New table" }),
    el("label", {}, "Name ", name), el("label", {}, "Rulebook ", book), el("label", {}, "Game ", game),
    el("label", {}, "Structure ", structure), el("label", {}, "Stakes ", stakes), el("label", {}, "Seats ", count),
    el("label", {}, "Buy-in ", buyIn), el("label", {}, "Rake ", rake), el("label", {}, "Rake cap ", rakeCap),
    el("button", { type: "submit", class: "primary", id: "create-table", text: "Create" }),
    notes);
  // The browser's own checks (the seats' bounds) stop the form before it is sent: say why.
  // An invalid event does not bubble, so the form listens as it comes down (capture).
  form.addEventListener("invalid", (event) => {
    const label = event.target.closest("label").firstChild.textContent.trim();
    notice(`${label}: ${event.target.validationMessage}`, "error");
  }, true);
  return form;
}

// --- the table page --------------------------------------------------------------------------

let onScreen = null; // {table, rules, key}
async function tablePage(id, watching = false) {
  onScreen = { table: id, rules: null, key: "", stack: null, watching };
  const buyIn = el("input", { id: "buy-in", type: "number", min: 1 });
  // A top-up has its own box: by default what brings the stack back to the minimum buy-in.
  const topUp = el("input", { id: "top-up-chips", type: "number", min: 1, placeholder: "chips" });
  const topUpButton = el("button", { id: "top-up", title: "add chips to your stack between hands", onclick: () => {
    const chips = chipsIn(topUp, "top-up");
    if (chips !== null) {
      send({ type: "top_up", table: id, chips }, (m) => {
        if (m.type !== "ok") return;
        notice(`${chips} chips added to your stack.`);
        refreshAccount();
      });
    }
  } });
  const sayTopUp = () => {
    const chips = Number(topUp.value);
    topUpButton.textContent = topUp.value && Number.isInteger(chips) && chips > 0 ? `Top up ${chips}` : "Top up";
  };
  topUp.addEventListener("input", sayTopUp);
  onScreen.topUp = (stack) => {
    // Offered again whenever the stack changes; what the player types stays until then.
    if (onScreen.stack === stack) return;
    onScreen.stack = stack;
    const short = onScreen.rules ? onScreen.rules.minimum_buy_in - stack : 0;
    topUp.value = short > 0 ? short : "";
    sayTopUp();
  };
  main.replaceChildren(
    el("div", { class: "table-page" },
      el("div", { class: "table-head" },
        el("h1", { id: "table-name", text: `table ${id}` }),
        el("span", { id: "table-spec", class: "spec" }),
        el("a", { href: `#/rules/${id}`, id: "rules-link", text: "Rulebook" }),
        el("label", { class: "buy-in", id: "buy-in-box", title: "chips to sit down with" }, "Buy-in ", buyIn),
        el("span", { id: "watching", class: "watching", hidden: true }, "Watching ",
          el("button", { id: "take-seat", class: "primary", text: "Take a seat", onclick: () => { location.hash = `#/table/${id}`; } })),
        el("label", { class: "buy-in", id: "top-up-box", title: "chips to add to your stack" }, "Add ", topUp),
        topUpButton,
        el("button", { id: "sit-out", text: "Sit out", onclick: () => {
          const st = tables.get(id);
          const mine = st && st.seats.find((s) => s.seat === st.you);
          send({ type: mine && mine.status === "sitting_out" ? "sit_in" : "sit_out", table: id });
        } }),
        el("button", { id: "leave", text: "Leave", onclick: () => send({ type: "leave", table: id }, (m) => m.type === "ok" && notice("You leave with your chips when the hand ends.")) }),
        el("button", { id: "close-table", text: "Close table", hidden: true, title: "deal no more hands: after this one, every seat leaves with its chips", onclick: (event) => {
          // Asked twice, on the page (a browser dialog would stop the table's clock on screen).
          const button = event.currentTarget;
          if (!button.dataset.asked) {
            button.dataset.asked = "1";
            button.classList.add("fold");
            button.textContent = "Close it: cash out every seat after this hand";
            setTimeout(() => { delete button.dataset.asked; button.classList.remove("fold"); button.textContent = "Close table"; }, 5000);
            return;
          }
          send({ type: "close_table", table: id }, (m) => m.type === "ok" && notice("The table closes when the hand in play ends."));
        } })),
      el("p", { id: "closing", class: "closing", hidden: true }),
      el("div", { id: "table", class: "table" }),
      el("div", { id: "actions", class: "actions" }),
      el("div", { class: "side" },
        el("section", { id: "waiting", class: "wait-panel", hidden: true }),
        el("h2", { text: "Last hands" }), el("ol", { id: "results", class: "results" }),
        el("h2", { text: "This hand" }), el("div", { id: "log-head", class: "log-head" }), el("ol", { id: "log", class: "log" }),
        el("h2", { text: "Chat" }), el("ol", { id: "chat-log", class: "chat-log" }),
        el("form", { id: "chat-form", class: "chat-form", onsubmit: (event) => {
          event.preventDefault();
          const box = document.getElementById("chat-text");
          const text = box.value.trim();
          if (!text) return;
          send({ type: "chat", table: id, text }, (m) => { if (m.type === "ok") box.value = ""; });
        } },
        el("input", { id: "chat-text", maxlength: 200, placeholder: "say something", autocomplete: "off", "aria-label": "chat" }),
        el("button", { type: "submit", id: "chat-send", text: "Send" })))));
  try {
    onScreen.rules = await api("GET", `/api/tables/${id}/rules`);
    buyIn.value = onScreen.rules.minimum_buy_in;
    if (!watching) buyIn.focus(); // Join: the buy-in first, then a seat
  } catch (error) {
    notice(error.message, "error");
  }
  if (!results.has(id)) loadResults(id);
  // Watching gives the table as this account may see it: its own seat and cards included.
  if (ready) send({ type: "watch", table: id });
  if (tables.has(id)) redraw(id);
}

const noButton = (game) => ["stud5", "stud7", "stud7-8", "razz"].includes(game);

// --- attention: your turn said by the tab's title (and a sound, when ticked) ------------------

const TITLE = document.title;
let titleFlash = null;
let lowWarned = ""; // the turn whose low clock was already said
function beep(pitch = 660, length = 0.15) {
  if (!localStorage.getItem("croupier.sound")) return;
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = pitch;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + length);
    tone.onended = () => audio.close();
  } catch { /* no audio here: the title still says it */ }
}

/** Our turn has come (or gone): the tab's title flashes "Your turn" until it goes. */
function attention(yours) {
  if (!yours) {
    clearInterval(titleFlash);
    titleFlash = null;
    document.title = TITLE;
    return;
  }
  if (titleFlash) return;
  beep();
  let on = true;
  document.title = "▶ Your turn · croupier";
  titleFlash = setInterval(() => {
    on = !on;
    document.title = on || !document.hidden ? "▶ Your turn · croupier" : TITLE;
  }, 1000);
}

// An answer that went through: the last refusal's notice no longer applies.
const cleared = (m) => m.type === "ok" && notice("");

function redraw(table) {
  if (!onScreen || onScreen.table !== table || onScreen.replay) return;
  const st = tables.get(table);
  if (!st) return;
  const nameOfPlayer = (p) => seatName(st, st.hand.order[p]);
  document.getElementById("table-name").textContent = st.name;
  const spec = st.spec;
  document.getElementById("table-spec").textContent =
    `${spec.game} · ${spec.rulebook || "house rules"} · ${onScreen.rules ? onScreen.rules.structure : spec.structure || ""} · ${spec.stakes}`;
  const mine = st.seats.find((s) => s.seat === st.you);
  for (const part of ["leave", "sit-out", "top-up", "top-up-box"]) document.getElementById(part).hidden = !mine || Boolean(st.closing);
  const watching = onScreen.watching && !mine;
  document.getElementById("buy-in-box").hidden = Boolean(mine) || Boolean(st.closing) || watching;
  document.getElementById("watching").hidden = !watching || Boolean(st.closing);
  // The table's owner, a dealer or an admin may close it and seat bots (the server checks again).
  const closer = st.owner === session.name || ["dealer", "admin"].includes(session.role);
  document.getElementById("close-table").hidden = !closer || Boolean(st.closing);
  const closing = document.getElementById("closing");
  closing.hidden = !st.closing;
  closing.textContent = st.closing ? `This table is closing (${st.closing}): no more hands after this one; every seat then leaves with its chips.` : "";
  if (mine) onScreen.topUp(mine.chips);
  document.getElementById("sit-out").textContent = mine && mine.status === "sitting_out" ? "Sit in" : "Sit out";
  pick.toggle = (c) => {
    if (pick.selected.has(c)) pick.selected.delete(c);
    else pick.selected.add(c);
    redraw(table);
  };
  const drawing = st.hand && st.hand.legal && st.hand.legal.draw;
  renderTable(document.getElementById("table"), st, {
    nameOf: (seat) => seatName(st, seat),
    sit: st.closing || watching ? null : (seat) => {
      const chips = chipsIn(document.getElementById("buy-in"), "buy-in");
      if (chips === null) return;
      send({ type: "sit", table, seat, chips }, (m) => {
        if (m.type === "ok") {
          notice("");
          seats.push({ table, seat });
          refreshAccount();
        }
      });
    },
    // Bots are seated by the table's owner (or a dealer or an admin): nobody else is offered one.
    bot: st.closing || !closer ? null : (seat) => send({ type: "add_bot", table, seat }),
    removeBot: !closer ? null : (seat) => send({ type: "remove_bot", table, seat }, cleared),
    // Seated and not on the list: a free seat is a seat change away.
    move: st.closing || (st.waiting || []).some((w) => w.name === session.name) ? null
      : (seat) => send({ type: "wait", table, seat }, cleared),
    pick: drawing ? pick : null,
    me: session.name,
  });
  renderWaiting(document.getElementById("waiting"), st, session.name, {
    wait: st.closing ? null : () => send({ type: "wait", table }, cleared),
    unwait: () => send({ type: "unwait", table }, cleared),
  });
  // The actions are drawn again only when the turn changes, so a half-typed amount stays;
  // off turn, when what the bar says changes (a seat taken, or held for us).
  const turn = st.hand ? `${st.hand.number}:${st.hand.events.length}:${st.hand.to_act}` : "";
  const yours = st.hand && st.hand.legal && st.hand.to_act === st.you;
  const key = `${turn}:${pick.selected.size}:${yours ? "" : idleText(st, session.name)}`;
  if (key !== onScreen.key) {
    onScreen.key = key;
    const actions = document.getElementById("actions");
    renderActions(actions, st, act(st), pick, session.name, {
      minimum: onScreen.rules ? onScreen.rules.minimum_buy_in : null,
      topUp: (chips) => chips && send({ type: "top_up", table, chips }, (m) => {
        if (m.type !== "ok") return;
        notice(`${chips} chips added to your stack.`);
        refreshAccount();
      }),
      leave: () => send({ type: "leave", table }, cleared),
    });
    actions.dataset.turn = turn;
    attention(Boolean(yours));
  }
  // The log's first line stays above it, however far it scrolls: which hand, whose button.
  const head = document.getElementById("log-head");
  head.textContent = st.hand ? `Hand #${st.hand.number}${noButton(spec.game) ? "" : ` · button: ${seatName(st, st.hand.button)}`}` : "";
  const log = document.getElementById("log");
  log.replaceChildren(...(st.hand ? describeAll(st.hand.events, nameOfPlayer, spec.game).filter(Boolean).map((t) => el("li", { text: t })) : []));
  log.scrollTop = log.scrollHeight;
  document.getElementById("results").replaceChildren(...(results.get(table) || []));
  // Players and the floor write; a watcher reads.
  const floor = ["dealer", "admin"].includes(session.role);
  document.getElementById("chat-form").hidden = !mine && !floor;
  drawChat(table);
}

/** The table's chat: each line as text (never markup), muted players' lines left out; a
 * name offers Mute (anyone) and Silence (the floor). */
function drawChat(table) {
  const list = document.getElementById("chat-log");
  if (!list) return;
  const st = tables.get(table);
  const floor = ["dealer", "admin"].includes(session.role);
  const lines = (chats.get(table) || []).filter((l) => l.floor || !muted.has(l.name));
  list.replaceChildren(...lines.map((l) => {
    const item = el("li", { class: l.floor ? "floor" : l.name === session.name ? "mine" : null, "data-name": l.name },
      el("b", { text: l.floor ? "floor" : l.name }), ": ", el("span", { class: "chat-text", text: l.text }));
    if (!l.floor && l.name !== session.name) {
      item.append(el("button", { class: "chat-mute", title: `hide ${l.name}'s lines on this page`, text: "mute", onclick: () => {
        muted.add(l.name);
        localStorage.setItem("croupier.muted", JSON.stringify([...muted]));
        notice(`${l.name} is muted on this page: their lines are hidden.`);
        drawChat(table);
      } }));
      if (floor && l.seat && st) {
        item.append(el("button", { class: "chat-silence", title: `silence ${l.name} at this table`, text: "silence", onclick: () => send({ type: "chat_silence", table, seat: l.seat, silenced: true }, cleared) }));
      }
    }
    return item;
  }));
  const unmute = [...muted].filter((name) => (chats.get(table) || []).some((l) => l.name === name));
  if (unmute.length) {
    list.append(el("li", { class: "muted-note" }, `muted: ${unmute.join(", ")} `,
      el("button", { class: "chat-unmute", text: "unmute all", onclick: () => {
        unmute.forEach((name) => muted.delete(name));
        localStorage.setItem("croupier.muted", JSON.stringify([...muted]));
        drawChat(table);
      } })));
  }
  list.scrollTop = list.scrollHeight;
}

// The last hands, on a page opened afresh (a reload forgets them): the server's record of each
// hand this account was dealt at the table, as its seat saw it.
async function loadResults(table) {
  try {
    const { hands } = await api("GET", "/api/hands");
    const finished = hands.filter((h) => h.table === table && h.status === "finished").slice(-8);
    const seen = await Promise.all(finished.map((h) => api("GET", `/api/hands/${h.hand}/events`)));
    const list = results.get(table) || [];
    const have = new Set(list.map((item) => Number(item.dataset.hand)));
    for (const data of seen) {
      if (have.has(data.number)) continue;
      list.push(resultEntry(data.number, derive(data), (seat) => data.names[data.order.indexOf(seat)]));
    }
    list.sort((a, b) => Number(b.dataset.hand) - Number(a.dataset.hand));
    results.set(table, list.slice(0, 8));
    redraw(table);
  } catch { /* the list fills as hands end */ }
}

function act(st) {
  return (action, fields = {}) => {
    notice("");
    send({ type: "act", table: st.table, hand: st.hand.number, action, ...fields });
  };
}

// Keyboard: f folds, c checks or calls, b bets the amount in the box.
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const button = document.querySelector(`#actions button[data-key="${event.key.toLowerCase()}"]`);
  if (button) {
    event.preventDefault();
    button.click();
  }
});

const LOW_CLOCK = 10; // seconds of our own time left when the bar warns
setInterval(() => {
  if (!onScreen || onScreen.replay) return;
  const st = tables.get(onScreen.table);
  if (!st || !st.hand) return;
  const text = clockText(st.hand);
  document.querySelectorAll(".seat .clock, #clock").forEach((c) => (c.textContent = text));
  // The last seconds of our own time (the bank included): said in the bar, once with a sound.
  const end = st.hand.bank_end || st.hand.clock_end;
  const mineToAct = st.hand.to_act === st.you && st.hand.legal && end;
  const left = mineToAct ? end - Date.now() / 1000 : Infinity;
  const low = left <= LOW_CLOCK;
  const actions = document.getElementById("actions");
  if (actions) actions.classList.toggle("low-clock", low);
  const turn = actions ? actions.dataset.turn : "";
  if (low && lowWarned !== turn) {
    lowWarned = turn;
    beep(880, 0.3);
  }
}, 250);

// --- hand histories --------------------------------------------------------------------------

async function historyList() {
  const { hands } = await api("GET", "/api/hands");
  const rows = hands.slice().reverse();
  main.replaceChildren(el("section", { class: "panel" },
    el("h1", { text: "Your hands" }),
    hands.length ? null : el("p", { text: "No hands yet: the hands you are dealt appear here." }),
    el("table", { class: "lobby", id: "hands" },
      el("thead", {}, el("tr", {}, ["when", "table", "game", "hand", "your cards", "board", "net", ""].map((h) => el("th", { text: h })))),
      el("tbody", {}, rows.map((h, i) => {
        const cardsCell = el("td", { class: "hole-cards" });
        const boardCell = el("td", { class: "board-cards" });
        // The cards as your seat saw them, read for the newest hands (the replay's own read).
        if (h.status === "finished" && i < 30) {
          api("GET", `/api/hands/${h.hand}/events`).then((data) => {
            const view = derive(data);
            const me = view.players[data.order.indexOf(data.you)];
            if (me) cardsCell.replaceChildren(cards([...me.hole, ...me.up]));
            boardCell.replaceChildren(cards(view.board));
          }).catch(() => {});
        }
        const net = h.status === "void" ? "void" : h.net > 0 ? `+${h.net}` : String(h.net);
        return el("tr", { "data-hand": h.hand },
          el("td", { text: new Date((h.finished || h.started) * 1000).toLocaleString([], { dateStyle: "short", timeStyle: "short" }) }),
          el("td", { class: "table-name", text: h.table_name }),
          el("td", { text: `${h.game} · ${h.rulebook || "house"} · ${h.stakes}` }),
          el("td", { text: `#${h.number}` }),
          cardsCell, boardCell,
          el("td", { class: `net ${h.net > 0 ? "won" : h.net < 0 ? "lost" : ""}`, text: net }),
          el("td", {}, h.status === "finished" ? el("a", { class: "replay", href: `#/hand/${h.hand}`, text: "Replay" }) : h.status));
      })))));
}

async function handViewer(id) {
  const data = await api("GET", `/api/hands/${id}/events`);
  onScreen = { table: null, replay: true };
  const seatsOf = data.order.map((seat, i) => ({ seat, name: data.names[i], chips: data.starting[i], status: "playing", leaving: false, connected: true, bot: false, bank: 0 }));
  const nameOfPlayer = (p) => data.names[p];
  let step = 0;
  // Steps stop at events worth seeing: the deal's cards come as one step each, actions too.
  const lines = describeAll(data.events, nameOfPlayer);
  const stops = lines.map((line, i) => (line ? i + 1 : 0)).filter(Boolean);
  const total = stops.length;
  const board = el("div", { id: "replay-table", class: "table" });
  const log = el("ol", { id: "replay-log", class: "log" });
  const where = el("span", { id: "replay-step" });
  const slider = el("input", { type: "range", id: "replay-slider", min: 0, max: total, value: 0 });
  const show = () => {
    const upto = step === 0 ? 0 : stops[step - 1];
    const hand = { number: data.number, button: data.button, order: data.order, starting: data.starting, events: data.events.slice(0, upto), pot: 0, to_act: null, legal: null };
    const v = derive(hand);
    hand.pot = v.players.reduce((sum, p, i) => sum + data.starting[i] - p.stack, 0);
    renderTable(board, { spec: data.spec, you: data.you, seats: seatsOf, hand }, { replay: true });
    log.replaceChildren(...lines.slice(0, upto).filter(Boolean).map((t, i, all) => el("li", { class: i === all.length - 1 ? "current" : "", text: t })));
    log.scrollTop = log.scrollHeight;
    where.textContent = `step ${step} of ${total}`;
    slider.value = step;
  };
  const go = (to) => { step = Math.max(0, Math.min(total, to)); show(); };
  slider.addEventListener("input", () => go(Number(slider.value)));
  main.replaceChildren(el("div", { class: "table-page replay" },
    el("div", { class: "table-head" },
      el("h1", { id: "replay-title", text: `${data.table_name}, hand #${data.number}` }),
      el("span", { class: "spec", text: `${data.spec.game} · ${data.spec.rulebook || "house rules"} · ${data.spec.stakes}` }),
      el("button", { id: "dl-phh", onclick: () => download(`/api/hands/${id}/phh`, `hand-${id}.phh`), text: "Download PHH" }),
      el("button", { id: "dl-pokerstars", onclick: () => download(`/api/hands/${id}/pokerstars`, `hand-${id}.txt`), text: "Download PokerStars text" })),
    board,
    el("div", { class: "replay-controls" },
      el("button", { id: "replay-start", onclick: () => go(0), text: "start" }),
      el("button", { id: "replay-prev", onclick: () => go(step - 1), text: "◀ step" }),
      slider,
      el("button", { id: "replay-next", onclick: () => go(step + 1), text: "step ▶" }),
      el("button", { id: "replay-end", onclick: () => go(total), text: "end" }),
      where),
    el("div", { class: "side" }, el("h2", { text: "Log" }), log)));
  go(0);
}

// --- the rulebook page -----------------------------------------------------------------------

async function rulesPage(id) {
  const info = await api("GET", `/api/tables/${id}/rules`);
  const book = info.rulebook;
  const head = el("div", {},
    el("h1", { text: `${info.name}: the rules` }),
    el("p", { text: `${info.spec.game}, ${info.structure}, stakes ${info.spec.stakes}; minimum buy-in ${info.minimum_buy_in}.` }),
    el("a", { href: `#/table/${id}`, text: "back to the table" }));
  if (!book) {
    main.replaceChildren(el("section", { class: "panel" }, head, el("p", { text: "This table plays croupier's house rules: no book's clauses apply." })));
    return;
  }
  main.replaceChildren(el("section", { class: "panel rules" }, head,
    el("h2", { text: book.title }),
    el("p", { class: "citation", text: `Cited as: ${book.citation}` }),
    el("table", { id: "settings", class: "settings" },
      el("thead", {}, el("tr", {}, ["setting", "value", "clause", "note"].map((h) => el("th", { text: h })))),
      el("tbody", {}, book.settings.map((s) => el("tr", { "data-setting": s.setting, class: s.silent ? "silent" : "" },
        el("td", { text: s.setting }),
        el("td", { text: s.value + (s.chosen ? " (this table)" : s.house ? " (house default)" : "") }),
        el("td", { class: "clause", text: s.clause }),
        el("td", { text: (s.silent ? "[the book is silent] " : "") + s.note })))))));
}

// --- routing ---------------------------------------------------------------------------------

async function route() {
  const [path] = location.hash.slice(1).split("?");
  const parts = path.split("/").filter(Boolean);
  lobbyReload = null;
  if (!session.token) {
    onScreen = null;
    return signIn();
  }
  try {
    if (parts[0] === "table" && parts[1]) {
      const id = Number(parts[1]);
      // "Watch" (#/table/N?watch) opens the table as a spectator: no seat offered until
      // "Take a seat"; "Join" (#/table/N) offers the free seats and the buy-in at once.
      const watching = location.hash.includes("?watch");
      if (!onScreen || onScreen.table !== id || onScreen.replay) await tablePage(id, watching);
      else {
        onScreen.watching = watching;
        onScreen.key = "";
        if (ready) send({ type: "watch", table: id });
        redraw(id);
      }
      return;
    }
    if (onScreen && onScreen.table && ready) send({ type: "unwatch", table: onScreen.table });
    onScreen = null;
    leaveTournamentPage();
    leaveDirector();
    leaveLive();
    const directing = { api, notice, carry: (text) => { carried = text; } };
    if (parts[0] === "director" || parts[0] === "live") refreshAccount(); // the bar's links follow the role
    const dealing = { api, notice, download };
    if (parts[0] === "live" && parts[1]) return await liveTable(dealing, Number(parts[1]), main);
    if (parts[0] === "live") return await livePage(dealing, main);
    if (parts[0] === "director" && parts[1]) return await consolePage(directing, Number(parts[1]), main);
    if (parts[0] === "director") return await directorPage(directing, main);
    if (parts[0] === "tournament" && parts[1]) return await tournamentPage({ api, notice, send, ready: () => ready }, Number(parts[1]), main);
    if (parts[0] === "history") return await historyList();
    if (parts[0] === "account") return await accountPage({ api, notice, refreshAccount }, main);
    if (parts[0] === "hand" && parts[1]) return await handViewer(Number(parts[1]));
    if (parts[0] === "rules" && parts[1]) return await rulesPage(Number(parts[1]));
    return await lobby();
  } catch (error) {
    notice(error.message, "error");
  }
}

let carried = null; // a notice for the page the hash goes to next (a new page clears the old)
window.addEventListener("hashchange", () => {
  notice(carried || "");
  carried = null;
  route();
});
document.body.classList.toggle("four", Boolean(localStorage.getItem("croupier.four")));
drawBar();
connect();
route();
