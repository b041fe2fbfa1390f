// Puzzles: the next puzzle for this browser's player (GET /api/puzzles/<game>/next), answered by
// clicking along the board's click paths (as on the board page) or by typing a move
// (POST /api/puzzles/<id>/answer). The server judges the move by the solved table, explains
// it, and moves the player's and the puzzle's ratings (the first answer to a puzzle only).
"use strict";

const $ = (id) => document.getElementById(id);
const gameId = document.querySelector(".puzzle-page").dataset.game;
let puzzle = null;
let board = { click_paths: {} };
let clicks = [];
let finished = false;

function say(text) {
  $("message").textContent = text;
}

function showRating(player, change) {
  $("player-rating").textContent = Math.round(player.rating);
  $("player-deviation").textContent = `± ${Math.round(2 * player.deviation)}`;
  $("player-count").textContent = `${player.solved} of ${player.rated} right at the first try`;
  if (change === undefined || change === null) {
    $("rating-change").textContent = "";
  } else {
    $("rating-change").textContent = `(${change >= 0 ? "+" : ""}${change.toFixed(1)})`;
  }
}

function draw(shown) {
  board = shown;
  const holder = $("board");
  if (board.svg) {
    holder.innerHTML = board.svg;
    $("board-text").hidden = true;
  } else {
    holder.replaceChildren();
    $("board-text").textContent = board.text;
    $("board-text").hidden = false;
  }
  $("status").textContent = board.status;
  const dice = $("dice");
  dice.replaceChildren();
  for (const die of board.dice || []) {
    const item = document.createElement("li");
    item.className = die.used ? "die used" : "die";
    item.textContent = die.face;
    item.setAttribute("aria-label", die.label || `die ${die.face}`);
    dice.append(item);
  }
  clicks = [];
  showChoices();
}

async function nextPuzzle() {
  say("");
  $("feedback").textContent = "";
  $("why").textContent = "";
  $("line").textContent = "";
  $("move-input").value = "";
  let next;
  try {
    next = await api(`/api/puzzles/${gameId}/next`);
  } catch (error) {
    say(error.message);
    return;
  }
  showRating(next.player, null);
  puzzle = next.puzzle;
  if (!puzzle) {
    finished = true;
    $("puzzle-title").textContent = "All solved";
    $("task").textContent = next.message;
    $("puzzle-rating").textContent = "";
    $("move-form").hidden = true;
    $("next-puzzle").hidden = true;
    return;
  }
  finished = false;
  $("move-form").hidden = false;
  history.replaceState(null, "", `#${puzzle.id}`);
  $("puzzle-title").textContent = `Puzzle ${puzzle.number} of ${puzzle.of}`;
  $("puzzle-rating").textContent = `Puzzle rating ${Math.round(puzzle.rating.rating)} · ${puzzle.position}`;
  $("task").textContent = puzzle.task;
  draw(puzzle.board);
  $("puzzle-title").focus();
}

async function play(text) {
  say("");
  clicks = [];
  if (finished || !puzzle || !text.trim()) return;
  let answer;
  try {
    answer = await api(`/api/puzzles/${encodeURIComponent(puzzle.id)}/answer`, {
      method: "POST",
      body: JSON.stringify({ moves: [text.trim()] }),
    });
  } catch (error) {
    say(error.message);
    showChoices();
    return;
  }
  $("move-input").value = "";
  showRating(answer.player, answer.rated ? answer.player_change : null);
  $("why").textContent = answer.explanation.why;
  $("line").textContent = answer.explanation.line_text;
  if (answer.correct) {
    finished = true;
    $("feedback").textContent = `Right! ${answer.move} is the best move.`;
    draw(answer.board);
    $("next-puzzle").focus();
  } else {
    $("feedback").textContent = `Not the best: the solution is ${answer.solution}. Play it, or go on to the next puzzle.`;
    showChoices();
  }
}

// -- clicking along the click paths (as on the board page) --------------------------------

function regionElement(id) {
  return document.querySelector(`#board .region[data-region="${CSS.escape(id)}"]`);
}

function candidates() {
  return Object.entries(board.click_paths || {}).filter(
    ([, path]) => path.length >= clicks.length && clicks.every((id, i) => path[i] === id),
  );
}

function showChoices() {
  const box = $("choices");
  box.replaceChildren();
  for (const el of document.querySelectorAll("#board .region")) el.classList.remove("next", "selected");
  if (finished) return;
  const paths = board.click_paths || {};
  const exact = [];
  const next = new Set();
  for (const [text, path] of candidates()) {
    if (path.length === clicks.length) exact.push(text);
    else next.add(path[clicks.length]);
  }
  for (const id of clicks) regionElement(id)?.classList.add("selected");
  for (const id of next) regionElement(id)?.classList.add("next");
  const buttons = clicks.length ? exact : Object.keys(paths).filter((t) => paths[t].length === 0);
  for (const text of buttons) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move-choice";
    button.textContent = text;
    button.addEventListener("click", () => play(text));
    box.append(button);
  }
}

function clickRegion(id) {
  say("");
  if (finished) return;
  if (clicks.length && clicks[clicks.length - 1] === id) {
    clicks.pop();
    showChoices();
    return;
  }
  clicks.push(id);
  let matching = candidates();
  if (matching.length === 0) {
    clicks = [id];
    matching = candidates();
    if (matching.length === 0) {
      clicks = [];
      showChoices();
      say("No move starts there. The highlighted places can be clicked.");
      return;
    }
  }
  const exact = matching.filter(([, path]) => path.length === clicks.length);
  if (exact.length === 1 && matching.length === 1) {
    play(exact[0][0]);
    return;
  }
  showChoices();
}

$("board").addEventListener("click", (event) => {
  const region = event.target.closest(".region[data-region]");
  if (region) clickRegion(region.dataset.region);
});
$("board").addEventListener("keydown", (event) => {
  if (event.key !== "Enter" && event.key !== " ") return;
  const region = event.target.closest(".region[data-region]");
  if (!region) return;
  event.preventDefault();
  clickRegion(region.dataset.region);
});
$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  play($("move-input").value);
});
$("next-puzzle").addEventListener("click", nextPuzzle);

nextPuzzle();
