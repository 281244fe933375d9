// Cards as the server writes them ("Ah", "Td", "??" hidden), drawn as small DOM elements.
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    // Through the CSSOM: the page's Content-Security-Policy refuses style attributes.
    else if (key === "style") node.style.cssText = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** One card: a face, or a back for a card the viewer may not see. */
export function card(text, extra = "") {
  if (!text || text === "??") {
    return el("span", { class: `card back ${extra}`, "data-card": "??", title: "hidden card" });
  }
  const rank = text.slice(0, -1).replace("T", "10");
  const suit = text.slice(-1).toLowerCase();
  return el(
    "span",
    { class: `card suit-${suit} ${extra}`, "data-card": text, title: `${rank} of ${SUIT_NAMES[suit]}` },
    el("b", { text: rank }),
    el("i", { text: SUITS[suit] || "?" }),
  );
}

export function cards(list, extra = "") {
  return el("span", { class: "cards" }, list.map((c) => card(c, extra)));
}
