// The page's entry: load the interface text, then draw the lobby (/) or a table (/t/{id}).

import { loadCatalog, preferredLanguages, translator } from "./i18n.js";

const languages = preferredLanguages();
const { lang, strings } = await loadCatalog((code) => new URL(`./i18n/${code}.json`, import.meta.url), languages);
document.documentElement.lang = lang;
const t = translator(lang, strings);
const env = { t, lang, languages, strings };

document.getElementById("skip-link").textContent = t("app.skip");
document.getElementById("brand").setAttribute("aria-label", t("app.home"));

const main = document.getElementById("main");
const table = location.pathname.match(/^\/t\/([^/]+)\/?$/);
const learning = location.pathname.match(/^\/(learn|puzzles)\/([^/]+)\/?$/);
if (learning) {
  const game = decodeURIComponent(learning[2]);
  if (learning[1] === "learn") await (await import("./learn.js")).showLesson(main, game, env);
  else await (await import("./puzzles.js")).showPuzzles(main, game, env);
} else if (table) {
  const { showTable } = await import("./table.js");
  await showTable(main, decodeURIComponent(table[1]), env);
} else {
  const { showLobby } = await import("./lobby.js");
  await showLobby(main, env);
}
