// @ts-check
// One tournament (/tournaments/{id}): what, when and how; Enter, Withdraw,
// Start now, Cancel and Invite as the caller may; "Your table" while they
// have one; how far the deal in play is; the standings, redrawn every few
// seconds until it ends; a link to each deal over at every table; the whole
// tournament as one JSON file; its chat (tournaments-chat.js); and how
// duplicate scoring works (docs/tournaments.md).

import { signedIn } from "./account-nav.js";
import { api, refusedWords, saveSeat } from "./api.js";
import { h, useStylesheet } from "./dom.js";
import { ratingChange } from "./ratings.js";
import { tournamentChat } from "./tournaments-chat.js";
import {
  accessWords, botWords, dealHref, entrantWords, formWords, percentWords, ratedBadge,
  speedWords, startWords, statusBadge,
} from "./tournaments-words.js";

/** @typedef {import("./tournaments-words.js").TournamentDetail} TournamentDetail */
/** @typedef {import("./i18n.js").Translate} Translate */

const REFRESH_MS = 4000;

/**
 * @param {HTMLElement} main
 * @param {string} id
 * @param {import("./i18n.js").Env} env
 */
export async function showTournament(main, id, env) {
  const { t } = env;
  const styled = useStylesheet("/static/tournaments.css");
  const path = `/api/tournaments/${encodeURIComponent(id)}`;
  /** @type {TournamentDetail} */
  let one;
  /** @type {import("./api.js").GameInfo[]} */
  let games;
  try {
    [one, games] = await Promise.all([api(path), api("/api/games")]);
  } catch (error) {
    document.title = t("tournament.pageTitle");
    main.replaceChildren(h("h1", {}, t("tournament.missing")),
      h("p", { class: "panel error", role: "alert" }, refusedWords(error, t)),
      h("p", {}, h("a", { href: "/tournaments" }, t("tournament.backToList"))));
    return;
  }
  const account = await signedIn();
  const game = games.find((g) => g.name === one.game)?.title ?? one.game;
  document.title = t("tournament.pageTitleOne", { name: one.name });

  const said = h("p", { class: "hint tournament-said", role: "status", id: "tournament-said" });
  const parts = {
    status: h("p", { class: "tournament-when", id: "tournament-when" }),
    actions: h("div", { class: "tournament-actions", id: "tournament-actions" }),
    table: h("div", { class: "tournament-your-table", id: "tournament-your-table" }),
    progress: h("div", { class: "tournament-progress", id: "tournament-progress" }),
    standings: h("div", { id: "tournament-standings" }),
    deals: h("div", { id: "tournament-deals" }),
    entrants: h("div", { id: "tournament-entrants" }),
  };
  /**
   * @param {string} action enter, leave, start, cancel or invite
   * @param {unknown} [body]
   */
  const act = async (action, body = {}) => {
    said.textContent = "";
    try {
      // A body even where there is nothing to say: the server takes JSON posts only.
      await api(`${path}/${action}`, { method: "POST", body });
      draw(await api(path));
      return true;
    } catch (refused) {
      said.textContent = refusedWords(refused, t);
      return false;
    }
  };
  /** @type {(now: TournamentDetail) => import("./tournaments-chat.js").ChatReader} */
  const chatReader = (now) => ({ mayWrite: Boolean(now.me && (now.me.entered || now.me.creator)), status: now.status });
  const chat = tournamentChat(path, t, chatReader(one));
  const invite = inviteForm(t, async (name) => {
    if (await act("invite", { name })) said.textContent = t("tournament.invited", { name });
  });

  // A real-time tournament takes the person watching its page to their
  // table once a deal starts (the first, or the next once every table is done).
  let known = one.table?.id ?? null;
  /** @param {TournamentDetail} now */
  const draw = (now) => {
    one = now;
    const mine = now.table;
    if (mine && mine.id !== known && now.move_hours === null) {
      saveSeat(mine.id, mine.seat, mine.token);
      location.assign(`/t/${encodeURIComponent(mine.id)}`);
    }
    known = mine?.id ?? null;
    redraw(parts.status, [now.status, now.deal, now.entrants], () => [
      statusBadge(now.status, t), " ", startWords(now, t), " · ", t("tournament.entrants", { count: now.entrants })]);
    redraw(parts.actions, [now.status, now.me], () => actions(now, t, act));
    invite.hidden = !(now.me?.creator && now.status === "upcoming" && now.access === "invite");
    redraw(parts.table, [now.table], () => yourTable(now, t));
    redraw(parts.progress, [now.status, now.progress, now.deals], () => progress(now, t));
    redraw(parts.standings, [now.standings, now.deals_over], () => standings(now, t, account?.name ?? null));
    redraw(parts.deals, [now.deals_over], () => dealLinks(now, t, `${path}/download`));
    redraw(parts.entrants, [now.lineup], () => entrants(now, t));
    chat.update(chatReader(now));
  };

  await styled;
  main.classList.add("tournaments-page");
  main.replaceChildren(
    h("p", { class: "tournament-back" }, h("a", { href: "/tournaments" }, t("tournament.backToList"))),
    h("header", { class: "tournament-head" },
      h("h1", { id: "tournament-title" }, one.name),
      h("p", { class: "tournament-facts" },
        [game, formWords(one.form, t, true), t("tournament.playersPerTable", { count: one.players }),
          t("tournament.deals", { count: one.deals }), speedWords(one.move_hours, t)].join(" · ")),
      h("p", { class: "tournament-facts" },
        accessWords(one.access, t), " · ", t("tournament.fillWith", { bot: botWords(one.bot, t) }), " · ",
        t("tournament.createdBy", { name: one.creator }), " ", ratedBadge(one, t)),
      parts.status),
    parts.table,
    h("div", { class: "tournament-controls" }, parts.actions, invite, said),
    parts.progress,
    h("div", { class: "tournament-body" },
      h("section", { class: "panel", "aria-labelledby": "standings-heading" },
        h("h2", { id: "standings-heading" }, t("tournament.standings")), parts.standings),
      h("div", { class: "tournament-side" },
        chat.element,
        h("section", { class: "panel", "aria-labelledby": "deals-heading" },
          h("h2", { id: "deals-heading" }, t("tournament.dealsHeading")), parts.deals),
        h("section", { class: "panel", "aria-labelledby": "entrants-heading" },
          h("h2", { id: "entrants-heading" }, t("tournament.entrantsHeading")), parts.entrants),
        one.form === "duplicate" ? howScored(t) : null)));
  draw(one);
  // Until it is over: the start, each deal's progress and the standings as they come.
  const timer = setInterval(async () => {
    if (one.status === "finished" || one.status === "cancelled") { clearInterval(timer); return; }
    try { draw(await api(path)); } catch { /* the next try */ }
  }, REFRESH_MS);
}

