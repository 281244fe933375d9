// The table: seats around an oval, cards, pots, whose turn, and the legal actions as buttons.
import { card, cards, el } from "./cards.js";
import { derive, halves, noLow, potName } from "./view.js";

/** Where seat ``seat`` of ``count`` sits, in percent of the felt; ``anchor`` at the bottom. */
function place(seat, count, anchor, radius, turn = 0) {
  const angle = Math.PI / 2 + (2 * Math.PI * (seat - anchor)) / count + turn;
  return { x: 50 + radius[0] * Math.cos(angle), y: 50 + radius[1] * Math.sin(angle) };
}

// Stud has no button: the cards showing say who acts first.
const NO_BUTTON = ["stud5", "stud7", "stud7-8", "razz"];

function seconds(until) {
  return Math.max(0, Math.ceil(until - Date.now() / 1000));
}

/** The clock of the seat to act: the action clock, then the time bank. */
export function clockText(hand) {
  if (!hand || hand.to_act === null || hand.to_act === undefined || !hand.clock_end) return "";
  const now = Date.now() / 1000;
  if (!hand.bank_end) return `${seconds(hand.clock_end)}s`; // no time bank (a tournament)
  if (now < hand.clock_end) return `${seconds(hand.clock_end)}s · bank ${Math.round(hand.bank_end - hand.clock_end)}s`;
  return `time bank ${seconds(hand.bank_end)}s`;
}

/** The time of day at unix ``seconds``: to the minute, or to the ``second``. */
function timeOf(seconds, second = false) {
  const to = second ? { hour: "numeric", minute: "2-digit", second: "2-digit" }
    : { hour: "numeric", minute: "2-digit" };
  return new Date(seconds * 1000).toLocaleTimeString([], to);
}

/** Seat -> the waiting-list entry it is held for (a tournament's table has no list). */
function heldSeats(st) {
  return new Map((st.waiting || []).filter((w) => w.offer != null).map((w) => [w.offer, w]));
}

/** The seats nobody sits in and nobody has held for them. */
function freeSeats(st) {
  const held = heldSeats(st);
  const taken = new Set(st.seats.map((s) => s.seat));
  const free = [];
  for (let seat = 1; seat <= st.spec.seats; seat++) {
    if (!taken.has(seat) && !held.has(seat)) free.push(seat);
  }
  return free;
}

/** Someone waits with no seat held yet: a seat that comes free is theirs by the book's
 * priority (au 11.1(a), qld s16), so nobody else may sit down in it. */
function listFirst(st) {
  return (st.waiting || []).some((w) => w.offer == null);
}

/** The seat held for ``me`` (the viewer's name) at ``st``, or null. */
function myOffer(st, me) {
  const mine = (st.waiting || []).find((w) => w.name === me);
  return mine && mine.offer != null ? mine : null;
}

/**
 * Draw the table ``st`` (a `state` message kept up to date with `events` and `seats`) into
 * ``root``. ``ui`` holds callbacks: sit(seat), move(seat), bot(seat), removeBot(seat);
 * ``replay`` draws a hand history step; ``me`` is the viewer's name (a seat held for them is
 * theirs to take).
 */
