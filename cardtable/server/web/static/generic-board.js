// @ts-check
// The board of every game that brings none of its own (no `web_client` in its
// manifest): a card table drawn from the state message alone. The seats sit
// around the felt (cards held, points, whose turn), the public piles and plays
// lie in the middle, the seat's own hand at its foot; each legal move is a real
// button named in the game's own notation, and the moves refused now say why
// (the engine's reason and rule). How a view's fields are read:
// generic-view.js. Same interface as a game's board.js (docs/browser.md).

import { cardFields, cardOfMove, cardsOnTable, notation, readView, stringsIn, wordsOf } from "./generic-view.js";
import { refusalWords } from "./refusal.js";

export const css = new URL("./generic-board.css", import.meta.url);

const SMALL_AFTER = 6; // more cards than this in a row: drawn small
const MOST_CARDS = 40; // a longer list (a table of symbols) shows its start and a count
const MOST_BACKS = 12;
// Facts that name a seat by its number: shown as the seat's name.
const SEAT_FACTS = new Set(["dealer", "leader", "start_player", "first_player", "first_dealer"]);

/** @typedef {import("./generic-view.js").Field} Field */
/** @typedef {import("./generic-view.js").Card} Card */
/** @typedef {import("./generic-view.js").Play} Play */
/** @typedef {import("./board-host.js").BoardContext} BoardContext */
/** @typedef {import("./board-host.js").StateMessage} StateMessage */
/** @typedef {import("./i18n.js").Translate} Translate */
/** @typedef {ReturnType<typeof readView>} Read */
/** @typedef {(key: string) => string} Label a field's words */
/** @typedef {import("./refusal.js").Refusal} Refusal */
/** @typedef {{element: HTMLElement, cardMoves: Set<unknown>, playable: number}} Hand */

/** @type {WeakMap<HTMLElement, {seq: number, read: Read, toMove: number | null}>} */
const memory = new WeakMap(); // root -> what the last drawing showed, for the last-event line
/** @type {WeakMap<HTMLElement, {seq: number, card: string | number}>} */
const opened = new WeakMap(); // root -> the card whose choices are open, kept across a redraw of the same state

/**
 * @param {HTMLElement} root
 * @param {StateMessage} msg
 * @param {BoardContext} ctx
 */
export function render(root, msg, ctx) {
  const { h, t } = ctx;
  const view = msg.view ?? {};
  const players = msg.seats?.length || view.players || ctx.names.length;
  const read = readView(view, players);
  const me = msg.seat ?? null;
  const mine = me !== null && msg.to_move === me && !msg.finished && !msg.replay;
  const { content, live } = frame(root, h);
  const event = lastEvent(memory.get(root), msg, read, ctx);
  memory.set(root, { seq: msg.seq, read, toMove: msg.to_move });
  if (event !== null) live.textContent = event;
  live.hidden = !live.textContent;

  /** @type {Label} */
  const label = (key) => fieldLabel(key, t);
  const top = read.fields.filter((f) => f.kind !== "section");
  const cards = read.hand ?? [];
  const fields = mine ? cardFields(msg.legal ?? [], (msg.refused ?? []).map((r) => r.move), cards) : new Set();
  const hand = cards.length && me !== null ? handPart(root, cards, fields, msg, mine, ctx) : null;
  const parts = [
    tablePart(msg, read, top, players, hand?.element, ctx, label),
    msg.replay ? null : h("p", { class: "gb-prompt" }, promptText(msg, mine, hand, ctx)),
    mine ? movesPart(msg, hand?.cardMoves ?? new Set(), ctx) : null,
    h("p", { class: "gb-reason", role: "status" }),
    mine ? refusedPart(msg, cards, fields, read, view, ctx) : null,
    scoreSheet(top, players, ctx, label),
    ...read.fields.filter((f) => f.kind === "section" || f.kind === "records").map((f) => section(f, players, ctx, label)),
  ];
  content.replaceChildren(.../** @type {HTMLElement[]} */ (parts.filter(Boolean)));
}

/**
 * The game so far in words, from the view: scored rounds, then every card put down.
 * @param {StateMessage} msg
 * @param {Translate} t
 * @param {string[]} names
 */
