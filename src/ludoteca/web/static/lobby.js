// The lobby: the new-game forms, the player's name, open challenges (post, accept, withdraw),
// the player's games and the games to watch, refreshed every few seconds. Every text from
// the server is shown with textContent (never as markup).
import { api } from "./api.js";
import { clockOf } from "./clock.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 2500;

// The custom clock a form's fields give (read only when "custom" is chosen).
function customClock(form) {
  return () => ({ initial: form.elements.initial.value, increment: form.elements.increment.value });
}

// -- new games against the computer or by invitation ----------------------------------------

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
    const clockField = form.querySelector("[data-clock]");
    const clock = clockField ? clockOf(clockField.value, customClock(form)) : null;
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    form.dataset.sending = "yes";
    try {
      const body = await api("/api/games", {
        method: "POST",
        body: JSON.stringify({ game: form.dataset.game, options, seats, clock }),
      });
      window.location.assign(body.url);
    } catch (failure) {
      error.textContent = failure.message;
    } finally {
      delete form.dataset.sending;
      button.disabled = form.closest(".game-card").dataset.waiting === "yes";
    }
  });
}

// -- "Play the computer": one form, first on the page ------------------------------------------

const quick = $("quick-play");
quick.addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = quick.querySelector(".error");
  error.textContent = "";
  const choice = quick.elements.game.selectedOptions[0];
  const players = choice.dataset.players.split("|").length;
  // A solitaire is played alone; otherwise the computer takes the side the player leaves.
  const seats = players === 1 ? ["human"] : Array(players).fill(quick.elements.opponent.value);
  if (players > 1) seats[Number(quick.elements.side.value)] = "human";
  const button = quick.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const body = await api("/api/games", {
      method: "POST",
      body: JSON.stringify({ game: choice.value, options: {}, seats }),
    });
    window.location.assign(body.url);
  } catch (failure) {
    error.textContent = failure.message;
    button.disabled = false;
  }
});

// The sides are named as the chosen game names them; a solitaire has none to choose.
function quickSides() {
  const names = quick.elements.game.selectedOptions[0].dataset.players.split("|");
  const side = quick.elements.side;
  side.closest("label").hidden = names.length < 2;
  [...side.options].forEach((option, seat) => {
    if (names[seat]) option.textContent = names[seat];
  });
}
quick.elements.game.addEventListener("change", quickSides);
quickSides();

// -- games still being prepared after the server started ------------------------------------

const PREPARING =
  "Being prepared: the server is compiling its rules (on the first start only). " +
  "You can start a game as soon as it is ready.";

// A game's New game button waits until its kernels are ready; the lobby's refresh says when.
function showReadiness(lobby) {
  const preparing = new Set(lobby.preparing || []);
  const unavailable = lobby.unavailable || {};
  for (const card of document.querySelectorAll(".game-card")) {
    const game = card.dataset.game;
    let text = "";
    if (preparing.has(game)) text = PREPARING;
    else if (game in unavailable) {
      text = `Not available on this server: its preparation failed (${unavailable[game]}).`;
    }
    const note = card.querySelector(".readiness");
    note.textContent = text;
    note.hidden = !text;
    card.dataset.waiting = text ? "yes" : "no";
    const form = card.querySelector("form.new-game-form");
    if (!form.dataset.sending) form.querySelector("button[type=submit]").disabled = Boolean(text);
  }
}

// A seat's choice is named short (so it fits a phone); what the computer level does is shown
// in full under it.
for (const select of document.querySelectorAll("select[data-seat]")) {
  const detail = select.closest("label").nextElementSibling;
  const show = () => (detail.textContent = select.selectedOptions[0]?.dataset.detail || "");
  select.addEventListener("change", show);
  show();
}

// Summaries and the list of all games are open on a wide screen, folded on a phone (or when
// the page was asked for a later page of games, which is what the reader wants to see).
if (window.matchMedia("(min-width: 48rem)").matches || location.hash === "#saved") {
  for (const fold of document.querySelectorAll("details.fold-on-phone")) fold.open = true;
}

// -- the player's name ------------------------------------------------------------------------

async function saveName() {
  const name = $("name-input").value;
  const answer = await api("/api/session/name", { method: "POST", body: JSON.stringify({ name }) });
  $("name-input").value = answer.name;
  $("name-saved").textContent = `Saved: others see you as ${answer.name}.`;
  return answer.name;
}

$("name-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    await saveName();
  } catch (failure) {
    $("name-saved").textContent = failure.message;
  }
});

// A browser logged in to an account plays under the account's name, and may post and accept
// rated challenges.
let account = null;
const accountKnown = api("/api/account")
  .then((answer) => {
    account = answer.name;
    $("name-input").value = account;
    $("name-input").disabled = true;
    $("name-form").querySelector("button").disabled = true;
    $("name-saved").textContent = `Logged in: others see you as ${account}.`;
    challengeForm.elements.rated.disabled = false;
    $("rated-help").textContent = "Rated games move both players' ratings.";
  })
  .catch(() => {});

async function ensureName() {
  await accountKnown;
  if (account !== null) return account;
  if (!$("name-input").value.trim()) {
    $("name-input").focus();
    throw new Error("Choose your name first (above): the other player sees it.");
  }
  return saveName();
}

// -- open challenges --------------------------------------------------------------------------

