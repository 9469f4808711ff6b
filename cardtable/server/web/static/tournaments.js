// @ts-check
// The tournaments (/tournaments): those running, upcoming and finished, each
// a card (game, form, players per table, deals, start, entrants, status),
// and for a signed-in person a fold that creates one (tournaments-create.js,
// loaded when it is first opened). docs/tournaments.md.

import { signedIn } from "./account-nav.js";
import { api } from "./api.js";
import { h, useStylesheet } from "./dom.js";
import { accessWords, formWords, ratedBadge, speedWords, startWords, statusBadge, tournamentHref } from "./tournaments-words.js";

/** @typedef {import("./tournaments-words.js").Tournament} Tournament */
/** @typedef {import("./i18n.js").Translate} Translate */

// New entrants and started tournaments show without a reload.
const REFRESH_MS = 10000;

/**
 * @param {HTMLElement} main
 * @param {import("./i18n.js").Env} env
 */
export async function showTournaments(main, env) {
  const { t } = env;
  document.title = t("tournament.pageTitle");
  const styled = useStylesheet("/static/tournaments.css");
  /** @type {import("./api.js").GameInfo[]} */
  let games;
  /** @type {TournamentList} */
  let first;
  try {
    [games, first] = await Promise.all([api("/api/games"), list()]);
  } catch (error) {
    main.replaceChildren(h("h1", {}, t("tournament.heading")),
      h("p", { class: "panel error", role: "alert" }, t("tournament.loadFailed", { reason: /** @type {Error} */ (error).message })));
    return;
  }
  /** @param {string} name */
  const title = (name) => games.find((g) => g.name === name)?.title ?? name;
  const sections = {
    running: section("running", t("tournament.running"), t("tournament.noneRunning")),
    upcoming: section("upcoming", t("tournament.upcoming"), t("tournament.noneUpcoming")),
    finished: section("finished", t("tournament.finished"), t("tournament.noneFinished")),
  };
  const create = h("details", {
    class: "panel create tournament-create", id: "tournament-create",
    ontoggle: async (/** @type {Event} */ event) => {
      const fold = /** @type {HTMLDetailsElement} */ (event.currentTarget);
      if (!fold.open || fold.querySelector("form, .tournament-sign-in")) return;
      const account = await signedIn();
      if (fold.querySelector("form, .tournament-sign-in")) return;
      if (!account) {
        fold.append(h("p", { class: "tournament-sign-in" }, h("a", { href: "/account" }, t("tournament.signInToCreate"))));
        return;
      }
      const { createForm } = await import("./tournaments-create.js");
      if (!fold.querySelector("form")) fold.append(createForm(games, t));
    },
  }, h("summary", {}, h("h2", {}, t("tournament.createHeading")), h("span", { class: "hint" }, t("tournament.createHint"))));
  await styled;
  main.classList.add("tournaments-page");
  main.replaceChildren(
    h("h1", {}, t("tournament.heading")),
    h("p", { class: "tournament-intro" }, t("tournament.intro")),
    create,
    sections.running.element, sections.upcoming.element, sections.finished.element);
  const draw = (/** @type {TournamentList} */ all) => {
    for (const which of /** @type {const} */ (["running", "upcoming", "finished"])) {
      sections[which].fill(all[which].map((one) => card(one, title(one.game), t)));
    }
  };
  draw(first);
  setInterval(() => list().then(draw).catch(() => {}), REFRESH_MS);
}

/**
 * @typedef {{upcoming: Tournament[], running: Tournament[], finished: Tournament[], server_ms: number}} TournamentList
 * @returns {Promise<TournamentList>}
 */
function list() {
  return api("/api/tournaments");
}

/**
 * A section of cards, or a line saying there are none.
 * @param {string} id
 * @param {string} heading
 * @param {string} none
 */
function section(id, heading, none) {
  const body = h("div", { class: "tournament-cards", id: `tournaments-${id}` });
  return {
    element: h("section", { class: "panel tournament-section", "aria-labelledby": `${id}-heading` },
      h("h2", { id: `${id}-heading` }, heading), body),
    /** @param {HTMLElement[]} cards */
    fill: (cards) => body.replaceChildren(cards.length ? h("ul", { class: "tournament-list" }, cards) : h("p", { class: "hint" }, none)),
  };
}

/**
 * One tournament's card: what, how, when, who; the whole card opens it.
 * @param {Tournament} one
 * @param {string} game the game's title
 * @param {Translate} t
 */
function card(one, game, t) {
  return h("li", { class: "tournament-card", dataset: { tournament: one.id, status: one.status } },
    h("a", { class: "tournament-name", href: tournamentHref(one.id) }, one.name),
    h("div", { class: "tournament-badges" }, statusBadge(one.status, t), ratedBadge(one, t)),
    h("p", { class: "tournament-facts" },
      [game, formWords(one.form, t), t("tournament.playersPerTable", { count: one.players }),
        t("tournament.deals", { count: one.deals }), speedWords(one.move_hours, t)].join(" · ")),
    h("p", { class: "tournament-facts" },
      [startWords(one, t), t("tournament.entrants", { count: one.entrants }), accessWords(one.access, t),
        ...(one.status === "running" && one.deal !== null ? [t("tournament.dealOf", { deal: one.deal + 1, deals: one.deals })] : [])].join(" · ")));
}
