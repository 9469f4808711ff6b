// @ts-check
// Marshmallow Test in the browser: draws one "state" message (built by the
// server from view(seat) only) as a card table, and turns clicks and keys into
// moves ({"play": "G7"} or {"trump": "green"}). Playable cards are the server's
// `legal` moves; every other card of the hand carries the engine's own refusal
// from `refused` ("must follow green", MT-5.3), shown on hover, focus and tap.

// The shell's types (docs/browser.md): used by the checker only, nothing is imported.

/** @typedef {import("../../../server/web/static/board-host.js").BoardContext} BoardContext */
/** @typedef {import("../../../server/web/static/board-host.js").SummaryContext} SummaryContext */
/** @typedef {import("../../../server/web/static/board-host.js").StateMessage<View>} Message */
/** @typedef {import("../../../server/web/static/i18n.js").Translate} Translate */
/** @typedef {BoardContext["h"]} H */
/** @typedef {{seat: number, card: string}} Play */
/**
 * A seat's view (view.py, MarshmallowView.to_json).
 * @typedef {object} View
 * @property {number | null} seat
 * @property {number} players
 * @property {number} target
 * @property {number} round_number
 * @property {number | null} dealer
 * @property {string | null} trump
 * @property {number | null} to_move
 * @property {string[]} hand
 * @property {number[]} hand_sizes
 * @property {Play[][]} tricks
 * @property {number[]} trick_winners
 * @property {Play[]} current_trick
 * @property {number[]} trick_counts
 * @property {boolean[]} out
 * @property {number[]} scores
 * @property {number[][]} round_scores
 * @property {boolean} finished
 * @property {number[]} winners
 */
/** @typedef {{name: string, colour: string, number: number}} Card */

export const css = new URL("./board.css", import.meta.url);

// Who went out in which place, in words: "went out 1." read as a numbered
// list, and its full stop broke the line of facts in German ("als 1. ausgestiegen. ·").
const OUT_PLACES = ["summary.outFirst", "summary.outSecond", "summary.outThird", "summary.outFourth", "summary.outFifth"];

/** @param {string} lang */
export const catalog = (lang) => new URL(`./i18n.${lang}.json`, import.meta.url);

const COLOURS = ["red", "yellow", "green", "blue", "purple"]; // MT-1.1 order
/** @type {Record<string, string>} */
const LETTER_COLOUR = { R: "red", Y: "yellow", G: "green", B: "blue", P: "purple" };

// A shape per colour, so the five colours differ without colour vision.
/** @type {Record<string, string>} */
const SHAPES = {
  red: '<path d="M5 1 L9.3 9 L0.7 9 Z"/>',
  yellow: '<circle cx="5" cy="5" r="4.2"/>',
  green: '<rect x="1.2" y="1.2" width="7.6" height="7.6"/>',
  blue: '<path d="M5 0.6 L9.4 5 L5 9.4 L0.6 5 Z"/>',
  purple: '<path d="M5 0.4 L6.3 3.6 L9.7 3.8 L7.1 6 L7.9 9.4 L5 7.6 L2.1 9.4 L2.9 6 L0.3 3.8 L3.7 3.6 Z"/>',
};

// Where each seat sits, counted clockwise from the one at the bottom (MT-2.1).
/** @type {Record<number, string[]>} */
const AREAS = {
  2: ["bottom", "top"],
  3: ["bottom", "top-left", "top-right"],
  4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "top-left", "top-right", "right"],
};
/** @typedef {{round: number, tricks: number, current: number, seq: number, trump: string | null, out: boolean[], replay: boolean}} Shown */
/** @type {WeakMap<HTMLElement, Shown>} */
const memory = new WeakMap(); // root -> what the last drawing showed, for animations

/**
 * @param {string} name
 * @returns {Card}
 */
export function parseCard(name) {
  const colour = LETTER_COLOUR[name[0]];
  return { name, colour, number: Number(name.slice(1)) };
}

/**
 * The (seat, card) now winning a trick (MT-5.6): highest trump, else highest of the lead colour.
 * @param {Play[]} trick
 * @param {string | null} trump
 * @returns {Play | null}
 */
