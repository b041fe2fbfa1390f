"""How the front ends number and list moves: one numbering for play, replay, review and analysis.

**Plies** count every entry of a game's move list, chance outcomes included, from 1: ply ``n``
is ``moves[n - 1]``, and the position after it is ``states[n]`` (``states[0]`` is the start).
Every front end says "ply" in this sense only.

**Move numbers** count the players' moves alone (a pass is a move; die rolls and the draw of
who starts are not), from 1, and show the chance outcomes that came before each move beside it
in the game's own short words (`chance_text`): ``12. W4-B2 (5)``, ``1. h9-N (Blue starts)``.

`move_groups` lists the legal moves of a position grouped by the piece or square they start
from (the first region of the game's click path, else the text before the first separator),
so that a long list reads as a table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ludoteca.core.game import Move, State

_SEPARATOR = re.compile(r"[-x:/]")


def chance_text(state: State, move: Move, *, short: bool = False) -> str:
    """The chance outcome ``move`` of the chance node ``state`` in words.

    The game's view declares the words (``View.chance_text``); a game that declares none gets
    ``"chance: <outcome>"`` (short: the outcome's text).
    """
    declared = state.game.info.view.chance_text
    if declared is not None:
        text: str = declared(state, move, short=short)
        return text
    return move.text if short else f"chance: {move.text}"


@dataclass(frozen=True, slots=True)
class NumberedPly:
    """One ply of a game's move list, numbered.

    Attributes:
        ply: The ply, from 1 (the position after it is ``states[ply]``).
        move: The move's text.
        player: Who made it, or ``None`` for a chance outcome.
        number: The player's-move number, or ``None`` for a chance outcome.
        chances: The chance outcomes since the previous player's move, in short words (for a
            move), or this outcome's own words (for a chance outcome).
    """

    ply: int
    move: str
    player: int | None
    number: int | None
    chances: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """``"12. W4-B2 (5)"`` for a move; the outcome in words for a chance outcome."""
        if self.number is None:
            return ", ".join(self.chances)
        beside = f" ({', '.join(self.chances)})" if self.chances else ""
        return f"{self.number}. {self.move}{beside}"


def numbered_plies(states: Sequence[State], moves: Sequence[str]) -> list[NumberedPly]:
    """Every ply of a game (``states[i]`` is the position ``moves[i]`` was played in), numbered.

    ``states`` may hold one more position than ``moves`` (the position after the last move).
    """
    plies: list[NumberedPly] = []
    pending: list[str] = []
    number = 0
    for index, text in enumerate(moves):
        state = states[index]
        player = state.to_move
        if player is None or player < 0:  # a chance node
            move = next((m for m, _ in state.chance_outcomes() if m.text == text), None)
            words = text if move is None else chance_text(state, move)
            short = text if move is None else chance_text(state, move, short=True)
            pending.append(short)
            plies.append(NumberedPly(index + 1, text, None, None, (words,)))
            continue
        number += 1
        plies.append(NumberedPly(index + 1, text, player, number, tuple(pending)))
        pending = []
    return plies


def numbered_line(states: Sequence[State], moves: Sequence[str]) -> list[str]:
    """The players' moves of a game as labels (``"1. c3-d4"``, ``"2. hand-W4 (5)"``)."""
    return [ply.label for ply in numbered_plies(states, moves) if ply.number is not None]


def move_groups(state: State) -> list[tuple[str, list[str]]]:
    """The legal moves of ``state`` grouped by where they start, in the order of legal_moves.

    Each group is ``(prefix, rests)``: the text its moves share up to a separator (``"f7-"``)
    and what each adds to it (``"N"``, ``"NE"``); a move alone in its group, or one that shares
    nothing, has the empty prefix and its whole text. Chance outcomes form one group.
    """
    legal = state.legal_moves()
    if state.to_move is not None and state.to_move < 0:
        return [("", [move.text for move in legal])]
    click_paths = state.game.info.view.click_paths
    paths = click_paths(state) if click_paths is not None else {}
    groups: dict[str, list[str]] = {}
    for move in legal:
        path = paths.get(move.text, ())
        if path:
            key = path[0]
        else:
            found = _SEPARATOR.search(move.text)
            key = move.text[: found.start()] if found else ""
        groups.setdefault(key, []).append(move.text)
    result: list[tuple[str, list[str]]] = []
    loose: list[str] = []
    for texts in groups.values():
        prefix = _shared_prefix(texts)
        if len(texts) == 1 or not prefix:
            loose.extend(texts)
        else:
            result.append((prefix, [text[len(prefix) :] for text in texts]))
    if loose:
        result.append(("", loose))
    return result


def _shared_prefix(texts: Sequence[str]) -> str:
    """The longest common start of ``texts`` that ends with a separator (``"f7-"``), or ``""``."""
    common = texts[0]
    for text in texts[1:]:
        length = 0
        while length < min(len(common), len(text)) and common[length] == text[length]:
            length += 1
        common = common[:length]
    cut = max((m.end() for m in _SEPARATOR.finditer(common)), default=0)
    return common[:cut]
