// Puzzles: the next puzzle for this browser's player (GET /api/puzzles/<game>/next), answered by
// clicking along the board's click paths (as on the board page) or by typing a move
// (POST /api/puzzles/<id>/answer). The server judges the move (by the solved table, or by the
// deep searches' estimates the set records), explains it, and moves the player's and the
// puzzle's ratings (the first answer to a puzzle only). A whole-turn puzzle (Steppin' Stones) is
// built move by move: each move is checked by POST /api/puzzles/<id>/turn, which gives the board
// after the turn so far, and the turn is answered once it is whole (its step has ended).
import { api } from "./api.js";
import { choices, click } from "./clickpath.js";
import { choiceButton, listenForRegions, markRegions, renderDice, showBoard } from "./board_view.js";

const $ = (id) => document.getElementById(id);
const gameId = document.querySelector(".puzzle-page").dataset.game;
let puzzle = null;
let board = { click_paths: {} };
let clicks = [];
let finished = false;
let turnMoves = []; // a whole-turn puzzle: the moves of the turn so far

function showTurn() {
  const shown = Boolean(puzzle && puzzle.turn && !finished);
  $("turn-again").hidden = !shown || turnMoves.length === 0;
  $("turn-so-far").hidden = !shown;
  $("turn-so-far").textContent = turnMoves.length ? `Your turn so far: ${turnMoves.join(", ")}` : "";
}

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
  turnMoves = [];
  $("move-form").hidden = false;
  $("move-input").previousElementSibling.textContent = puzzle.turn
    ? "Type a move (or several, separated by commas)"
    : "Type a move";
  history.replaceState(null, "", `#${puzzle.id}`);
  $("puzzle-title").textContent = `Puzzle ${puzzle.number} of ${puzzle.of}`;
  $("puzzle-rating").textContent = `Puzzle rating ${Math.round(puzzle.rating.rating)} · ${puzzle.position}`;
  $("task").textContent = puzzle.task;
  draw(puzzle.board);
  showTurn();
  $("puzzle-title").focus();
}

async function play(text) {
  say("");
  clicks = [];
  if (finished || !puzzle || !text.trim()) return;
  if (puzzle.turn) {
    await playInTurn(text);
    return;
  }
  await answerWith([text.trim()]);
}

// A move (or several, typed with commas) added to the turn so far; the turn is answered once
// the server says it is whole.
async function playInTurn(text) {
  const added = text.split(/[,;]/).map((part) => part.trim()).filter(Boolean);
  let shown;
  try {
    shown = await api(`/api/puzzles/${encodeURIComponent(puzzle.id)}/turn`, {
      method: "POST",
      body: JSON.stringify({ moves: turnMoves.concat(added) }),
    });
  } catch (error) {
    say(error.message);
    showChoices();
    return;
  }
  turnMoves = shown.moves;
  $("move-input").value = "";
  if (shown.complete) {
    await answerWith(turnMoves);
    return;
  }
  draw(shown.board);
  showTurn();
}

function turnAgain() {
  turnMoves = [];
  say("");
  if (puzzle) draw(puzzle.board);
  showTurn();
}

async function answerWith(moves) {
  let answer;
  try {
    answer = await api(`/api/puzzles/${encodeURIComponent(puzzle.id)}/answer`, {
      method: "POST",
      body: JSON.stringify({ moves }),
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
  const what = puzzle.turn ? "turn" : "move";
  if (answer.correct) {
    finished = true;
    $("feedback").textContent = `Right! ${answer.move} is the best ${what}.`;
    draw(answer.board);
    showTurn();
    $("next-puzzle").focus();
  } else {
    $("feedback").textContent = `Not the best: the solution is ${answer.solution}. Play it, or go on to the next puzzle.`;
    if (puzzle.turn) {
      turnAgain();
    } else {
      showChoices();
    }
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
$("turn-again").addEventListener("click", turnAgain);

nextPuzzle();