export function winningPlay(trick, trump) {
  if (!trick.length) return null;
  const lead = parseCard(trick[0].card).colour;
  /** @param {Play} play */
  const strength = ({ card }) => {
    const c = parseCard(card);
    if (trump && c.colour === trump) return 100 + c.number;
    return c.colour === lead ? c.number : -1;
  };
  return trick.reduce((best, play) => (strength(play) > strength(best) ? play : best));
}

/**
 * @param {string} colour
 * @param {BoardContext} ctx
 */
function shape(colour, ctx) {
  const span = ctx.h("span", { class: "mt-shape", "aria-hidden": "true" });
  span.innerHTML = `<svg viewBox="0 0 10 10" focusable="false">${SHAPES[colour]}</svg>`;
  return span;
}

// The corner letter is the colour's initial in the page's language (`letter.<colour>`),
// beside the colour's shape; the card's name for screen readers is in words.
/**
 * @param {Card} card
 * @param {BoardContext} ctx
 */
function face(card, ctx) {
  const letter = ctx.t(`letter.${card.colour}`);
  return [
    ctx.h("span", { class: "mt-corner", "aria-hidden": "true" }, letter, shape(card.colour, ctx)),
    ctx.h("span", { class: "mt-number", "aria-hidden": "true" }, String(card.number)),
    ctx.h("span", { class: "mt-corner mt-corner-low", "aria-hidden": "true" }, shape(card.colour, ctx), letter),
  ];
}

/**
 * @param {Card} card
 * @param {Translate} t
 */
function cardName(card, t) {
  return t("card", { colour: t(`colour.${card.colour}`), number: card.number });
}

/**
 * A card's short name in the page's language, as its corner shows it ("Ge12" for `Y12` in German).
 * @param {string} name
 * @param {Translate} t
 */
function shortName(name, t) {
  const card = parseCard(name);
  return `${t(`letter.${card.colour}`)}${card.number}`;
}

/**
 * A card's name (`R4`) in the page's words ("Red 4"): for refusals the table words.
 * @param {string} name
 * @param {Translate} t
 */
export function cardLabel(name, t) {
  return cardName(parseCard(name), t);
}

/**
 * A face-up card that is not a button (on the table).
 * @param {string} name
 * @param {BoardContext} ctx
 * @param {string} [extra] more classes
 */
function tableCard(name, ctx, extra = "") {
  const card = parseCard(name);
  return ctx.h("span", { class: `card mt-card mt-${card.colour} ${extra}`, role: "img", "aria-label": cardName(card, ctx.t) }, face(card, ctx));
}

/** @typedef {{seq: number, card: string | null}} Selected */
/** @type {WeakMap<HTMLElement, Selected>} */
const selections = new WeakMap(); // root -> {seq, card}: the card a first tap chose (confirm setting)

/**
 * @param {HTMLElement} root
 * @param {Message} msg
 * @param {BoardContext} ctx
 */
