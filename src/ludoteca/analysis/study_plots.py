"""The plots of a study's report: one per measure, drawn by matplotlib as inline SVG.

Each plot function draws one measure of every variant on the axes it is given, from the study's
dictionary alone; `plots` lists those that apply to a study with the caption that says how to
read them. Matplotlib is imported only when a plot is drawn, so the command line starts fast.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes

PALETTE = ("#2b6cb0", "#dd6b20", "#2f855a", "#b83280", "#6b46c1", "#c05621", "#2c7a7b", "#744210")
SEAT_COLOURS = ("#2b6cb0", "#dd6b20", "#718096")  # seat 0, seat 1, draws

Plot = Callable[["Axes", dict[str, Any]], None]


def plots(study: dict[str, Any]) -> list[tuple[Plot, str]]:
    """The plots that apply to ``study``, each with its caption, in the report's order."""
    solitaire = len(study["players"]) == 1
    found: list[tuple[Plot, str]] = []
    if solitaire:
        found.append((plot_win_rate, "Win rate per variant with its 95 % Wilson interval."))
    else:
        first = study["players"][0]
        found.append(
            (
                plot_seat_balance,
                f"Seat balance: {first}'s share of the games won, with its 95 % interval. "
                "The dashed line is 50 %; an interval that misses it is a seat imbalance.",
            )
        )
        caption = (
            "First-move advantage: the first mover's share of the games won, with its 95 % "
            "interval (no point where one seat always moves first: see seat balance)"
        )
        exact = any(v["exact_first_player_value"] is not None for v in study["variants"])
        if exact:
            caption += "; diamonds: the exact value under perfect play"
        if exact or any(v["first_mover_always"] is None for v in study["variants"]):
            found.append((plot_first_move, caption + "."))
        found.append((plot_outcomes, "Share of games won by each seat (draws in grey)."))
    found.append(
        (plot_endings, "Draws and engine-safeguard ends per variant, with 95 % intervals.")
    )
    found.append((_lengths("plies"), "Game length in plies (chance outcomes included)."))
    found.append((_lengths("turns"), "Game length in turns (what a player does on their go)."))
    curve = "Mean legal moves at each decision of the game"
    if not solitaire:
        curve += f", averaged over {len(study['players'])} decisions in a row (one per seat)"
    found.append((plot_legal_curve, curve + "; the legend gives the mean per decision."))
    if any(v["lead_changes_mean"] is not None for v in study["variants"]):
        found.append(
            (
                plot_lead_changes,
                "Lead changes per game by the game's own evaluation, 95 % interval.",
            )
        )
    if any(v["decisiveness"] is not None for v in study["variants"]):
        found.append(
            (
                plot_decisiveness,
                "Decisiveness: the share of a won game played before the winner led for good "
                "(near 1: open to the end), 95 % interval.",
            )
        )
    return found


