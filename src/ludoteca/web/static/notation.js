// Move numbering and the labels of positions in a game's record. Pure logic, no DOM (tested
// by Node, tests/js/). ``moves`` is the API's move list: one entry a ply, ``move_number`` null
// for a chance outcome (a roll, the draw of who starts), which is no player's move.

// Players' moves made in the first ``ply`` plies.
export function movesIn(moves, ply) {
  return moves.slice(0, ply).filter((move) => move.move_number !== null).length;
}

// The ply of the player's move last made at ``ply`` (0 if none): the entry marked in the list.
export function shownMoveAt(moves, ply) {
  for (let at = ply; at > 0; at--) {
    if (moves[at - 1].move_number !== null) return at;
  }
  return 0;
}

// "After move 3 of 10", "Start position (10 moves)", "Roll 5, before move 4 of 10": the
// position after ``at`` of the game's ``ply`` plies.
export function replayLabel(moves, at, ply) {
  const total = movesIn(moves, ply);
  const done = movesIn(moves, at);
  if (at === 0) return `Start position (${total} ${total === 1 ? "move" : "moves"})`;
  const entry = moves[at - 1];
  if (entry.move_number === null) return `${entry.label}, before move ${done + 1} of ${total}`;
  return `After move ${done} of ${total}`;
}

// The ply a replay step goes to from ``now``: "first", "back", "forward" or "last" of ``last``.
export function stepTarget(how, now, last) {
  const targets = { first: 0, back: Math.max(0, now - 1), forward: Math.min(last, now + 1), last };
  if (!(how in targets)) throw new Error(`unknown step ${how}: first, back, forward or last`);
  return targets[how];
}

// The analysis board's label of a line's position: "Start (line of 4 plies)", "Ply 2 of 4: W3-A1".
export function plyLabel(ply, total, label) {
  if (ply === 0) return `Start (line of ${total} ${total === 1 ? "ply" : "plies"})`;
  return `Ply ${ply} of ${total}: ${label}`;
}

// The moves of a line as the API takes them (``line=``): the texts joined by commas.
export const LINE_SEPARATOR = ",";
export function lineText(moves) {
  return moves.join(LINE_SEPARATOR);
}
