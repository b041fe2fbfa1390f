// What every board on the site shares in the DOM: drawing the board the server sends (its SVG,
// or its text where a game has no picture), the dice, the clicks on its regions and the marks
// of the click paths (clickpath.js holds the logic; this module only shows it).

const $ = (id) => document.getElementById(id);

// Draw ``shown`` (an API board: ``svg`` or ``text``) in #board, or its text in #board-text.
export function showBoard(shown) {
  const holder = $("board");
  if (shown.svg) {
    holder.innerHTML = shown.svg;
    $("board-text").hidden = true;
  } else {
    holder.replaceChildren();
    $("board-text").textContent = shown.text;
    $("board-text").hidden = false;
  }
}

// The items of ``list``, one an item, filled by ``fill(li, item)``.
export function renderList(list, items, fill) {
  list.replaceChildren(
    ...items.map((item) => {
      const li = document.createElement("li");
      fill(li, item);
      return li;
    }),
  );
}

// The dice in ``list``: each die's face, and its words beside it for screen readers and phones.
export function renderDice(list, dice) {
  renderList(list, dice || [], (li, die) => {
    li.className = die.used ? "die used" : "die";
    const face = document.createElement("span");
    face.className = "face";
    face.textContent = die.face;
    face.setAttribute("aria-hidden", "true");
    const label = document.createElement("span");
    label.className = "die-label";
    label.textContent = die.label || `die ${die.face}`;
    label.title = label.textContent; // the whole text, where a narrow screen cuts it short
    li.append(face, label);
  });
}

export function regionElement(id) {
  return document.querySelector(`#board .region[data-region="${CSS.escape(id)}"]`);
}

// Mark the regions a click-path ``choice`` (clickpath.choices) selects and offers next; with
// no choice, clear the marks.
export function markRegions(choice = null) {
  for (const el of document.querySelectorAll("#board .region")) el.classList.remove("next", "selected");
  if (choice === null) return;
  for (const id of choice.selected) regionElement(id)?.classList.add("selected");
  for (const id of choice.next) regionElement(id)?.classList.add("next");
}

// A button that plays ``move`` (shown as ``text``).
export function choiceButton(text, onPlay, move = text) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "move-choice";
  button.textContent = text;
  button.dataset.move = move;
  button.addEventListener("click", () => onPlay(move));
  return button;
}

// A "Cancel selection" button.
export function cancelButton(onCancel) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "cancel";
  button.textContent = "Cancel selection";
  button.addEventListener("click", onCancel);
  return button;
}

// Call ``onRegion(id)`` when a region of #board is clicked, or chosen with Enter or Space.
export function listenForRegions(onRegion) {
  const holder = $("board");
  holder.addEventListener("click", (event) => {
    const region = event.target.closest(".region[data-region]");
    if (region) onRegion(region.dataset.region);
  });
  holder.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const region = event.target.closest(".region[data-region]");
    if (!region) return;
    event.preventDefault();
    onRegion(region.dataset.region);
  });
}
