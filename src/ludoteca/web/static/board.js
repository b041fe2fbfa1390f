// The board page: draws the game the server sends (over a WebSocket, live), turns clicks on
// regions into moves along the view's click paths, and sends typed moves. No rules here: the
// server says which moves are legal and which clicks make them.
import { api } from "./api.js";
import { formatClock, secondsLeft as clockSecondsLeft } from "./clock.js";
import { choices, click } from "./clickpath.js";
import { cancelButton, choiceButton, listenForRegions, markRegions, renderDice, renderList, showBoard as drawBoard } from "./board_view.js";
import { replayLabel, shownMoveAt, stepTarget } from "./notation.js";
import { createReview } from "./review.js";

const page = JSON.parse(document.getElementById("page-data").textContent);
const $ = (id) => document.getElementById(id);
let game = null; // the game as the API answers it (GET /api/games/{id})
let board = null; // its board (GET /api/games/{id}/board)
let clicks = []; // region ids clicked so far
let replayAt = null; // a move number while replaying, else null
let socket = null;
let retryDelay = 500;
let clockOffset = 0; // server time minus this browser's time, in seconds
let flagAsked = 0; // the version whose running clock this page asked the server to check
let wasMyTurn = false;
const baseTitle = document.title;

function tokenFor(seat) {
  return seat === null || seat === undefined ? undefined : page.tokens[String(seat)];
}

function myTurn() {
  return game !== null && game.outcome === null && tokenFor(game.to_move) !== undefined;
}

function say(text) {
  $("message").textContent = text;
}

// -- drawing ----------------------------------------------------------------------------

function render() {
  if (game === null || board === null) return;
  const holder = $("board");
  if (replayAt === null) {
    showBoard(board);
  }
  const outcome = game.outcome;
  $("status").textContent = statusLine();
  $("detail").textContent = outcome === null ? detailLine() : "";
  $("role").textContent = roleLine();
  renderList($("players"), game.seats, (li, seat) => {
    li.textContent = `${seat.player}: ${seatLabel(seat)}`;
    if (seat.seat === game.to_move) li.className = "to-move";
  });
  $("result").hidden = outcome === null;
  $("result").textContent = outcome === null ? "" : resultLine(outcome);
  renderList($("notes"), board.notes, (li, note) => (li.textContent = note));
  renderDice($("dice"), board.dice);
  renderList($("moves"), game.moves, (li, move) => {
    // Players' moves numbered with the rolls before each beside them ("12. W4-B2 (5)"); a
    // chance outcome keeps its place in the list (one item a ply) but is shown beside its move.
    li.textContent = move.label;
    li.dataset.ply = move.number;
    if (move.move_number === null) {
      li.className = "chance";
      li.hidden = true;
    } else {
      li.title = move.player_name;
    }
    if (outcome !== null) {
      // A finished game's moves are buttons: each shows the position after it.
      li.tabIndex = 0;
      li.setAttribute("role", "button");
      li.classList.add("jump");
      li.classList.toggle("current", replayAt !== null && move.number === shownMoveAt(game.moves, replayAt));
    }
    reviewHooks.markMove(li, move);
  });
  const legal = $("legal-moves");
  legal.replaceChildren(
    ...(myTurn() ? game.legal_moves : []).slice(0, 500).map((text) => new Option(text)),
  );
  $("move-form").querySelector("button").disabled = !myTurn();
  const playing = Object.keys(page.tokens).length > 0;
  $("move-form").hidden = outcome !== null || !playing;
  $("undo").hidden = !game.undo_allowed || !playing || game.ply === 0;
  $("resign").hidden = outcome !== null || !playing;
  $("hint").hidden = !myTurn() || !game.hints;
  renderOffers(playing);
  renderClocks();
  renderTurnSignals();
  $("replay").hidden = outcome === null;
  if (outcome === null) replayAt = null;
  updateReplayLabel();
  updateAnalyseLink();
  reviewHooks.render();
  holder.classList.toggle("my-turn", myTurn());
  showChoices();
  fitZoom(); // the turn bar above the board may have grown or shrunk
}

function showBoard(shown) {
  drawBoard(shown);
  if (shown.svg) fitZoom();
}

// The game's own status line, less what the status above says (whose move, the ply count).
function detailLine() {
  const text = (board.status || "").replace(/,? ply \d+/, "");
  return text === `${game.to_move_name} to move.` ? "" : text;
}

