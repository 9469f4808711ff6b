// @ts-check
// A game's rules as a page (/rules/{game}#MT-5.4): the server renders the
// Markdown of the page's language (raw HTML off) with an anchor per section and
// rule; this draws it with a table of contents and a way back.

import { api } from "./api.js";
import { h } from "./dom.js";

/**
 * The address of one rule of a game, for every rule number the interface shows.
 * @param {string} game
 * @param {string} [rule]
 */
export function ruleHref(game, rule) {
  return `/rules/${encodeURIComponent(game)}${rule ? `#${encodeURIComponent(rule)}` : ""}`;
}

/**
 * A rule number as a link to its rule (opened beside the game, which keeps its seat).
 * @param {string} game
 * @param {string} rule
 */
export function ruleLink(game, rule) {
  return h("a", { class: "rule-link", href: ruleHref(game, rule), target: "_blank", rel: "noopener" }, rule);
}


/**
 * Text with every rule number of a game ("MT-5.3", "MR-6.2") made a link to its
 * rule: the nodes to append. Which letters a game's numbers start with is read
 * from the numbers themselves, so a plugin game's ("XY-2.1") link too.
 * @param {unknown} text
 * @param {string} game
 * @returns {(string | HTMLElement)[]}
 */
export function withRuleLinks(text, game) {
  return String(text).split(/\b([A-Z]{2}-\d+(?:\.\d+)?)\b/).map((part, i) => (i % 2 ? ruleLink(game, part) : part));
}

/**
 * @param {HTMLElement} main
 * @param {string} game
 * @param {import("./i18n.js").Env} env
 */
export async function showRules(main, game, { t, lang }) {
  /** @type {{title: string, lang: string, html: string}} */
  let rules;
  try {
    rules = await api(`/api/games/${encodeURIComponent(game)}/rules?lang=${encodeURIComponent(lang)}`);
  } catch (error) {
    main.replaceChildren(h("h1", {}, t("rules.unavailable")),
      h("p", { class: "error", role: "alert" }, /** @type {Error} */ (error).message),
      h("p", {}, h("a", { href: "/" }, t("table.backToLobby"))));
    return;
  }
  document.title = t("rules.pageTitle", { game: rules.title });
  const text = h("article", { class: "rules-text", lang: rules.lang });
  // The server's HTML: markdown-it with raw HTML disabled, so the rules text brings no markup.
  text.innerHTML = rules.html;
  const sections = [...text.querySelectorAll("h2[id]")];
  const title = text.querySelector("h1");  // the rules text's own title heads the page
  main.replaceChildren(h("div", { class: "rules-page" },
    h("p", { class: "rules-back" }, h("a", { href: "/" }, t("table.backToLobby"))),
    title,
    rules.lang !== lang ? h("p", { class: "hint" }, t("rules.notTranslated")) : null,
    h("nav", { class: "rules-toc", "aria-label": t("rules.contents") },
      h("ul", {}, sections.map((s) => h("li", {}, h("a", { href: `#${s.id}` }, s.textContent))))),
    text));
  markTarget(text);
  addEventListener("hashchange", () => markTarget(text));
}

/**
 * The rule the address names (#MT-5.4), marked and scrolled to.
 * @param {HTMLElement} text
 */
function markTarget(text) {
  for (const old of text.querySelectorAll(".is-target")) old.classList.remove("is-target");
  const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (target && text.contains(target)) {
    target.classList.add("is-target");
    target.scrollIntoView();
  }
}
