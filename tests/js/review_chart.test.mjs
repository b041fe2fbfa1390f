// The review graph's numbers (static/review_chart.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { chartPoints, firstPlayerChance, percent } from "../../src/ludoteca/web/static/review_chart.js";

test("firstPlayerChance turns the mover's chance into the first player's", () => {
  assert.equal(firstPlayerChance(0.7, 0, 2), 0.7);
  assert.ok(Math.abs(firstPlayerChance(0.7, 1, 2) - 0.3) < 1e-12);
  assert.equal(firstPlayerChance(0.7, 1, 3), null);
  assert.equal(firstPlayerChance(null, 0, 2), null);
});

test("chartPoints: the chance after each move, so a mistake shows as a drop", () => {
  const decisions = [
    { ply: 0, player: 0, chance_before: 0.5, chance_after: 0.5 },
    { ply: 1, player: 1, chance_before: 0.5, chance_after: 0.2 }, // player 2 errs: 0.8 for the first
    { ply: 3, player: 0, chance_before: 0.75, chance_after: 0.6 }, // ply 2 was a roll
  ];
  assert.deepEqual(chartPoints(decisions, 2), [
    [0, 0.5],
    [1, 0.5],
    [2, 0.8],
    [3, 0.75],
    [4, 0.6],
  ]);
  assert.deepEqual(chartPoints([], 2), []);
});

test("percent rounds to whole percents", () => {
  assert.equal(percent(0.456), "46%");
  assert.equal(percent(1), "100%");
});