export function narrate(msg, t, names) {
  const read = readView(msg.view ?? {}, names.length);
  /** @type {string[]} */
  const lines = [];
  for (const field of read.fields) {
    if (field.kind === "rows") {
      field.value.forEach((row, i) => lines.push(t("generic.logRow", {
        label: fieldLabel(field.key, t), number: i + 1, values: row.map((v, seat) => `${names[seat]} ${v}`).join(", "),
      })));
    }
  }
  for (const play of readPlays(read.fields)) {
    lines.push(t("generic.logPlay", { name: names[play.seat] ?? "", card: play.card }));
  }
  if (msg.view?.finished || msg.finished) {
    lines.push(t("generic.logOver", { names: (msg.winners ?? msg.view?.winners ?? []).map((s) => names[s]).join(", ") }));
  }
  return lines;
}

// -------------------------------------------------------------- the frame

/** The board's two parts: the drawing, redrawn each time, and the last-event
 * line, kept across drawings so screen readers hear each new event once.
 * @param {HTMLElement} root
 * @param {BoardContext["h"]} h
 */
function frame(root, h) {
  let content = /** @type {HTMLElement | null} */ (root.querySelector(":scope > .gb-content"));
  let live = /** @type {HTMLElement | null} */ (root.querySelector(":scope > .gb-last"));
  if (!content || !live) {
    live = h("p", { class: "gb-last", role: "status", "aria-atomic": "true" });
    content = h("div", { class: "gb-content" });
    root.replaceChildren(live, content);
  }
  return { content, live };
}

/**
 * @param {Field[]} fields
 * @returns {Play[]}
 */
function readPlays(fields) {
  return fields.flatMap((f) => (f.kind === "plays" ? f.value : f.kind === "playGroups" ? f.value.flat() : []));
}

/** What just happened, said once: the card last put down, a new round, the end;
 * null when the drawing shows the same state as before.
 * @param {{seq: number, read: Read, toMove: number | null} | undefined} before
 * @param {StateMessage} msg
 * @param {Read} read
 * @param {BoardContext} ctx
 * @returns {string | null}
 */
function lastEvent(before, msg, read, ctx) {
  const { t, names } = ctx;
  if (before && before.seq === msg.seq) return null;
  const lengths = before ? new Map(before.read.fields.map((f) => [f.key, playCount(f)])) : new Map();
  /** @type {Play | null | undefined} */
  let played = null;
  for (const field of read.fields) {
    const plays = readPlays([field]);
    if (plays.length && (!before || plays.length > (lengths.get(field.key) ?? 0))) {
      played = plays.at(-1);
      if (before) break; // the field that grew; on a first drawing, the latest of all
    }
  }
  if (msg.finished) return t("generic.lastOver");
  if (played) return t("generic.lastPlay", { name: names[played.seat] ?? "", card: played.card });
  if (!before) return "";
  if (read.round !== null && read.round !== before.read.round) return t("generic.lastRound", { round: read.round });
  const mover = names[before.toMove ?? -1];
  return mover ? t("generic.lastMove", { name: mover }) : "";
}

/** @param {Field} field */
function playCount(field) {
  return readPlays([field]).length;
}

/**
 * @param {string} key
 * @param {Translate} t
 */
function fieldLabel(key, t) {
  return t.has?.(`generic.field.${key}`) ? t(`generic.field.${key}`) : wordsOf(key);
}

// ------------------------------------------------------------ the table

/** The felt: the other seats across the top, the piles in the middle, this
 * seat's plate and its hand at the foot.
 * @param {StateMessage} msg
 * @param {Read} read
 * @param {Field[]} fields
 * @param {number} players
 * @param {HTMLElement | undefined} hand
 * @param {BoardContext} ctx
 * @param {Label} label
 */
function tablePart(msg, read, fields, players, hand, ctx, label) {
  const { h, t } = ctx;
  const me = msg.seat ?? null;
  const bottom = me ?? 0;
  const order = Array.from({ length: players }, (_, i) => (bottom + i) % players);
  const plates = order.map((seat) => seatPlate(seat, msg, fields, ctx, label));
  const facts = fields.filter((f) => f.kind === "fact");
  const middle = fields.filter((f) => ["plays", "playGroups", "pile", "piles"].includes(f.kind));
  const centre = h("div", { class: "gb-centre" },
    h("p", { class: "gb-facts" },
      read.round !== null ? h("span", { class: "gb-round" }, t("generic.round", { round: read.round })) : null,
      facts.map((f) => h("span", { class: "gb-fact" }, t("generic.fact", {
        label: label(f.key), value: SEAT_FACTS.has(f.key) ? ctx.names[/** @type {number} */ (f.value)] ?? factText(f.value, t) : factText(f.value, t),
      })))),
    h("div", { class: "gb-piles" }, middle.map((f) => pile(f, ctx, label))),
    msg.finished ? h("p", { class: "gb-final" }, t("generic.gameOver", {
      names: (msg.winners ?? []).map((s) => ctx.names[s]).join(t("end.and")),
    })) : null);
  const [mine, ...others] = plates;
  return h("div", { class: `felt gb-table players-${players}` },
    h("div", { class: "gb-others" }, me === null ? plates : others),
    centre,
    me === null ? null : h("div", { class: "gb-me" }, mine, hand));
}

