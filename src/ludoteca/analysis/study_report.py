"""A study's HTML report: one self-contained file with tables and matplotlib plots as inline SVG.

It reads only the study's dictionary (`ludoteca.analysis.study_summary.summarise`) and how it
ran, so a report can be rebuilt from ``study.json`` and ``run.json`` alone
(`render_report`). Matplotlib is imported when a report is drawn, not with the command line:
every ``ludoteca`` command starts faster for it.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes

PALETTE = ("#2b6cb0", "#dd6b20", "#2f855a", "#b83280", "#6b46c1", "#c05621", "#2c7a7b", "#744210")
SEAT_COLOURS = ("#2b6cb0", "#dd6b20", "#718096")  # seat 0, seat 1, draws

_STYLE = """
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a202c;
 background:#f4f5f7;margin:0}
main{max-width:1180px;margin:0 auto;padding:28px 32px 48px}
header{background:#1f2937;color:#f9fafb;padding:26px 32px}
header .inner{max-width:1180px;margin:0 auto}
header h1{margin:0 0 4px;font-size:26px;font-weight:650}
header p{margin:0;color:#cbd5e0}
section{background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(0,0,0,.08);
 padding:18px 22px;margin:20px 0}
h2{font-size:18px;margin:0 0 12px}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums;font-size:13.5px}
th,td{padding:6px 9px;border-bottom:1px solid #e2e8f0;text-align:right;white-space:nowrap;
 vertical-align:top}
th{background:#f7fafc;font-weight:600;color:#4a5568}
td:first-child,th:first-child{text-align:left;white-space:normal;min-width:130px}
tr.base td{background:#fffbea}
.ci{color:#718096;font-size:11.5px;display:block;line-height:1.2}
.wide{overflow-x:auto}
.sig{color:#9b2c2c;font-weight:600}
.muted{color:#718096}
.cards{display:flex;gap:14px;flex-wrap:wrap}
.card{flex:1 1 150px;background:#f7fafc;border-radius:8px;padding:10px 14px}
.card b{display:block;font-size:22px}
.plots{display:grid;grid-template-columns:1fr 1fr;gap:16px}
.plots figure{margin:0}
.plots svg{width:100%;height:auto}
figcaption{font-size:13px;color:#4a5568;margin-top:4px}
code,pre{font:13px ui-monospace,SFMono-Regular,Menlo,monospace}
pre{background:#1f2937;color:#e2e8f0;padding:12px 14px;border-radius:8px;overflow-x:auto}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
dt{color:#4a5568}dd{margin:0}
"""


def render_report(study: dict[str, Any], run: dict[str, Any]) -> str:
    """The report of ``study`` as one HTML page (plots inline, no outside files)."""
    solitaire = len(study["players"]) == 1
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        f"<title>{_e(study['name'])} study</title><style>{_STYLE}</style></head><body>",
        "<header><div class=inner>",
        f"<h1>{_e(study['name'])}: a balance study</h1>",
        f"<p>{len(study['variants'])} variant(s) × {study['games_per_variant']:,} games · agents "
        f"{_e(' vs '.join(study['agents']))} · seed {study['seed']}</p>",
        "</div></header><main>",
        _cards(study, run),
        _section("Results per variant", _variant_table(study)),
    ]
    if study["comparisons"]:
        parts.append(_section("Does the variant change the balance?", _comparison_table(study)))
    plots = [
        _figure(_plot_first_player, study, _first_player_caption(study)),
        _figure(_plot_outcomes, study, "Share of games won by each seat (draws in grey)."),
        _figure(_plot_lengths, study, "Game length in plies (chance outcomes included)."),
        _figure(_plot_legal_curve, study, _curve_caption(study)),
    ]
    if solitaire:
        plots.pop(1)
    parts.append(_section("Plots", "<div class=plots>" + "".join(plots) + "</div>"))
    parts.append(_section("Game length and choices", _length_table(study)))
    parts.append(_section("Reproduce", _reproduce(study, run)))
    parts.append("</main></body></html>")
    return "\n".join(parts)


def _e(value: Any) -> str:
    return html.escape(str(value))


def _section(title: str, body: str) -> str:
    return f"<section><h2>{_e(title)}</h2>{body}</section>"


def _pct(value: float) -> str:
    return f"{value:.1%}"


def _ci(interval: list[float]) -> str:
    return f"<span class=ci>{interval[0]:.1%}–{interval[1]:.1%}</span>"


def _cards(study: dict[str, Any], run: dict[str, Any]) -> str:
    total = study["games_per_variant"] * len(study["variants"])
    rate = run.get("games_per_second")
    cards = [
        ("games played", f"{total:,}"),
        ("wall time", f"{run['wall_seconds']:.1f} s"),
        ("games per second", "–" if not rate else f"{rate:,.0f}" if rate >= 10 else f"{rate:.2f}"),
        ("significant changes", str(sum(c["significant"] for c in study["comparisons"]))),
    ]
    body = "".join(f"<div class=card><b>{_e(v)}</b>{_e(k)}</div>" for k, v in cards)
    return f"<section><div class=cards>{body}</div></section>"


def _variant_table(study: dict[str, Any]) -> str:
    solitaire = len(study["players"]) == 1
    exact = any(v["exact_first_player_value"] is not None for v in study["variants"])
    head = ["variant", "games"]
    head += ["win rate"] if solitaire else [f"{p} wins" for p in study["players"]] + ["draws"]
    if not solitaire:
        head.append("first player wins")
    if exact:
        head.append("exact, perfect play")
    head.append("safeguard ends")
    rows = []
    for index, v in enumerate(study["variants"]):
        cells = [_e(v["label"]), f"{v['games']:,}"]
        for seat, rate in enumerate(v["win_rate"]):
            cells.append(f"{_pct(rate)} {_ci(v['win_ci'][seat])}")
        if not solitaire:
            cells.append(f"{_pct(v['draw_rate'])} {_ci(v['draw_ci'])}")
            cells.append(f"<b>{_pct(v['first_player_win_rate'])}</b> {_ci(v['first_player_ci'])}")
        if exact:
            value = v["exact_first_player_value"]
            cells.append("–" if value is None else _pct(value))
        cells.append(f"{v['safeguard_ends']:,}")
        css = " class=base" if index == study["baseline"] else ""
        rows.append(f"<tr{css}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    if solitaire:
        return _table(head, rows) + (
            "<p class=muted>The win rate with its 95 % Wilson interval; a game not won is lost, "
            "at the latest by the turn limit (a safeguard end). The highlighted row is the "
            "baseline.</p>"
        )
    note = (
        "<p class=muted>Rates with their 95 % Wilson intervals. The first player is whoever made "
        "the first decision of the game (with a random first player, either seat)."
        + (
            " The exact value is the first player's chance of winning when both sides play "
            "perfectly (from the solved game), beside the rate the agents of this study reach."
            if exact
            else ""
        )
        + " The highlighted row is the baseline.</p>"
    )
    return _table(head, rows) + note


def _comparison_table(study: dict[str, Any]) -> str:
    base = study["variants"][study["baseline"]]["label"]
    head = ["variant", "difference", "95% interval", "z", "p", "p (Holm)", "verdict"]
    rows = []
    for c in study["comparisons"]:
        verdict = (
            "<span class=sig>significant change</span>"
            if c["significant"]
            else "<span class=muted>no evidence of a change</span>"
        )
        cells = [
            _e(c["label"]),
            f"{c['difference']:+.1%}",
            f"{c['ci'][0]:+.1%} to {c['ci'][1]:+.1%}",
            f"{c['z']:+.2f}",
            _p(c["p_value"]),
            _p(c["p_adjusted"]),
            verdict,
        ]
        rows.append("<tr>" + "".join(f"<td>{x}</td>" for x in cells) + "</tr>")
    what = "win rate" if len(study["players"]) == 1 else "first player's win rate"
    note = (
        f"<p class=muted>The change in the {what} against <b>{_e(base)}</b>, with Newcombe's 95 % "
        "interval for a difference of two rates and the two-sided pooled z test; p-values are "
        f"adjusted with Holm's method over the {len(study['comparisons'])} comparison(s), and a "
        f"change is significant when the adjusted p is below {study['level']}.</p>"
    )
    return _table(head, rows) + note


def _length_table(study: dict[str, Any]) -> str:
    head = ["variant", "plies mean", "median", "p10–p90", "max", "turns mean", "turns p10–p90"]
    head += ["moves / decision", "chance plies"]
    agent = any(v["lead_changes_mean"] is not None for v in study["variants"])
    if agent:
        head += ["lead changes", "decisiveness"]
    solitaire = len(study["players"]) == 1
    if solitaire:
        head.append("turns to win (median)")
    rows = []
    for v in study["variants"]:
        plies, turns = v["plies"], v["turns"]
        cells = [
            _e(v["label"]),
            f"{plies['mean']:.1f}",
            f"{plies['median']:.0f}",
            f"{plies['p10']:.0f}–{plies['p90']:.0f}",
            f"{plies['max']:,}",
            f"{turns['mean']:.1f}",
            f"{turns['p10']:.0f}–{turns['p90']:.0f}",
            f"{v['legal_moves_mean']:.2f}",
            _pct(v["chance_ply_share"]),
        ]
        if agent:
            lead, decisive = v["lead_changes_mean"], v["decisiveness"]
            cells.append("–" if lead is None else f"{lead:.2f}")
            cells.append("–" if decisive is None else f"{decisive:.2f}")
        if solitaire:
            won = v.get("turns_to_win")
            cells.append("–" if not won else f"{won['median']:.0f}")
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return _table(head, rows)


def _reproduce(study: dict[str, Any], run: dict[str, Any]) -> str:
    versions = " · ".join(f"{k} {v}" for k, v in study["versions"].items())
    load = ", ".join(f"{x:.2f}" for x in run["load_average"])
    items = [
        ("versions", versions + f" · {study['name']} rules version {study['version']}"),
        ("ran on", f"{run['backend']}, {run['cores']} core(s) here"),
        ("time", f"{run['wall_seconds']:.1f} s wall, {run['cpu_seconds']:.1f} s CPU here"),
        ("load average", f"{load} (1, 5, 15 min)"),
        ("finished", run["finished"]),
    ]
    facts = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in items)
    return (
        f"<pre>{_e(run['command'])}</pre><p class=muted>The same command and seed give the same "
        "numbers on one process, many, or a Ray cluster.</p>"
        f"<dl>{facts}</dl>"
    )


def _table(head: list[str], rows: list[str]) -> str:
    header = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join(rows)
    table = f"<table><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>"
    return f"<div class=wide>{table}</div>"


def _p(value: float) -> str:
    return "&lt; 0.0001" if value < 0.0001 else f"{value:.4f}"


# -- plots -------------------------------------------------------------------------------------


def _figure(
    plot: Callable[[Axes, dict[str, Any]], None], study: dict[str, Any], caption: str
) -> str:
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
    svg = re.sub(r'(<svg[^>]*?) width="[^"]*" height="[^"]*"', r"\1", svg, count=1)
    return f"<figure>{svg}<figcaption>{_e(caption)}</figcaption></figure>"


def _curve_caption(study: dict[str, Any]) -> str:
    text = "Mean legal moves at each decision of the game"
    if len(study["players"]) > 1:
        text += f", averaged over {len(study['players'])} decisions in a row (one per seat)"
    return text + "."


def _percent() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0)


def _labels(study: dict[str, Any]) -> list[str]:
    return [v["label"] for v in study["variants"]]


def _first_player_caption(study: dict[str, Any]) -> str:
    if len(study["players"]) == 1:
        return "Win rate per variant with its 95 % Wilson interval."
    text = "The first player's win rate per variant with its 95 % Wilson interval"
    if any(v["exact_first_player_value"] is not None for v in study["variants"]):
        text += "; diamonds: the exact value under perfect play"
    return text + "."


def _plot_first_player(axes: Axes, study: dict[str, Any]) -> None:
    variants = study["variants"]
    solitaire = len(study["players"]) == 1
    rates = [v["win_rate"][0] if solitaire else v["first_player_win_rate"] for v in variants]
    intervals = [v["win_ci"][0] if solitaire else v["first_player_ci"] for v in variants]
    positions = list(range(len(variants)))[::-1]
    for y, rate, (low, high), colour in zip(positions, rates, intervals, PALETTE * 8, strict=False):
        axes.errorbar(
            rate,
            y,
            xerr=[[max(0.0, rate - low)], [max(0.0, high - rate)]],
            fmt="o",
            color=colour,
            capsize=4,
            markersize=7,
            linewidth=2,
        )
        axes.annotate(
            f"{rate:.1%}",
            (rate, y),
            textcoords="offset points",
            xytext=(0, 8),
            ha="center",
            fontsize=8,
            color="#4a5568",
        )
    exact = [v["exact_first_player_value"] for v in variants]
    for y, value in zip(positions, exact, strict=True):
        if value is not None:
            axes.plot(value, y, marker="D", color="#1a202c", markersize=6, linestyle="none")
    if not solitaire:
        axes.axvline(0.5, color="#a0aec0", linestyle="--", linewidth=1)
    axes.set_yticks(positions, _short(_labels(study)), fontsize=8)
    axes.set_ylim(-0.7, len(variants) - 0.3)
    axes.set_xlabel("win rate" if solitaire else "first player's win rate", fontsize=9)
    axes.xaxis.set_major_formatter(_percent())


def _plot_outcomes(axes: Axes, study: dict[str, Any]) -> None:
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
    axes.set_yticks(positions, _short(_labels(study)), fontsize=8)
    axes.set_xlim(0, 1)
    axes.xaxis.set_major_formatter(_percent())
    axes.legend(fontsize=8, ncol=3, loc="upper center", bbox_to_anchor=(0.5, 1.14), frameon=False)


def _plot_lengths(axes: Axes, study: dict[str, Any]) -> None:
    for v, colour in zip(study["variants"], PALETTE * 8, strict=False):
        histogram = v["plies"].get("histogram")
        if not histogram:
            continue
        edges, counts = histogram["edges"], histogram["counts"]
        shares = [count / max(1, v["games"]) for count in counts]
        axes.stairs(shares, edges, color=colour, linewidth=1.8, label=_short([v["label"]])[0])
        axes.axvline(v["plies"]["median"], color=colour, linestyle=":", linewidth=1)
    axes.set_xlabel("plies per game (dotted: median)", fontsize=9)
    axes.set_ylabel("share of games", fontsize=9)
    axes.yaxis.set_major_formatter(_percent())
    if len(study["variants"]) > 1:
        axes.legend(fontsize=8, frameon=False)


def _plot_legal_curve(axes: Axes, study: dict[str, Any]) -> None:
    window = len(study["players"])  # one decision per seat: the sides' choices differ
    for v, colour in zip(study["variants"], PALETTE * 8, strict=False):
        curve = v["legal_moves_curve"][:-1] or v["legal_moves_curve"]  # the last bin is a tail
        smooth = [
            sum(curve[i : i + window]) / len(curve[i : i + window])
            for i in range(0, max(1, len(curve) - window + 1))
        ]
        axes.plot(
            range(len(smooth)), smooth, color=colour, linewidth=1.6, label=_short([v["label"]])[0]
        )
    axes.set_xlabel("decision number in the game", fontsize=9)
    axes.set_ylabel("legal moves (mean)", fontsize=9)
    axes.set_ylim(bottom=0)
    if len(study["variants"]) > 1:
        axes.legend(fontsize=8, frameon=False)


def _short(labels: list[str]) -> list[str]:
    return [label if len(label) <= 34 else label[:33] + "…" for label in labels]