export function render(root, msg, ctx) {
  const { h, t } = ctx;
  const view = msg.view;
  const n = view.players;
  const me = view.seat;
  const bottom = me ?? 0;
  const areas = AREAS[n];
  /** @param {number} seat */
  const areaOf = (seat) => areas[(seat - bottom + n) % n];
  const names = ctx.names;
  const mine = me !== null && msg.to_move === me && !msg.finished && !msg.replay;
  const before = memory.get(root);
  const now = {
    round: view.round_number, tricks: view.tricks.length, current: view.current_trick.length, seq: msg.seq,
    trump: view.trump, out: [...view.out], replay: Boolean(msg.replay),
  };
  const redrawOnly = before && before.seq === now.seq && before.replay === now.replay;
  memory.set(root, now);
  const sameRound = before && before.round === now.round && before.replay === now.replay;
  const trumpDue = !view.finished && view.round_number >= 2 && view.trump === null && view.to_move !== null;
  let selected = selections.get(root);
  if (!selected || selected.seq !== msg.seq || !ctx.confirmCards || !mine) selected = { seq: msg.seq, card: null };
  selections.set(root, selected);

  // ---------------------------------------------------------------- seats
  const hands = msg.views ? msg.views.map((v) => v?.hand ?? null) : null;
  /** @type {HTMLElement[]} */
  const seatBoxes = [];
  const seats = Array.from({ length: n }, (_, seat) => {
    /** @type {Partial<import("../../../server/web/static/board-host.js").SeatInfo>} */
    const info = msg.seats?.[seat] ?? {};
    const facts = [];
    if (view.out[seat]) facts.push(h("span", { class: "mt-out" }, t("seat.out", { count: view.round_scores.at(-1)?.[seat] ?? 0 })));
    else facts.push(h("span", {}, t("seat.cards", { count: view.hand_sizes[seat] })));
    facts.push(h("span", { class: "mt-tricks" }, t("seat.tricks", { count: view.trick_counts[seat], need: tricksToGoOut(n) })));
    facts.push(h("span", { class: "mt-total" }, t("seat.score", { count: view.scores[seat] })));
    const badges = [];
    if (view.dealer === seat) badges.push(h("span", { class: "seat-badge", title: t("seat.dealerLong") }, t("seat.dealer")));
    if (info.kind === "bot") badges.push(h("span", { class: "seat-badge" }, t("seat.bot")));
    if (info.bot_playing) badges.push(h("span", { class: "seat-badge away" }, t("seat.away")));
    else if (info.kind === "human" && info.connected === false && info.name) badges.push(h("span", { class: "seat-badge away" }, t("seat.offline")));
    if (view.winners.includes(seat)) badges.push(h("span", { class: "seat-badge" }, t("seat.winner")));
    const label = [names[seat], seat === me && !msg.replay ? t("seat.you") : null].filter(Boolean).join(" ");
    const openHand = hands?.[seat] && seat !== me
      ? h("div", { class: "mt-open-hand", "aria-label": t("seat.openHand", { name: names[seat] }), role: "group" },
        hands[seat].map((c) => tableCard(c, ctx, "card-small")))
      : null;
    const box = h("section", {
      class: `seat mt-seat area-${areaOf(seat)}${seat === view.to_move && !view.finished ? " is-to-move" : ""}${seat === me ? " is-me" : ""}${view.out[seat] ? " is-out" : ""}`,
      "aria-label": t("seat.label", { name: label }),
      dataset: { seat },
    },
    h("span", { class: "seat-head" }, ctx.avatar ? ctx.avatar(names[seat]) : null,
      h("span", { class: "seat-name" }, label)),
    badges.length ? h("span", { class: "mt-badges" }, badges) : null,
    h("span", { class: "seat-facts" }, facts),
    openHand);
    seatBoxes[seat] = box;
    return box;
  });

  // --------------------------------------------------------------- centre
  const trumpText = view.trump
    ? h("span", { class: `mt-trump mt-${view.trump}` }, shape(view.trump, ctx), t("centre.trump", { colour: t(`colour.${view.trump}`) }))
    : h("span", { class: "mt-trump" }, view.round_number === 1 ? t("centre.noTrumpRound1")
      : view.dealer === me && !msg.replay ? t("centre.youNameTrump") : t("centre.trumpPending", { name: names[view.dealer ?? -1] ?? "" }));
  const info = h("div", { class: "mt-info" },
    h("span", {}, t("centre.round", { round: view.round_number })),
    trumpText,
    h("span", { class: "muted" }, t("centre.target", { target: view.target, count: view.target })));

  let trickCards = view.current_trick;
  let trickTitle = null;
  let taken = false;
  if (!trickCards.length && view.tricks.length) {
    trickCards = /** @type {Play[]} */ (view.tricks.at(-1));
    taken = true;
    trickTitle = t("centre.tookTrick", { name: names[/** @type {number} */ (view.trick_winners.at(-1))] });
  }
  const winning = taken
    ? trickCards.find((p) => p.seat === view.trick_winners.at(-1))
    : winningPlay(trickCards, view.trump);
  const justTaken = taken && sameRound && before.tricks < now.tricks && !redrawOnly;
  /** @type {[HTMLElement, number][]} */
  const arriving = []; // [card element, seat]: cards that travel in from their seat
  const trick = h("div", {
    class: `mt-trick${taken ? " is-taken" : ""}`,
    role: "group",
    "aria-label": taken ? trickTitle : t("centre.trickLabel"),
  }, trickCards.map((play, i) => {
    const isNew = !redrawOnly && sameRound && (taken
      ? justTaken && before.tricks === now.tricks - 1 && i >= before.current
      : before.tricks === now.tricks && i >= before.current);
    const el = tableCard(play.card, ctx, play === winning ? "is-winning" : "");
    if (isNew) arriving.push([el, play.seat]);
    return h("figure", { class: `mt-played area-${areaOf(play.seat)}` },
      el,
      h("figcaption", {},
        names[play.seat],
        play === winning ? h("strong", { class: "mt-winning-tag" }, taken ? t("centre.took") : t("centre.winning")) : null));
  }));
  const centre = h("div", { class: "mt-centre" },
    info,
    trickTitle ? h("p", { class: "mt-trick-title" }, trickTitle) : null,
    trick,
    view.finished ? h("p", { class: "mt-final" }, t("centre.gameOver", { names: view.winners.map((s) => names[s]).join(", ") })) : null);
  const table = h("div", { class: `felt mt-table players-${n}` }, seats, centre);

  // ---------------------------------------------------------- own hand
  /** @type {HTMLElement[]} */
  const parts = [table];
  parts.push(h("div", { class: "mt-below" },
    h("p", { class: "mt-prompt", id: "mt-prompt" }, prompt(view, msg, mine, trumpDue, names, t)),
    h("p", { class: "mt-reason", id: "mt-reason", role: "status" })));
  if (mine && trumpDue) parts.push(trumpChooser(msg, ctx));
  let hand = null;
  if (me !== null && view.hand.length) parts.push(hand = handView(view, msg, mine && !trumpDue, ctx, selected));
  const scores = scoreTable(view, names, t, h, ctx.scoreHead);
  if (ctx.panel) ctx.panel("scores", scores);
  else parts.push(scores);
  root.replaceChildren(...parts);
  if (selected.card) {
    const reason = /** @type {HTMLElement} */ (root.querySelector(".mt-reason")); // drawn just above
    reason.textContent = t("hand.confirmWhy", { card: cardName(parseCard(selected.card), t), why: whyLegal(view, selected.card, t) });
    reason.dataset.kind = "ok";
  }

  // ------------------------------------------------------------- motion
  // The state is already drawn; these only play the way here (motion.js).
  const motion = ctx.motion;
  if (!motion || redrawOnly) return;
  for (const [el, seat] of arriving) motion.travel(el, seatBoxes[seat]);
  if (justTaken) {
    // The finished trick stays drawn, its cards with it, until the next one
    // starts: the winner's seat pulses (a gather left the names and "took it"
    // on an empty felt, and flew the cards over the names).
    ctx.cue?.("trick");
    motion.pulse(seatBoxes[/** @type {number} */ (view.trick_winners.at(-1))]);
  }
  if (sameRound) {
    view.out.forEach((out, seat) => { if (out && !before.out[seat]) motion.pulse(seatBoxes[seat]); });
    if (view.trump && !before.trump) motion.announceIn(trumpText);
  }
  if (before && !sameRound && hand && !msg.replay) motion.deal(hand.querySelectorAll(".card"), centre);
}

