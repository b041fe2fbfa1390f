"""OpenSpiel: every game as a pyspiel Python game, so OpenSpiel's algorithms can play it.

Importing this module registers each game under the short name ``ludoteca_<game id>``::

    import pyspiel
    import ludoteca.rl.openspiel

    game = pyspiel.load_game("ludoteca_salt_n_pepper", {"ranks": 6, "first": "random"})
    state = game.new_initial_state()        # the bag draw: a chance node
    state.chance_outcomes()                 # [(0, 0.5), (1, 0.5)]

The game's options are the game's parameters, typed as OpenSpiel types them: an integer option
is an int parameter, a true/false option a bool, and an option with a list of text choices a
string; an option whose choices mix text and numbers (``first``: ``random``, 0 or 1) or that
accepts ``none`` is a string parameter holding the value as the command line writes it
(``"random"``, ``"0"``; quoted in a game string, ``first="0"``, as OpenSpiel would read a bare
0 as an integer). A refused value raises Ludoteca's `InvalidOptionError`, which lists
the accepted values; an unknown parameter is refused by OpenSpiel with the list of known ones.

Dice and random first players are explicit chance nodes (``chance_outcomes()`` with their
probabilities); actions are move indices (``move.index``), chance outcomes their indices among
the game's chance outcomes. States give their observation tensor (the same planes as
``state.observation(player)``), the position text as the observation string, ``returns()``
(+1 win, -1 loss, 0 draw) and OpenSpiel's serialisation. The utility is zero-sum for two
players; the solitaire (Steppin' Stones) is a one-player game with returns +1 or -1.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, ClassVar, cast

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ludoteca.ai.specs import agent_from_spec
from ludoteca.core.errors import InvalidOptionError
from ludoteca.core.game import Game, State
from ludoteca.core.options import OptionSpec, OptionValue, format_option_value
from ludoteca.core.outcome import CHANCE
from ludoteca.core.registry import game_class, game_ids, make

#: OpenSpiel's name of a game is this prefix and the game's id.
PREFIX = "ludoteca_"

ParameterValue = int | bool | str
_SEED_LIMIT = 2**31  # rollout seeds drawn from an evaluator's generator


def short_name(game_id: str) -> str:
    """OpenSpiel's name of the game ``game_id``, e.g. ``"ludoteca_salta"``."""
    return PREFIX + game_id


def parameter_default(spec: OptionSpec) -> ParameterValue:
    """The option's default as an OpenSpiel parameter, which fixes the parameter's type.

    An integer option that also takes a few words (``first``: ``random``, 0 or 1) or ``none``
    is an int parameter, the words as the integers of `value_codes` (``random`` is -1, the
    chance player). An option that cannot be read so is a string parameter holding the value as
    the command line writes it.
    """
    default = spec.default
    codes = value_codes(spec)
    if codes is not None:
        return cast(ParameterValue, codes.get(default, default))  # an int either way
    mixed = spec.choices is not None and len({type(choice) for choice in spec.choices}) > 1
    if default is None or mixed or spec.allow_none:
        return format_option_value(default)  # text, as the command line writes it
    return default


def value_codes(spec: OptionSpec) -> dict[OptionValue, int] | None:
    """The integers that stand for an integer option's values that are not integers.

    Words among the choices are -1, -2, ... in the order the game declares them (no choice is
    negative), and ``none`` is 0 where the option's minimum is at least 1: OpenSpiel reads a
    bare number in a game string as an integer, so such options round-trip as int parameters,
    with no quoted numbers. ``None`` for an option that needs no codes or cannot have them.
    """
    if isinstance(spec.default, bool):
        return None
    choices = spec.choices or ()
    numbers = [c for c in choices if isinstance(c, int) and not isinstance(c, bool)]
    words = [c for c in choices if isinstance(c, str)]
    if not (isinstance(spec.default, int) or numbers) or not (words or spec.allow_none):
        return None  # a plain integer option, or one of words only
    codes: dict[OptionValue, int] = {}
    if words:
        if any(number < 0 for number in numbers) or (spec.minimum or 0) < 0:
            return None
        codes.update({word: -1 - place for place, word in enumerate(words)})
    if spec.allow_none:
        if spec.minimum is None or spec.minimum < 1:
            return None
        codes[None] = 0
    return codes


