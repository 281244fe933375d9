// Your account: the balance and its chip ledger. For a dealer or an admin, the cage too (chips
// cashed in for an account), the ledger's check and the audit log; for an admin, the roles.
// Every figure is the server's (GET /api/ledger, /api/ledger/check, /api/audit).
import { el } from "./cards.js";

const STAFF = ["dealer", "admin"]; // who keeps the cage (server/http.py: cashier, audit_log)
const ROLES = ["player", "dealer", "admin"];

const when = (at) => new Date(at * 1000).toLocaleString();
const chips = (amount) => (amount > 0 ? `+${amount}` : String(amount));

/** The ledger's rows (newest first) as transfers: a move between your balance and a table is
 * two rows in the ledger (one each side, adding up to nothing) and one line here. */
export function transfers(rows) {
  const out = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const next = rows[i + 1];
    const pair = next && next.kind === r.kind && next.at === r.at && next.amount === -r.amount
      && (next.table === null) !== (r.table === null);
    if (pair) {
      const [wallet, table] = r.table === null ? [r, next] : [next, r];
      out.push({ kind: r.kind, at: r.at, table: table.table, hand: table.hand ?? wallet.hand, balance: wallet.amount, atTable: table.amount, memo: wallet.memo || table.memo });
      i += 1;
    } else {
      out.push({ kind: r.kind, at: r.at, table: r.table, hand: r.hand, balance: r.table === null ? r.amount : null, atTable: r.table === null ? null : r.amount, memo: r.memo });
    }
  }
  return out;
}

/** One transfer in words. */
function describe(r) {
  const n = Math.abs(r.balance ?? r.atTable ?? 0);
  const at = r.table !== null && r.table !== undefined ? ` table ${r.table}` : "";
  switch (r.kind) {
    case "buy_in": return `Buy-in: ${n} chips from your balance to${at || " a table"}`;
    case "top_up": return `Top-up: ${n} chips from your balance to${at || " a table"}`;
    case "cash_out": return `Cash-out: ${n} chips from${at || " a table"} to your balance`;
    case "result": return `Hand${r.hand ? ` ${r.hand}` : ""} at${at}: ${(r.atTable ?? 0) >= 0 ? "won" : "lost"} ${n}`;
    case "refund": return `Refund at${at}: a void hand's ${n} chips back`;
    case "cash_in": return r.memo === "welcome" ? `Welcome chips: ${n}` : `Cashed in: ${n} chips${r.memo ? ` (${r.memo})` : ""}`;
    default: return `${r.kind.replaceAll("_", " ")}: ${n} chips${r.memo ? ` (${r.memo})` : ""}`;
  }
}

/** The account page: ``ctx`` gives api, notice and refreshAccount. */
export async function accountPage(ctx, root) {
  const [me, ledger] = await Promise.all([ctx.api("GET", "/api/me"), ctx.api("GET", "/api/ledger")]);
  const staff = STAFF.includes(me.role);
  const rows = ledger.rows.slice().reverse(); // newest first
  const panels = [
    el("section", { class: "panel" },
      el("h1", { text: "Your account" }),
      el("p", { id: "account-balance", text: `${me.name} (${me.role}): ${ledger.balance} chips in your balance.` }),
      el("h2", { text: "Chip ledger" }),
      rows.length ? null : el("p", { class: "empty", text: "No ledger rows yet." }),
      el("table", { class: "lobby", id: "ledger" },
        el("thead", {}, el("tr", {}, ["when", "what", "your balance", "at the table", "hand"].map((h) => el("th", { text: h })))),
        el("tbody", {}, transfers(rows).map((r) => el("tr", { "data-kind": r.kind },
          el("td", { text: when(r.at) }),
          el("td", { class: "what", text: describe(r) }),
          el("td", { class: "amount", text: r.balance === null ? "" : chips(r.balance) }),
          el("td", { class: "amount at-table", text: r.atTable === null ? "" : chips(r.atTable) }),
          el("td", {}, r.hand ? el("a", { href: `#/hand/${r.hand}`, text: "replay" }) : ""))))),
      ledger.rows.length >= 500 ? el("p", { class: "empty", text: "The last 500 rows." }) : null),
  ];
  if (staff) panels.push(cage(ctx, me), await audit(ctx));
  root.replaceChildren(...panels);
}

