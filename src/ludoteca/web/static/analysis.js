// The analysis board: moves for every side and the chance outcomes played by hand, kept as a
// tree of variations in this page. The server keeps nothing: every position shown is asked of
// GET /api/analysis/<game> with the start position and the line that leads to it, so the rules
// engine checks every move; GET .../evaluate asks the engine (in the server's search pool).
import { api } from "./api.js";
import { choices, click } from "./clickpath.js";
import { cancelButton, choiceButton, listenForRegions, markRegions, renderDice, renderList, showBoard } from "./board_view.js";
import { LINE_SEPARATOR as SEPARATOR, plyLabel } from "./notation.js";

const page = JSON.parse(document.getElementById("page-data").textContent);
const $ = (id) => document.getElementById(id);
const MAX_ROLL_BUTTONS = 36; // more rolls than this (Steppin' Stones' 1,296) are typed or drawn
const query = new URLSearchParams(location.search);
const optionsText = query.get("options"); // kept as given: the link carries it on
let nextId = 0;
let root = newNode(null, null);
let current = root;
let start = page.position; // the root's position text
let shown = null; // the answer for the current node
let clicks = [];
let asked = 0; // the ticket of the last position asked for
const evaluations = new Map(); // position text -> the engine's answer
let evaluationTimer = null;
let evaluating = 0;

function newNode(move, parent) {
  return { id: nextId++, move, parent, children: [], chosen: 0, label: move, chance: false };
}

function say(text) {
  $("message").textContent = text;
}

function pathOf(node) {
  const nodes = [];
  for (let at = node; at !== null; at = at.parent) nodes.push(at);
  return nodes.reverse();
}

function movesTo(node) {
  return pathOf(node).slice(1).map((n) => n.move);
}

// The current line: the root to here, then on along the children last visited.
function lineNodes() {
  const nodes = pathOf(current);
  let node = current;
  while (node.children.length) {
    node = node.children[node.chosen];
    nodes.push(node);
  }
  return nodes;
}

function params(moves) {
  const params = new URLSearchParams();
  params.set("position", start);
  if (optionsText) params.set("options", optionsText);
  if (moves.length) params.set("line", moves.join(SEPARATOR));
  return params;
}

async function ask(moves) {
  return api(`/api/analysis/${page.game}?${params(moves)}`);
}

// -- drawing the position -------------------------------------------------------------------

function label(nodes, plies) {
  plies.forEach((ply, index) => {
    const node = nodes[index + 1];
    if (node === undefined) return;
    node.label = ply.label;
    node.chance = ply.number === null;
  });
}

function draw(answer) {
  shown = answer;
  const board = answer.board;
  showBoard(board);
  let status = board.status;
  if (answer.outcome !== null) status = `Game over: ${answer.outcome.reason}.`;
  else if (!status) status = answer.is_chance ? "A roll is to be chosen." : `${answer.to_move_name} to move.`;
  $("status").textContent = status;
  renderDice($("dice"), board.dice);
  renderList($("notes"), board.notes || [], (li, note) => (li.textContent = note));
  $("legal-moves").replaceChildren(...answer.legal_moves.slice(0, 500).map((t) => new Option(t)));
  $("move-form").querySelector("button").disabled = answer.legal_moves.length === 0;
  clicks = [];
  showChoices();
  const ply = movesTo(current).length;
  const total = lineNodes().length - 1;
  $("ply-label").textContent = plyLabel(ply, total, current.label);
  renderTree();
  updateLinks();
  scheduleEvaluation();
}

// Go to ``node`` (already in the tree): ask the server for its position and draw it.
async function go(node) {
  const ticket = ++asked;
  current = node;
  for (let at = node; at.parent !== null; at = at.parent) at.parent.chosen = at.parent.children.indexOf(at);
  try {
    const answer = await ask(movesTo(node));
    if (ticket !== asked) return;
    label(pathOf(node), answer.plies);
    say("");
    draw(answer);
  } catch (failure) {
    if (ticket === asked) say(failure.message);
  }
}

// Play ``text`` here: follow the variation it names, or (once the rules accept it) add one.
async function play(text) {
  text = text.trim();
  clicks = [];
  if (!text) return;
  const existing = current.children.find((child) => child.move === text);
  if (existing) {
    $("move-input").value = "";
    await go(existing);
    return;
  }
  const parent = current;
  const ticket = ++asked;
  let answer;
  try {
    answer = await ask([...movesTo(parent), text]);
  } catch (failure) {
    if (ticket === asked) say(failure.message);
    showChoices();
    return;
  }
  if (ticket !== asked) return;
  const canonical = answer.plies[answer.plies.length - 1].move;
  let child = parent.children.find((c) => c.move === canonical);
  if (!child) {
    child = newNode(canonical, parent);
    parent.children.push(child);
  }
  parent.chosen = parent.children.indexOf(child);
  current = child;
  label(pathOf(child), answer.plies);
  $("move-input").value = "";
  say("");
  draw(answer);
}

// -- legal moves and clicks on the board (the board page's click paths) ---------------------