def _option_value(spec: OptionSpec, value: ParameterValue) -> OptionValue:
    """The option value an OpenSpiel parameter stands for (see `value_codes`)."""
    codes = value_codes(spec)
    if codes is not None and isinstance(value, int) and not isinstance(value, bool):
        for option_value, code in codes.items():
            if code == value:
                return option_value
    return _unquoted(value)


def game_type(game: type[Game]) -> pyspiel.GameType:
    """OpenSpiel's description of a game class.

    Raises:
        NotImplementedError: The game declares no observation tensor or chance outcome count.
    """
    example = game()
    example.observation_shape  # noqa: B018 (raises for a game without an observation tensor)
    stochastic = _has_chance(game)
    return pyspiel.GameType(
        short_name=short_name(game.id),
        long_name=f"Ludoteca {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if stochastic
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM
            if example.num_players == 2
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=example.num_players,
        min_num_players=example.num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={spec.name: parameter_default(spec) for spec in game.option_specs},
    )


def _has_chance(game: type[Game]) -> bool:
    """Whether the game has chance nodes with its defaults or with one option changed.

    OpenSpiel fixes the chance mode per game name, while a game may roll only with some options
    (a random first player): each choice of each option with a list of choices (and each
    true/false option) is tried.
    """
    variants: list[dict[str, OptionValue]] = [{}]
    for spec in game.option_specs:
        values = (True, False) if isinstance(spec.default, bool) else spec.choices or ()
        variants += [{spec.name: value} for value in values if value != spec.default]
    for options in variants:
        try:
            if game(**options).num_chance_outcomes > 0:
                return True
        except InvalidOptionError:  # a choice that needs other options changed too
            continue
    return False


class LudotecaSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A Ludoteca game with one choice of options, as an OpenSpiel game."""

    #: The id of the Ludoteca game; each game registers a subclass that sets it.
    game_id: ClassVar[str]

    def __init__(self, params: dict[str, ParameterValue] | None = None) -> None:
        game_id = self.game_id
        specs = {spec.name: spec for spec in game_class(game_id).option_specs}
        given = {
            name: _option_value(specs[name], value) if name in specs else _unquoted(value)
            for name, value in (params or {}).items()
        }
        self.ludoteca_game = _make(game_id, tuple(sorted(given.items())))
        game = self.ludoteca_game
        zero_sum = game.num_players == 2
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=game.num_chance_outcomes,
            num_players=game.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=game.max_game_length,
        )
        self._parameters = {name: _quoted(value) for name, value in (params or {}).items()}
        super().__init__(_GAME_TYPES[game_id], info, self._parameters)
        self._initial_state = game.initial_state()  # immutable: every new game shares it

    def __reduce__(self) -> tuple[Any, ...]:
        # Each game's class is made at registration; a pickle names the game and its
        # parameters instead, and OpenSpiel's registry gives the class back.
        return (pyspiel.load_game, (short_name(self.game_id), dict(self._parameters)))

    def __deepcopy__(self, memo: dict[int, Any]) -> LudotecaSpielGame:
        return self  # an OpenSpiel game is immutable; its states refer to it

    def new_initial_state(self) -> LudotecaSpielState:
        """The position before the first move (or the first chance node)."""
        return LudotecaSpielState(self, self._initial_state)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Any:
        """The observer of the observation tensor, or OpenSpiel's for other observation types."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _TensorObserver(self.ludoteca_game, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


