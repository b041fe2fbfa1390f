"""A cached game's JSON for the API and the WebSockets: the game, its move list, its clocks.

The functions read a `ludoteca.web.live.LiveGame` and change nothing in it but the move list it
keeps (`LiveGame.move_entries`): each entry is made once, as the moves are added, since
numbering the moves needs the positions they were played in.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ludoteca.core.notation import numbered_plies
from ludoteca.web.messages import to_json

if TYPE_CHECKING:
    from ludoteca.web.live import LiveGame


def game_dict(live: LiveGame, *, with_moves: bool = True) -> dict[str, Any]:
    """The JSON-ready state of the game for the API (no tokens).

    Without ``with_moves``, ``moves`` is ``None`` (`game_json` adds the move list itself).
    """
    result = live.result
    to_move = live.to_move
    names = live.game.player_names
    return {
        "id": live.id,
        "game": live.game.id,
        "name": live.game.name,
        "options": live.game.options,
        "players": list(names),
        "seats": [
            {
                "seat": seat.seat,
                "player": names[seat.seat],
                "kind": seat.kind,
                "agent": seat.agent,
                "name": seat.name,
            }
            for seat in live.seats
        ],
        "position": live.state.to_text(),
        "to_move": to_move,
        "to_move_name": live.player_name(to_move),
        "legal_moves": [] if result is not None else [m.text for m in live.state.legal_moves()],
        "ply": live.ply,
        "moves": move_list(live) if with_moves else None,
        "outcome": None
        if result is None
        else {
            "winner": result.winner,
            "winner_name": live.player_name(result.winner),
            "returns": list(result.returns),
            "reason": result.reason,
            "resigned": result.resigned,
            "timed_out": live.timed_out,
            "agreed": live.agreed,
        },
        "move_number": live.move_number,
        "clock": clocks(live),
        "draw_possible": live.draw_possible and result is None,
        "draw_offer": live.draw_offer,
        "rematch_offer": live.rematch_offer,
        "rematch": live.rematch_id,
        "undo_allowed": not live.has_invited_player and result is None,
        "hints": live.hints,
        "rated": live.rated,
        "version": live.version,
        "computer_to_move": live.computer_to_move,
        "created": live.created,
        "updated": live.updated,
    }


def game_json(live: LiveGame) -> str:
    """`game_dict` as compact JSON (`ludoteca.web.messages.to_json`), the same text.

    The move list, most of a long game's JSON, is not encoded again at every move: each entry
    is encoded once, when it is made (`LiveGame.move_entries_json`), and the entries' texts are
    joined into the game's.
    """
    fields = game_dict(live, with_moves=False)
    keys = list(fields)
    at = keys.index("moves")
    head = to_json({key: fields[key] for key in keys[:at]})
    tail = to_json({key: fields[key] for key in keys[at + 1 :]})
    move_list(live)
    encoded = live.move_entries_json
    encoded.extend(to_json(entry) for entry in live.move_entries[len(encoded) :])
    return f'{head[:-1]},"moves":[{",".join(encoded)}],{tail[1:]}'


def move_list(live: LiveGame) -> list[dict[str, Any]]:
    """The moves for the API; each entry is made once, as the moves are added.

    ``number`` is the ply (from 1); ``move_number`` and ``label`` number the players' moves
    alone with the chance outcomes before each beside it (`ludoteca.core.notation`):
    ``"12. W4-B2 (5)"``; a chance outcome has no ``move_number`` and its words as ``label``.
    """
    entries = live.move_entries
    if len(entries) < live.ply:
        # Number from just after the last player's move already listed: the chance
        # outcomes since then go beside the next move.
        start = len(entries)
        while start > 0 and entries[start - 1]["move_number"] is None:
            start -= 1
        before: int = entries[start - 1]["move_number"] if start else 0
        texts = [move.text for move in live.moves[start:]]
        positions = live.states_between(start, live.ply - 1) if start < live.ply else []
        for numbered in numbered_plies(positions, texts):
            number = start + numbered.ply
            if number <= len(entries):
                continue
            if numbered.number is not None:
                numbered = replace(numbered, number=before + numbered.number)
            mover = live.mover(number)
            move = live.moves[number - 1]
            entries.append(
                {
                    "number": number,
                    "text": move.text,
                    "player": mover,
                    "player_name": live.player_name(mover),
                    "is_chance": move.is_chance,
                    "move_number": numbered.number,
                    "label": numbered.label,
                }
            )
    return list(entries)


def clocks(live: LiveGame, now: float | None = None) -> dict[str, Any] | None:
    """The clocks for the API.

    ``remaining`` is each seat's seconds as of ``since`` (the server's acknowledgement of
    the last change, epoch seconds); the ``running`` seat's clock has run since then. With
    ``now`` (epoch seconds), ``left`` adds each seat's seconds at that moment.
    """
    if live.clock is None or live.clock_state is None:
        return None
    state = live.clock_state
    answer: dict[str, Any] = {
        **live.clock.to_dict(),
        "description": live.clock.describe(),
        "remaining": list(state.remaining),
        "running": state.running,
        "since": state.since,
    }
    if now is not None:
        answer["left"] = [state.left(seat, now) for seat in range(len(state.remaining))]
        answer["now"] = now
        answer["flag_at"] = state.flag_at()
    return answer