// A chance outcome drawn by its probability (for "Roll at random").
function drawOutcome(outcomes) {
  let left = Math.random();
  for (const outcome of outcomes) {
    left -= outcome.probability;
    if (left < 0) return outcome.move;
  }
  return outcomes[outcomes.length - 1].move;
}

function showChoices() {
  const box = $("choices");
  box.replaceChildren();
  markRegions();
  if (shown === null) return;
  const choice = choices(shown.board.click_paths, clicks);
  markRegions(choice);
  if (shown.is_chance) {
    const outcomes = shown.chance_outcomes;
    $("moves-title").textContent = `Choose the roll (${outcomes.length})`;
    if (outcomes.length <= MAX_ROLL_BUTTONS) {
      for (const outcome of outcomes) {
        const share = `${Math.round(outcome.probability * 1000) / 10}%`;
        box.append(choiceButton(`${outcome.label} (${share})`, play, outcome.move));
      }
    } else {
      const note = document.createElement("span");
      note.textContent = `${outcomes.length} possible rolls: type one, as ${outcomes[0].move}, or`;
      box.append(note);
    }
    const random = document.createElement("button");
    random.type = "button";
    random.id = "random-roll";
    random.textContent = "Roll at random";
    random.addEventListener("click", () => play(drawOutcome(outcomes)));
    box.append(random);
    return;
  }
  const legal = shown.legal_moves;
  $("moves-title").textContent = legal.length ? `Legal moves (${legal.length})` : "No legal moves";
  const list = clicks.length ? choice.exact : legal;
  for (const text of list.slice(0, 200)) box.append(choiceButton(text, play));
  if (!clicks.length && legal.length > 200) {
    const more = document.createElement("span");
    more.textContent = `… and ${legal.length - 200} more: type one, or click the board.`;
    box.append(more);
  }
  if (clicks.length) {
    box.append(
      cancelButton(() => {
        clicks = [];
        showChoices();
      }),
    );
  }
}

function clickRegion(id) {
  say("");
  if (shown === null || shown.is_chance) return;
  const result = click(shown.board.click_paths, clicks, id);
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

// -- the tree of variations -----------------------------------------------------------------

function moveButton(node) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = node.chance ? "tree-move chance" : "tree-move";
  button.textContent = node.label;
  button.dataset.node = String(node.id);
  button.dataset.move = node.move;
  if (node === current) {
    button.classList.add("current");
    button.setAttribute("aria-current", "true");
  }
  button.addEventListener("click", () => go(node));
  return button;
}

// The moves after ``node``: its first child's line, each other child a variation in ( ).
function renderFrom(node, container) {
  while (node.children.length) {
    const [main, ...others] = node.children;
    container.append(moveButton(main));
    for (const other of others) {
      const variation = document.createElement("span");
      variation.className = "variation";
      variation.append(moveButton(other));
      renderFrom(other, variation);
      container.append(variation);
    }
    node = main;
  }
}

function renderTree() {
  const tree = $("tree");
  tree.replaceChildren();
  const first = document.createElement("button");
  first.type = "button";
  first.className = current === root ? "tree-move current" : "tree-move";
  first.textContent = "start";
  first.dataset.node = String(root.id);
  first.addEventListener("click", () => go(root));
  tree.append(first);
  renderFrom(root, tree);
  $("delete-branch").disabled = current === root;
  // Keep the current move in view inside the list, without scrolling the page itself.
  const mark = tree.querySelector(".current");
  if (mark) {
    const top = mark.offsetTop; // the list is positioned: its own offset parent
    if (top < tree.scrollTop) tree.scrollTop = top;
    else if (top + mark.offsetHeight > tree.scrollTop + tree.clientHeight) {
      tree.scrollTop = top + mark.offsetHeight - tree.clientHeight;
    }
  }
}

$("delete-branch").addEventListener("click", () => {
  if (current === root) return;
  const parent = current.parent;
  parent.children.splice(parent.children.indexOf(current), 1);
  parent.chosen = 0;
  go(parent);
});

function step(how) {
  if (how === "first") go(root);
  else if (how === "back" && current.parent !== null) go(current.parent);
  else if (how === "forward" && current.children.length) go(current.children[current.chosen]);
  else if (how === "last") {
    const nodes = lineNodes();
    if (nodes[nodes.length - 1] !== current) go(nodes[nodes.length - 1]);
  }
}

document.querySelectorAll("[data-step]").forEach((button) =>
  button.addEventListener("click", () => step(button.dataset.step)),
);
const KEYS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
document.addEventListener("keydown", (event) => {
  const how = KEYS[event.key];
  if (how === undefined || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target instanceof Element && target.closest("input, textarea, select, [contenteditable]")) return;
  event.preventDefault();
  step(how);
});

// -- sharing and downloading ----------------------------------------------------------------

