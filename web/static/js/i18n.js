// UI strings: one dictionary per language (web/i18n/<lang>.json, plus the table's own
// game's strings), left on globalThis.ghStrings by /strings/<version>/<lang>/<scope>.js, a
// deferred classic script the page lists before its modules (so it runs first) and the
// browser keeps a year. t("key", {n: 3}) fills {n}; a missing key shows the key itself so
// it is noticed, never an empty label. With n === 1, "key.one" is used when the dictionary
// has it ("1 card" beside "{n} cards"); languages without a singular form repeat the text.

const own = Object.prototype.hasOwnProperty;

const STRINGS = globalThis.ghStrings || {};

// The page's language code (the server sets <html lang>).
export const LANG = document.documentElement.lang || "en";

export function t(key, params) {
  if (params && params.n === 1 && own.call(STRINGS, key + ".one")) key += ".one";
  const text = own.call(STRINGS, key) ? STRINGS[key] : key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    own.call(params, name) ? String(params[name]) : whole,
  );
}

// Add the strings of a folder a page loads later (web/i18n/<scope>/, e.g. "notices") to the
// dictionary: a script beside the page's own, same version and language. Resolves once
// they are there (or could not come: a missing key then shows itself, as ever).
const later = {};
export function loadStrings(scope) {
  if (!later[scope]) {
    later[scope] = new Promise((resolve) => {
      const own = document.querySelector("script[src*='/strings/']");
      if (!own) return resolve();
      const script = document.createElement("script");
      script.src = new URL(scope + ".js", own.src).pathname;
      script.onload = script.onerror = () => {
        resolve();
      };
      document.head.appendChild(script);
    });
  }
  return later[scope];
}

// True when the dictionary has the key (for optional, data-driven labels).
export function has(key) {
  return own.call(STRINGS, key);
}

// A server error in the page's language: "error.<code>" when the dictionary has it, and
// how long to wait when the server said so (a 429's retry_after), else the server's own
// (English) message, which says both.
export function errorText(err) {
  const code = err && err.code;
  if (!code || !has("error." + code)) return (err && (err.message || err.code)) || String(err);
  const wait = err.retry_after > 0 ? " " + t("error.retry_after", { n: err.retry_after }) : "";
  return t("error." + code) + wait;
}

// Fill every [data-i18n] element of the server-rendered shell.
export function translatePage(root) {
  (root || document).querySelectorAll("[data-i18n]").forEach((el) => {
    el.textContent = t(el.getAttribute("data-i18n"));
  });
}

// h("div", {class: "x", onclick: fn}, child, "text", [children]) -> Element
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  Object.keys(attrs || {}).forEach((name) => {
    const value = attrs[name];
    if (value === null || value === undefined || value === false) return;
    if (name.slice(0, 2) === "on") el.addEventListener(name.slice(2), value);
    else if (name === "text") el.textContent = value;
    // Through the CSSOM: the Content-Security-Policy refuses style attributes in markup.
    else if (name === "style") el.style.cssText = value;
    else el.setAttribute(name, value === true ? "" : value);
  });
  children.forEach((child) => append(el, child));
  return el;
}

function append(el, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) child.forEach((c) => append(el, c));
  else el.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
}
