// A refused move in the reader's language. Refusals cross the wire as a rule
// number (and the engine's English reason, kept for the command line and
// records); the words come from the game's catalog, `refusal.<rule>`, with
// parameters taken from what the seat may see: the moves it may make instead
// (`legal` of its own state message). A rule the catalog does not word falls
// back to the engine's reason.

/** Parameters of a refusal's words: {rule, cards} (the cards the seat may play instead). */
export function refusalParams(refusal, msg, cardLabel = (name) => name) {
  const cards = (msg?.legal ?? []).map((m) => m.play).filter((c) => typeof c === "string");
  return { rule: refusal.rule ?? "", cards: cards.map(cardLabel).join(", "), count: cards.length };
}

export function refusalWords(refusal, msg, t, cardLabel) {
  const key = `refusal.${refusal.rule}`;
  if (refusal.rule && t.has(key)) return t(key, refusalParams(refusal, msg, cardLabel));
  return refusal.reason ?? refusal.message ?? "";
}
