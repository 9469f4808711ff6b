// Interface text. Every string shown to people lives in a catalog file, one per
// language: the shell's i18n/<language>.json, each board's i18n.<language>.json
// beside its module. English is complete; another language is one more file
// (GET /api/languages lists the shell's catalogs for the header's switch), and
// a key it lacks falls back to English.

const CHOSEN_KEY = "cardtable.lang";

/** The language picked with the header's switch, if any (remembered in this browser). */
export function chosenLanguage() {
  try { return localStorage.getItem(CHOSEN_KEY); } catch { return null; }
}

export function chooseLanguage(lang) {
  try { localStorage.setItem(CHOSEN_KEY, lang); } catch { /* private mode: this page only */ }
}

/**
 * The person's languages as primary subtags ("de-AT" -> "de"), best first, English
 * last: the one chosen in the header, then the browser's preferences.
 */
export function preferredLanguages() {
  const seen = [];
  const tags = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of [chosenLanguage(), ...tags]) {
    const primary = String(tag || "").toLowerCase().split("-")[0];
    if (primary && !seen.includes(primary)) seen.push(primary);
  }
  if (!seen.includes("en")) seen.push("en");
  return seen;
}

async function fetchCatalog(url) {
  const response = await fetch(url);
  if (!response.ok) return null;
  return response.json();
}

/**
 * The strings of a catalog for the best available language, English filling gaps.
 * `urlOf(lang)` names the catalog file of a language. Returns {lang, strings}.
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
 */
export function translator(lang, ...catalogs) {
  const plural = new Intl.PluralRules(lang);
  t.lang = lang; // for the language's own list and number formats
  t.has = (key) => catalogs.some((catalog) => catalog && Object.hasOwn(catalog, key));
  return t;
  function t(key, vars = {}) {
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