export function renderTable(root, st, ui = {}) {
  const count = st.spec.seats;
  const anchor = st.you || 1;
  const seated = new Map(st.seats.map((s) => [s.seat, s]));
  const held = heldSeats(st);
  const byList = listFirst(st);
  const hand = st.hand;
  const view = hand ? derive(hand) : null;
  const inHand = new Map(view ? view.players.map((p) => [p.seat, p]) : []);
  const felt = el("div", { class: "felt", id: "felt" });
  // A phone's felt stands upright and its seats are big for it: bets sit nearer the middle.
  const phone = window.matchMedia("(max-width: 700px)").matches;
  // On a phone the pot's block is tall for the felt's width: bets stand off it, near their seats.
  const betRadius = phone ? [18, 27] : [25, 19];

  for (let seat = 1; seat <= count; seat++) {
    const at = place(seat, count, anchor, phone ? [36, 41] : [40, 41]);
    const info = seated.get(seat);
    const hold = info ? null : held.get(seat);
    // A held seat is free: whoever played the last hand there has left it.
    const player = hold ? null : inHand.get(seat);
    const classes = ["seat"];
    if (!info && !player) classes.push("empty");
    if (at.y < 35) classes.push("upper"); // grows down into the felt, not over the toolbar
    if (hold) classes.push("held", hold.name === ui.me ? "mine" : "theirs");
    if (seat === st.you) classes.push("you");
    if (hand && hand.to_act === seat && !(view && view.over)) classes.push("to-act");
    if (player && player.folded) classes.push("folded");
    if (info && !info.connected) classes.push("away");
    const box = el("div", {
      class: classes.join(" "),
      "data-seat": seat,
      style: `left:${at.x}%;top:${at.y}%`,
    });
    if (hold) {
      box.append(heldSeat(seat, hold, ui.me, ui.sit && st.you === null ? ui.sit : null));
      felt.append(box);
      continue;
    }
    if (!info && !player) {
      box.append(el("div", { class: "seat-no", text: `seat ${seat}` }));
      if (ui.sit && st.you === null && !byList) {
        box.append(el("button", { class: "sit", onclick: () => ui.sit(seat), text: "Sit here" }));
      } else if (ui.move && st.you !== null) {
        // A seat change to this seat: at once between hands, else when the hand ends.
        box.append(el("button", { class: "move", onclick: () => ui.move(seat),
          text: "Move here" }));
      } else if (byList && !ui.replay) {
        box.append(el("div", { class: "by-list", text: "for the waiting list" }));
      }
      if (ui.bot && !byList) {
        box.append(el("button", { class: "add-bot", onclick: () => ui.bot(seat), text: "+ bot" }));
      }
      felt.append(box);
      continue;
    }
    const name = info ? info.name : player ? ui.nameOf?.(seat) ?? `seat ${seat}` : "";
    // Between hands the seats message is the word on chips (a top-up shows at once); a
    // replay has no seats message, only the hand.
    const stack = player && !(view.over && info && !ui.replay) ? player.stack : info.chips;
    box.append(
      el(
        "div",
        { class: "who" },
        el("span", { class: "name", text: name }),
        info && info.bot ? el("span", { class: "tag", text: "bot" }) : null,
        info && info.status === "sitting_out" ? el("span", { class: "tag", text: "out" }) : null,
        info && info.status === "waiting" ? el("span", { class: "tag", text: "next hand" }) : null,
        info && info.leaving ? el("span", { class: "tag", text: "leaving" }) : null,
        info && !info.connected ? el("span", { class: "tag", text: "away" }) : null,
        info && info.bot && !info.leaving && ui.removeBot && !ui.replay
          ? el("button", { class: "remove-bot", title: "Remove this bot (it leaves with its chips)",
            onclick: () => ui.removeBot(seat), text: "×" })
          : null,
      ),
      el("div", { class: "stack", text: String(stack) }),
    );
    if (player) {
      box.append(seatCards(player, seat === st.you, ui.pick));
      if (player.description) box.append(el("div", { class: "hand-name", text: player.description }));
      else if (player.last) box.append(el("div", { class: "last", text: player.allIn && player.last !== "fold" ? "all-in" : player.last }));
      if (player.won) box.append(el("div", { class: "won", text: `wins ${player.won}` }));
    }
    if (hand && hand.to_act === seat && !view.over) {
      box.append(el("div", { class: "clock", id: seat === st.you ? "my-clock" : null, text: clockText(hand) }));
    }
    felt.append(box);
    if (player && player.bet > 0) {
      const b = place(seat, count, anchor, betRadius);
      felt.append(el("div", { class: "bet", "data-seat": seat, style: `left:${b.x}%;top:${b.y}%`, text: String(player.bet) }));
    }
  }
  if (hand && !NO_BUTTON.includes(st.spec.game)) {
    // Beside the seat, a little clockwise of its bet, so the two never cover each other.
    const b = place(hand.button, count, anchor, phone ? [25, 27] : [29, 25], phone ? -0.55 : -0.3);
    felt.append(el("div", { class: "dealer-button", id: "button", title: `button: seat ${hand.button}`, style: `left:${b.x}%;top:${b.y}%`, text: "D" }));
  }
  const middle = el("div", { class: "middle" });
  if (view) {
    middle.append(el("div", { id: "board", class: "board" }, view.board.map((c) => card(c))));
    if (view.pots.length) {
      middle.append(
        el("div", { id: "pots", class: "pots" }, view.pots.map((p) => el("div", { class: "pot", "data-pot": p.pot, text: `${potName(p.pot)}: ${p.amount}` }))),
      );
    } else {
      middle.append(el("div", { id: "pot", class: "pots", text: `Total pot: ${hand.pot}` }));
    }
    middle.append(el("div", { class: "hand-no", text: `hand #${hand.number}` }));
  } else {
    middle.append(el("div", { class: "waiting", text: "waiting for players" }));
  }
  felt.append(middle);
  root.replaceChildren(felt);
  return view;
}