const secrets = JSON.parse(localStorage.getItem("ludoteca-challenges") || "{}");

function keepSecrets() {
  localStorage.setItem("ludoteca-challenges", JSON.stringify(secrets));
}

const challengeForm = $("challenge-form");
const gameSelect = challengeForm.elements.game;

function sideLabels() {
  const players = gameSelect.selectedOptions[0]?.dataset.players.split("|") || ["", ""];
  const sides = challengeForm.elements.side.options;
  sides[1].textContent = `${players[0]} (moves first)`;
  sides[2].textContent = players[1];
}
gameSelect.addEventListener("change", sideLabels);
sideLabels();
challengeForm.elements.clock.addEventListener("change", () => {
  $("custom-clock").hidden = challengeForm.elements.clock.value !== "custom";
});

challengeForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = challengeForm.querySelector(".error");
  error.textContent = "";
  try {
    await ensureName();
    const posted = await api("/api/challenges", {
      method: "POST",
      body: JSON.stringify({
        game: gameSelect.value,
        side: challengeForm.elements.side.value,
        clock: clockOf(challengeForm.elements.clock.value, customClock(challengeForm)),
        rated: challengeForm.elements.rated.checked,
      }),
    });
    secrets[posted.id] = { secret: posted.secret, game: posted.game_id };
    keepSecrets();
    $("post-challenge").open = false;
    await refreshLobby();
  } catch (failure) {
    error.textContent = failure.message;
  }
});

function item(text, href) {
  const li = document.createElement("li");
  if (href) {
    const link = document.createElement("a");
    link.href = href;
    link.textContent = text;
    li.append(link);
  } else {
    li.textContent = text;
  }
  return li;
}

function button(text, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

function showList(list, entries, empty, fill) {
  list.replaceChildren(...(entries.length ? entries.map(fill) : [item(empty)]));
  if (!entries.length) list.firstChild.className = "empty";
}

function describeGame(game) {
  const state = game.status === "over" ? `over: ${game.result}` : `move ${game.ply}`;
  const clock = game.clock ? ` · ${game.clock}` : "";
  return `${game.name} · ${game.players.join(" vs ")} · ${state}${clock}`;
}

function showChallenge(challenge) {
  const li = document.createElement("li");
  li.className = "challenge";
  const text = document.createElement("span");
  const clock = challenge.clock ? challenge.clock.description : "no clock";
  const rating = challenge.poster_rating ? ` (${challenge.poster_rating.shown})` : "";
  const kind = challenge.rated ? " · rated" : "";
  text.textContent =
    `${challenge.name}: ${challenge.poster}${rating} plays ${challenge.poster_side} · ${clock}${kind}`;
  li.append(text, " ");
  if (challenge.yours) {
    li.append(
      button("Withdraw", async () => {
        try {
          await api(`/api/challenges/${challenge.id}/withdraw`, {
            method: "POST",
            body: JSON.stringify({ secret: (secrets[challenge.id] || {}).secret || "" }),
          });
        } catch (failure) {
          $("lobby-error").textContent = failure.message;
        }
        refreshLobby();
      }),
    );
    li.append(" (waiting for someone to accept)");
  } else {
    li.append(
      button(`Accept: play ${challenge.accepter_side}`, async () => {
        try {
          await ensureName();
          const game = await api(`/api/challenges/${challenge.id}/accept`, { method: "POST", body: "{}" });
          window.location.assign(game.url);
        } catch (failure) {
          $("lobby-error").textContent = failure.message;
          refreshLobby();
        }
      }),
    );
  }
  return li;
}

// The rating range the player filters challenges by (either bound may be left empty); a
// challenge of a poster without an account has no rating and is hidden while a bound is set.
function inRatingRange(challenge) {
  const low = $("min-rating").value.trim();
  const high = $("max-rating").value.trim();
  if (!low && !high) return true;
  const rating = challenge.poster_rating ? challenge.poster_rating.rating : null;
  if (rating === null) return false;
  return (!low || rating >= Number(low)) && (!high || rating <= Number(high));
}
for (const bound of ["min-rating", "max-rating"]) $(bound).addEventListener("input", () => refreshLobby());

async function refreshLobby() {
  let lobby;
  try {
    lobby = await api("/api/lobby");
  } catch {
    return; // the next refresh tries again
  }
  showReadiness(lobby);
  const shown = lobby.challenges.filter(inRatingRange);
  const none = lobby.challenges.length ? "No open challenge in this rating range." : "No open challenge: post one.";
  showList($("challenges"), shown, none, showChallenge);
  showList($("my-games"), lobby.mine, "None yet.", (game) => item(describeGame(game), `/games/${game.id}`));
  showList($("watch-games"), lobby.playing, "None now.", (game) => item(describeGame(game), `/games/${game.id}`));
  $("watch-count").textContent = lobby.playing.length ? `(${lobby.playing.length})` : "";
  // A challenge of ours was accepted: its game is ours now; open it.
  for (const [id, kept] of Object.entries(secrets)) {
    if (lobby.challenges.some((c) => c.id === id)) continue;
    delete secrets[id];
    keepSecrets();
    if (lobby.mine.some((game) => game.id === kept.game && game.status === "running")) {
      window.location.assign(`/games/${kept.game}`);
      return;
    }
  }
}

refreshLobby();
setInterval(refreshLobby, REFRESH_MS);
