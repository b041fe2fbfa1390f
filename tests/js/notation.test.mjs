// Move numbering and position labels (static/notation.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  lineText,
  movesIn,
  plyLabel,
  replayLabel,
  shownMoveAt,
  stepTarget,
} from "../../src/ludoteca/web/static/notation.js";

// A dice game's record: a roll (chance, no move number) before each player's move.
const MOVES = [
  { number: 1, move_number: null, label: "Roll 3" },
  { number: 2, move_number: 1, label: "1. a1-b2" },
  { number: 3, move_number: null, label: "Roll 5" },
  { number: 4, move_number: 2, label: "2. c3-d4" },
  { number: 5, move_number: 3, label: "3. e5-f6" },
];

test("movesIn counts the players' moves, not the rolls", () => {
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((ply) => movesIn(MOVES, ply)),
    [0, 0, 1, 1, 2, 3],
  );
});

test("shownMoveAt is the ply of the last player's move at or before a ply", () => {
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((ply) => shownMoveAt(MOVES, ply)),
    [0, 0, 2, 2, 4, 5],
  );
});

test("replayLabel names the start, a roll and the moves made", () => {
  assert.equal(replayLabel(MOVES, 0, 5), "Start position (3 moves)");
  assert.equal(replayLabel(MOVES, 1, 5), "Roll 3, before move 1 of 3");
  assert.equal(replayLabel(MOVES, 2, 5), "After move 1 of 3");
  assert.equal(replayLabel(MOVES, 3, 5), "Roll 5, before move 2 of 3");
  assert.equal(replayLabel(MOVES, 5, 5), "After move 3 of 3");
  assert.equal(replayLabel(MOVES.slice(0, 2), 0, 2), "Start position (1 move)");
});

test("stepTarget stays within the game", () => {
  assert.equal(stepTarget("first", 3, 5), 0);
  assert.equal(stepTarget("back", 3, 5), 2);
  assert.equal(stepTarget("back", 0, 5), 0);
  assert.equal(stepTarget("forward", 3, 5), 4);
  assert.equal(stepTarget("forward", 5, 5), 5);
  assert.equal(stepTarget("last", 0, 5), 5);
  assert.throws(() => stepTarget("sideways", 0, 5), /unknown step sideways: first, back, forward or last/);
});

test("plyLabel names the analysis line's start and its plies", () => {
  assert.equal(plyLabel(0, 0, null), "Start (line of 0 plies)");
  assert.equal(plyLabel(0, 1, null), "Start (line of 1 ply)");
  assert.equal(plyLabel(2, 4, "W3-A1"), "Ply 2 of 4: W3-A1");
});

test("lineText joins a line's moves as the API reads them", () => {
  assert.equal(lineText([]), "");
  assert.equal(lineText(["a1-b2", "roll 5"]), "a1-b2,roll 5");
});
