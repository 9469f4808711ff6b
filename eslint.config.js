// ESLint over the browser code: the shell (cardtable/server/web/static) and
// each game's board (cardtable/games/*/web), ES modules the browser runs as
// they are. tsc checks their types (jsconfig.json); this checks the rest.
// Run by tests/test_javascript.py; by hand: node_modules/.bin/eslint .
import js from "@eslint/js";
import globals from "globals";

export default [
  // Not the project's: installed packages, virtual environments, build and test output.
  { ignores: ["node_modules/", ".venv*/", "venv/", "build/", "dist/", "out/", "test-artifacts/"] },
  js.configs.recommended,
  {
    files: ["cardtable/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      // `const { connected, ...seat } = s` drops a key on purpose (replay.js).
      "no-unused-vars": ["error", { ignoreRestSiblings: true }],
    },
  },
];
