// @ts-check
// Interface text. Every string shown to people lives in a catalog file, one per
// language: the shell's i18n/<language>.json, each board's i18n.<language>.json
// beside its module. English is complete; another language is one more file
// (GET /api/languages lists the shell's catalogs for the header's switch), and
// a key it lacks falls back to English.

const CHOSEN_KEY = "cardtable.lang";

/**
 * One catalog: a key's text, or its plural forms ({"one": …, "other": …}).
 * @typedef {Record<string, string | Record<string, string>>} Catalog
 */
/**
 * What app.js hands every page: the page's translate function, its language,
 * the languages to look for a board's words in (best first) and the shell's catalog.
 * @typedef {{t: Translate, lang: string, languages: string[], strings: Catalog}} Env
 */
/**
 * A translate function (translator below): `t(key, vars)`, with the language
 * it speaks (`t.lang`) and `t.has(key)`.
 * @typedef {((key: string, vars?: Record<string, unknown>) => string) & {lang: string, has: (key: string) => boolean}} Translate
 */

/** The language picked with the header's switch, if any (remembered in this browser). */
export function chosenLanguage() {
  try { return localStorage.getItem(CHOSEN_KEY); } catch { return null; }
}

/** @param {string} lang */
export function chooseLanguage(lang) {
  try { localStorage.setItem(CHOSEN_KEY, lang); } catch { /* private mode: this page only */ }
}

/**
 * The person's languages as primary subtags ("de-AT" -> "de"), best first, English
 * last: the one chosen in the header, then the browser's preferences.
 * @returns {string[]}
 */
export function preferredLanguages() {
  /** @type {string[]} */
  const seen = [];
  const tags = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of [chosenLanguage(), ...tags]) {
    const primary = String(tag || "").toLowerCase().split("-")[0];
    if (primary && !seen.includes(primary)) seen.push(primary);
  }
  if (!seen.includes("en")) seen.push("en");
  return seen;
}

/**
 * @param {string | URL} url
 * @returns {Promise<Catalog | null>}
 */
async function fetchCatalog(url) {
  const response = await fetch(url);
  if (!response.ok) return null;
  return response.json();
}

/**
 * The strings of a catalog for the best available language, English filling gaps.
 * `urlOf(lang)` names the catalog file of a language. Returns {lang, strings}.
 * @param {(lang: string) => string | URL} urlOf
 * @param {string[]} [languages]
 * @returns {Promise<{lang: string, strings: Catalog}>}
 */
export async function loadCatalog(urlOf, languages = preferredLanguages()) {
  const english = (await fetchCatalog(urlOf("en"))) ?? {};
  for (const lang of languages) {
    if (lang === "en") break;
    const strings = await fetchCatalog(urlOf(lang)).catch(() => null);
    if (strings) return { lang, strings: { ...english, ...strings } };
  }
  return { lang: "en", strings: english };
}

/**
 * A translate function over catalogs searched in order. A value is a string with
 * {placeholders}, or an object of plural forms ({"one": …, "other": …}) chosen by vars.count.
 * `t.has(key)` says whether any catalog holds the key (for words a board may
 * name or else derive, such as the generic board's field names).
 * @param {string} lang
 * @param {...(Catalog | null | undefined)} catalogs
 * @returns {Translate}
 */
export function translator(lang, ...catalogs) {
  const plural = new Intl.PluralRules(lang);
  t.lang = lang; // for the language's own list and number formats
  t.has = (/** @type {string} */ key) => catalogs.some((catalog) => catalog && Object.hasOwn(catalog, key));
  return t;
  /**
   * @param {string} key
   * @param {Record<string, unknown>} [vars]
   * @returns {string}
   */
  function t(key, vars = {}) {
    /** @type {string | Record<string, string> | undefined} */
    let value;
    for (const catalog of catalogs) {
      if (catalog && Object.hasOwn(catalog, key)) { value = catalog[key]; break; }
    }
    if (value === undefined) {
      console.warn(`cardtable: no text for "${key}"`);
      return key;
    }
    if (typeof value === "object") {
      value = value[plural.select(Number(vars.count ?? 0))] ?? value.other;
    }
    return value.replace(/\{(\w+)\}/g, (whole, name) =>
      Object.hasOwn(vars, name) ? String(vars[name]) : whole);
  }
}