/**
 * Why the chosen card may be played, in words with its rule (the confirm step).
 * @param {View} view
 * @param {string} name
 * @param {Translate} t
 */
function whyLegal(view, name, t) {
  const card = parseCard(name);
  if (!view.current_trick.length) return t("why.lead");
  const lead = parseCard(view.current_trick[0].card).colour;
  if (card.colour === lead) return t("why.follow", { colour: t(`colour.${lead}`) });
  const holdsLead = view.hand.some((c) => parseCard(c).colour === lead);
  if (holdsLead && card.colour === view.trump) return t("why.trumpIn", { colour: t(`colour.${view.trump}`) });
  return t("why.cannotFollow", { colour: t(`colour.${lead}`) });
}

/**
 * The game so far in words (the table's log): past rounds, then this round's tricks.
 * @param {Message} msg
 * @param {Translate} t
 * @param {string[]} names
 */
export function narrate(msg, t, names) {
  const view = msg.view;
  /** @type {string[]} */
  const lines = [];
  const done = view.finished ? view.round_scores.length - 1 : view.round_number - 1;
  view.round_scores.slice(0, done).forEach((row, r) => {
    lines.push(t("log.roundScores", { round: r + 1, scores: row.map((p, s) => `${names[s]} ${p}`).join(", ") }));
  });
  // The viewer's own seat is said in the second person ("You led B3"): a name
  // there would read "Vous a entamé" where the lesson names the learner "Vous".
  /** @param {number | null | undefined} seat */
  const mine = (seat) => seat !== null && seat !== undefined && seat === view.seat;
  /** @type {(key: string, seat: number | null | undefined, params: {[key: string]: string | number}) => string} */
  const said = (key, seat, params) => (mine(seat) ? t(`log.you${key}`, params) : t(`log.${key.charAt(0).toLowerCase()}${key.slice(1)}`, { ...params, name: names[seat ?? -1] }));
  if (view.dealer !== null) lines.push(mine(view.dealer) ? t("log.youDeal", { round: view.round_number }) : t("log.roundStart", { round: view.round_number, name: names[view.dealer] }));
  if (view.trump) lines.push(said("Trump", view.dealer, { colour: t(`colour.${view.trump}`) }));
  const need = tricksToGoOut(view.players);
  const counts = new Array(view.players).fill(0);
  const points = view.round_scores.at(-1) ?? [];
  /** @param {Play[]} trick */
  const plays = (trick) => trick.map((p, k) => said(k === 0 ? "Led" : "Played", p.seat, { card: shortName(p.card, t) })).join(", ");
  view.tricks.forEach((trick, i) => {
    const winner = view.trick_winners[i];
    counts[winner] += 1;
    lines.push(said("Trick", winner, { plays: plays(trick) }));
    if (counts[winner] === need) lines.push(said("Out", winner, { count: points[winner] ?? 0 }));
  });
  if (view.current_trick.length) lines.push(`${plays(view.current_trick)} …`);
  if (view.finished) {
    const winner = view.winners[0];
    lines.push(said("Won", winner, { count: view.scores[winner] }));
  }
  return lines;
}

