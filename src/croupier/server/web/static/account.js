// Your account: the balance and its chip ledger. For a dealer or an admin, the cage too (chips
// cashed in for an account), the ledger's check and the audit log; for an admin, the roles.
// Every figure is the server's (GET /api/ledger, /api/ledger/check, /api/audit).
import { el } from "./cards.js";

const STAFF = ["dealer", "admin"]; // who keeps the cage (server/http.py: cashier, audit_log)
const ROLES = ["player", "dealer", "admin"];

const when = (at) => new Date(at * 1000).toLocaleString();
const chips = (amount) => (amount > 0 ? `+${amount}` : String(amount));

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
        el("thead", {}, el("tr", {}, ["when", "what", "table", "hand", "chips", "memo"].map((h) => el("th", { text: h })))),
        el("tbody", {}, rows.map((r) => el("tr", { "data-kind": r.kind },
          el("td", { text: when(r.at) }),
          el("td", { text: r.kind.replaceAll("_", " ") }),
          el("td", { text: r.table ?? "" }),
          el("td", {}, r.hand ? el("a", { href: `#/hand/${r.hand}`, text: String(r.hand) }) : ""),
          el("td", { class: "amount", text: chips(r.amount) }),
          el("td", { text: r.memo ?? "" }))))),
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