def _quoted(value: ParameterValue) -> ParameterValue:
    """A text value as it round-trips through OpenSpiel's game strings.

    OpenSpiel reads ``first=0`` in a game string as the integer 0 (and ``true`` as a boolean),
    which a text parameter refuses: such text is kept in quotes, ``first="0"``.
    """
    if isinstance(value, str) and _reads_as_other_type(value):
        return f'"{value}"'
    return value


def _reads_as_other_type(text: str) -> bool:
    if text.lower() in ("true", "false"):
        return True
    try:
        float(text)
    except ValueError:
        return False
    return True


def _unquoted(value: ParameterValue) -> ParameterValue:
    """A text value without the quotes `_quoted` put around it (or a user typed)."""
    if isinstance(value, str) and len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


@lru_cache(maxsize=64)
def _make(game_id: str, params: tuple[tuple[str, OptionValue], ...]) -> Game:
    """The Ludoteca game of these parameters (games are immutable: states may share one)."""
    return make(game_id, **dict(params))


class _Position:
    """A Ludoteca state inside a pyspiel state's attributes.

    OpenSpiel clones a Python state by deep-copying its attributes and serialises it by pickling
    them: a position is immutable, so a clone shares it, and it pickles as its game's id, options
    and position text.
    """

    __slots__ = ("_texts", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self._texts: dict[int, str] | None = None

    def text_of(self, action: int) -> str | None:
        """The notation of the legal move (or chance outcome) ``action``; ``None`` if illegal.

        OpenSpiel asks for the text of every outcome of a roll (1,296 in Steppin' Stones), so
        the texts are read from the legal moves once per position.
        """
        if self._texts is None:
            self._texts = {move.index: move.text for move in self.state.legal_moves()}
        return self._texts.get(action)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.state.game
        return (_restore, (game.id, game.options, self.state.to_text()))


def _restore(game_id: str, options: dict[str, OptionValue], text: str) -> _Position:
    return _Position(_make(game_id, tuple(sorted(options.items()))).parse_state(text))


class LudotecaSpielState(pyspiel.State):  # type: ignore[misc]
    """A position as an OpenSpiel state (mutable, as OpenSpiel's are: actions replace it)."""

    def __init__(self, game: LudotecaSpielGame, state: State) -> None:
        super().__init__(game)
        self._position = _Position(state)

    @property
    def position(self) -> State:
        """The Ludoteca state (immutable) this OpenSpiel state holds now."""
        return self._position.state

    def current_player(self) -> int:
        """The player to move; ``PlayerId.CHANCE`` at a chance node, ``TERMINAL`` at the end."""
        to_move = self._position.state.to_move
        if to_move is None:
            return int(pyspiel.PlayerId.TERMINAL)
        if to_move == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return to_move

    def _legal_actions(self, player: int) -> list[int]:
        """The legal move indices of the player to move, ascending."""
        return sorted(self._position.state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(outcome index, probability), ...]`` at a chance node, ascending by index."""
        return sorted(self._position.state.chance_outcome_actions())

    def _apply_action(self, action: int) -> None:
        self._position = _Position(self._position.state.apply_action(action))

    def _action_to_string(self, player: int, action: int) -> str:
        """The move's notation when it is legal here, else ``"action <index>"``."""
        text = self._position.text_of(action)
        return f"action {action}" if text is None else text

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._position.state.is_over

    def returns(self) -> list[float]:
        """Each player's return: 0 until the end, then +1 win, -1 loss, 0 draw."""
        return list(self._position.state.returns())

    def __str__(self) -> str:
        return str(self._position.state)


class _TensorObserver:
    """OpenSpiel's observer interface over ``state.observation(player)``."""

    def __init__(self, game: Game, params: Any) -> None:
        if params:
            raise ValueError(f"the observation takes no parameters; got {params!r}")
        shape = tuple(game.observation_shape)
        self.tensor: npt.NDArray[np.float32] = np.zeros(math.prod(shape), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: LudotecaSpielState, player: int) -> None:
        self.dict["observation"][...] = state.position.observation(player)

    def string_from(self, state: LudotecaSpielState, player: int) -> str:
        return state.position.to_text()


class AgentBot(pyspiel.Bot):  # type: ignore[misc]
    """A Ludoteca computer player, named by its agent spec (``level:3``), as an OpenSpiel bot.

    It plays in `evaluate_bots` beside OpenSpiel's own bots::

        bots = [mcts.MCTSBot(game, 2, 200, evaluator), AgentBot(game, "level:3", seed=1)]
        evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random)
    """

    def __init__(self, game: LudotecaSpielGame, spec: str, *, seed: int | None = None) -> None:
        """Make the agent of ``spec`` for ``game`` (a game loaded from this module).

        Raises:
            AgentError: A bad agent spec; the message lists the accepted ones.
            TypeError: ``game`` is not a Ludoteca game loaded through OpenSpiel.
        """
        pyspiel.Bot.__init__(self)
        if not isinstance(game, LudotecaSpielGame):
            raise TypeError(f"AgentBot plays the games loaded as ludoteca_<game id>; got {game!r}")
        self._agent = agent_from_spec(spec, game.ludoteca_game, seed=seed)

    def step(self, state: LudotecaSpielState) -> int:
        """The index of the agent's move in ``state``."""
        return self._agent.choose(state.position).index

    def restart_at(self, state: LudotecaSpielState) -> None:
        """Nothing to do: the agent looks at each position afresh."""

    def inform_action(self, state: LudotecaSpielState, player_id: int, action: int) -> None:
        """Nothing to do: the agent looks at each position afresh."""


class CompiledRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """OpenSpiel's MCTS evaluator with Ludoteca's compiled random rollouts.

    OpenSpiel's ``RandomRolloutEvaluator`` plays its rollouts through the Python game, a few
    milliseconds each; this one plays each in one compiled call (`State.random_rollout`), to
    the end of the game: the same estimate (the mean returns of uniformly random games, chance
    outcomes drawn with their probabilities), much sooner::

        bot = mcts.MCTSBot(game, 2.0, 1000, CompiledRolloutEvaluator(seed=1))
    """

    def __init__(self, n_rollouts: int = 1, *, seed: int | None = None) -> None:
        if n_rollouts < 1:
            raise ValueError(f"n_rollouts must be at least 1; got {n_rollouts}")
        self.n_rollouts = n_rollouts
        self._rng = np.random.default_rng(seed)

    def evaluate(self, state: LudotecaSpielState) -> npt.NDArray[np.float64]:
        """The mean returns of ``n_rollouts`` random games from ``state``."""
        position = state.position
        total = np.zeros(position.game.num_players)
        for _ in range(self.n_rollouts):
            seed = int(self._rng.integers(_SEED_LIMIT))
            end = position.random_rollout(position.game.max_game_length, seed)
            total += end.returns()
        return total / self.n_rollouts

    def prior(self, state: LudotecaSpielState) -> list[tuple[int, float]]:
        """Uniform over the legal actions; the probabilities at a chance node."""
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


def register_games() -> tuple[str, ...]:
    """Register every game with OpenSpiel (once per process); their short names.

    Games that declare no observation tensor or chance outcome count (plug-ins written before
    them) are left out: OpenSpiel needs both.
    """
    names = []
    for game_id in game_ids():
        if game_id not in _GAME_TYPES:
            try:
                described = game_type(game_class(game_id))
            except NotImplementedError:
                continue
            _GAME_TYPES[game_id] = described
            # OpenSpiel calls the class it is given with the parameters. (A class, not a
            # function: a registered Python function crashes the interpreter as it exits.)
            subclass = type(
                f"{LudotecaSpielGame.__name__}_{game_id}",
                (LudotecaSpielGame,),
                {"game_id": game_id},
            )
            pyspiel.register_game(described, subclass)
        names.append(short_name(game_id))
    return tuple(names)


_GAME_TYPES: dict[str, pyspiel.GameType] = {}
register_games()
