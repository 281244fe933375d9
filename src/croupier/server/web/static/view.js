// What the table looks like after a hand's events, as the viewer was sent them. This only
// adds up what the events say (chips moved, cards dealt, who folded); every rule is the
// server's: it sends what is legal, the pot, and the hands' names.

export function derive(hand) {
  const players = hand.order.map((seat, i) => ({
    seat,
    stack: hand.starting[i],
    bet: 0,
    hole: [],
    up: [],
    folded: false,
    allIn: false,
    shown: null,
    description: "",
    mucked: false,
    won: 0,
    last: "",
  }));
  const board = [];
  const pots = [];
  let street = 0;
  let over = false;
  const resetBets = () => players.forEach((p) => (p.bet = 0));
  for (const e of hand.events) {
    const p = players[e.player];
    switch (e.event) {
      case "PostAnte":
        p.stack -= e.amount;
        p.last = "ante";
        break;
      case "PostDead":
        p.stack -= e.amount;
        p.last = "dead blind";
        break;
      case "PostBlind":
      case "BringIn":
      case "Call":
        p.stack -= e.amount;
        p.bet += e.amount;
        p.allIn = p.allIn || e.all_in;
        p.last = { PostBlind: "blind", BringIn: "bring-in", Call: "call" }[e.event];
        break;
      case "Bet":
        p.stack -= e.amount;
        p.bet += e.amount;
        p.allIn = p.allIn || e.all_in;
        p.last = e.all_in ? "all-in" : "bet";
        break;
      case "Check":
        p.last = "check";
        break;
      case "Fold":
        p.folded = true;
        p.last = "fold";
        break;
      case "DealHole":
        p.hole.push(...e.cards);
        break;
      case "DealUp":
        p.up.push(...e.cards);
        break;
      case "Draw": {
        const known = e.discarded.filter((c) => c !== "??");
        if (known.length === e.discarded.length) {
          p.hole = p.hole.filter((c) => !known.includes(c));
        } else {
          p.hole = p.hole.slice(0, p.hole.length - e.discarded.length);
        }
        p.hole.push(...e.drawn);
        p.last = e.drawn.length ? `draws ${e.drawn.length}` : "stands pat";
        break;
      }
      case "DealBoard":
        board.push(...e.cards);
        break;
      case "StreetStart":
        street = e.index;
        if (e.index > 0) {
          resetBets(); // the first round's blinds and bring-in stay in front
          // Last round's BET or CALL is not this round's: only a fold or an all-in stays said.
          players.forEach((p) => { if (!p.folded && !p.allIn) p.last = ""; });
        }
        break;
      case "RoundEnd":
        resetBets();
        break;
      case "ReturnUncalled":
        p.stack += e.amount;
        p.bet = Math.max(0, p.bet - e.amount);
        break;
      case "Show":
        p.shown = e.cards;
        p.description = e.description;
        break;
      case "Muck":
        p.mucked = true;
        p.last = "mucks";
        break;
      case "Announce":
        // A hand shown before the board was complete is named only now, in the announcement.
        if (e.hands.length === e.winners.length) {
          e.winners.forEach((w, i) => (players[w].description ||= e.hands[i]));
        }
        pots.push({
          pot: e.pot,
          amount: e.amount,
          commission: e.commission,
          paid: e.paid,
          winners: e.winners.map((w) => players[w].seat),
          hands: e.hands,
          // Each winner's hand: the engine names it in the announcement, or, when the others
          // mucked (an uncontested pot), in the winner's show.
          named: e.hands.length === e.winners.length ? e.hands : e.winners.map((w) => players[w].description),
        });
        resetBets();
        break;
      case "Collect":
        p.stack += e.amount;
        p.won += e.amount;
        break;
      case "HandOver":
        over = true;
        e.stacks.forEach((chips, i) => (players[i].stack = chips));
        break;
      default:
        break; // Burn, Reshuffle, Rake: nothing to draw
    }
  }
  // The engine announces side pots first, the main pot last: show the main pot first.
  pots.sort((a, b) => a.pot - b.pot);
  return { players, board, pots, street, over };
}

