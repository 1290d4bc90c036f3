// UI strings: one dictionary per language (web/i18n/<lang>.json), carried by the page as a
// JSON data block (#gh-strings: the Content-Security-Policy allows no inline script) and
// read here into window.GH_STRINGS; window.GH_LANG is the page's <html lang>.
// t("key", {n: 3}) fills {n}; a missing key shows the key itself so it is noticed, never an
// empty label. With n === 1, "key.one" is used when the dictionary
// has it ("1 card" beside "{n} cards"); languages without a singular form repeat the text.
"use strict";
(function (GH) {
  var block = document.getElementById("gh-strings");
  if (block && !window.GH_STRINGS) window.GH_STRINGS = JSON.parse(block.textContent);
  if (!window.GH_LANG) window.GH_LANG = document.documentElement.lang || "en";

  GH.t = function (key, params) {
    var strings = window.GH_STRINGS || {};
    if (params && params.n === 1 && Object.prototype.hasOwnProperty.call(strings, key + ".one")) key += ".one";
    var text = Object.prototype.hasOwnProperty.call(strings, key) ? strings[key] : key;
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
    });
  };

  // A server error in the page's language: "error.<code>" when the dictionary has it,
  // else the server's own (English) message.
  GH.errorText = function (err) {
    var code = err && err.code;
    if (code && GH.has("error." + code)) return GH.t("error." + code);
    return (err && (err.message || err.code)) || String(err);
  };

  // True when the dictionary has the key (for optional, data-driven labels).
  GH.has = function (key) {
    return Object.prototype.hasOwnProperty.call(window.GH_STRINGS || {}, key);
  };

  // Fill every [data-i18n] element of the server-rendered shell.
  GH.translatePage = function (root) {
    (root || document).querySelectorAll("[data-i18n]").forEach(function (el) {
      el.textContent = GH.t(el.getAttribute("data-i18n"));
    });
  };

  // h("div", {class: "x", onclick: fn}, child, "text", [children]) -> Element
  GH.h = function (tag, attrs) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === null || value === undefined || value === false) return;
      if (name.slice(0, 2) === "on") el.addEventListener(name.slice(2), value);
      else if (name === "text") el.textContent = value;
      // Through the CSSOM: the Content-Security-Policy refuses style attributes in markup.
      else if (name === "style") el.style.cssText = value;
      else el.setAttribute(name, value === true ? "" : value);
    });
    for (var i = 2; i < arguments.length; i++) append(el, arguments[i]);
    return el;
  };

  function append(el, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) child.forEach(function (c) { append(el, c); });
    else el.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
})((window.GH = window.GH || {}));
