// The game clocks (static/clock.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockOf, formatClock, secondsLeft } from "../../src/ludoteca/web/static/clock.js";

test("secondsLeft runs only the running seat's clock", () => {
  const clock = { remaining: [300, 200, null], running: 0, since: 1000 };
  assert.equal(secondsLeft(clock, 0, 1012.5), 287.5);
  assert.equal(secondsLeft(clock, 1, 1012.5), 200);
  assert.equal(secondsLeft(clock, 2, 1012.5), null);
  assert.equal(secondsLeft(clock, 3, 1012.5), null);
  assert.equal(secondsLeft({ ...clock, since: null }, 0, 1012.5), 300);
});

test("formatClock shows days, hours, minutes and tenths under ten seconds", () => {
  assert.equal(formatClock(2 * 86400 + 3 * 3600 + 59), "2 d 3 h");
  assert.equal(formatClock(3600 + 5 * 60 + 7), "1 h 05 min");
  assert.equal(formatClock(4 * 60 + 7.9), "4:07");
  assert.equal(formatClock(10), "0:10");
  assert.equal(formatClock(9.46), "0:09.4");
  assert.equal(formatClock(-3), "0:00.0");
});

test("clockOf reads the new-game form's clock choice", () => {
  assert.equal(clockOf(""), null);
  assert.deepEqual(clockOf("600+5"), { initial: 600, increment: 5 });
  assert.deepEqual(clockOf("day:86400"), { per_move: 86400 });
  assert.deepEqual(clockOf("custom", () => ({ initial: "90", increment: "2" })), { initial: 90, increment: 2 });
});