/** @param {number} players */
function tricksToGoOut(players) {
  return /** @type {Record<number, number>} */ ({ 2: 6, 3: 4, 4: 3, 5: 3 })[players]; // MT-6.1
}

/**
 * @param {View} view
 * @param {Message} msg
 * @param {boolean} mine
 * @param {boolean} trumpDue
 * @param {string[]} names
 * @param {Translate} t
 */
function prompt(view, msg, mine, trumpDue, names, t) {
  if (msg.replay) return "";
  if (view.finished) return t("prompt.finished");
  if (msg.to_move === null || msg.to_move === undefined) return "";
  if (!mine) {
    if (view.seat === null) return "";
    return trumpDue ? t("prompt.dealerChoosing", { name: names[view.dealer ?? -1] }) : t("prompt.wait", { name: names[msg.to_move] });
  }
  if (trumpDue) return t("prompt.nameTrump");
  if (!view.current_trick.length) return t("prompt.lead");
  const lead = parseCard(view.current_trick[0].card).colour;
  const colours = new Set(msg.legal.filter((m) => m.play).map((m) => parseCard(m.play).colour));
  if (colours.size === 1 && colours.has(lead)) return t("prompt.follow", { colour: t(`colour.${lead}`) });
  return t("prompt.any");
}

/**
 * @param {Message} msg
 * @param {BoardContext} ctx
 */
function trumpChooser(msg, ctx) {
  const { h, t } = ctx;
  const choices = msg.legal.filter((m) => m.trump);
  return h("div", { class: "mt-trump-choice", role: "group", "aria-labelledby": "mt-prompt" },
    choices.map((move, i) => h("button", {
      type: "button", class: `mt-trump-button mt-${move.trump}`,
      dataset: { key: `trump-${move.trump}`, autofocus: i === 0 ? "" : undefined },
      disabled: ctx.pending,
      onclick: () => ctx.send(move),
    }, shape(move.trump, ctx), t(`colour.${move.trump}`))));
}

/**
 * @param {View} view
 * @param {Message} msg
 * @param {boolean} mine
 * @param {BoardContext} ctx
 * @param {Selected} selected
 */