/** A seat held for ``hold.name``: theirs to take with the buy-in above (``sit``), shown as
 * held to everyone else. */
function heldSeat(seat, hold, me, sit) {
  const until = timeOf(hold.offer_until, true);
  const yours = hold.name === me;
  return el("div", { class: "hold" }, el("div", { class: "seat-no", text: `seat ${seat}` }),
    el("div", { class: "held-for", title: `until ${until}`,
      text: yours ? `held for you until ${until}` : `held for ${hold.name}` }),
    yours && sit
      && el("button", { class: "sit primary", onclick: () => sit(seat), text: "Take it" }));
}

function seatCards(player, mine, pick) {
  const box = el("div", { class: "hole" });
  if (player.shown) {
    box.append(cards(player.shown, "shown"));
    return box;
  }
  if (player.folded || player.mucked) {
    if (mine) box.append(cards(player.hole, "dead"));
    box.append(cards(player.up, "up"));
    return box;
  }
  const down = el("span", { class: "cards" });
  player.hole.forEach((c) => {
    const face = card(c, player.up.length ? "down" : "");
    if (mine && pick) {
      face.classList.add("pickable");
      if (pick.selected.has(c)) face.classList.add("picked");
      face.addEventListener("click", () => pick.toggle(c));
    }
    down.append(face);
  });
  box.append(down);
  if (player.up.length) box.append(cards(player.up, "up"));
  return box;
}

// Who was dealt in at each seat of the hand on screen, by table: a player who leaves during
// the hand keeps their name on the seat and in the log until the next hand.
const dealtNames = new Map(); // table -> {hand, names: Map(seat -> name)}

/** Remember the names of the players seated in the hand of ``st`` (call it before a seats
 * message replaces ``st.seats``, and when a state comes). */
export function rememberNames(st) {
  if (!st.hand) return;
  let known = dealtNames.get(st.table);
  if (!known || known.hand !== st.hand.number) {
    known = { hand: st.hand.number, names: new Map() };
    dealtNames.set(st.table, known);
  }
  for (const s of st.seats) if (st.hand.order.includes(s.seat)) known.names.set(s.seat, s.name);
}

/** The name of whoever sits in ``seat`` at the table ``st`` (or was dealt in there). */
export function seatName(st, seat) {
  const known = st.hand ? dealtNames.get(st.table) : null;
  const dealt = known && known.hand === st.hand.number ? known.names.get(seat) : undefined;
  if (dealt !== undefined && st.hand.order.includes(seat)) return dealt;
  const found = st.seats.find((s) => s.seat === seat);
  return found ? found.name : `seat ${seat}`;
}

