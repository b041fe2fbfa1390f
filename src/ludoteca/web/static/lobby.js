// The lobby: each game's new-game form creates the game through the API and opens its board.
"use strict";

for (const form of document.querySelectorAll("form.new-game-form")) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = form.querySelector(".error");
    error.textContent = "";
    const seats = [...form.querySelectorAll("select[data-seat]")].map((s) => s.value);
    const options = {};
    for (const field of form.querySelectorAll("[data-option]")) {
      options[field.name] = field.value;
    }
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const response = await fetch("/api/games", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ game: form.dataset.game, options, seats }),
      });
      const body = await response.json();
      if (!response.ok) {
        error.textContent = body.error || `The game could not be created (${response.status}).`;
        return;
      }
      window.location.assign(body.url);
    } catch (failure) {
      error.textContent = `The server cannot be reached: ${failure}`;
    } finally {
      button.disabled = false;
    }
  });
}