function seatLabel(seat) {
  if (seat.name) return seat.name;
  if (seat.kind === "computer") return seat.agent === "random" ? "random player" : `computer (${seat.agent})`;
  return seat.kind === "invite" ? "invited player" : "player";
}

function nameOf(seat) {
  const info = game.seats[seat];
  return info && info.name ? `${game.players[seat]} (${info.name})` : game.players[seat];
}

function statusLine() {
  if (game.outcome !== null) return `Game over: ${game.outcome.reason}.`;
  if (game.to_move === null || game.to_move < 0) return `Rolling… · move ${game.move_number}`;
  const who = myTurn() ? `Your move, ${nameOf(game.to_move)}` : `${nameOf(game.to_move)} to move`;
  return `${who} · move ${game.move_number}`;
}

// -- clocks, offers and the signals of one's turn ------------------------------------------

function secondsLeft(seat) {
  return clockSecondsLeft(game.clock, seat, Date.now() / 1000 + clockOffset);
}

function renderClocks() {
  const list = $("clocks");
  if (game === null || !game.clock) {
    list.hidden = true;
    return;
  }
  list.hidden = false;
  if (list.children.length !== game.players.length) {
    renderList(list, game.players, (li) => {
      li.className = "clock";
      const who = document.createElement("span");
      who.className = "clock-name";
      const time = document.createElement("span");
      time.className = "clock-time";
      li.append(who, time);
    });
  }
  let zero = false;
  [...list.children].forEach((li, seat) => {
    const left = secondsLeft(seat);
    li.querySelector(".clock-name").textContent = nameOf(seat);
    li.querySelector(".clock-time").textContent = left === null ? "no clock" : formatClock(left);
    li.classList.toggle("running", game.outcome === null && game.clock.running === seat);
    li.classList.toggle("low", left !== null && left < 10);
    li.dataset.seconds = left === null ? "" : left.toFixed(1);
    if (game.outcome === null && game.clock.running === seat && left !== null && left <= 0) zero = true;
  });
  if (zero && flagAsked !== game.version) {
    flagAsked = game.version; // the server decides: ask it to look at the clock now
    api(`/api/games/${page.id}/clock`).catch(() => {});
  }
}

setInterval(() => {
  if (game !== null && game.clock && game.outcome === null) renderClocks();
}, 200);

function renderOffers(playing) {
  const running = game.outcome === null;
  const mine = (seat) => tokenFor(seat) !== undefined;
  const offer = game.draw_offer;
  const theirOffer = offer !== null && !mine(offer);
  $("draw-offer").hidden = !playing || !running || !game.draw_possible || offer !== null;
  $("draw-accept").hidden = !playing || !running || !theirOffer;
  $("draw-decline").hidden = !playing || !running || !theirOffer;
  let text = "";
  if (running && offer !== null) {
    text = theirOffer ? `${nameOf(offer)} offers a draw.` : "You offered a draw; waiting for the answer.";
  }
  if (!running && game.rematch === null && game.rematch_offer !== null) {
    text = mine(game.rematch_offer)
      ? "You asked for a rematch; waiting for the answer."
      : `${nameOf(game.rematch_offer)} asks for a rematch.`;
  }
  $("offer-text").textContent = text;
  $("offer-text").hidden = text === "";
  $("rematch").hidden = !playing || running || game.rematch !== null || (game.rematch_offer !== null && mine(game.rematch_offer));
  $("rematch").textContent = game.rematch_offer !== null && !mine(game.rematch_offer) ? "Accept the rematch" : "Rematch";
  $("rematch-link").hidden = game.rematch === null;
  if (game.rematch === null) sawNoRematch = true;
  if (game.rematch !== null) {
    $("rematch-link").href = `/games/${game.rematch}`;
    // Both players asked: the players' pages move on to the new game (it holds their seats).
    if (playing && !running && sawNoRematch && !leaving) {
      leaving = true;
      window.location.assign(`/games/${game.rematch}`);
    }
  }
}
let leaving = false;
let sawNoRematch = false; // a rematch made while this page is open takes the players to it

function favicon(color) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="${color}"/></svg>`;
  let link = document.querySelector("link[rel=icon]");
  link.href = `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function beep() {
  try {
    const context = new AudioContext();
    const tone = context.createOscillator();
    const volume = context.createGain();
    tone.frequency.value = 660;
    volume.gain.value = 0.08;
    tone.connect(volume).connect(context.destination);
    tone.start();
    tone.stop(context.currentTime + 0.15);
  } catch {
    // no sound in this browser
  }
}