/** The cage: chips cashed in for an account, the ledger's check, and (admin) roles. */
function cage(ctx, me) {
  const name = el("input", { id: "cage-name", placeholder: "account name", required: true, maxlength: 40 });
  const amount = el("input", { id: "cage-amount", type: "number", min: 1, step: 1, placeholder: "chips", required: true });
  const checked = el("p", { id: "ledger-check", hidden: true });
  const cashIn = async (event) => {
    event.preventDefault();
    try {
      const done = await ctx.api("POST", "/api/cashier", { name: name.value.trim(), amount: Number(amount.value) });
      ctx.notice(`${amount.value} chips cashed in for ${done.name}: their balance is ${done.balance}.`);
      if (done.name === me.name) ctx.refreshAccount();
      amount.value = "";
    } catch (error) {
      ctx.notice(error.message, "error");
    }
  };
  const check = async () => {
    const { balanced, problems } = await ctx.api("GET", "/api/ledger/check");
    checked.hidden = false;
    checked.className = balanced ? "balanced" : "unbalanced";
    checked.replaceChildren(balanced
      ? "Balanced: every account's rows add up to its balance, and every table holds the chips its hand was dealt."
      : el("span", {}, "Not balanced:", el("ul", {}, problems.map((p) => el("li", { text: p })))));
  };
  return el("section", { class: "panel", id: "cage" },
    el("h2", { text: "The cage" }),
    el("form", { id: "cash-in", class: "row", onsubmit: cashIn },
      el("label", {}, "Cash in for ", name), el("label", {}, "Chips ", amount),
      el("button", { type: "submit", class: "primary", text: "Cash in" })),
    el("p", {}, el("button", { id: "check-ledger", text: "Check the ledger", onclick: () => check().catch((e) => ctx.notice(e.message, "error")) })),
    checked,
    me.role === "admin" ? roles(ctx) : null);
}

function roles(ctx) {
  const name = el("input", { id: "role-name", placeholder: "account name", required: true, maxlength: 40 });
  const role = el("select", { id: "role-role" }, ROLES.map((r) => el("option", { value: r, text: r })));
  const give = async (event) => {
    event.preventDefault();
    try {
      const done = await ctx.api("POST", `/api/accounts/${encodeURIComponent(name.value.trim())}/role`, { role: role.value });
      ctx.notice(`${done.name} is now ${done.role === "admin" ? "an" : "a"} ${done.role}.`);
    } catch (error) {
      ctx.notice(error.message, "error");
    }
  };
  return el("form", { id: "set-role", class: "row", onsubmit: give },
    el("label", {}, "Role of ", name), el("label", {}, "to ", role),
    el("button", { type: "submit", text: "Set the role" }));
}

/** The audit log's last rows: every action, refusal and ruling, newest first. */
async function audit(ctx) {
  const { rows } = await ctx.api("GET", "/api/audit");
  return el("section", { class: "panel", id: "audit" },
    el("h2", { text: "Audit log" }),
    el("table", { class: "lobby" },
      el("thead", {}, el("tr", {}, ["when", "by", "table", "hand", "what", "outcome", "detail"].map((h) => el("th", { text: h })))),
      el("tbody", {}, rows.slice(0, 100).map((r) => el("tr", { "data-outcome": r.outcome },
        el("td", { text: when(r.at) }), el("td", { text: r.name ?? r.account ?? "" }), el("td", { text: r.table ?? "" }),
        el("td", { text: r.hand ?? "" }), el("td", { text: r.kind }), el("td", { text: r.outcome }),
        el("td", { class: "detail", text: r.detail ?? "" }))))),
    el("p", { class: "empty", text: "The last 100 actions, refusals and rulings." }));
}
