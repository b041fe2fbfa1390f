"""The web UI: play every game in the browser, with games kept in SQLite.

``ludoteca serve`` starts it; `ludoteca.web.app.create_app` builds the ASGI app. The web layer
contains no rules: it asks the states (legal moves, apply, parse, outcome) and each game's
declared view (what to draw, and which clicks make which move).
"""