function renderTurnSignals() {
  const mineNow = myTurn();
  document.title = mineNow ? `● Your turn · ${baseTitle}` : baseTitle;
  document.body.dataset.myTurn = mineNow ? "yes" : "no";
  favicon(mineNow ? "#2e9d4a" : "#8c8477");
  if (mineNow && !wasMyTurn && $("sound").checked) beep();
  wasMyTurn = mineNow;
}

$("sound").checked = localStorage.getItem("ludoteca-sound") === "on";
$("sound").addEventListener("change", () =>
  localStorage.setItem("ludoteca-sound", $("sound").checked ? "on" : "off"),
);

async function sendOffer(path, body) {
  say("");
  try {
    showChange(await api(`/api/games/${page.id}/${path}?board=true`, { method: "POST", body: JSON.stringify(body) }));
  } catch (failure) {
    say(failure.message);
  }
}

function anyToken() {
  return tokenFor(game.to_move) || Object.values(page.tokens)[0];
}

$("draw-offer").addEventListener("click", () => sendOffer("draw", { token: anyToken(), action: "offer" }));
$("draw-accept").addEventListener("click", () => sendOffer("draw", { token: anyToken(), action: "accept" }));
$("draw-decline").addEventListener("click", () => sendOffer("draw", { token: anyToken(), action: "decline" }));

$("rematch").addEventListener("click", async () => {
  say("");
  try {
    const answer = await api(`/api/games/${page.id}/rematch`, {
      method: "POST",
      body: JSON.stringify({ token: Object.values(page.tokens)[0] }),
    });
    if (answer.rematch) window.location.assign(`/games/${answer.rematch}`);
    else refresh();
  } catch (failure) {
    say(failure.message);
  }
});

for (const button of document.querySelectorAll(".copy-link")) {
  button.addEventListener("click", async () => {
    const input = button.parentElement.querySelector("input");
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
      document.execCommand("copy");
    }
    button.textContent = "Copied";
    setTimeout(() => (button.textContent = "Copy link"), 2000);
  });
}

// Places smaller than a finger (40 px) on this screen: offer a zoomed board that scrolls.
const TOUCH_PX = 40;
let zoom = 1;

function smallestPlace() {
  let smallest = Infinity;
  for (const el of document.querySelectorAll("#board .region[data-region]")) {
    const box = el.getBoundingClientRect();
    if (box.width > 0) smallest = Math.min(smallest, box.width, box.height);
  }
  return smallest;
}

// The board is seen from the player's own side: turned for one who plays the second seat
// alone; the flip button turns it either way.
const mySeats = Object.keys(page.tokens).map(Number);
let flipped = mySeats.length > 0 && mySeats.every((seat) => seat === 1);
$("flip").addEventListener("click", () => {
  flipped = !flipped;
  fitZoom();
});

// On a screen wide enough for the board and the side panel together, the board is no taller
// than the window leaves it below the turn bar, with its buttons under it: all in view at once.
const SIDE_BY_SIDE = window.matchMedia("(min-width: 52rem)");
function fittingHeight(svg) {
  if (!SIDE_BY_SIDE.matches) return "";
  const top = svg.getBoundingClientRect().top + window.scrollY;
  const tools = document.querySelector(".board-tools").getBoundingClientRect().height;
  return `${Math.max(240, Math.floor(window.innerHeight - top - tools - 16))}px`;
}

function fitZoom() {
  const svg = document.querySelector("#board svg");
  $("flip").hidden = !svg;
  $("board").classList.toggle("flipped", flipped && Boolean(svg));
  $("flip").setAttribute("aria-pressed", String(flipped));
  if (!svg) {
    $("zoom-box").hidden = true;
    return;
  }
  svg.style.width = zoom > 1 ? `${zoom * 100}%` : "";
  svg.style.maxHeight = zoom > 1 ? "none" : fittingHeight(svg);
  $("board").classList.toggle("zoomed", zoom > 1);
  if (zoom === 1) $("zoom-box").hidden = smallestPlace() >= TOUCH_PX;
}

$("zoom").addEventListener("click", () => {
  zoom = zoom > 1 ? 1 : Math.max(1.2, (TOUCH_PX + 4) / smallestPlace());
  $("zoom").setAttribute("aria-pressed", String(zoom > 1));
  $("zoom").textContent = zoom > 1 ? "Fit the board" : "Zoom the board";
  fitZoom();
});
window.addEventListener("resize", () => fitZoom());

