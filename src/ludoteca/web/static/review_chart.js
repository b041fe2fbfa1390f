// The numbers of a game's review graph. Pure logic, no DOM (tested by Node, tests/js/).

export function percent(chance) {
  return `${Math.round(chance * 100)}%`;
}

// The first player's winning chance from a chance of the mover's, in a game of ``players``
// players (null where it cannot be told: no number, or a third player's chance).
export function firstPlayerChance(chance, player, players) {
  if (typeof chance !== "number") return null;
  if (player === 0) return chance;
  if (players === 2 && player === 1) return 1 - chance;
  return null;
}

// The first player's chance after each number of plies that has one, as [[ply, chance]...] in
// order: after a move, the chance the review gives that move (so a mistake shows as a drop),
// else the chance the review gives the position before the next move.
export function chartPoints(decisions, players) {
  const byPly = new Map();
  for (const d of decisions) {
    const before = firstPlayerChance(d.chance_before, d.player, players);
    if (before !== null) byPly.set(d.ply, before);
  }
  for (const d of decisions) {
    const after = firstPlayerChance(d.chance_after, d.player, players);
    if (after !== null) byPly.set(d.ply + 1, after);
  }
  return [...byPly.entries()].sort((a, b) => a[0] - b[0]);
}