/**
 * @param {number} seat
 * @param {StateMessage} msg
 * @param {Field[]} fields
 * @param {BoardContext} ctx
 * @param {Label} label
 */
function seatPlate(seat, msg, fields, ctx, label) {
  const { h, t } = ctx;
  /** @type {Partial<import("./board-host.js").SeatInfo>} */
  const info = msg.seats?.[seat] ?? {};
  const me = msg.seat ?? null;
  const name = [ctx.names[seat], seat === me && !msg.replay ? t("generic.you") : null].filter(Boolean).join(" ");
  const toMove = msg.to_move === seat && !msg.finished;
  const badges = [
    toMove ? h("span", { class: "seat-badge gb-turn" }, t("generic.toMove")) : null,
    info.kind === "bot" ? h("span", { class: "seat-badge" }, t("generic.bot")) : null,
    info.bot_playing ? h("span", { class: "seat-badge away" }, t("generic.away")) : null,
    (msg.winners ?? []).includes(seat) ? h("span", { class: "seat-badge" }, t("generic.winner")) : null,
  ].filter(Boolean);
  const facts = fields.filter((f) => f.kind === "perSeat").map((f) => seatFact(f, f.value[seat], ctx, label)).filter(Boolean);
  const sizes = fields.find((f) => f.key === "hand_sizes" && f.kind === "perSeat");
  const open = msg.views?.[seat]?.hand;
  let cards = null;
  if (Array.isArray(open)) {
    cards = cardRow(open, ctx, t("generic.openHand", { name: ctx.names[seat] }), true);
  } else if (sizes && seat !== me) {
    cards = backs(/** @type {(number | boolean)[]} */ (sizes.value)[seat], ctx); // a perSeat field
  }
  const piles = fields.filter((f) => f.kind === "seatPiles").filter((f) => f.value[seat].some((c) => c !== null))
    .map((f) => cardRow(f.value[seat], ctx, t("generic.seatPile", { label: label(f.key), name: ctx.names[seat] }), true));
  return h("section", {
    class: `seat gb-seat${toMove ? " is-to-move" : ""}${seat === me ? " is-me" : ""}`,
    "aria-label": name, dataset: { seat },
  },
  h("span", { class: "seat-name" }, name),
  badges.length ? h("span", { class: "gb-badges" }, badges) : null,
  facts.length ? h("span", { class: "seat-facts" }, facts) : null,
  cards, piles);
}

/**
 * @param {Field} field
 * @param {number | boolean | null | undefined} value
 * @param {BoardContext} ctx
 * @param {Label} label
 */
function seatFact(field, value, ctx, label) {
  const { h, t } = ctx;
  if (field.key === "hand_sizes") return h("span", {}, t("generic.cards", { count: value }));
  if (field.key === "scores") return h("span", { class: "gb-points" }, t("generic.points", { count: value }));
  if (value === true) return h("span", { class: "gb-flag" }, label(field.key));
  if (value === false || value === null || value === undefined) return null;
  return h("span", {}, t("generic.fact", { label: label(field.key), value }));
}

/**
 * Face-down cards: how many a seat holds, never which.
 * @param {unknown} count
 * @param {BoardContext} ctx
 */
function backs(count, ctx) {
  const { h, t } = ctx;
  if (!Number.isInteger(count) || /** @type {number} */ (count) <= 0) return null;
  const shown = Math.min(/** @type {number} */ (count), MOST_BACKS);
  return h("span", { class: "gb-backs", role: "img", "aria-label": t("generic.cards", { count }) },
    Array.from({ length: shown }, () => h("span", { class: "card card-back gb-back" })));
}

/**
 * @param {unknown} value
 * @param {Translate} t
 */