/** What the actions bar says to ``me`` when it is not their turn. */
export function idleText(st, me) {
  if (busted(st)) return "You are out of chips: top up to play on, or leave the table.";
  if (waitingForBlind(st)) {
    return "Seated: you are dealt in when the big blind reaches your seat (a newcomer waits "
      + "for it, a house rule: no book rules how a newcomer enters).";
  }
  const offer = myOffer(st, me);
  if (offer && st.you === null) {
    return `Seat ${offer.offer} is held for you until ${timeOf(offer.offer_until, true)}: `
      + "sit down to take it, with the buy-in above.";
  }
  if (st.hand && st.hand.to_act != null) return `${seatName(st, st.hand.to_act)} to act`;
  const playing = st.seats.filter((s) => s.status !== "sitting_out" && !s.leaving && s.chips > 0);
  if (st.you && playing.length < 2) return "Waiting for another player: a hand is dealt once two can play.";
  if (st.you) return "The next hand is dealt shortly.";
  if ((st.waiting || []).some((w) => w.name === me)) {
    return "You are on the waiting list: a seat that comes free goes by the book's order "
      + "(a draw of cards between equals), and is held for you if you win it.";
  }
  if (!st.waiting) return "Choose a free seat (Sit here) to play, with the buy-in above.";
  if (listFirst(st)) return "The free seats go to those waiting first: join the waiting list.";
  if (!freeSeats(st).length) return "Every seat is taken: join the waiting list for the next one.";
  return "Choose a free seat (Sit here) to play, with the buy-in above.";
}

/** The viewer's player in the hand on screen (with the hand's view), when dealt in. */
function myPlayer(st) {
  if (!st.hand || st.you === null || st.you === undefined) return null;
  const view = derive(st.hand);
  const player = view.players.find((p) => p.seat === st.you);
  return player ? { view, player } : null;
}

/** Seated, in play (not sitting out), with chips, and not dealt into the hand in play: a
 * newcomer waiting for the big blind (croupier.table's NewPlayer.WAIT, the card room's). */
export function waitingForBlind(st) {
  if (st.you === null || st.you === undefined || !st.hand || NO_BUTTON.includes(st.spec.game)) return false;
  const mine = st.seats.find((s) => s.seat === st.you);
  if (!mine || mine.chips <= 0 || mine.status === "sitting_out" || mine.leaving) return false;
  return !st.hand.order.includes(st.you) && !derive(st.hand).over;
}

/** Seated with no chips and no hand in play for us: out of chips, to top up or leave. */
export function busted(st) {
  const mine = st.you !== null && st.you !== undefined ? st.seats.find((s) => s.seat === st.you) : null;
  if (!mine || mine.chips > 0) return false;
  const dealt = myPlayer(st);
  return !dealt || dealt.view.over;
}

// A choice made in advance, while others act (PokerStars' and GGPoker's pre-action boxes):
// played when the turn comes if it still fits. The amount to call changing clears the choices
// made for it; "call any" lasts the betting round, "fold to any bet" the hand.
export const preAction = { choice: null, anchor: "", hand: null, street: null };

const PRE_LABELS = {
  check_fold: (toCall) => (toCall > 0 ? "Fold" : "Check/Fold"),
  check: () => "Check",
  call: (toCall) => `Call ${toCall}`,
  call_any: () => "Call any",
  fold_any: () => "Fold to any bet",
};

function clearPre(st, view, toCall) {
  const pre = preAction;
  if (!pre.choice) return;
  const anchor = `${st.hand.number}:${view.street}:${toCall}`;
  const kept = pre.hand === st.hand.number
    && (pre.choice === "fold_any" || (pre.choice === "call_any" ? pre.street === view.street : pre.anchor === anchor));
  if (!kept) pre.choice = null;
}

/** The amount the viewer's player would call now, all in at most. */
function toCallOf(view, player) {
  const most = Math.max(0, ...view.players.filter((p) => !p.folded).map((p) => p.bet));
  return Math.max(0, Math.min(most - player.bet, player.stack));
}