def figure_svg(plot: Plot, study: dict[str, Any]) -> str:
    """One plot as an ``<svg>`` element sized by its container."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.2, 3.6), dpi=100)
    axes = figure.add_subplot()
    plot(axes, study)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    axes.tick_params(labelsize=9)
    figure.tight_layout()
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg") :]  # drop the XML prologue and doctype: the page is HTML
    return re.sub(r'(<svg[^>]*?) width="[^"]*" height="[^"]*"', r"\1", svg, count=1)


def _percent() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0)


def short(labels: Sequence[str]) -> list[str]:
    """Labels cut to fit beside a plot."""
    return [label if len(label) <= 34 else label[:33] + "…" for label in labels]


def _dots(
    axes: Axes,
    study: dict[str, Any],
    values: Sequence[float | None],
    intervals: Sequence[Sequence[float] | None],
    *,
    xlabel: str,
    percent: bool = True,
    reference: float | None = None,
) -> None:
    """One point per variant with its interval as a horizontal bar, first variant on top."""
    variants = study["variants"]
    positions = list(range(len(variants)))[::-1]
    for y, value, interval, colour in zip(positions, values, intervals, PALETTE * 8, strict=False):
        if value is None:
            continue
        low, high = interval if interval is not None else (value, value)
        axes.errorbar(
            value,
            y,
            xerr=[[max(0.0, value - low)], [max(0.0, high - value)]],
            fmt="o",
            color=colour,
            capsize=4,
            markersize=7,
            linewidth=2,
        )
        axes.annotate(
            f"{value:.1%}" if percent else f"{value:.2f}",
            (value, y),
            textcoords="offset points",
            xytext=(0, 8),
            ha="center",
            fontsize=8,
            color="#4a5568",
        )
    if reference is not None:
        axes.axvline(reference, color="#a0aec0", linestyle="--", linewidth=1)
        shown = [x for x in values if x is not None] + [reference - 0.05, reference + 0.05]
        axes.set_xlim(max(0.0, min(shown) - 0.03), min(1.0, max(shown) + 0.03))
    axes.set_yticks(positions, short([v["label"] for v in variants]), fontsize=8)
    axes.set_ylim(-0.7, len(variants) - 0.3)
    axes.set_xlabel(xlabel, fontsize=9)
    if percent:
        axes.xaxis.set_major_formatter(_percent())


def plot_win_rate(axes: Axes, study: dict[str, Any]) -> None:
    """The solitaire's win rate."""
    variants = study["variants"]
    _dots(
        axes,
        study,
        [v["win_rate"][0] for v in variants],
        [v["win_ci"][0] for v in variants],
        xlabel="win rate",
    )


def plot_seat_balance(axes: Axes, study: dict[str, Any]) -> None:
    """The first seat's share of the games won, against 50 %."""
    variants = study["variants"]
    _dots(
        axes,
        study,
        [v["decided_share"][0] for v in variants],
        [v["decided_share_ci"][0] if v["decided_games"] else None for v in variants],
        xlabel=f"{study['players'][0]}'s share of the games won",
        reference=0.5,
    )


def plot_first_move(axes: Axes, study: dict[str, Any]) -> None:
    """The first mover's share of the games won, against 50 %, and the exact value."""
    variants = study["variants"]
    varies = [v["first_mover_always"] is None for v in variants]
    _dots(
        axes,
        study,
        [v["first_move_share"] if ok else None for v, ok in zip(variants, varies, strict=True)],
        [v["first_move_ci"] for v in variants],
        xlabel="the first mover's share of the games won",
        reference=0.5,
    )
    positions = list(range(len(variants)))[::-1]
    for y, v in zip(positions, variants, strict=True):
        if v["exact_first_player_value"] is not None:
            value = v["exact_first_player_value"]
            axes.plot(value, y, marker="D", color="#1a202c", markersize=6, linestyle="none")


def plot_outcomes(axes: Axes, study: dict[str, Any]) -> None:
    """Stacked shares of wins per seat and draws."""
    variants = study["variants"]
    positions = list(range(len(variants)))[::-1]
    left = [0.0] * len(variants)
    names = [*study["players"], "draw"]
    for index, name in enumerate(names):
        if index < len(study["players"]):
            shares = [v["win_rate"][index] for v in variants]
        else:
            shares = [v["draw_rate"] for v in variants]
        axes.barh(positions, shares, left=left, color=SEAT_COLOURS[index], label=name, height=0.6)
        for y, start, share in zip(positions, left, shares, strict=True):
            if share > 0.08:
                axes.text(
                    start + share / 2,
                    y,
                    f"{share:.0%}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white",
                )
        left = [a + b for a, b in zip(left, shares, strict=True)]
    axes.set_yticks(positions, short([v["label"] for v in variants]), fontsize=8)
    axes.set_xlim(0, 1)
    axes.xaxis.set_major_formatter(_percent())
    axes.legend(fontsize=8, ncol=3, loc="upper center", bbox_to_anchor=(0.5, 1.14), frameon=False)


