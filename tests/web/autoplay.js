// Plays one decision through the page's own prompt, the way a person would: pick an action
// kind (preferring the listed ones), then the first option of every open step, then Confirm.
// Closes a round-end summary that holds the prompt first. Returns the confirmed summary line, or null when it is not this page's turn.
async (prefer) => {
  for (let i = 0; i < 20; i++) {
    // A round-end summary holds the prompt until it is closed, as a person would close it.
    const later = document.getElementById("summary-continue");
    if (later) later.click();
    let card = document.getElementById("prompt-card");
    // A prompt whose module is still on its way (imported when first needed) comes by itself.
    for (let w = 0; !card && document.querySelector(".banner.mine") && w < 250; w++) {
      await new Promise((done) => setTimeout(done, 20));
      card = document.getElementById("prompt-card");
    }
    if (!card || !document.querySelector(".banner.mine")) return null;
    const confirm = document.getElementById("confirm");
    if (confirm && !confirm.disabled) {
      const text = document.getElementById("draft-summary").textContent;
      confirm.click();
      return text;
    }
    const kinds = [...card.querySelectorAll('[data-focus^="kind-"]')];
    if (kinds.length && !kinds.some((b) => b.classList.contains("selected"))) {
      const pick = prefer.map((k) => card.querySelector(`[data-focus="kind-${k}"]`)).find(Boolean);
      (pick || kinds[0]).click();
      continue;
    }
    const cards = [...card.querySelectorAll(".guild-cards .opt")];
    if (cards.length) {
      cards[0].click();
      continue;
    }
    const plus = [...card.querySelectorAll(".step-btn")].find(
      (b) => b.textContent === "+" && !b.disabled,
    );
    if (plus) {
      plus.click();
      continue;
    }
    const open = [...card.querySelectorAll(".options")].find(
      (g) =>
        !g.matches('[role="group"]') &&
        g.querySelector(".opt") &&
        !g.querySelector(".opt.selected"),
    );
    if (!open) throw new Error("no way to complete the prompt: " + card.innerText);
    open.querySelector(".opt").click();
  }
  throw new Error("prompt did not complete");
};
