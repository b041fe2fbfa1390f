// The click paths: building a move by clicking regions (static/clickpath.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { NO_MOVE_THERE, candidates, choices, click } from "../../src/ludoteca/web/static/clickpath.js";

// A jump game's paths: two moves from a1 (one through b2 on to c3), one from d4, and a pass.
const PATHS = {
  "a1-b2": ["a1", "b2"],
  "a1-b2-c3": ["a1", "b2", "c3"],
  "d4-e5": ["d4", "e5"],
  pass: [],
};

test("candidates are the moves whose paths begin with the clicks", () => {
  assert.deepEqual(
    candidates(PATHS, []).map(([text]) => text),
    ["a1-b2", "a1-b2-c3", "d4-e5", "pass"],
  );
  assert.deepEqual(candidates(PATHS, ["a1"]).map(([text]) => text), ["a1-b2", "a1-b2-c3"]);
  assert.deepEqual(candidates(PATHS, ["a1", "b2", "c3"]).map(([text]) => text), ["a1-b2-c3"]);
  assert.deepEqual(candidates(PATHS, ["b2"]), []);
  assert.deepEqual(candidates(undefined, []), []);
});

test("choices offer the next regions, the moves named exactly and the moves without a path", () => {
  assert.deepEqual(choices(PATHS, []), {
    selected: [],
    next: ["a1", "d4"],
    exact: ["pass"],
    pathless: ["pass"],
  });
  const afterTwo = choices(PATHS, ["a1", "b2"]);
  assert.deepEqual(afterTwo.selected, ["a1", "b2"]);
  assert.deepEqual(afterTwo.next, ["c3"]);
  assert.deepEqual(afterTwo.exact, ["a1-b2"]);
  assert.deepEqual(choices({}, []).next, []);
});

test("a click that leaves one move ending there plays it", () => {
  assert.deepEqual(click(PATHS, ["d4"], "e5"), { clicks: [], move: "d4-e5", error: null });
  assert.deepEqual(click(PATHS, ["a1", "b2"], "c3"), { clicks: [], move: "a1-b2-c3", error: null });
});

test("a click that leaves several moves waits for the next", () => {
  assert.deepEqual(click(PATHS, [], "a1"), { clicks: ["a1"], move: null, error: null });
  // a1-b2 ends at b2 but a1-b2-c3 goes on: both stay open, a button plays the short one.
  assert.deepEqual(click(PATHS, ["a1"], "b2"), { clicks: ["a1", "b2"], move: null, error: null });
});

test("clicking the last selected region again takes it back", () => {
  assert.deepEqual(click(PATHS, ["a1", "b2"], "b2"), { clicks: ["a1"], move: null, error: null });
  assert.deepEqual(click(PATHS, ["a1"], "a1"), { clicks: [], move: null, error: null });
});

test("a region that continues no move starts a new selection, if a move starts there", () => {
  assert.deepEqual(click(PATHS, ["a1"], "d4"), { clicks: ["d4"], move: null, error: null });
  assert.deepEqual(click(PATHS, ["a1"], "z9"), { clicks: [], move: null, error: NO_MOVE_THERE });
  assert.deepEqual(click({}, [], "a1"), { clicks: [], move: null, error: NO_MOVE_THERE });
});

test("the clicks given are never changed", () => {
  const clicks = ["a1"];
  click(PATHS, clicks, "b2");
  click(PATHS, clicks, "a1");
  assert.deepEqual(clicks, ["a1"]);
});

test("moves that share a whole path are told apart by buttons, not by clicks", () => {
  const paths = { "a1-b2": ["a1", "b2"], "a1-b2=Q": ["a1", "b2"] };
  assert.deepEqual(click(paths, ["a1"], "b2"), { clicks: ["a1", "b2"], move: null, error: null });
  assert.deepEqual(choices(paths, ["a1", "b2"]).exact, ["a1-b2", "a1-b2=Q"]);
});
