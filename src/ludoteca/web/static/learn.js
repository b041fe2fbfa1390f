// A course of lessons: one step at a time, every move checked by the server's rules engine
// (POST /api/lessons/<game>/<step>). Clicks on the board follow the view's click paths, as on
// the board page; moves can be typed too. Progress is kept in this browser (localStorage).
import { api } from "./api.js";
import { choices, click } from "./clickpath.js";
import { choiceButton, listenForRegions, markRegions, renderDice, showBoard } from "./board_view.js";

const $ = (id) => document.getElementById(id);
const gameId = document.querySelector(".learn-page").dataset.game;
const storeKey = `ludoteca-learn-${gameId}`;
let course = null;
let index = 0;
let made = []; // the learner's moves in this step so far (right ones)
let board = { click_paths: {} };
let clicks = [];
let finished = false;

function loadDone() {
  try {
    return new Set(JSON.parse(localStorage.getItem(storeKey) || "[]"));
  } catch {
    return new Set();
  }
}

function markDone(stepId) {
  const done = loadDone();
  done.add(stepId);
  localStorage.setItem(storeKey, JSON.stringify([...done]));
  showStepList();
}

function step() {
  return course.steps[index];
}

function say(text) {
  $("message").textContent = text;
}

function feedback(text) {
  $("feedback").textContent = text;
}

function showStepList() {
  const done = loadDone();
  for (const link of document.querySelectorAll("#step-list a")) {
    const current = link.dataset.step === step().id;
    link.classList.toggle("done", done.has(link.dataset.step));
    link.toggleAttribute("aria-current", current);
    link.textContent = link.textContent.replace(/^✓ /, "");
    if (done.has(link.dataset.step)) link.textContent = `✓ ${link.textContent}`;
  }
}

function draw(answer) {
  board = answer.board;
  showBoard(board);
  $("status").textContent = board.status;
  renderDice($("dice"), board.dice);
  clicks = [];
  showChoices();
}

async function send(moves) {
  return api(`/api/lessons/${gameId}/${encodeURIComponent(step().id)}`, {
    method: "POST",
    body: JSON.stringify({ moves }),
  });
}

async function openStep(number) {
  index = Math.max(0, Math.min(course.steps.length - 1, number));
  const current = step();
  made = [];
  finished = false;
  history.replaceState(null, "", `#${current.id}`);
  $("step-count").textContent = `Step ${index + 1} of ${course.steps.length}`;
  $("step-title").textContent = current.title;
  $("step-rule").textContent = current.rule;
  $("step-text").textContent = current.text;
  $("explained").replaceChildren();
  say("");
  feedback("");
  const watch = current.task.kind === "watch";
  $("watch-next").hidden = !watch;
  $("move-form").hidden = watch;
  $("show-hint").hidden = watch;
  $("prev-step").disabled = index === 0;
  $("next-step").disabled = index === course.steps.length - 1;
  showStepList();
  draw(await send([]));
  if (watch) feedback("Watch: press Next move to see each move explained.");
  $("step-title").focus();
}

function complete() {
  finished = true;
  markDone(step().id);
  const last = index === course.steps.length - 1;
  feedback(last ? "Right! That was the last step: the course is complete." : "Right! Go on to the next step.");
  clicks = [];
  showChoices();
  (last ? $("retry") : $("next-step")).focus();
}

async function play(text) {
  say("");
  clicks = [];
  if (finished || !text.trim()) return;
  let answer;
  try {
    answer = await send([...made, text]);
  } catch (error) {
    say(error.message);
    return;
  }
  if (answer.verdict === "refused" || answer.verdict === "not-asked") {
    say(answer.message);
    showChoices();
    return;
  }
  made = answer.made;
  draw(answer);
  $("move-input").value = "";
  if (answer.verdict === "done") {
    complete();
  } else {
    feedback(answer.replies.length ? `Right. Then: ${answer.replies.join(" ")}. Your move again.` : "Right. Go on.");
  }
}

async function watchNext() {
  const current = step();
  const sequence = current.task.solutions[0];
  if (made.length >= sequence.length) return;
  const move = sequence[made.length];
  const answer = await send([...made, move]);
  made = answer.made;
  draw(answer);
  const item = document.createElement("li");
  item.textContent = `${move}: ${current.task.explain[made.length - 1]}`;
  $("explained").append(item);
  if (made.length === sequence.length) {
    $("watch-next").hidden = true;
    complete();
  }
}

// -- clicking along the click paths (as on the board page) --------------------------------

function showChoices() {
  const box = $("choices");
  box.replaceChildren();
  markRegions();
  if (finished || step().task.kind === "watch") return;
  const choice = choices(board.click_paths, clicks);
  markRegions(choice);
  for (const text of clicks.length ? choice.exact : choice.pathless) box.append(choiceButton(text, play));
}

function clickRegion(id) {
  say("");
  if (finished || step().task.kind === "watch") return;
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
$("watch-next").addEventListener("click", watchNext);
$("show-hint").addEventListener("click", () => feedback(`Hint: ${step().task.hint}`));
$("retry").addEventListener("click", () => openStep(index));
$("prev-step").addEventListener("click", () => openStep(index - 1));
$("next-step").addEventListener("click", () => openStep(index + 1));
$("step-list").addEventListener("click", (event) => {
  const link = event.target.closest("a[data-step]");
  if (!link) return;
  event.preventDefault();
  openStep(course.steps.findIndex((s) => s.id === link.dataset.step));
});

(async () => {
  try {
    course = await api(`/api/lessons/${gameId}`);
  } catch (error) {
    say(error.message);
    return;
  }
  const wanted = course.steps.findIndex((s) => `#${s.id}` === location.hash);
  const done = loadDone();
  const firstOpen = course.steps.findIndex((s) => !done.has(s.id));
  await openStep(wanted >= 0 ? wanted : Math.max(0, firstOpen));
})();
