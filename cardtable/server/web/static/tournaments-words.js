// @ts-check
// What the tournament pages share (tournaments.js, tournaments-page.js,
// tournaments-deal.js, and a profile's tournaments): the API's shapes (docs/tournaments.md) and a
// tournament's facts in the reader's words: its form, speed, bots, access,
// status, start time and the standings' percentages.

import { h } from "./dom.js";

/** @typedef {import("./i18n.js").Translate} Translate */
/**
 * A tournament as GET /api/tournaments lists it.
 * @typedef {object} Tournament
 * @property {string} id
 * @property {string} name
 * @property {string} game
 * @property {number} players people at each table
 * @property {number} deals
 * @property {"duplicate" | "swiss"} form
 * @property {number} start_ms
 * @property {number | null} move_hours null: real time
 * @property {"open" | "invite"} access
 * @property {boolean} rated
 * @property {string} bot the level of the bots that fill seats
 * @property {"upcoming" | "running" | "finished" | "cancelled"} status
 * @property {number} entrants people entered
 * @property {string} creator
 * @property {number | null} deal the deal in play (from 0), while running
 */
/**
 * A person or a bot in a tournament.
 * @typedef {{name: string, bot: string | null}} Entrant
 */
/**
 * One line of the standings; a person's rating before and after a rated tournament, once it is over.
 * @typedef {Entrant & {place: number, total: number, deals: number, rating_before?: number | null, rating_after?: number | null}} Standing
 */
/**
 * One tournament (GET /api/tournaments/{id}): the list's facts, everyone in
 * it (`lineup`: before the start the people entered, after it bots too),
 * what the caller may do, the standings over the deals over at every table,
 * the caller's table on the deal in play and how far that deal is.
 * @typedef {Tournament & {
 *   lineup: Entrant[],
 *   me: {entered: boolean, invited: boolean, creator: boolean} | null,
 *   deals_over: number,
 *   standings: Standing[],
 *   table: {id: string, seat: number, token: string, deal: number} | null,
 *   progress: {deal: number, tables: number, finished: number} | null,
 * }} TournamentDetail
 */

/**
 * "Duplicate (same cards at every table)", or the short word for a card.
 * @param {Tournament["form"]} form
 * @param {Translate} t
 * @param {boolean} [long]
 */
export function formWords(form, t, long = false) {
  if (form === "swiss") return long ? t("tournament.formSwiss") : t("tournament.formSwissShort");
  return long ? t("tournament.formDuplicate") : t("tournament.formDuplicateShort");
}

/**
 * "Real time", "12 hours a move", "3 days a move".
 * @param {number | null} hours
 * @param {Translate} t
 */
export function speedWords(hours, t) {
  if (hours === null) return t("tournament.speedRealTime");
  return hours % 24 ? t("tournament.speedHours", { count: hours }) : t("tournament.speedDays", { count: hours / 24 });
}

/**
 * "Easy bot", "Medium bot", "Hard bot"; another bot by its name.
 * @param {string} level
 * @param {Translate} t
 */
export function botWords(level, t) {
  if (level === "easy") return t("tournament.botEasy");
  if (level === "medium") return t("tournament.botMedium");
  if (level === "hard") return t("tournament.botHard");
  return t("games.bot", { bot: level });
}

/**
 * @param {Tournament["access"]} access
 * @param {Translate} t
 */
export function accessWords(access, t) {
  return access === "invite" ? t("tournament.accessInvite") : t("tournament.accessOpen");
}

/**
 * @param {boolean} rated
 * @param {Translate} t
 */
export function ratedWords(rated, t) {
  return rated ? t("tournament.rated") : t("tournament.friendly");
}

/**
 * "Rated" or "Friendly" as a badge (the tables' own badge, in a tournament's words).
 * @param {{rated: boolean}} tournament
 * @param {Translate} t
 */
export function ratedBadge({ rated }, t) {
  return h("span", { class: `badge ${rated ? "badge-rated" : "badge-friendly"}` }, ratedWords(rated, t));
}

/**
 * The status as a badge ("Running", "Finished"…).
 * @param {Tournament["status"]} status
 * @param {Translate} t
 */
export function statusBadge(status, t) {
  const words = {
    upcoming: t("tournament.statusUpcoming"),
    running: t("tournament.statusRunning"),
    finished: t("tournament.statusFinished"),
    cancelled: t("tournament.statusCancelled"),
  };
  return h("span", { class: `badge tournament-status status-${status}`, dataset: { status } }, words[status] ?? status);
}

/**
 * A moment in the reader's language and time zone ("5 Dec 2026, 21:30").
 * @param {number} ms
 * @param {string} lang
 */
export function momentWords(ms, lang) {
  return new Date(ms).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * "Starts …" before the start, "Started …" after.
 * @param {Pick<Tournament, "status" | "start_ms">} tournament
 * @param {Translate} t
 */
export function startWords(tournament, t) {
  const time = momentWords(tournament.start_ms, t.lang);
  return tournament.status === "upcoming" ? t("tournament.startsAt", { time }) : t("tournament.startedAt", { time });
}

/**
 * An entrant as the pages name it: a person by their name, a bot by its level and number.
 * @param {Entrant} entrant
 * @param {Translate} t
 */
export function entrantWords(entrant, t) {
  if (entrant.bot === null) return entrant.name;
  // A filling bot's name carries its number ("medium bot 2"): kept, the rest in the reader's words.
  const number = entrant.name.match(/(\d+)$/)?.[1];
  return number ? t("tournament.botNumbered", { bot: botWords(entrant.bot, t), number }) : botWords(entrant.bot, t);
}

/**
 * A standing's total, a sum of percentages ("153.3 %" in the reader's way).
 * @param {number} percent
 * @param {string} lang
 */
export function percentWords(percent, lang) {
  return new Intl.NumberFormat(lang, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(percent / 100);
}

/**
 * "1st of 16", "1. von 16", "1er sur 16": a place by the language's own
 * ordinal rules (Intl.PluralRules picks which of the catalog's forms).
 * @param {number} place
 * @param {number} of
 * @param {Translate} t
 */
export function placeWords(place, of, t) {
  const form = new Intl.PluralRules(t.lang, { type: "ordinal" }).select(place);
  return t("tournament.placeOf", { place: t(`tournament.ordinal.${form}`, { place }), of });
}

/** @param {string} id */
export function tournamentHref(id) {
  return `/tournaments/${encodeURIComponent(id)}`;
}

/**
 * @param {string} id
 * @param {number} deal counted from 0
 */
export function dealHref(id, deal) {
  return `${tournamentHref(id)}/deals/${deal}`;
}
