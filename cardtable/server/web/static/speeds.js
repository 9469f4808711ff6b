// @ts-check
// A table's speed as the lobby offers it: real time, or turn-based with a
// time per move in hours (requests.py: MoveHours; docs/server.md,
// "Turn-based tables"). Shared by the set-up form and Play now.

/** @typedef {import("./i18n.js").Translate} Translate */

export const MOVE_HOURS = [1, 12, 24, 72];

/**
 * "Turn-based: 12 hours a move", or in days from a day up; `words` names
 * the catalog's pair (`<words>Hours`, `<words>Days`): Play now's are shorter.
 * @param {number} hours
 * @param {Translate} t
 * @param {string} [words]
 */
export function speedWords(hours, t, words = "lobby.speed") {
  return hours % 24 ? t(`${words}Hours`, { count: hours }) : t(`${words}Days`, { count: hours / 24 });
}