/** The pre-action boxes, while others act and we are in the hand with chips behind. */
function preActions(st) {
  const dealt = myPlayer(st);
  if (!dealt) return null;
  const { view, player } = dealt;
  if (view.over || player.folded || player.allIn || player.stack === 0 || st.hand.to_act == null) return null;
  const toCall = toCallOf(view, player);
  clearPre(st, view, toCall);
  const choices = toCall > 0 ? ["check_fold", "call", "call_any", "fold_any"] : ["check_fold", "check", "call_any", "fold_any"];
  const box = el("div", { class: "pre-actions", id: "pre-actions" }, el("span", { class: "pre-title", text: "In advance:" }));
  for (const choice of choices) {
    const input = el("input", { type: "checkbox", "data-pre": choice, checked: preAction.choice === choice });
    input.addEventListener("change", () => {
      box.querySelectorAll("input[data-pre]").forEach((other) => { if (other !== input) other.checked = false; });
      Object.assign(preAction, input.checked
        ? { choice, anchor: `${st.hand.number}:${view.street}:${toCall}`, hand: st.hand.number, street: view.street, amount: toCall }
        : { choice: null });
    });
    box.append(el("label", { class: "pre" }, input, ` ${PRE_LABELS[choice](toCall)}`));
  }
  return box;
}

/** What a choice made in advance plays now that the turn has come (``legal``), or null when
 * it no longer fits (the bet changed): then the player chooses again. */
function prePlay(st, legal) {
  const dealt = myPlayer(st);
  if (!preAction.choice || !dealt || legal.draw) return null;
  clearPre(st, dealt.view, legal.call || 0);
  const choice = preAction.choice;
  if (!choice) return null;
  const check = legal.can_check ? "check_or_call" : null;
  const action = {
    check_fold: check || (legal.can_fold ? "fold" : null),
    check,
    call: legal.can_check || legal.call === preAction.amount ? "check_or_call" : null,
    call_any: legal.can_check || legal.call > 0 ? "check_or_call" : null,
    fold_any: check || (legal.can_fold ? "fold" : null),
  }[choice];
  if (choice !== "fold_any") preAction.choice = null;
  return action;
}

/** The legal actions of the seat to act, as the server sent them; ``me`` the viewer's name;
 * ``seat`` holds topUp(chips) and leave(), offered to a player out of chips, and ``minimum``,
 * the table's minimum buy-in. */
