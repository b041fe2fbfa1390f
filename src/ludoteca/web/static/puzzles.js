// Puzzles: the next puzzle for this browser's player (GET /api/puzzles/<game>/next), answered by
// clicking along the board's click paths (as on the board page) or by typing a move
// (POST /api/puzzles/<id>/answer). The server judges the move (by the solved table, or by the
// deep searches' estimates the set records), explains it, and moves the player's and the
// puzzle's ratings (the first answer to a puzzle only).
import { api } from "./api.js";
import { choices, click } from "./clickpath.js";
import { choiceButton, listenForRegions, markRegions, renderDice, showBoard } from "./board_view.js";

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
  showBoard(board);
  $("status").textContent = board.status;
  renderDice($("dice"), board.dice);
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

function showChoices() {
  const box = $("choices");
  box.replaceChildren();
  markRegions();
  if (finished) return;
  const choice = choices(board.click_paths, clicks);
  markRegions(choice);
  for (const text of clicks.length ? choice.exact : choice.pathless) box.append(choiceButton(text, play));
}

function clickRegion(id) {
  say("");
  if (finished) return;
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
$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  play($("move-input").value);
});
$("next-puzzle").addEventListener("click", nextPuzzle);

nextPuzzle();
