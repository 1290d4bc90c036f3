// ESLint for the browser client (`make lint`, docs/development.md "The browser client"). The
// modules are served as they are written (no build step): this checks them, it changes nothing
// the browser gets. Formatting is Prettier's (.prettierrc.json); these rules are about code.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", "build/", "tests/web/artifacts/"] },
  js.configs.recommended,
  {
    files: ["web/static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
    rules: {
      // One style: const where nothing reassigns, let where something does, never var;
      // arrow functions for callbacks; methods and names written short in object literals.
      "no-var": "error",
      "prefer-const": "error",
      "prefer-arrow-callback": "error",
      "object-shorthand": ["error", "always"],
      eqeqeq: ["error", "always"],
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    // The service worker is a classic script in its own global scope (served at /sw.js).
    files: ["web/static/sw.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.serviceworker },
    rules: {
      "no-var": "error",
      "prefer-const": "error",
      "prefer-arrow-callback": "error",
      "object-shorthand": ["error", "always"],
      eqeqeq: ["error", "always"],
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
    },
  },
  {
    // A test's page script: one arrow function, handed to the page by Playwright's evaluate.
    files: ["tests/web/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.browser },
    rules: { "no-var": "error", "prefer-const": "error", "prefer-arrow-callback": "error" },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