function factText(value, t) {
  if (value === null || value === undefined || value === "") return t("generic.none");
  if (value === true) return t("generic.yes");
  if (value === false) return t("generic.no");
  return String(value);
}

// ----------------------------------------------------------- piles, cards

/**
 * @param {Field} field
 * @param {BoardContext} ctx
 * @param {Label} label
 */
function pile(field, ctx, label) {
  const { h, t } = ctx;
  const name = label(field.key);
  let body;
  if (field.kind === "plays") body = playRow(field.value, ctx, name);
  else if (field.kind === "playGroups") {
    body = field.value.length
      ? h("ol", { class: "gb-groups" }, field.value.map((plays, i) => h("li", {}, playRow(plays, ctx, t("generic.groupOf", { label: name, number: i + 1 }), true))))
      : empty(ctx);
  } else if (field.kind === "piles") {
    body = field.value.length
      ? field.value.map((cards, i) => cardRow(cards, ctx, t("generic.groupOf", { label: name, number: i + 1 })))
      : empty(ctx);
  } else body = cardRow(/** @type {Card[]} */ (field.value), ctx, name); // a pile
  return h("div", { class: `gb-pile gb-${field.kind}`, dataset: { field: field.key } },
    h("span", { class: "gb-pile-label", "aria-hidden": "true" }, name), body);
}

/** @param {BoardContext} ctx */
function empty(ctx) {
  return ctx.h("span", { class: "gb-empty" }, ctx.t("generic.empty"));
}

/**
 * @param {Card} value
 * @param {BoardContext} ctx
 * @param {boolean} small
 */
function card(value, ctx, small) {
  const { h, t } = ctx;
  if (value === null) return h("span", { class: `card gb-card card-back${small ? " card-small" : ""}`, role: "img", "aria-label": t("generic.unknownCard") });
  return h("span", { class: `card gb-card${small ? " card-small" : ""}`, style: tint(value) },
    h("span", { class: "gb-face" }, String(value)));
}

/** A hue per card family (the name's first letter: "B2" and "B4" alike), so a row
 * reads at a glance; the name itself is always written on the card.
 * @param {Card} value
 */
function tint(value) {
  if (typeof value !== "string" || !value) return null;
  return { "--gb-hue": String((value.toUpperCase().charCodeAt(0) * 67) % 360) };
}

/**
 * @param {Card[]} cards
 * @param {BoardContext} ctx
 * @param {string} name
 * @param {boolean} [small]
 */
function cardRow(cards, ctx, name, small = false) {
  const { h, t } = ctx;
  if (!cards.length) return empty(ctx);
  const shown = cards.slice(0, MOST_CARDS);
  const tiny = small || cards.length > SMALL_AFTER;
  return h("ul", { class: "gb-cards", "aria-label": name },
    shown.map((c) => h("li", {}, card(c, ctx, tiny))),
    cards.length > shown.length ? h("li", { class: "gb-more" }, t("generic.more", { count: cards.length - shown.length })) : null);
}

/**
 * @param {Play[]} plays
 * @param {BoardContext} ctx
 * @param {string} name
 * @param {boolean} [small]
 */
function playRow(plays, ctx, name, small = false) {
  const { h } = ctx;
  if (!plays.length) return empty(ctx);
  const tiny = small || plays.length > SMALL_AFTER;
  return h("ul", { class: "gb-cards gb-plays", "aria-label": name },
    plays.map((p) => h("li", {},
      h("figure", { class: "gb-play" }, card(p.card, ctx, tiny), h("figcaption", {}, ctx.names[p.seat] ?? "")))));
}

// ---------------------------------------------------- the seat's own part

/**
 * The seat's hand; on its turn, each card a legal move puts down is a button.
 * A card whose moves ask a further choice ({"play": 30, "direction": "up"} and
 * "down") offers them beside it when chosen.
 * @param {HTMLElement} root
 * @param {(string | number)[]} cards
 * @param {Set<string>} fields the moves' fields that name a card (cardFields)
 * @param {StateMessage} msg
 * @param {boolean} mine
 * @param {BoardContext} ctx
 * @returns {Hand}
 */