/**
 * Fill `box` anew only when what it shows changed: a person reading or
 * tabbing through it keeps their place between refreshes.
 * @param {HTMLElement} box
 * @param {unknown} facts
 * @param {() => import("./dom.js").Child} build
 */
function redraw(box, facts, build) {
  const key = JSON.stringify(facts);
  if (box.dataset.drawn === key) return;
  box.dataset.drawn = key;
  // h draws any child (arrays, text, null left out): its element is the carrier.
  box.replaceChildren(...h("div", {}, build()).childNodes);
}

/**
 * Enter, Withdraw, Start now, Cancel (asked twice), as the caller may.
 * @param {TournamentDetail} one
 * @param {Translate} t
 * @param {(action: string) => Promise<boolean>} act
 * @returns {import("./dom.js").Child[]}
 */
function actions(one, t, act) {
  if (one.status !== "upcoming") return [];
  if (!one.me) return [h("a", { class: "button primary", href: "/account", id: "tournament-sign-in" }, t("tournament.signInToEnter"))];
  /** @type {(id: string, words: string, action: string, primary?: boolean) => HTMLButtonElement} */
  const button = (id, words, action, primary = false) => h("button", {
    type: "button", id, class: primary ? "primary" : null,
    onclick: async (event) => {
      const pressed = event.currentTarget; // no longer the event's once it has been awaited
      pressed.disabled = true;
      if (!await act(action)) pressed.disabled = false;
    },
  }, words);
  const { me } = one;
  const mayEnter = one.access === "open" || me.invited || me.creator;
  const cancel = h("button", {
    type: "button", id: "tournament-cancel",
    onclick: (event) => { event.currentTarget.replaceWith(button("tournament-cancel-sure", t("tournament.cancelSure"), "cancel")); },
  }, t("tournament.cancel"));
  return [
    me.entered ? h("span", { class: "badge tournament-entered" }, t("tournament.youAreEntered")) : null,
    me.entered ? button("tournament-leave", t("tournament.leave"), "leave")
      : mayEnter ? button("tournament-enter", t("tournament.enter"), "enter", true)
        : h("span", { class: "hint" }, t("tournament.inviteOnly")),
    me.creator ? button("tournament-start", t("tournament.startNow"), "start") : null,
    me.creator ? cancel : null,
  ];
}

/**
 * The creator's "Invite by account name" (while it is upcoming and by invitation).
 * @param {Translate} t
 * @param {(name: string) => Promise<void>} invite
 */
function inviteForm(t, invite) {
  const name = h("input", { id: "tournament-invite-name", name: "name", maxlength: 32, autocomplete: "off", required: true });
  return h("form", {
    class: "tournament-invite", hidden: true,
    onsubmit: async (event) => {
      event.preventDefault();
      await invite(name.value.trim());
      name.value = "";
    },
  }, h("label", { for: "tournament-invite-name" }, t("tournament.inviteLabel")),
  h("div", { class: "follow-row" }, name, h("button", { type: "submit" }, t("tournament.inviteButton"))));
}