function resultLine(outcome) {
  let verdict = "Draw";
  if (outcome.winner !== null) {
    verdict = game.players.length === 1 ? "Won" : `${outcome.winner_name} wins`;
  } else if (game.players.length === 1) {
    verdict = "Lost";
  }
  return `Game over. ${verdict}: ${outcome.reason}.`;
}

function roleLine() {
  const seats = Object.keys(page.tokens).map((s) => game.players[Number(s)]);
  if (seats.length === 0) return "You are watching.";
  if (game.outcome !== null) return `You played ${seats.join(" and ")}.`;
  if (game.computer_to_move) return `The computer (${game.to_move_name}) is thinking…`;
  if (myTurn()) return `Your move, ${game.to_move_name}.`;
  return `You play ${seats.join(" and ")}; waiting for ${game.to_move_name}.`;
}

// -- clicking along the click paths ------------------------------------------------------

function showChoices() {
  const box = $("choices");
  box.replaceChildren();
  markRegions();
  if (!myTurn() || replayAt !== null) return;
  const choice = choices(board.click_paths, clicks);
  markRegions(choice);
  // Moves without a path (pass, end), and moves the clicks so far cannot tell apart.
  const buttons = clicks.length ? choice.exact : choice.pathless;
  if (!board.svg && clicks.length === 0 && game.legal_moves.length <= 60) {
    buttons.push(...game.legal_moves.filter((t) => !buttons.includes(t)));
  }
  for (const text of buttons) box.append(choiceButton(text, play));
  if (clicks.length) {
    box.append(
      cancelButton(() => {
        clicks = [];
        showChoices();
      }),
    );
  }
}

function clickRegion(id) {
  say("");
  if (replayAt !== null) return;
  if (!myTurn()) {
    say(
      Object.keys(page.tokens).length === 0
        ? "You are watching this game; only its players can move."
        : game.outcome !== null
          ? "The game is over."
          : `It is not your turn: ${game.to_move_name} is to move.`,
    );
    return;
  }
  const result = click(board.click_paths, clicks, id);
  clicks = result.clicks;
  if (result.move !== null) {
    play(result.move);
    return;
  }
  showChoices();
  if (result.error) say(result.error);
}

listenForRegions(clickRegion);

// -- actions -----------------------------------------------------------------------------

async function play(text) {
  say("");
  $("hint-text").textContent = "";
  clicks = [];
  const token = tokenFor(game.to_move);
  if (token === undefined) {
    say("It is not your turn.");
    return;
  }
  try {
    showChange(
      await api(`/api/games/${page.id}/moves?board=true`, {
        method: "POST",
        body: JSON.stringify({ move: text, token, ply: game.ply }),
      }),
    );
    $("move-input").value = "";
  } catch (failure) {
    say(failure.message);
    showChoices();
  }
}

async function refresh() {
  const fresh = await api(`/api/games/${page.id}`);
  takeTime(fresh);
  game = fresh;
  board = await api(`/api/games/${page.id}/board`);
  render();
}

// Answers carry the server's time ("now"): the clocks are shown in the server's time.
function takeTime(reply) {
  if (typeof reply.now === "number") clockOffset = reply.now - Date.now() / 1000;
}

// A change's answer (move, undo, resign) is the new game with its board: no second request.
// The WebSocket may have pushed the same state already; an older one is never shown.
function showChange(reply) {
  takeTime(reply);
  if (game !== null && reply.version < game.version) return;
  board = reply.board;
  delete reply.board;
  game = reply;
  render();
}

$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("move-input").value.trim();
  if (!text) {
    say("Type a move in notation first.");
    return;
  }
  play(text);
});

$("undo").addEventListener("click", async () => {
  say("");
  const token = Object.values(page.tokens)[0];
  try {
    showChange(
      await api(`/api/games/${page.id}/undo?board=true`, {
        method: "POST",
        body: JSON.stringify({ token }),
      }),
    );
    clicks = [];
  } catch (failure) {
    say(failure.message);
  }
});

$("resign").addEventListener("click", async () => {
  say("");
  if (!window.confirm("Resign this game?")) return;
  const token = tokenFor(game.to_move) || Object.values(page.tokens)[0];
  try {
    showChange(
      await api(`/api/games/${page.id}/resign?board=true`, {
        method: "POST",
        body: JSON.stringify({ token }),
      }),
    );
  } catch (failure) {
    say(failure.message);
  }
});

