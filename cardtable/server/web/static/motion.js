// @ts-check
// Motion that explains what happened, with the Web Animations API: a card
// travels from where it was to where it is now, a new hand is dealt, a seat
// pulses. (A trick that flew to its winner and stayed faded there left names
// and "took it" on an empty felt: a taken trick stays drawn instead.) Purely
// decorative: the page is already in its
// new state when an animation starts (it only plays the way there), so input
// and the server never wait; a message that arrives mid-animation finishes
// the running ones before it is drawn. Nothing moves under
// prefers-reduced-motion.

const reduced = matchMedia("(prefers-reduced-motion: reduce)");

export function motionAllowed() {
  return !reduced.matches;
}

/**
 * Jump every running animation under root to its end (a new state is coming).
 * @param {Element} root
 */
export function finishAll(root) {
  for (const animation of root.getAnimations({ subtree: true })) animation.finish();
}

/** @param {DOMRect} rect */
function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/**
 * Play `el` in from `from` (an element or a DOMRect, measured before the
 * redraw) to where it is drawn now. Returns the Animation, or null.
 * @param {Element | null | undefined} el
 * @param {Element | DOMRect | null | undefined} from
 * @param {{duration?: number, delay?: number, scale?: number}} [options]
 * @returns {Animation | null}
 */
export function travel(el, from, { duration = 380, delay = 0, scale = 0.7 } = {}) {
  if (!motionAllowed() || !el || !from) return null;
  const start = centre(from instanceof Element ? from.getBoundingClientRect() : from);
  const end = centre(el.getBoundingClientRect());
  const dx = start.x - end.x;
  const dy = start.y - end.y;
  return el.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.6 },
    { transform: "translate(0, 0) scale(1)", opacity: 1 },
  ], { duration, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
}

/**
 * A new hand: each card slides up from the centre of the table, one after another.
 * @param {Iterable<Element>} cards
 * @param {Element | DOMRect} from
 */
export function deal(cards, from) {
  if (!motionAllowed()) return;
  [...cards].forEach((card, i) => travel(card, from, { duration: 320, delay: i * 35, scale: 0.5 }));
}

/**
 * Draw the eye to something that changed (a player going out, trump named).
 * @param {Element | null | undefined} el
 * @param {{duration?: number}} [options]
 * @returns {Animation | null}
 */
export function pulse(el, { duration = 700 } = {}) {
  if (!motionAllowed() || !el) return null;
  return el.animate([
    { transform: "scale(1)", boxShadow: "0 0 0 0 rgb(255 214 102 / 0.9)" },
    { transform: "scale(1.08)", boxShadow: "0 0 0 10px rgb(255 214 102 / 0)" },
    { transform: "scale(1)", boxShadow: "0 0 0 0 rgb(255 214 102 / 0)" },
  ], { duration, easing: "ease-out" });
}

/**
 * Something named arrives (the trump colour): it grows in from large and faint.
 * @param {Element | null | undefined} el
 * @returns {Animation | null}
 */
export function announceIn(el) {
  if (!motionAllowed() || !el) return null;
  return el.animate([
    { transform: "scale(2.2)", opacity: 0 },
    { transform: "scale(1)", opacity: 1 },
  ], { duration: 500, easing: "cubic-bezier(.2,.7,.3,1)" });
}