export function renderActions(root, st, send, pick, me, seat = {}) {
  const legal = st.hand && st.hand.legal;
  root.replaceChildren();
  if (!legal || st.hand.to_act !== st.you) {
    root.classList.remove("mine");
    const offer = st.you === null && myOffer(st, me) ? " offer" : "";
    const out = busted(st);
    root.append(el("div", { class: `waiting${offer}${out ? " busted" : ""}`, id: out ? "busted" : null, text: idleText(st, me) }));
    if (out && seat.topUp) {
      root.append(el("div", { class: "buttons" },
        el("button", { id: "busted-top-up", class: "primary", text: `Top up ${seat.minimum || ""}`.trim(), onclick: () => seat.topUp(seat.minimum) }),
        el("button", { id: "busted-leave", text: "Leave the table", onclick: seat.leave })));
    }
    const pre = preActions(st);
    if (pre) root.append(pre);
    return;
  }
  root.classList.add("mine");
  root.append(el("div", { class: "turn" }, "Your turn ", el("span", { id: "clock", text: clockText(st.hand) })));
  const chosen = prePlay(st, legal);
  if (chosen) {
    // Played as chosen in advance: said, and sent once (this bar is drawn once per turn).
    root.append(el("div", { class: "hint", id: "pre-played", text: `Played as chosen in advance: ${chosen === "fold" ? "fold" : legal.can_check ? "check" : `call ${legal.call}`}` }));
    setTimeout(() => send(chosen), 0);
    return;
  }
  if (legal.draw) {
    const n = pick.selected.size;
    root.append(
      el("div", { class: "hint", text: "Click the cards to discard, then draw." }),
      el("button", {
        "data-action": "draw",
        class: "primary",
        text: n ? `Draw ${n}` : "Stand pat",
        onclick: () => send("draw", { cards: [...pick.selected] }),
      }),
    );
    return;
  }
  const row = el("div", { class: "buttons" });
  if (legal.can_fold && !legal.can_check) {
    row.append(el("button", { "data-action": "fold", "data-key": "f", class: "fold", text: "Fold", onclick: () => send("fold") }));
  } else if (legal.can_fold) {
    // Checking is free: no big red Fold; a fold is asked twice.
    const fold = el("button", { "data-action": "fold", "data-key": "f", class: "fold-free", text: "Fold", title: "checking is free", onclick: () => {
      if (fold.dataset.asked) return send("fold");
      fold.dataset.asked = "1";
      fold.classList.add("fold");
      fold.textContent = "Fold? Checking is free";
    } });
    row.append(fold);
  }
  if (legal.can_check || legal.call > 0) {
    const label = legal.can_check ? "Check" : `Call ${legal.call}`;
    row.append(el("button", { "data-action": "check_or_call", "data-key": "c", text: label, onclick: () => send("check_or_call") }));
  }
  if (legal.bring_in !== null && legal.bring_in !== undefined) {
    row.append(el("button", { "data-action": "bring_in", text: `Bring in ${legal.bring_in}`, onclick: () => send("bring_in") }));
  }
  root.append(row);
  const refusal = el("div", { class: "refusal", id: "refusal", hidden: true });
  if (legal.raise_range) {
    const [low, high] = legal.raise_range;
    // The legal line's own words: "raise" facing a bet (the blinds count), else "bet".
    const word = legal.facing > 0 ? "Raise to" : "Bet";
    if (high === low) {
      // A fixed limit: one amount, one button.
      row.append(el("button", { "data-action": "bet_or_raise", "data-key": "b", class: "primary", text: `${word} ${low}`, onclick: () => send("bet_or_raise", { amount: low }) }));
      root.append(el("div", { class: "legal", id: "legal", text: legal.text || "" }), refusal);
      return;
    }
    const amount = el("input", { id: "amount", type: "number", min: low, max: high, step: legal.unit || 1, value: low, "aria-label": "amount" });
    const slider = el("input", { id: "slider", type: "range", min: low, max: high, step: legal.unit || 1, value: low, "aria-label": "amount slider" });
    slider.addEventListener("input", () => (amount.value = slider.value));
    amount.addEventListener("input", () => (slider.value = amount.value));
    // An empty box, a fraction or more than the most allowed is said here, in the legal
    // line's words; the server judges every other amount (a short raise, with its clause).
    const verb = word.toLowerCase();
    const bet = () => {
      const chips = Number(amount.value);
      const wrong = amount.value.trim() === "" || !Number.isInteger(chips) ? `Type a whole number of chips to ${verb}`
        : chips > high ? `${chips} is more than you may ${verb}` : "";
      if (!wrong) return send("bet_or_raise", { amount: chips });
      refusal.textContent = `${wrong}: from ${low} to ${high}${high === legal.all_in ? " (all in)" : ""}.`;
      refusal.hidden = false;
    };
    amount.addEventListener("keydown", (event) => event.key === "Enter" && bet());
    const betRow = el("div", { class: "bet-row" }, slider, amount,
      el("button", { "data-action": "bet_or_raise", "data-key": "b", class: "primary", text: word, onclick: bet }));
    root.append(betRow);
    if (high > low) {
      // Presets only help pick a number inside the server's range; the server judges it.
      const pot = st.hand.pot + legal.call;
      const presets = el("div", { class: "presets" });
      const preset = (label, value) => presets.append(el("button", {
        class: "preset", text: label,
        onclick: () => { const v = Math.min(high, Math.max(low, Math.round(value))); amount.value = v; slider.value = v; },
      }));
      preset("min", low);
      preset("½ pot", legal.facing + pot / 2);
      preset("¾ pot", legal.facing + (pot * 3) / 4);
      preset("pot", legal.facing + pot);
      preset("max", high);
      root.append(presets);
    }
  }
  root.append(el("div", { class: "legal", id: "legal", text: legal.text || "" }), refusal);
}

