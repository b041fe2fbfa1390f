"""A study's HTML report: one self-contained page with tables and a plot per measure.

It reads only the study's dictionary (`ludoteca.analysis.study_summary.summarise`) and how it
ran, so a report can be rebuilt from ``study.json`` and ``run.json`` alone (`render_report`).
The page opens with the findings in plain words (`ludoteca.analysis.study_findings`), then the
numbers per variant, every test with its verdict, the plots (`ludoteca.analysis.study_plots`)
and how to reproduce the study.
"""

from __future__ import annotations

import html
from typing import Any

from ludoteca.analysis.study_measures import measure_name
from ludoteca.analysis.study_plots import figure_svg, plots

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
td.what{text-align:left;white-space:normal}
tr.base td{background:#fffbea}
tr.flag td{background:#fff5f5}
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
ul.findings{margin:0;padding-left:20px}
ul.findings li{margin:4px 0}
li.seat_imbalance,li.first_move_advantage{color:#9b2c2c}
li.played{color:#4a5568}
code,pre{font:13px ui-monospace,SFMono-Regular,Menlo,monospace}
pre{background:#1f2937;color:#e2e8f0;padding:12px 14px;border-radius:8px;overflow-x:auto}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
dt{color:#4a5568}dd{margin:0}
"""


def render_report(study: dict[str, Any], run: dict[str, Any]) -> str:
    """The report of ``study`` as one HTML page (plots inline, no outside files)."""
    agents = " · ".join(
        f"{lineup[0]} on every seat" if len(set(lineup)) == 1 else " vs ".join(lineup)
        for lineup in study["lineups"]
    )
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        f"<title>{_e(study['name'])} study</title><style>{_STYLE}</style></head><body>",
        "<header><div class=inner>",
        f"<h1>{_e(study['name'])}: a balance study</h1>",
        f"<p>{len(study['variants'])} variant(s) × {study['games_per_variant']:,} games · agents "
        f"{_e(agents)} · seed {study['seed']}</p>",
        "</div></header><main>",
        _section("In short", _findings(study)),
        _cards(study, run),
        _section("Results per variant", _variant_table(study)),
        _section("Every test", _test_table(study)),
    ]
    figures = [
        f"<figure>{figure_svg(plot, study)}<figcaption>{_e(caption)}</figcaption></figure>"
        for plot, caption in plots(study)
    ]
    parts.append(_section("Plots", "<div class=plots>" + "".join(figures) + "</div>"))
    parts.append(_section("Game length and choices", _length_table(study)))
    parts.append(_section("Reproduce", _reproduce(study, run)))
    parts.append("</main></body></html>")
    return "\n".join(parts)


def _e(value: Any) -> str:
    return html.escape(str(value))


def _section(title: str, body: str) -> str:
    return f"<section><h2>{_e(title)}</h2>{body}</section>"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def _ci(interval: list[float] | None) -> str:
    if interval is None:
        return ""
    return f"<span class=ci>{interval[0]:.1%}–{interval[1]:.1%}</span>"


def _findings(study: dict[str, Any]) -> str:
    items = "".join(
        f"<li class={_e(item['kind'])}>{_e(item['text'])}</li>" for item in study["findings"]
    )
    return f"<ul class=findings>{items}</ul>"


def _cards(study: dict[str, Any], run: dict[str, Any]) -> str:
    total = study["games_per_variant"] * len(study["variants"])
    rate = run.get("games_per_second")
    cards = [
        ("games played", f"{total:,}"),
        ("wall time", f"{run['wall_seconds']:.1f} s"),
        ("games per second", "–" if not rate else f"{rate:,.0f}" if rate >= 10 else f"{rate:.2f}"),
        ("significant findings", str(sum(t["significant"] for t in study["tests"]))),
    ]
    body = "".join(f"<div class=card><b>{_e(v)}</b>{_e(k)}</div>" for k, v in cards)
    return f"<section><div class=cards>{body}</div></section>"


def _variant_table(study: dict[str, Any]) -> str:
    solitaire = len(study["players"]) == 1
    exact = any(v["exact_first_player_value"] is not None for v in study["variants"])
    head = ["variant", "games"]
    if solitaire:
        head += ["win rate"]
    else:
        head += [f"{p} wins" for p in study["players"]] + ["draws"]
        head += [f"{study['players'][0]}'s share of games won", "first mover's share"]
        if exact:
            head.append("exact, perfect play")
        head.append("first player wins")
    head.append("safeguard ends")
    flagged = {t["variant"] for t in study["tests"] if t["against"] is None and t["significant"]}
    rows = []
    for index, v in enumerate(study["variants"]):
        cells = [_e(v["label"]), f"{v['games']:,}"]
        for seat, rate in enumerate(v["win_rate"]):
            cells.append(f"{_pct(rate)} {_ci(v['win_ci'][seat])}")
        if not solitaire:
            cells.append(f"{_pct(v['draw_rate'])} {_ci(v['draw_ci'])}")
            share = v["decided_share"][0]
            cells.append(f"<b>{_pct(share)}</b> {_ci(v['decided_share_ci'][0])}")
            if v["first_mover_always"] is None:
                cells.append(f"<b>{_pct(v['first_move_share'])}</b> {_ci(v['first_move_ci'])}")
            else:
                cells.append(
                    f"<span class=muted>{_e(study['players'][v['first_mover_always']])} "
                    "always</span>"
                )
            if exact:
                cells.append(_pct(v["exact_first_player_value"]))
            cells.append(f"{_pct(v['first_player_win_rate'])} {_ci(v['first_player_ci'])}")
        cells.append(f"{v['safeguard_ends']:,}")
        css = (
            " class=base"
            if index == study["baseline"]
            else (" class=flag" if index in flagged else "")
        )
        rows.append(f"<tr{css}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    if solitaire:
        note = (
            "The win rate with its 95 % Wilson interval; a game not won is lost, at the latest "
            "by the turn limit (a safeguard end)."
        )
    else:
        note = (
            "Rates with their 95 % Wilson intervals. Seat balance and the first move are read "
            "on the games someone won (50 % is fair whatever the draw rate); the first mover is "
            "whoever made the game's first decision. A pink row has a flagged imbalance."
            + (
                " The exact value is the first mover's chance of winning under perfect play "
                "(from the solved game, a draw counting half), beside what the agents reached."
                if exact
                else ""
            )
        )
    return _table(head, rows) + f"<p class=muted>{note} The highlighted row is the baseline.</p>"


def _test_table(study: dict[str, Any]) -> str:
    head = ["measure", "variant", "against", "value", "difference [95 % interval]", "p"]
    head += ["p (Holm)", "verdict"]
    variants = study["variants"]
    rows = []
    for t in study["tests"]:
        name = measure_name(t, study["players"])
        against = "50 %" if t["against"] is None else variants[t["against"]]["label"]
        value, difference = _test_numbers(t)
        if not t["tested"]:
            verdict = f"<span class=muted>not tested{': ' + _e(t['note']) if t['note'] else ''}"
            verdict += "</span>"
            p_text = adjusted = "–"
        else:
            verdict = (
                "<span class=sig>significant</span>"
                if t["significant"]
                else "<span class=muted>no evidence of a difference</span>"
            )
            p_text, adjusted = _p(t["p_value"]), _p(t["p_adjusted"])
        cells = [
            _e(name),
            _e(variants[t["variant"]]["label"]),
            _e(against),
            value,
            difference,
            p_text,
            adjusted,
        ]
        css = " class=flag" if t["significant"] else ""
        rows.append(
            f"<tr{css}>"
            + "".join(f"<td>{c}</td>" for c in cells[:-1])
            + f"<td class=what>{verdict}</td></tr>"
        )
    tested = sum(t["tested"] for t in study["tests"])
    note = (
        "<p class=muted>Rates: score test against 50 % (Wilson interval) or the pooled "
        "two-proportion z test (Newcombe's interval). Lengths: Mann-Whitney U test, with Welch's "
        "interval for the difference of means. Legal moves per decision: z test of two ratios. "
        f"Holm's correction runs over all {tested} tests of the study; a difference is "
        f"significant when its adjusted p is below {study['level']}. Tests that could show "
        "nothing, or repeat another on the same counts, are listed but left out of the "
        "correction.</p>"
    )
    return _table(head, rows) + note


def _test_numbers(test: dict[str, Any]) -> tuple[str, str]:
    """The value against its reference, and the difference with its interval, as text."""
    if test["value"] is None or test["difference"] is None:
        return ("–", "–")
    low, high = test["ci"]
    if test["measure"] in ("plies", "turns", "legal_moves", "lead_changes", "decisiveness"):
        digits = 1 if test["measure"] in ("plies", "turns") else 2
        value = f"{test['value']:.{digits}f} vs {test['reference']:.{digits}f}"
        difference = f"{test['difference']:+.{digits}f} [{low:+.{digits}f}, {high:+.{digits}f}]"
        if test.get("relative") is not None:
            difference += f" ({test['relative']:+.0%})"
        return (value, difference)
    value = f"{test['value']:.1%} vs {test['reference']:.0%}"
    if test["against"] is not None:
        value = f"{test['value']:.1%} vs {test['reference']:.1%}"
    points = f"{100 * test['difference']:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}] points"
    return (value, points)


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
