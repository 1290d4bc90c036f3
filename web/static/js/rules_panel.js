// The rules over the table: a panel with the game's how-to-play (GET /api/rules/<game>: the
// words of /rules/<game>), opened at one clause by a "rule" link (pieces.ruleLink: the
// prompt's, a refusal's) or from the top by "How to play". The table stays where it is
// under it. Loaded at the first such click, with its style sheet, so that a table page that
// never opens it carries neither.
import { errorText, h, LANG, t } from "./i18n.js";
import { api } from "./conn.js";
import { loadStyle } from "./page.js";

const PANEL = "rules-panel";
let loaded = null; // the game's rules in the page's language, asked for once
let opener = null; // the element to give the focus back to on closing

function gameName() {
  return document.getElementById("app").dataset.game;
}

function rules() {
  if (!loaded) {
    loaded = api("GET", "/api/rules/" + gameName() + "?lang=" + LANG).catch((err) => {
      loaded = null; // asked again at the next opening
      throw err;
    });
  }
  return loaded;
}

// The panel's style sheet (and the pieces' explanations', explain.js), beside this module
// under the same version; resolved once loaded (or failed), so neither is seen without it.
export function styleSheet() {
  return loadStyle("rules.css");
}

function clauseItem(clause, picked, words) {
  return h(
    "li",
    {
      class:
        "clause" +
        (clause.reconstructed ? " reconstructed" : "") +
        (clause.id === picked ? " picked" : ""),
      "data-clause": clause.id,
    },
    h("span", { class: "clause-id" }, clause.id),
    " ",
    clause.reconstructed ? h("span", { class: "tag" }, words.reconstructed) : null,
    h("span", { class: "clause-text" }, clause.text),
  );
}

function sections(data, picked) {
  return data.sections.map((section) =>
    h(
      "section",
      { class: "rules-section" },
      h("h3", null, section.title),
      h(
        "ul",
        { class: "clauses" },
        section.clauses.map((c) => clauseItem(c, picked, data.words)),
      ),
    ),
  );
}

function panelElement() {
  let panel = document.getElementById(PANEL);
  if (panel) return panel;
  panel = h("section", {
    id: PANEL,
    class: "rules-panel",
    role: "dialog",
    "aria-labelledby": PANEL + "-title",
    tabindex: "-1",
  });
  panel.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") closeRules();
  });
  document.body.appendChild(panel);
  return panel;
}

function fill(panel, words, title, content) {
  panel.innerHTML = "";
  panel.appendChild(
    h(
      "header",
      null,
      h("h2", { id: PANEL + "-title" }, title),
      h("button", { type: "button", id: PANEL + "-close", onclick: closeRules }, words.close),
    ),
  );
  if (words.whole) {
    panel.appendChild(
      h(
        "p",
        null,
        h("a", { href: "/rules/" + gameName(), target: "_blank", rel: "noopener" }, words.whole),
      ),
    );
  }
  content.forEach((el) => panel.appendChild(el));
}

// Opens the panel at ``clause`` (marked and scrolled to), or at the top without one.
export function openRule(clause) {
  if (
    !document.getElementById(PANEL) ||
    !document.getElementById(PANEL).contains(document.activeElement)
  ) {
    opener = document.activeElement;
  }
  const shown = () => {
    const panel = panelElement();
    panel.hidden = false;
    return panel;
  };
  return Promise.all([rules(), styleSheet()]).then(
    ([data]) => {
      const panel = shown();
      fill(
        panel,
        data.words,
        data.words.title.replace("{game}", data.title),
        sections(data, clause),
      );
      const target = clause && panel.querySelector('[data-clause="' + clause + '"]');
      panel.scrollTop = target
        ? target.offsetTop - panel.querySelector("header").offsetHeight - 40
        : 0;
      panel.focus();
    },
    (err) => {
      // Without the rules there are no words of theirs either: the page's own say what failed.
      const panel = shown();
      fill(panel, { close: "×" }, "?", [
        h("p", { class: "error", role: "alert" }, t("error.prefix") + " " + errorText(err)),
      ]);
      panel.focus();
    },
  );
}

export function closeRules() {
  const panel = document.getElementById(PANEL);
  if (!panel || panel.hidden) return;
  panel.hidden = true;
  if (opener && opener.isConnected) opener.focus();
  opener = null;
}