function updateLinks() {
  const moves = lineNodes().map((n) => n.move).slice(1);
  const link = params(moves);
  const ply = movesTo(current).length;
  if (ply !== moves.length) link.set("ply", String(ply));
  const address = `${location.pathname}?${link}`;
  history.replaceState(null, "", address);
  $("share-link").value = new URL(address, location.href).href;
  $("download").href = `/api/analysis/${page.game}/record?${params(moves)}`;
  $("position-input").value = start;
}

$("copy-link").addEventListener("click", async () => {
  const field = $("share-link");
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    $("copy-link").textContent = "Copied";
  } catch {
    document.execCommand?.("copy");
  }
});

// -- setting up a position --------------------------------------------------------------------

async function setUp(text, moves = [], ply = null) {
  const ticket = ++asked;
  let answer;
  try {
    answer = await api(`/api/analysis/${page.game}?${new URLSearchParams({
      position: text,
      ...(optionsText ? { options: optionsText } : {}),
      ...(moves.length ? { line: moves.join(SEPARATOR) } : {}),
    })}`);
  } catch (failure) {
    if (ticket === asked) $("position-error").textContent = failure.message;
    return false;
  }
  if (ticket !== asked) return false;
  $("position-error").textContent = "";
  start = answer.start;
  root = newNode(null, null);
  let node = root;
  for (const ply of answer.plies) {
    const child = newNode(ply.move, node);
    node.children.push(child);
    node = child;
  }
  label(pathOf(node), answer.plies);
  if (ply === null || ply >= answer.plies.length) {
    current = node;
    say("");
    draw(answer);
  } else {
    await go(pathOf(node)[ply]);
  }
  return true;
}

$("position-form").addEventListener("submit", (event) => {
  event.preventDefault();
  setUp($("position-input").value.trim());
});
$("current-position").addEventListener("click", () => {
  if (shown !== null) setUp(shown.position);
});
$("initial-position").addEventListener("click", () => setUp(page.initial));

// -- the engine -----------------------------------------------------------------------------

function percent(value) {
  return `${(value * 100).toFixed(1)}%`;
}

function showEvaluation(value) {
  const players = value.players;
  let chances;
  if (value.chances.length === 1) chances = `Chance of winning ${percent(value.chances[0])}`;
  else chances = players.map((name, i) => `${name} ${percent(value.chances[i])}`).join(" · ");
  const how = {
    exact: "exact, from the solved game",
    over: "the game is over",
    playouts: `${value.budget.toLocaleString("en")} playouts of the expert`,
    search: `MCTS, ${value.budget.toLocaleString("en")} iterations`,
  }[value.method];
  let text = `${chances} (${how})`;
  if (value.interval !== null) {
    const whose = players.length > 1 ? `${players[0]}'s` : "the";
    const rough = value.method === "search" ? ", rough: a search is no unbiased sample" : "";
    text += `; 95% interval of ${whose} chance: ${percent(value.interval[0])} to ${percent(value.interval[1])}${rough}`;
  }
  $("evaluation").textContent = `${text}.`;
  $("evaluation").dataset.method = value.method;
  let line = "";
  if (value.best_line.length) line = `Best line: ${value.best_line.join("  ")}`;
  else if (value.method !== "over") line = "Best line: after the roll.";
  $("best-line").textContent = line;
}

async function evaluate() {
  if (shown === null) return;
  const position = shown.position;
  const cached = evaluations.get(position);
  if (cached) {
    showEvaluation(cached);
    return;
  }
  const ticket = ++evaluating;
  $("evaluation").textContent = "Thinking…";
  delete $("evaluation").dataset.method;
  $("best-line").textContent = "";
  try {
    const value = await api(`/api/analysis/${page.game}/evaluate?${params([])}&${new URLSearchParams({ line: movesTo(current).join(SEPARATOR) })}`);
    evaluations.set(value.position, value);
    if (ticket === evaluating && shown.position === value.position) showEvaluation(value);
  } catch (failure) {
    if (ticket === evaluating) $("evaluation").textContent = failure.message;
  }
}

function scheduleEvaluation() {
  clearTimeout(evaluationTimer);
  const cached = shown && evaluations.get(shown.position);
  if (cached) {
    showEvaluation(cached);
    return;
  }
  evaluating++; // an answer still coming is for another position
  $("evaluation").textContent = $("auto-evaluate").checked ? "" : "Press Evaluate to ask the engine.";
  delete $("evaluation").dataset.method;
  $("best-line").textContent = "";
  if ($("auto-evaluate").checked) evaluationTimer = setTimeout(evaluate, shown && shown.exact ? 50 : 500);
}

$("evaluate").addEventListener("click", evaluate);
$("auto-evaluate").addEventListener("change", scheduleEvaluation);

// -- the start ------------------------------------------------------------------------------

(async () => {
  $("position-input").value = page.position;
  if (await setUp(page.position, page.line, page.ply)) return;
  if (page.line.length) {
    const why = $("position-error").textContent;
    if (await setUp(page.position)) {
      say(`The link's line was not played: ${why}`);
      return;
    }
  }
  const why = $("position-error").textContent;
  await setUp(page.initial);
  $("position-input").value = page.position;
  $("position-error").textContent = why;
})();