$("hint").addEventListener("click", async () => {
  say("");
  $("hint-text").textContent = "Thinking…";
  try {
    const hint = await api(`/api/games/${page.id}/hint`, {
      method: "POST",
      body: JSON.stringify({ token: tokenFor(game.to_move) }),
    });
    const chance = Math.round(hint.win_chance * 100);
    $("hint-text").textContent =
      hint.estimate === "win chance"
        ? `Hint: ${hint.move} (about ${chance}% to win)`
        : `Hint: ${hint.move} (${hint.meaning})`;
  } catch (failure) {
    $("hint-text").textContent = "";
    say(failure.message);
  }
});

// -- replay of a finished game -------------------------------------------------------------

function updateReplayLabel() {
  if (game === null) return;
  const at = replayAt === null ? game.ply : replayAt;
  $("replay-label").textContent = replayLabel(game.moves, at, game.ply);
}

// Show the position after ``target`` moves (the game's last position: back to live).
// Steps may come faster than the answers: each counts from the last position asked for, and
// an answer overtaken by a later request is not shown.
let wanted = null;
let asked = 0;
async function showPosition(target) {
  const ticket = ++asked;
  wanted = target;
  try {
    const shown = await api(`/api/games/${page.id}/board?at=${target}`);
    if (ticket !== asked) return;
    wanted = null;
    replayAt = target === game.ply ? null : target;
    showBoard(shown);
    const marked = replayAt === null ? null : shownMoveAt(game.moves, replayAt);
    for (const li of $("moves").children) {
      li.classList.toggle("current", marked !== null && Number(li.dataset.ply) === marked);
    }
    $("moves").querySelector(".current")?.scrollIntoView({ block: "nearest" });
    $("status").textContent = replayAt === null ? board.status : shown.status;
    updateReplayLabel();
    updateAnalyseLink();
    reviewHooks.shown(target);
  } catch (failure) {
    if (ticket === asked) wanted = null;
    say(failure.message);
  }
}

// "Analyse" opens the analysis board on the game's moves, at the position shown.
function updateAnalyseLink() {
  const at = replayAt === null ? game.ply : replayAt;
  const link = new URLSearchParams({ position: page.start, options: JSON.stringify(game.options) });
  if (game.moves.length) link.set("line", game.moves.map((move) => move.text).join(","));
  if (at !== game.ply) link.set("ply", String(at));
  $("analyse").href = `${page.analysis}?${link}`;
}

function stepReplay(how) {
  const now = wanted !== null ? wanted : replayAt === null ? game.ply : replayAt;
  const target = stepTarget(how, now, game.ply);
  if (target !== now) showPosition(target);
}

document.querySelectorAll("[data-replay]").forEach((button) =>
  button.addEventListener("click", () => stepReplay(button.dataset.replay)),
);

// ←/→/Home/End step through a finished game (replay and review), unless one is typing.
const REPLAY_KEYS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
document.addEventListener("keydown", (event) => {
  const how = REPLAY_KEYS[event.key];
  if (how === undefined || game === null || game.outcome === null) return;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target instanceof Element && target.closest("input, textarea, select, [contenteditable]")) return;
  event.preventDefault();
  stepReplay(how);
});

function jumpToMove(event) {
  const li = event.target.closest("#moves li.jump");
  if (li === null || game === null || game.outcome === null) return;
  if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
  event.preventDefault();
  showPosition(Number(li.dataset.ply));
}
$("moves").addEventListener("click", jumpToMove);
$("moves").addEventListener("keydown", jumpToMove);

// What the review (static/review.js) adds to the page: it sees the page through these.
const reviewHooks = createReview({
  page,
  game: () => game,
  replayAt: () => replayAt,
  showPosition,
  render,
  say,
});

// -- live updates --------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/games/${page.id}`);
  socket.addEventListener("open", () => {
    retryDelay = 500;
    document.body.dataset.live = "yes";
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "review") {
      reviewHooks.update(message.review);
      return;
    }
    if (message.type !== "state") return;
    takeTime(message);
    if (game !== null && message.game.version < game.version) return; // the POST answer was newer
    if (game !== null && message.game.ply !== game.ply) clicks = [];
    game = message.game;
    board = message.board;
    render();
  });
  socket.addEventListener("close", () => {
    document.body.dataset.live = "no";
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 10000);
  });
}

refresh().catch((failure) => say(failure.message));
connect();