def plot_endings(axes: Axes, study: dict[str, Any]) -> None:
    """Draw and safeguard-end rates, side by side per variant."""
    variants = study["variants"]
    positions = list(range(len(variants)))[::-1]
    solitaire = len(study["players"]) == 1
    series = [("safeguard ends", "safeguard_rate", "safeguard_ci", -0.12, "#9b2c2c")]
    if not solitaire:
        series.append(("draws", "draw_rate", "draw_ci", 0.12, SEAT_COLOURS[2]))
    for name, rate, ci, offset, colour in series:
        for index, (y, v) in enumerate(zip(positions, variants, strict=True)):
            value, (low, high) = v[rate], v[ci]
            axes.errorbar(
                value,
                y + offset,
                xerr=[[max(0.0, value - low)], [max(0.0, high - value)]],
                fmt="o",
                color=colour,
                capsize=3,
                markersize=6,
                label=name if index == 0 else None,
            )
    axes.set_yticks(positions, short([v["label"] for v in variants]), fontsize=8)
    axes.set_ylim(-0.7, len(variants) - 0.3)
    highest = max(v[ci][1] for v in variants for _, _, ci, _, _ in series)
    axes.set_xlim(0, max(0.02, 1.15 * highest))
    axes.xaxis.set_major_formatter(_percent())
    axes.set_xlabel("share of games", fontsize=9)
    axes.legend(fontsize=8, frameon=False)


def _lengths(measure: str) -> Plot:
    def plot(axes: Axes, study: dict[str, Any]) -> None:
        for v, colour in zip(study["variants"], PALETTE * 8, strict=False):
            histogram = v[measure].get("histogram")
            if not histogram:
                continue
            edges, counts = histogram["edges"], histogram["counts"]
            shares = [count / max(1, v["games"]) for count in counts]
            axes.stairs(shares, edges, color=colour, linewidth=1.8, label=short([v["label"]])[0])
            axes.axvline(v[measure]["median"], color=colour, linestyle=":", linewidth=1)
        axes.set_xlabel(f"{measure} per game (dotted: median)", fontsize=9)
        axes.set_ylabel("share of games", fontsize=9)
        axes.yaxis.set_major_formatter(_percent())
        if len(study["variants"]) > 1:
            axes.legend(fontsize=8, frameon=False)

    plot.__name__ = f"plot_{measure}"
    return plot


def plot_legal_curve(axes: Axes, study: dict[str, Any]) -> None:
    """Mean legal moves at each decision index, smoothed over one decision per seat."""
    window = len(study["players"])  # one decision per seat: the sides' choices differ
    for v, colour in zip(study["variants"], PALETTE * 8, strict=False):
        curve = v["legal_moves_curve"][:-1] or v["legal_moves_curve"]  # the last bin is a tail
        smooth = [
            sum(curve[i : i + window]) / len(curve[i : i + window])
            for i in range(0, max(1, len(curve) - window + 1))
        ]
        name = f"{short([v['label']])[0]} (mean {v['legal_moves_mean']:.2f})"
        axes.plot(range(len(smooth)), smooth, color=colour, linewidth=1.6, label=name)
    axes.set_xlabel("decision number in the game", fontsize=9)
    axes.set_ylabel("legal moves (mean)", fontsize=9)
    axes.set_ylim(bottom=0)
    axes.legend(fontsize=8, frameon=False)


def plot_lead_changes(axes: Axes, study: dict[str, Any]) -> None:
    """Mean lead changes per game (agent play)."""
    variants = study["variants"]
    _dots(
        axes,
        study,
        [v["lead_changes_mean"] for v in variants],
        [v["lead_changes_ci"] for v in variants],
        xlabel="lead changes per game",
        percent=False,
    )


def plot_decisiveness(axes: Axes, study: dict[str, Any]) -> None:
    """Mean decisive point of the won games (agent play)."""
    variants = study["variants"]
    _dots(
        axes,
        study,
        [v["decisiveness"] for v in variants],
        [v["decisiveness_ci"] for v in variants],
        xlabel="decisiveness (share of the game before the winner led for good)",
        percent=False,
    )
    axes.set_xlim(0, 1)