function handView(view, msg, mine, ctx, selected) {
  const { h, t } = ctx;
  const legal = new Set(msg.legal.filter((m) => m.play).map((m) => m.play));
  const refused = new Map(msg.refused.filter((r) => r.move.play).map((r) => [r.move.play, r]));
  /** @param {string} name */
  const reasonOf = (name) => {
    const r = refused.get(name);
    if (!r) return t("hand.notYourTurn");
    const reason = ctx.refusal ? ctx.refusal(r, (card) => cardLabel(card, t)) : r.reason;
    return t("hand.refused", { reason, rule: r.rule });
  };
  const cards = view.hand.map(parseCard);
  const firstPlayable = cards.find((c) => legal.has(c.name));
  const groups = COLOURS.map((colour) => cards.filter((c) => c.colour === colour)).filter((g) => g.length);
  // One row that overlaps the cards as far as the width needs (board.css uses --n and --g).
  /** @type {HTMLElement} */
  const hand = h("div", {
    class: "mt-hand", role: "group", "aria-label": t("hand.label", { count: cards.length }),
    style: { "--n": String(cards.length), "--g": String(groups.length - 1) },
    onkeydown: (event) => moveFocus(event, hand),
  }, groups.map((group) => h("div", {
    class: "mt-colour-group", role: "group", "aria-label": t(`colour.${group[0].colour}`),
  }, group.map((card, i) => {
    const playable = mine && legal.has(card.name);
    const why = playable ? null : mine ? reasonOf(card.name) : null;
    const isSelected = selected.card === card.name;
    const label = playable
      ? t(isSelected ? "hand.selected" : "hand.playable", { card: cardName(card, t) })
      : why ? t("hand.notPlayable", { card: cardName(card, t), reason: why }) : cardName(card, t);
    return h("button", {
      type: "button",
      class: `card mt-card mt-${card.colour}${playable ? " is-playable" : ""}${why ? " is-refused" : ""}${isSelected ? " is-selected" : ""}${i === 0 ? " mt-group-start" : ""}`,
      "aria-label": label,
      "aria-disabled": playable ? false : "true",
      "aria-pressed": ctx.confirmCards && playable ? String(isSelected) : null,
      title: why ?? (playable ? t("hand.playableShort") : null),
      dataset: { key: `card-${card.name}`, card: card.name, autofocus: (selected.card ? isSelected : card === firstPlayable) ? "" : undefined },
      onclick: () => {
        if (!playable || ctx.pending) { explain(hand, why ?? t("hand.notYourTurn"), ctx); return; }
        // Misclick protection: the first tap chooses and says why it may be played; the second plays.
        if (ctx.confirmCards && !isSelected) {
          selected.card = card.name;
          ctx.redraw();
          ctx.announce?.(t("hand.confirmWhy", { card: cardName(card, t), why: whyLegal(view, card.name, t) }));
          return;
        }
        ctx.send({ play: card.name });
      },
    }, face(card, ctx));
  }))));
  return hand;
}

/**
 * @param {HTMLElement} hand
 * @param {string} text
 * @param {BoardContext} ctx
 */
function explain(hand, text, ctx) {
  /** @type {HTMLElement | null | undefined} */
  const box = hand.parentElement?.querySelector(".mt-reason");
  if (box) { box.replaceChildren(...withRuleLinks(text, ctx)); box.dataset.kind = "refused"; }
  ctx.announce?.(text);
}

/**
 * Text whose rule numbers ("MT-5.3") are links to the rules page (where the shell offers one).
 * @param {string} text
 * @param {BoardContext} ctx
 */
function withRuleLinks(text, ctx) {
  const ruleHref = ctx.ruleHref;
  if (!ruleHref) return [text];
  return text.split(/\b(MT-\d+(?:\.\d+)?)\b/).map((part, i) => i % 2
    ? ctx.h("a", { href: ruleHref(part), target: "_blank", rel: "noopener", class: "rule-link" }, part)
    : part);
}

/**
 * Arrow keys walk the hand; Home/End jump to its ends.
 * @param {KeyboardEvent} event
 * @param {HTMLElement} hand
 */
