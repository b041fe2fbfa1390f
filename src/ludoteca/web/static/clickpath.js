// Building a move by clicking regions along the click paths a view gives each legal move
// ({move text: [region id, ...]}). Pure logic, no DOM: the pages draw what it says (board_view.js)
// and Node tests it (tests/js/). A move whose path is empty (a pass, "end") is a button instead.

export const NO_MOVE_THERE = "No move starts there. The highlighted places can be clicked.";

// The moves whose paths begin with ``clicks``, as [text, path] pairs.
export function candidates(paths, clicks) {
  return Object.entries(paths || {}).filter(
    ([, path]) => path.length >= clicks.length && clicks.every((id, i) => path[i] === id),
  );
}

// What the page shows after ``clicks``: the regions selected, those a next click may take
// (``next``), the moves the clicks so far name exactly (``exact``: more than one when the clicks
// cannot tell them apart) and the moves without a path (``pathless``).
export function choices(paths, clicks) {
  const next = new Set();
  const exact = [];
  for (const [text, path] of candidates(paths, clicks)) {
    if (path.length === clicks.length) exact.push(text);
    else next.add(path[clicks.length]);
  }
  const pathless = Object.keys(paths || {}).filter((text) => paths[text].length === 0);
  return { selected: [...clicks], next: [...next], exact, pathless };
}

// One click on region ``id`` after ``clicks``: the clicks after it, the move they complete (the
// only move left, ending there) or null, and an error when no move starts at ``id``.
// Clicking the last selected region again takes it back; a region that continues no move
// starts a new selection, if a move starts there.
export function click(paths, clicks, id) {
  if (clicks.length && clicks[clicks.length - 1] === id) {
    return { clicks: clicks.slice(0, -1), move: null, error: null };
  }
  let now = [...clicks, id];
  let matching = candidates(paths, now);
  if (matching.length === 0) {
    now = [id];
    matching = candidates(paths, now);
    if (matching.length === 0) return { clicks: [], move: null, error: NO_MOVE_THERE };
  }
  const exact = matching.filter(([, path]) => path.length === now.length);
  if (exact.length === 1 && matching.length === 1) {
    return { clicks: [], move: exact[0][0], error: null };
  }
  return { clicks: now, move: null, error: null };
}