/** The hand's log in words: a line for each event, "" for one not worth a line. A bet when
 * the round already has one (the blinds count, preflop) is a raise; after a bring-in, it
 * completes the bet. */
export function describeAll(events, nameOf, game = "") {
  let facing = ""; // what this betting round has had: "", "bring-in" or "bet"
  return events.map((e) => {
    let line = describe(e, nameOf, facing);
    if (e.event === "Announce" && noLow(game, e.hands)) line += " (no qualifying low)";
    if (e.event === "PostBlind" || e.event === "Bet") facing = "bet";
    else if (e.event === "BringIn" && !facing) facing = "bring-in";
    else if ((e.event === "StreetStart" && e.index > 0) || e.event === "RoundEnd") facing = "";
    return line;
  });
}

/** A line of the hand's log, in words; ``facing``: what the round has had (describeAll). */
export function describe(e, nameOf, facing = "") {
  const who = e.player !== undefined ? nameOf(e.player) : "";
  const allIn = e.all_in ? " (all-in)" : "";
  switch (e.event) {
    case "PostAnte": return `${who} posts an ante of ${e.amount}`;
    case "PostBlind": return `${who} posts a blind of ${e.amount}${allIn}`;
    case "PostDead": return `${who} posts ${e.amount} dead`;
    case "BringIn": return `${who} brings in for ${e.amount}${allIn}`;
    case "DealHole": return `${who} is dealt ${e.cards.join(" ")}`;
    case "DealUp": return `${who} is dealt ${e.cards.join(" ")} face up`;
    case "Discards": return `${who} discards ${e.cards.length}`;
    case "Draw": return e.drawn.length ? `${who} draws ${e.drawn.length}` : `${who} stands pat`;
    case "DealBoard": return `board: ${e.cards.join(" ")}`;
    case "StreetStart": return `— betting round ${e.index + 1} —`;
    case "RoundEnd": return "";
    case "Fold": return `${who} folds`;
    case "Check": return `${who} checks`;
    case "Call": return `${who} calls ${e.amount}${allIn}`;
    case "Bet": return `${who} ${{ bet: "raises to", "bring-in": "completes to" }[facing] || "bets"} ${e.to}${allIn}`;
    case "ReturnUncalled": return `${e.amount} uncalled returned to ${who}`;
    case "Show": return `${who} shows ${e.cards.join(" ")}${e.description ? ` (${e.description})` : ""}`;
    case "Muck": return `${who} mucks`;
    case "Announce": return `${potName(e.pot)} ${e.amount}: ${e.winners.map(nameOf).join(", ")}${e.hands.length ? ` with ${e.hands.join(", ")}` : ""}`;
    case "Rake": return `commission ${e.amount} from the ${potName(e.pot).toLowerCase()}`;
    case "Collect": return `${who} collects ${e.amount}`;
    case "Burn": return "";
    case "Reshuffle": return `the discards are reshuffled (${e.cards} cards)`;
    case "HandOver": return "the hand is over";
    default: return e.event;
  }
}

export function potName(index) {
  return index === 0 ? "Main pot" : `Side pot ${index}`;
}

/** The split games: half of each pot to the best qualifying low. */
export const HI_LO = ["omaha8", "stud7-8"];

/** A pot of a hi-lo ``game`` shown down with no qualifying low among its winners' hands (the
 * engine names a winner's low when it has one): the high hand takes it all. */
export function noLow(game, hands) {
  return HI_LO.includes(game) && hands.length > 0 && !hands.some((h) => h && h.includes("; low "));
}

/** A winning hand's name as the engine gives it; hi-lo games name both halves. */
export function halves(description) {
  const at = description.indexOf("; low ");
  if (at < 0) return [["", description]];
  return [["High", description.slice(0, at)], ["Low", description.slice(at + 6)]];
}