function moveFocus(event, hand) {
  /** @type {Record<string, number | "first" | "last">} */
  const keys = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: "first", End: "last" };
  if (!(event.key in keys)) return;
  const buttons = [.../** @type {NodeListOf<HTMLButtonElement>} */ (hand.querySelectorAll("button.card"))];
  const i = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
  if (i < 0) return;
  const step = keys[event.key];
  const next = step === "first" ? 0 : step === "last" ? buttons.length - 1 : (i + step + buttons.length) % buttons.length;
  buttons[next].focus();
  event.preventDefault();
}

// Three or more seats get compact column heads (their avatars): names side by side would not fit.
/**
 * @param {View} view
 * @param {string[]} names
 * @param {Translate} t
 * @param {H} h
 * @param {(name: string, compact: boolean) => HTMLElement} [scoreHead]
 */
function scoreTable(view, names, t, h, scoreHead = (name) => h("th", { scope: "col" }, name)) {
  const rows = view.round_scores.map((row, r) => h("tr", {},
    h("th", { scope: "row" }, t("scores.round", { round: r + 1 })),
    row.map((points) => h("td", {}, String(points)))));
  return h("details", { class: "mt-scores", open: true },
    h("summary", {}, t("scores.heading", { target: view.target })),
    h("div", { class: "mt-scores-scroll", tabindex: "0", role: "region", "aria-label": t("scores.heading", { target: view.target }) },
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("scores.roundCol")), names.map((name) => scoreHead(name, names.length > 2)))),
        h("tbody", {}, rows),
        h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("scores.total")), view.scores.map((s) => h("td", {}, String(s))))))));
}

/**
 * The summary of a round that ended, from `end` — the seat's view at that
 * moment (the server's `round_end`): who went out in which order, the tricks
 * each took, and each seat's points — the engine's own round scores — with
 * the rule that gave them (MT-6.2, MT-7.1, MT-7.2, MT-8.1).
 * @param {View} end
 * @param {unknown} msg
 * @param {SummaryContext} ctx
 */
export function summary(end, msg, ctx) {
  const { h, t } = ctx;
  const names = ctx.names;
  const n = end.players;
  const need = tricksToGoOut(n);
  const points = end.round_scores.at(-1) ?? new Array(n).fill(0);
  // Walk the tricks again: when each seat went out, and what the others held then.
  const counts = new Array(n).fill(0);
  /** @type {number[]} */
  const order = [];
  /** @type {{seat: number, count: number}[][]} */
  const heldWhenOut = [];
  end.trick_winners.forEach((winner) => {
    counts[winner] += 1;
    if (counts[winner] === need) {
      order.push(winner);
      heldWhenOut[winner] = counts.map((c, s) => ({ seat: s, count: c })).filter((e) => e.seat !== winner && e.count);
    }
  });
  const stillIn = Array.from({ length: n }, (_, s) => s).filter((s) => !order.includes(s));
  /** @param {number} seat */
  const reason = (seat) => {
    if (order.includes(seat)) {
      const held = heldWhenOut[seat];
      const list = held.map((e) => t("summary.held", { name: names[e.seat], count: e.count })).join(", ");
      const total = held.reduce((sum, e) => sum + e.count, 0);
      const text = held.length ? t("summary.outScored", { list, count: total }) : t("summary.outNothing");
      return end.finished && end.winners.includes(seat) ? `${text} ${t("summary.reachedTarget", { target: end.target })}` : text;
    }
    if (end.finished) return t("summary.gameEnded");
    return stillIn.length === 1 ? t("summary.lastIn") : t("summary.cardsRanOut");
  };
  const rows = [...order, ...stillIn].map((seat) => ctx.summaryRow({
    seat, name: names[seat],
    facts: [order.includes(seat) ? t(OUT_PLACES[order.indexOf(seat)]) : t("summary.stillIn"),
      t("summary.tricks", { count: counts[seat] })],
    why: reason(seat),
    points: points[seat], pointsText: t("summary.points", { count: points[seat] }),
    total: t("summary.total", { count: end.scores[seat] }),
  }));
  return h("section", { class: "mt-summary", "aria-labelledby": ctx.summaryId ?? "summary-heading" },
    h("h2", { id: ctx.summaryId ?? "summary-heading" }, t(end.finished ? "summary.lastRound" : "summary.heading", { round: end.round_number })),
    h("p", {}, t("summary.intro", { need })),
    h("ol", { class: "summary-list" }, rows));
}