function handPart(root, cards, fields, msg, mine, ctx) {
  const { h, t } = ctx;
  /** @type {Map<string | number, unknown[]>} */
  const legal = new Map();
  /** @type {Map<string | number, Refusal>} */
  const refused = new Map();
  for (const move of msg.legal ?? []) {
    const named = cardOfMove(move, cards, fields);
    if (named?.held) legal.set(named.card, [...(legal.get(named.card) ?? []), move]);
  }
  for (const r of msg.refused ?? []) {
    const named = cardOfMove(r.move, cards, fields);
    if (named?.held && !refused.has(named.card)) refused.set(named.card, r);
  }
  const asButtons = fields.size > 0;
  const firstPlayable = cards.find((c) => legal.has(c));
  const open = opened.get(root);
  const openCard = open?.seq === msg.seq && legal.has(open.card) ? open.card : null;
  /** @type {HTMLUListElement} */
  const list = h("ul", {
    class: "gb-cards gb-hand-cards", "aria-label": t("generic.hand", { count: cards.length }),
    onkeydown: asButtons ? (event) => moveFocus(event, list) : undefined,
  }, cards.map((name) => {
    if (!asButtons) return h("li", {}, card(name, ctx, false));
    const moves = legal.get(name) ?? [];
    const single = moves.length === 1 && !Object.keys(cardOfMove(moves[0], cards, fields)?.rest ?? {}).length;
    if (moves.length && !single) {
      return choiceCard(root, name, moves, cards, fields, msg, { isOpen: name === openCard, first: name === firstPlayable }, ctx);
    }
    const move = moves[0];
    const why = move ? null : refused.get(name);
    const words = why ? t("generic.reason", { reason: refusalText(why, msg, ctx), rule: why.rule ?? "" }) : t("generic.noMoveHere");
    return h("li", {}, h("button", {
      type: "button",
      class: `card gb-card${move ? " is-playable" : " is-refused"}`,
      "aria-label": move ? t("generic.playable", { move: notation(move) }) : t("generic.notPlayable", { card: name, reason: words }),
      "aria-disabled": move ? false : "true",
      title: move ? notation(move) : words,
      style: tint(name),
      dataset: { key: `card-${name}`, card: name, autofocus: name === firstPlayable ? "" : undefined },
      onclick: (event) => {
        if (move && !ctx.pending) ctx.send(move);
        else if (!move) explain(event.currentTarget, words);
      },
    }, h("span", { class: "gb-face" }, name)));
  }));
  const element = h("section", { class: "gb-hand", "aria-label": t("generic.handHeading") },
    h("h2", { class: "gb-pile-label" }, t("generic.handHeading")), list);
  return { element, cardMoves: new Set([...legal.values()].flat()), playable: legal.size };
}

/**
 * A card with more than one way to play it (or one asking a further field):
 * choosing the card opens its choices beside it, each the rest of a move in
 * the game's notation ("direction down"); focus goes to the first, Escape
 * closes them and goes back to the card, choosing one sends its move.
 * @param {HTMLElement} root
 * @param {string | number} name
 * @param {unknown[]} moves
 * @param {(string | number)[]} cards
 * @param {Set<string>} fields
 * @param {StateMessage} msg
 * @param {{isOpen: boolean, first: boolean}} how open now (a redraw of the same state); the hand's first playable card
 * @param {BoardContext} ctx
 */
function choiceCard(root, name, moves, cards, fields, msg, { isOpen, first }, ctx) {
  const { h, t } = ctx;
  const id = `gb-choices-${String(name).replace(/[^\w-]/g, "_")}`;
  const words = moves.map((m) => notation(cardOfMove(m, cards, fields)?.rest) || notation(m));
  /** @type {HTMLButtonElement} */
  const button = h("button", {
    type: "button",
    class: "card gb-card is-playable has-choices",
    "aria-label": t("generic.choosable", { card: name, count: moves.length }),
    "aria-expanded": String(isOpen),
    "aria-controls": id,
    title: words.join(" · "),
    style: tint(name),
    dataset: { key: `card-${name}`, card: name, autofocus: first ? "" : undefined },
    onclick: () => (choices.hidden ? show() : hide()),
  }, h("span", { class: "gb-face" }, name));
  /** @type {HTMLElement} */
  const choices = h("div", {
    class: "gb-choices", id, role: "group", hidden: !isOpen,
    "aria-label": t("generic.choicesFor", { card: name }),
    onkeydown: (/** @type {KeyboardEvent} */ event) => {
      if (event.key === "Escape") { hide(); button.focus(); }
      else if (event.key in STEPS) moveFocus(event, choices);
      else return;
      event.preventDefault();
      event.stopPropagation(); // the hand's own arrow keys walk the cards, not these
    },
  }, moves.map((move, i) => h("button", {
    type: "button", class: "gb-choice primary",
    "aria-label": notation(move), // the whole move ("play 30, direction down"), its rest shown
    disabled: ctx.pending,
    dataset: { key: `choice-${name}-${i}` },
    onclick: () => { opened.delete(root); ctx.send(move); },
  }, words[i])));
  const show = () => {
    for (const other of root.querySelectorAll(/** @type {"div"} */ (".gb-choices:not([hidden])"))) {
      other.hidden = true;
      other.previousElementSibling?.setAttribute("aria-expanded", "false");
    }
    choices.hidden = false;
    button.setAttribute("aria-expanded", "true");
    opened.set(root, { seq: msg.seq, card: name });
    /** @type {HTMLElement | null} */ (choices.querySelector("button"))?.focus();
  };
  const hide = () => {
    choices.hidden = true;
    button.setAttribute("aria-expanded", "false");
    opened.delete(root);
  };
  return h("li", { class: "gb-choosing" }, button, choices);
}

