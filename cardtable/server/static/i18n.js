// Interface text. Every string shown to people lives in a catalog file,
// i18n/<language>.json (English is complete; another language is one more file,
// and a key it lacks falls back to English). Boards bring their own catalog folder.

/** The person's languages as primary subtags ("de-AT" -> "de"), best first, English last. */
export function preferredLanguages() {
  const seen = [];
  for (const tag of navigator.languages?.length ? navigator.languages : [navigator.language]) {
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
 * The strings of a catalog folder for the best available language, English filling gaps.
 * Returns {lang, strings}.
 */
export async function loadCatalog(folderUrl, languages = preferredLanguages()) {
  const english = (await fetchCatalog(new URL("en.json", folderUrl))) ?? {};
  for (const lang of languages) {
    if (lang === "en") break;
    const strings = await fetchCatalog(new URL(`${lang}.json`, folderUrl)).catch(() => null);
    if (strings) return { lang, strings: { ...english, ...strings } };
  }
  return { lang: "en", strings: english };
}

/**
 * A translate function over catalogs searched in order. A value is a string with
 * {placeholders}, or an object of plural forms ({"one": …, "other": …}) chosen by vars.count.
 */
export function translator(lang, ...catalogs) {
  const plural = new Intl.PluralRules(lang);
  return function t(key, vars = {}) {
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
  };
}
