"""The transaction core: one event per accepted change, reads without side effects, the sweeper.

Each test runs a game service that is not started (no change feed, no sweeper task): what
happens is only what the test calls, so a read that changed something would show.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from ludoteca.core.outcome import CHANCE
from ludoteca.web.clocks import ClockState
from ludoteca.web.events import (
    Event,
    GameCreated,
    GameEnded,
    MoveMade,
    MoveUndone,
    OfferChanged,
    ResultRecorded,
)
from ludoteca.web.game_json import game_json
from ludoteca.web.live import RECENT_PLIES
from ludoteca.web.messages import to_json
from ludoteca.web.schema import games_table, settings_table
from ludoteca.web.searches import SearchPool
from ludoteca.web.service import GameService
from ludoteca.web.storage import GameStore, SeatRow, StorageError

T = TypeVar("T")
PATIENCE = 30.0


def _run(database: str, scenario: Callable[[GameService], Awaitable[T]]) -> T:
    async def main() -> T:
        service = GameService(GameStore(database), seed=1, pool=SearchPool())
        try:
            return await scenario(service)
        finally:
            await service.close()
            service.store.close()

    return asyncio.run(main())


def _stored(service: GameService, game_id: str) -> dict[str, Any]:
    with service.store.engine.connect() as db:
        row = db.execute(select(games_table).where(games_table.c.id == game_id)).one()
    return dict(row._mapping)


def test_every_accepted_change_announces_one_event(tmp_path: Path) -> None:
    async def scenario(service: GameService) -> list[tuple[str, int, bool]]:
        heard: list[Event] = []
        service.events.subscribe(heard.append)
        made = await service.create("salta", options={}, seats=["human", "human"])
        game_id, (green, red) = made.live.id, (made.tokens[0], made.tokens[1])
        await service.play(game_id, "c3-d4", green)
        await service.play(game_id, "h8-g7", red)
        await service.undo(game_id, red)
        with pytest.raises(Exception, match="not your turn"):
            await service.play(game_id, "c3-d4", green)  # refused: announces nothing
        await service.draw(game_id, red, "offer")
        await service.resign(game_id, green)
        return [(type(e).__name__, e.version, e.ended) for e in heard]  # type: ignore[attr-defined]

    events = _run(str(tmp_path / "g.sqlite3"), scenario)
    assert events == [
        (GameCreated.__name__, 0, False),
        (MoveMade.__name__, 1, False),
        (MoveMade.__name__, 2, False),
        (MoveUndone.__name__, 3, False),
        (OfferChanged.__name__, 4, False),
        (GameEnded.__name__, 5, True),
    ]


def test_a_read_of_a_game_out_of_time_changes_nothing_and_the_sweeper_flags_it(
    tmp_path: Path,
) -> None:
    async def scenario(service: GameService) -> None:
        made = await service.create(
            "salta", options={}, seats=["human", "human"], clock={"initial": 60, "increment": 0}
        )
        game_id = made.live.id
        live = await service.play(game_id, "c3-d4", made.tokens[0])
        # Red's minute ran out long ago (written behind this process's back).
        out = ClockState((60.0, 60.0), running=1, since=time.time() - 120)
        service.store.update_game(game_id, based_on=live.version, clock_state=out.to_json())
        before = _stored(service, game_id)
        service.flags.close()  # no timer of this process: only the sweep may flag
        for read in (service.current, service.get):
            seen = await read(game_id)
            assert seen.clocks(time.time())["left"][1] < 0  # type: ignore[index]
            service.snapshot(seen)
            service.board_json(seen)
        await asyncio.sleep(0.2)  # time for anything a read would have started
        assert _stored(service, game_id) == before
        ended: list[Event] = []
        service.events.on_game_end(ended.append)
        await service.sweep()
        after = _stored(service, game_id)
        assert after["timed_out"] == 1 and after["result"] == "Red ran out of time (time out)"
        assert after["version"] == before["version"] + 1
        assert [type(event) for event in ended] == [GameEnded]

    _run(str(tmp_path / "g.sqlite3"), scenario)


def test_a_read_never_plays_the_computer_the_sweeper_resumes_a_stalled_turn(
    tmp_path: Path,
) -> None:
    async def scenario(service: GameService) -> None:
        # A game whose computer turn its process left unplayed (it was stopped).
        seats = [SeatRow(0, "computer", "random", None), SeatRow(1, "human", None, "t" * 24)]
        service.store.create_game("stalled", game="salta", options={}, start=None, seats=seats)
        with service.store.engine.begin() as db:
            db.execute(update(games_table).values(updated="2020-01-01T00:00:00.000+00:00"))
        live = await service.current("stalled")
        assert live.computer_to_move
        await asyncio.sleep(0.2)
        assert _stored(service, "stalled")["move_count"] == 0
        assert not service.computer.playing("stalled")
        moved = asyncio.Event()
        service.events.subscribe(lambda event: moved.set(), MoveMade)
        await service.sweep()
        await asyncio.wait_for(moved.wait(), PATIENCE)
        assert _stored(service, "stalled")["move_count"] == 1

    _run(str(tmp_path / "g.sqlite3"), scenario)


def test_a_result_hook_writes_in_the_transaction_that_records_the_result(
    tmp_path: Path,
) -> None:
    async def scenario(service: GameService) -> None:
        recorded: list[ResultRecorded] = []

        def rate(db: Connection, result: ResultRecorded) -> None:
            recorded.append(result)
            db.execute(insert(settings_table).values(name=f"rated {result.game_id}", value="1"))

        service.core.on_result_recorded(rate)
        made = await service.create("salta", options={}, seats=["human", "human"])
        game_id = made.live.id
        await service.play(game_id, "c3-d4", made.tokens[0])
        assert recorded == []  # no result yet: the hook is not called
        await service.resign(game_id, made.tokens[1])
        assert [(r.game_id, r.result, r.columns["resigned"]) for r in recorded] == [
            (game_id, "Red resigned", 1)
        ]
        with service.store.engine.connect() as db:
            names = db.execute(select(settings_table.c.name)).scalars().all()
        assert f"rated {game_id}" in names

    _run(str(tmp_path / "g.sqlite3"), scenario)


def test_a_result_hook_that_refuses_leaves_the_game_unchanged(tmp_path: Path) -> None:
    async def scenario(service: GameService) -> None:
        def refuse(db: Connection, result: ResultRecorded) -> None:
            db.execute(insert(settings_table).values(name="half-written", value="1"))
            raise StorageError("the ratings cannot be updated now")

        service.core.on_result_recorded(refuse)
        ended: list[Event] = []
        service.events.on_game_end(ended.append)
        made = await service.create("salta", options={}, seats=["human", "human"])
        game_id = made.live.id
        before = _stored(service, game_id)
        with pytest.raises(Exception, match="ratings cannot be updated"):
            await service.resign(game_id, made.tokens[0])
        assert _stored(service, game_id) == before
        assert ended == []
        with service.store.engine.connect() as db:
            names = db.execute(select(settings_table.c.name)).scalars().all()
        assert "half-written" not in names

    _run(str(tmp_path / "g.sqlite3"), scenario)


def test_a_cached_game_keeps_the_positions_just_before_the_current_one(tmp_path: Path) -> None:
    """The positions before the current one are the very ones that were current (kept, not
    rebuilt by a replay from the start: that made every watched move replay its game)."""

    async def scenario(service: GameService) -> None:
        made = await service.create("salta", options={}, seats=["human", "human"])
        live = made.live
        seen = [live.state]
        for _ in range(6):
            seat = live.to_move
            assert seat is not None
            live = await service.play(live.id, live.state.legal_moves()[0].text, made.tokens[seat])
            seen.append(live.state)
        for back in range(1, RECENT_PLIES + 1):
            assert live.state_at(live.ply - back) is seen[-1 - back]

    _run(str(tmp_path / "g.sqlite3"), scenario)


def test_a_cached_dice_game_keeps_the_positions_of_the_rolls_before_the_last_move(
    tmp_path: Path,
) -> None:
    """The move list numbers a move with the rolls before it, so listing the moves of a dice
    game after each move needs the positions of those rolls: they are the very ones that were
    current (kept, not rebuilt by a replay of the game from the start at every move)."""

    async def scenario(service: GameService) -> None:
        made = await service.create("pente_grammai", options={}, seats=["human", "human"])
        live = made.live
        seen = {number: live.state_at(number) for number in range(live.ply + 1)}
        for _ in range(8):
            seat = live.to_move
            assert seat is not None and seat >= 0
            before = live.ply
            live = await service.play(live.id, live.state.legal_moves()[0].text, made.tokens[seat])
            service.snapshot(live)  # the move list, as every watched or answered move lists it
            for number in range(before, live.ply + 1):
                seen.setdefault(number, live.state_at(number))
            rolls = [n for n in range(1, before + 1) if live.mover(n) == CHANCE]
            run_start = before
            while run_start in rolls:
                run_start -= 1
            for number in range(run_start, live.ply + 1):
                assert live.state_at(number) is seen[number], number

    _run(str(tmp_path / "g.sqlite3"), scenario)


def test_a_games_json_is_its_dict_encoded_through_moves_undo_and_rolls(tmp_path: Path) -> None:
    """The game's JSON, whose move list is encoded entry by entry as the moves come, is the
    text of its dict encoded whole, after moves, rolls, undos and moves played again."""

    async def scenario(service: GameService) -> None:
        made = await service.create("pente_grammai", options={}, seats=["human", "human"])
        live = made.live
        for step in range(12):
            seat = live.to_move
            assert seat is not None and seat >= 0
            if step % 4 == 3:
                live = await service.undo(live.id, made.tokens[seat])
            else:
                move = live.state.legal_moves()[-1].text
                live = await service.play(live.id, move, made.tokens[seat])
            assert game_json(live) == to_json(live.to_dict())

    _run(str(tmp_path / "g.sqlite3"), scenario)


def test_a_cached_game_rebuilds_the_positions_it_does_not_keep(tmp_path: Path) -> None:
    """Only the recent positions are kept; every other one is rebuilt equal to a replay."""

    async def scenario(service: GameService) -> None:
        made = await service.create("pente_grammai", options={}, seats=["human", "human"])
        live = made.live
        for _ in range(30):
            if live.is_over:
                break
            seat = live.to_move
            assert seat is not None
            move = live.state.legal_moves()[0]
            live = await service.play(live.id, move.text, made.tokens[seat])
        replayed = [live.start]
        for move in live.moves:
            replayed.append(replayed[-1].apply(move))
        # The last moves' positions and the roll's just before them (one roll a move here).
        assert len(live._recent) <= RECENT_PLIES + 1
        assert live.states == replayed
        assert [live.state_at(ply) for ply in range(live.ply + 1)] == replayed
        assert live.states_between(3, 9) == replayed[3:10]
        assert [live.mover(n) for n in range(1, live.ply + 1)] == [s.to_move for s in replayed[:-1]]
        other = GameService(service.store, pool=SearchPool())
        try:
            fresh = await other.core.load(live.id)
        finally:
            await other.close()
        assert fresh.to_dict()["moves"] == live.to_dict()["moves"]

    _run(str(tmp_path / "g.sqlite3"), scenario)