/**
 * A refusal in the page's words: the game's catalog where it words the
 * refusal's key, else the engine's reason with each "seat N" named as the
 * page names that seat ("your seat" for this one).
 * @param {Refusal} refusal
 * @param {StateMessage} msg
 * @param {BoardContext} ctx
 */
function refusalText(refusal, msg, ctx) {
  return refusalWords(refusal, ctx.t, { names: ctx.names, me: msg.seat ?? null });
}

/**
 * Every legal move the hand's cards do not stand for, as a button in the game's notation.
 * @param {StateMessage} msg
 * @param {Set<unknown>} cardMoves
 * @param {BoardContext} ctx
 */
function movesPart(msg, cardMoves, ctx) {
  const { h, t } = ctx;
  const moves = (msg.legal ?? []).filter((m) => !cardMoves.has(m));
  if (!moves.length) return null;
  return h("section", { class: "gb-moves", "aria-label": t("generic.movesHeading") },
    h("h2", { class: "gb-heading" }, t("generic.movesHeading")),
    h("div", { class: "gb-move-list" }, moves.map((move, i) => {
      const words = notation(move) || t("generic.emptyMove");
      return h("button", {
        type: "button", class: "gb-move primary",
        dataset: { key: `move-${words}`, autofocus: i === 0 && !cardMoves.size ? "" : undefined },
        disabled: ctx.pending,
        onclick: () => ctx.send(move),
      }, words);
    })));
}

/** The moves refused now, with the engine's reason and rule, other than those
 * drawn at a card of the hand; a move naming something this seat cannot see (a
 * card held by another) is left out: its refusal tells nothing, and would name the card.
 * @param {StateMessage} msg
 * @param {(string | number)[]} hand
 * @param {Set<string>} fields the moves' fields that name a card (cardFields)
 * @param {Read} read
 * @param {unknown} view
 * @param {BoardContext} ctx
 */
function refusedPart(msg, hand, fields, read, view, ctx) {
  const { h, t } = ctx;
  const seen = stringsIn(view);
  const onTable = cardsOnTable(read.fields);
  const shown = (msg.refused ?? []).filter((r) => {
    const named = cardOfMove(r.move, hand, fields);
    if (named && (named.held || !onTable.has(named.card))) return false; // at its card; or unseen
    return [...stringsIn(r.move)].every((s) => seen.has(s));
  });
  if (!shown.length) return null;
  return h("details", { class: "gb-refused" },
    h("summary", {}, t("generic.refusedHeading", { count: shown.length })),
    h("ul", {}, shown.map((r) => h("li", {},
      h("strong", {}, notation(r.move) || t("generic.emptyMove")), " ",
      t("generic.reason", { reason: refusalText(r, msg, ctx), rule: r.rule ?? "" })))));
}

/**
 * @param {HTMLElement} button
 * @param {string} text
 */
function explain(button, text) {
  const box = button.closest(".gb-content")?.querySelector(".gb-reason");
  if (box) box.textContent = text;
}

/** @type {Record<string, number>} */
const STEPS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

/**
 * Arrow keys walk the hand's cards (or a card's choices), round the end; Home and End go to the ends.
 * @param {KeyboardEvent} event
 * @param {HTMLElement} list
 */