/**
 * The table's waiting list, public as a card room's board: who waits to join, who asks to
 * change seats, the seats held. ``ui`` holds wait() and unwait(), the viewer's one button:
 * join the list (no seat free to take: the server refuses it while one is), ask for a seat
 * change (seated), or leave it.
 */
export function renderWaiting(root, st, me, ui = {}) {
  const list = st.waiting || [];
  const mine = list.some((w) => w.name === me);
  let button = null;
  if (mine) {
    button = el("button", { id: "unwait", text: "Leave the waiting list", onclick: ui.unwait });
  } else if (ui.wait && st.you !== null) {
    button = el("button", { id: "wait", text: "Ask for a seat change", onclick: ui.wait });
  } else if (ui.wait && (listFirst(st) || !freeSeats(st).length)) {
    button = el("button", { id: "wait", text: "Join the waiting list", onclick: ui.wait });
  }
  root.hidden = !st.waiting || (!list.length && !button);
  root.replaceChildren(
    el("h2", { text: "Waiting list" }),
    list.length
      ? el("div", { id: "waiting-list" }, waitGroups(list).map((group) => waitGroup(group, me)))
      : el("p", { class: "nobody", text: "Nobody waits." }),
    button,
  );
}

/** The list (in the book's order, as the server sends it) cut into its priority groups. */
function waitGroups(list) {
  const groups = [];
  for (const w of list) {
    const last = groups[groups.length - 1];
    if (last && last[0].priority === w.priority) last.push(w);
    else groups.push([w]);
  }
  return groups;
}

/** One priority group: its name (the book's clause) and its people, in the order asked. */
function waitGroup(group, me) {
  const name = group[0].group;
  return el("section", { class: "wait-group", "data-priority": group[0].priority },
    el("h3", { text: name.charAt(0).toUpperCase() + name.slice(1) }),
    group.length > 1 ? el("p", { class: "hint", text: "A draw of cards decides among them." }) : null,
    el("ol", { class: "wait-list" }, group.map((w) => waitEntry(w, me))));
}

/** One line of the list: "bob (seat 3, asks to change seats)". */
function waitEntry(w, me) {
  const what = w.offer != null ? `: seat ${w.offer} held until ${timeOf(w.offer_until, true)}`
    : w.seat != null && w.wanted != null ? ` (seat ${w.seat}, asks for seat ${w.wanted})`
    : w.seat != null ? ` (seat ${w.seat}, asks to change seats)`
    : ` (waiting to join, since ${timeOf(w.since)})`;
  return el("li", { class: w.name === me ? "mine" : null, "data-name": w.name },
    el("b", { text: w.name }),
    w.name === me ? [" ", el("span", { class: "tag mine", text: "you" })] : null, what);
}

/** The last hands' results: pots, winners and their hands named by the engine. */
export function resultEntry(number, view, nameOfSeat, game = "") {
  const item = el("li", { class: "result", "data-hand": number, "data-dealt": view.players.length }, el("b", { text: `#${number}` }));
  for (const pot of view.pots) {
    const line = el("div", { class: "pot-result" }, `${potName(pot.pot)} ${pot.amount}`,
      pot.commission ? ` (commission ${pot.commission})` : "", ":");
    pot.winners.forEach((seat, i) => {
      const named = el("div", { class: "winner" }, el("span", { class: "winners", text: nameOfSeat(seat) }));
      if (pot.named[i]) {
        for (const [half, text] of halves(pot.named[i])) {
          named.append(el("span", { class: `hand-named${half ? " half" : ""}`, text: half ? `${half}: ${text}` : text }));
        }
      }
      line.append(named);
    });
    if (noLow(game, pot.named)) {
      line.append(el("span", { class: "no-low", text: "Low: no qualifying low (the high hand takes it all)" }));
    }
    item.append(line);
  }
  return item;
}
