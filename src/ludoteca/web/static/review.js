// The review of a finished game, under the board: the Review button, the progress the server
// pushes, the first player's winning chance per move as a graph, the marks in the move list and
// the better move drawn on the board. The board page (board.js) makes it with createReview,
// handing it what it may see of the page, and calls the hooks it returns.
import { api } from "./api.js";
import { regionElement } from "./board_view.js";
import { chartPoints, percent } from "./review_chart.js";

const REVIEW_MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const SVG_NS = "http://www.w3.org/2000/svg";
const CHART = { width: 600, height: 140, left: 34, right: 8, top: 8, bottom: 18 };
const $ = (id) => document.getElementById(id);

// The review's hooks for the board page. ``view``: the page's data (``page``), its game and
// the ply shown in a replay (``game()``, ``replayAt()``: null when live), and what the review
// may ask of it: ``showPosition(ply)``, ``render()`` and ``say(text)``.
export function createReview(view) {
  const { page, showPosition, render, say } = view;
  let review = null; // GET /api/games/{id}/review
  let reviewLoaded = false;
  let reviewPoll = null;

  function reviewDone() {
    return review !== null && review.status === "done";
  }

  // The decision (one move's verdict) at each ply: the index of the move in the move list.
  function decisionAt(ply) {
    if (!reviewDone()) return undefined;
    return review.decisions.find((d) => d.ply === ply);
  }

  // -- asking and hearing ------------------------------------------------------------------

  async function loadReview() {
    try {
      takeReview(await api(`/api/games/${page.id}/review`));
    } catch (failure) {
      $("review-status").textContent = failure.message;
    }
  }

  function takeReview(answer) {
    if (!answer || answer.id !== page.id) return;
    const wasDone = reviewDone();
    review = answer;
    renderReview();
    if (reviewDone() && !wasDone) render(); // the move list gets its marks
    // The server pushes the progress; a slow check covers a lost connection.
    clearTimeout(reviewPoll);
    if (review.status === "running") reviewPoll = setTimeout(loadReview, 5000);
  }

  $("review-start").addEventListener("click", async () => {
    say("");
    $("review-start").disabled = true;
    try {
      takeReview(await api(`/api/games/${page.id}/review`, { method: "POST" }));
    } catch (failure) {
      say(failure.message);
      $("review-start").disabled = false;
    }
  });

  // -- the panel ----------------------------------------------------------------------------

  function renderReview() {
    const status = review === null ? "none" : review.status;
    const start = $("review-start");
    start.hidden = status === "done" || status === "running";
    start.disabled = false;
    start.textContent = status === "none" ? "Review" : "Review again";
    const progress = $("review-progress");
    progress.hidden = status !== "running";
    let text = "";
    if (status === "running") {
      progress.max = Math.max(1, review.total);
      progress.value = review.done;
      text = `Reviewing… ${review.done} of ${review.total} positions`;
    } else if (status === "interrupted" || status === "failed") {
      text = review.error || "The review did not finish.";
    } else if (status === "done") {
      text = "Review done. Click the graph or a move to see the position.";
    }
    $("review-status").textContent = text;
    $("review-graph").hidden = status !== "done";
    $("review-players").hidden = status !== "done";
    if (status === "done") {
      drawChart();
      fillPlayers();
      markShown(view.replayAt() === null ? view.game().ply : view.replayAt());
    }
  }

  function fillPlayers() {
    const body = $("review-players").querySelector("tbody");
    body.replaceChildren(
      ...review.players.map((player, seat) => {
        const row = document.createElement("tr");
        const cells = [
          view.game().players[seat] ?? `Player ${seat + 1}`,
          typeof player.accuracy === "number" ? `${Math.round(player.accuracy)}%` : "–",
          ...["inaccuracy", "mistake", "blunder"].map((label) => String(player.labels?.[label] ?? 0)),
        ];
        for (const [index, value] of cells.entries()) {
          const cell = document.createElement(index === 0 ? "th" : "td");
          if (index === 0) cell.scope = "row";
          cell.textContent = value;
          row.append(cell);
        }
        return row;
      }),
    );
  }

  // -- the graph ----------------------------------------------------------------------------

  function svgElement(name, attributes) {
    const element = document.createElementNS(SVG_NS, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
    return element;
  }

  function chartX(ply) {
    const span = CHART.width - CHART.left - CHART.right;
    return CHART.left + (span * ply) / Math.max(1, view.game().ply);
  }

  function chartY(chance) {
    return CHART.top + (CHART.height - CHART.top - CHART.bottom) * (1 - chance);
  }

  function drawChart() {
    const points = chartPoints(review.decisions, view.game().players.length);
    const svg = svgElement("svg", {
      viewBox: `0 0 ${CHART.width} ${CHART.height}`,
      class: "chance-chart",
      role: "group",
      "aria-label": `${view.game().players[0]}'s chance to win after each move`,
    });
    const bottom = chartY(0);
    svg.append(
      svgElement("rect", { class: "chart-back", x: CHART.left, y: chartY(1), width: chartX(view.game().ply) - CHART.left, height: bottom - chartY(1) }),
      svgElement("line", { class: "chart-even", x1: CHART.left, x2: chartX(view.game().ply), y1: chartY(0.5), y2: chartY(0.5) }),
    );
    for (const [chance, label] of [[1, "100%"], [0.5, "50%"], [0, "0%"]]) {
      const text = svgElement("text", { class: "chart-axis", x: CHART.left - 4, y: chartY(chance) + 4, "text-anchor": "end" });
      text.textContent = label;
      svg.append(text);
    }
    const axis = svgElement("text", { class: "chart-axis", x: chartX(view.game().ply), y: CHART.height - 3, "text-anchor": "end" });
    axis.textContent = `move ${view.game().ply}`;
    svg.append(axis);
    if (points.length) {
      const line = points.map(([ply, chance]) => `${chartX(ply).toFixed(1)},${chartY(chance).toFixed(1)}`);
      const first = chartX(points[0][0]).toFixed(1);
      const last = chartX(points[points.length - 1][0]).toFixed(1);
      svg.append(
        svgElement("path", { class: "chart-area", d: `M${first},${bottom} L${line.join(" L")} L${last},${bottom} Z` }),
        svgElement("polyline", { class: "chart-line", points: line.join(" ") }),
      );
    }
    svg.append(svgElement("line", { id: "chart-cursor", class: "chart-cursor", x1: 0, x2: 0, y1: chartY(1), y2: bottom }));
    for (const [ply, chance] of points) {
      const d = decisionAt(ply - 1);
      const label = d && REVIEW_MARKS[d.label] ? d.label : "plain";
      const dot = svgElement("circle", {
        class: `chart-point label-${label}`,
        cx: chartX(ply),
        cy: chartY(chance),
        r: label === "plain" ? 3 : 5,
        "data-ply": ply,
        tabindex: 0,
        role: "button",
      });
      const title = svgElement("title", {});
      title.textContent = `${ply === 0 ? "Start" : `After move ${ply}`}: ${view.game().players[0]} ${percent(chance)}${label === "plain" ? "" : ` (${label})`}`;
      dot.append(title);
      svg.append(dot);
    }
    // A click anywhere on the graph shows the nearest position (fingers miss small dots).
    svg.addEventListener("click", (event) => {
      const dot = event.target.closest("[data-ply]");
      if (dot) {
        showPosition(Number(dot.dataset.ply));
        return;
      }
      const box = svg.getBoundingClientRect();
      const x = ((event.clientX - box.left) / box.width) * CHART.width;
      const span = CHART.width - CHART.left - CHART.right;
      const ply = Math.round(((x - CHART.left) / span) * view.game().ply);
      showPosition(Math.min(view.game().ply, Math.max(0, ply)));
    });
    svg.addEventListener("keydown", (event) => {
      const dot = event.target.closest("[data-ply]");
      if (dot && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        showPosition(Number(dot.dataset.ply));
      }
    });
    $("review-chart").replaceChildren(svg);
    $("review-caption").textContent =
      `${view.game().players[0]}'s chance to win after each move; coloured dots: inaccuracies, mistakes and blunders.`;
  }

  // -- the move list and the board ----------------------------------------------------------

  function markMove(li, move) {
    const d = decisionAt(move.number - 1);
    if (!d) return;
    li.dataset.label = d.label;
    const mark = REVIEW_MARKS[d.label];
    if (!mark) return;
    const span = document.createElement("span");
    span.className = `review-mark label-${d.label}`;
    span.textContent = ` ${mark}`;
    span.title = `${d.label}: ${d.best_move} was better (${percent(d.best_chance)} against ${percent(d.chance_after)})`;
    li.append(span);
  }

  // Marks for the position after ``ply`` moves: the cursor on the graph, the verdict on the move
  // that led here, and the better move drawn on the board.
  function markShown(ply) {
    if (!reviewDone()) return;
    const cursor = document.getElementById("chart-cursor");
    if (cursor) {
      cursor.setAttribute("x1", chartX(ply));
      cursor.setAttribute("x2", chartX(ply));
    }
    document.querySelectorAll("#board .review-arrow").forEach((arrow) => arrow.remove());
    document.querySelectorAll("#board .region.better").forEach((region) => region.classList.remove("better"));
    const d = decisionAt(ply - 1);
    const detail = $("review-detail");
    if (!d) {
      detail.textContent = "";
      return;
    }
    const who = view.game().players[d.player] ?? "";
    let text = `Move ${ply}, ${who}: ${d.move} (${d.label}; ${who} ${percent(d.chance_before)} → ${percent(d.chance_after)})`;
    if (d.best_move !== d.move) {
      text += `. Best: ${d.best_move} (${percent(d.best_chance)}), outlined on the board.`;
      drawBetterMove((review.paths || {})[String(d.ply)]?.best || []);
    }
    detail.textContent = text;
  }

  function drawBetterMove(path) {
    const svg = document.querySelector("#board svg");
    if (!svg || path.length === 0) return;
    const centres = [];
    for (const id of path) {
      const region = regionElement(id);
      if (!region) continue;
      region.classList.add("better");
      const box = region.getBBox();
      centres.push([box.x + box.width / 2, box.y + box.height / 2]);
    }
    if (centres.length < 2) return;
    const size = svg.viewBox.baseVal ? Math.max(svg.viewBox.baseVal.width, svg.viewBox.baseVal.height) : 10;
    const group = svgElement("g", { class: "review-arrow", "aria-hidden": "true" });
    const marker = svgElement("marker", { id: "review-arrowhead", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" });
    marker.append(svgElement("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow-head" }));
    const defs = svgElement("defs", {});
    defs.append(marker);
    group.append(defs);
    group.append(
      svgElement("polyline", {
        points: centres.map(([x, y]) => `${x},${y}`).join(" "),
        class: "arrow-line",
        "stroke-width": (size / 90).toFixed(3),
        "marker-end": "url(#review-arrowhead)",
      }),
    );
    svg.append(group);
  }

  return {
    render() {
      const over = view.game().outcome !== null;
      $("review").hidden = !over;
      if (!over) return;
      if (!reviewLoaded) {
        reviewLoaded = true;
        loadReview();
      } else if (reviewDone() && view.replayAt() === null) {
        markShown(view.game().ply);
      }
    },
    markMove,
    shown: markShown,
    update: takeReview,
  };
}