/**
 * "Your table", prominent, while the caller has a seat on the deal in play;
 * its seat is kept like any seat joined (api.js), so the table knows them.
 * @param {TournamentDetail} one
 * @param {Translate} t
 */
function yourTable(one, t) {
  const table = one.table;
  if (!table) return null;
  saveSeat(table.id, table.seat, table.token);
  return h("a", { class: "button primary tournament-table-link", id: "tournament-table", href: `/t/${encodeURIComponent(table.id)}` },
    t("tournament.yourTable", { deal: table.deal + 1 }));
}

/**
 * How far the deal in play is at every table.
 * @param {TournamentDetail} one
 * @param {Translate} t
 */
function progress(one, t) {
  const now = one.progress;
  if (one.status === "cancelled") return h("p", { class: "panel" }, t("tournament.cancelled"));
  if (one.status !== "running" || !now) return null;
  const words = t("tournament.progress", { deal: now.deal + 1, deals: one.deals, count: now.finished, tables: now.tables });
  return h("div", { class: "panel" },
    h("label", { for: "tournament-progress-bar" }, words),
    h("progress", { id: "tournament-progress-bar", max: now.tables, value: now.finished }));
}

/**
 * The standings over the deals over at every table (the caller's line marked).
 * @param {TournamentDetail} one
 * @param {Translate} t
 * @param {string | null} me the signed-in person's name
 */
function standings(one, t, me) {
  if (!one.deals_over || !one.standings.length) return h("p", { class: "hint", id: "standings-none" }, t("tournament.noStandings"));
  return h("table", { class: "board tournament-standings", id: "standings" },
    h("caption", { class: "hint" }, t("tournament.standingsAfter", { count: one.deals_over })),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("tournament.place")),
      h("th", { scope: "col" }, t("tournament.player")),
      h("th", { scope: "col", class: "board-number" }, t("tournament.total")),
      h("th", { scope: "col", class: "board-number" }, t("tournament.dealsPlayed")))),
    h("tbody", {}, one.standings.map((s) => h("tr", { class: s.bot === null && s.name === me ? "is-me" : "", dataset: { name: s.name } },
      h("td", { class: "tournament-place" }, String(s.place)),
      h("td", {}, s.bot === null ? h("a", { href: `/players/${encodeURIComponent(s.name)}` }, s.name) : entrantWords(s, t),
        ...rated(s, t)),
      h("td", { class: "board-number" }, percentWords(s.total, t.lang)),
      h("td", { class: "board-number" }, String(s.deals))))));
}

/**
 * What a rated tournament did to a person's rating, once it is over (none otherwise).
 * @param {import("./tournaments-words.js").Standing} standing
 * @param {Translate} t
 */
function rated({ rating_before: before, rating_after: after }, t) {
  if (typeof before !== "number" || typeof after !== "number") return [];
  return [" ", ratingChange(t, { seat: 0, after: Math.round(after), change: Math.round(after) - Math.round(before), provisional: false })];
}

/**
 * A link to each deal over at every table (how the others played the same
 * cards), and the whole tournament as one file once there is a deal in it.
 * @param {TournamentDetail} one
 * @param {Translate} t
 * @param {string} download
 */
function dealLinks(one, t, download) {
  if (!one.deals_over) return h("p", { class: "hint" }, t("tournament.noDealsOver"));
  return [
    h("ul", { class: "tournament-deal-links", id: "deal-links" },
      Array.from({ length: one.deals_over }, (_, k) => h("li", {},
        h("a", { class: "button", href: dealHref(one.id, k), dataset: { deal: k } }, t("tournament.dealLink", { deal: k + 1 }))))),
    h("a", { class: "button", id: "tournament-download", href: download, download: `cardtable-tournament-${one.id}.json` }, t("tournament.download")),
  ];
}

/**
 * Who is in it: before the start the people entered, after it everyone, bots too.
 * @param {TournamentDetail} one
 * @param {Translate} t
 */
function entrants(one, t) {
  if (!one.lineup.length) return h("p", { class: "hint" }, t("tournament.noEntrants"));
  return h("ul", { class: "seat-chips tournament-entrants" }, one.lineup.map((e) =>
    h("li", { class: `chip${e.bot === null ? "" : " chip-bot"}` }, entrantWords(e, t))));
}

/**
 * "How duplicate scoring works", folded: docs/tournaments.md in four sentences.
 * @param {Translate} t
 */
function howScored(t) {
  return h("details", { class: "panel tournament-how", id: "tournament-how" },
    h("summary", {}, t("tournament.howHeading")),
    h("p", {}, t("tournament.how1")),
    h("p", {}, t("tournament.how2")),
    h("p", {}, t("tournament.how3")),
    h("p", {}, t("tournament.how4")));
}