function moveFocus(event, list) {
  const buttons = [...list.querySelectorAll(/** @type {"button"} */ (":scope > li > button, :scope > button"))];
  const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
  /** @type {Record<string, number>} */
  const ends = { Home: 0, End: buttons.length - 1 };
  const to = event.key in ends ? ends[event.key]
    : event.key in STEPS ? (at + STEPS[event.key] + buttons.length) % buttons.length : null;
  if (at < 0 || to === null) return;
  buttons[to].focus();
  event.preventDefault();
}

/**
 * @param {StateMessage} msg
 * @param {boolean} mine
 * @param {Hand | null} hand
 * @param {BoardContext} ctx
 */
function promptText(msg, mine, hand, ctx) {
  const { t, names } = ctx;
  if (msg.finished) return t("generic.promptOver");
  if (msg.to_move === null || msg.to_move === undefined) return "";
  if (!mine) return msg.seat === null ? "" : t("generic.promptWait", { name: names[msg.to_move] ?? "" });
  return hand?.playable ? t("generic.promptCard") : t("generic.promptMove");
}

// ------------------------------------------------------ scores, sections

/**
 * One row per scored round and per number each seat has (points, tricks…).
 * @param {Field[]} fields
 * @param {number} players
 * @param {BoardContext} ctx
 * @param {Label} label
 */
function scoreSheet(fields, players, ctx, label) {
  const { h, t } = ctx;
  /** @type {[string, (number | boolean)[]][]} */
  const rows = [];
  for (const f of fields) {
    if (f.kind === "rows") f.value.forEach((row, i) => rows.push([t("generic.groupOf", { label: label(f.key), number: i + 1 }), row]));
  }
  for (const f of fields) {
    // Hand sizes are drawn as each seat's face-down cards, not scored.
    const scored = f.kind === "perSeat" && f.key !== "hand_sizes" && f.value.every((v) => typeof v === "number");
    if (scored) rows.push([label(f.key), f.value]);
  }
  if (!rows.length) return null;
  const names = Array.from({ length: players }, (_, s) => ctx.names[s] ?? String(s));
  return h("section", { class: "gb-sheet", "aria-label": t("generic.sheetHeading") },
    h("h2", { class: "gb-heading" }, t("generic.sheetHeading")),
    h("div", { class: "gb-sheet-scroll", tabindex: "0", role: "group", "aria-label": t("generic.sheetHeading") },
      h("table", {},
        h("thead", {}, h("tr", {}, h("td", {}), names.map((n) => h("th", { scope: "col" }, n)))),
        h("tbody", {}, rows.map(([name, values]) => h("tr", {},
          h("th", { scope: "row" }, name), values.map((v) => h("td", {}, String(v)))))))));
}

/** A nested object of the view (its facts, piles and rows) or a list of
 * records (a history), folded under its own name.
 * @param {Extract<Field, {kind: "section" | "records"}>} field
 * @param {number} players
 * @param {BoardContext} ctx
 * @param {Label} label
 * @returns {HTMLElement}
 */
function section(field, players, ctx, label) {
  const { h, t } = ctx;
  const fields = field.kind === "records" ? [field] : field.value;
  const parts = fields.map((f) => {
    if (f.kind === "section") return section(f, players, ctx, label);
    if (f.kind === "fact") return h("p", { class: "gb-line" }, t("generic.fact", { label: label(f.key), value: factText(f.value, t) }));
    if (f.kind === "records") return records(f, ctx, label);
    if (f.kind === "perSeat" || f.kind === "rows" || f.kind === "seatPiles") {
      const rows = f.kind === "perSeat" ? [f.value] : f.value;
      return h("p", { class: "gb-line" }, t("generic.fact", {
        label: label(f.key), value: rows.map((row) => (Array.isArray(row) ? row.map((v) => factText(v, t)).join(" ") : factText(row, t))).join(" · "),
      }));
    }
    return pile(f, ctx, label);
  });
  return h("details", { class: "gb-section" }, h("summary", {}, label(field.key)), parts);
}

/**
 * @param {Extract<Field, {kind: "records"}>} field
 * @param {BoardContext} ctx
 * @param {Label} label
 */
function records(field, ctx, label) {
  const { h } = ctx;
  return h("div", { class: "gb-pile" },
    h("span", { class: "gb-pile-label" }, label(field.key)),
    h("ol", { class: "gb-records" }, field.value.map((item) => h("li", {}, notation(item)))));
}
