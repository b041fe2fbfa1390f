"""Players from outside Ludoteca in the arena: ``module:callable``, ``ludoteca.agents`` entry
points and ONNX policies (``onnx:PATH``, built here with the ``onnx`` helper API: no torch).

The ONNX tests are skipped where onnx and onnxruntime are not installed (``pip install
'ludoteca[learn]'``), except where the extras are
required (tests/extras.py), as in .ci/run's second run.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ludoteca
from ludoteca.ai import AgentError, agent_from_spec
from ludoteca.ai.outside import OutsideAgent
from ludoteca.ai.specs import is_agent_spec
from ludoteca.cli import main
from tests.extras import extra_required

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "tests" / "example_game"
PLAYERS = "tests.ai.outside_players"


def arena_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    status = main(["arena", *argv, "--jobs", "1", "--no-save", "--json"])
    out = capsys.readouterr().out
    assert status == 0, out
    report: dict[str, Any] = json.loads(out)
    return report


def test_a_module_callable_plays_in_the_arena(capsys: pytest.CaptureFixture[str]) -> None:
    spec = f"{PLAYERS}:make_lowest"
    report = arena_json(capsys, "salt_n_pepper", spec, "random", "-o", "ranks=6", "--games", "4")
    assert {s["spec"] for s in report["standings"]} == {spec, "random"}
    assert all(spec in result["seats"] for result in report["results"])
    assert sum(s["games"] for s in report["standings"]) == 8


def test_a_module_callable_gets_the_game_and_the_seed() -> None:
    game = ludoteca.make("splinter", size="7x8")
    agent = agent_from_spec(f"{PLAYERS}:make_lowest", game, seed=12)
    assert isinstance(agent, OutsideAgent) and agent.name == f"{PLAYERS}:make_lowest"
    assert (agent.player.game, agent.player.seed) == (game, 12)
    state = game.initial_state()
    assert agent.choose(state) == min(state.legal_moves(), key=lambda m: m.index)
    first = agent_from_spec(f"{PLAYERS}:make_random_index", game, seed=3)
    again = agent_from_spec(f"{PLAYERS}:make_random_index", game, seed=3)
    moves = [first.choose(state), again.choose(state)]
    assert moves[0] == moves[1] and moves[0] in state.legal_moves()  # an int became a Move
    assert is_agent_spec(f"{PLAYERS}:make_lowest") and is_agent_spec("onnx:x.onnx")
    assert not is_agent_spec("alice")


def test_a_module_callable_plays_in_a_study(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = f"{PLAYERS}:make_random_index"
    argv = ["study", "salt_n_pepper", "--vary", "ranks=6", "--agents", spec, "random"]
    argv += ["--games", "6", "--jobs", "1", "--json", "--out", str(tmp_path / "study")]
    status = main(argv)
    out = capsys.readouterr().out
    assert status == 0, out
    study = json.loads(out)
    assert study["lineups"] == [[spec, "random"]]
    assert study["variants"][0]["agents"] == [spec, "random"]
    assert study["variants"][0]["games"] == 6


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", r"unknown agent 'alphazero'; accepted: random.*onnx:PATH.*module:callable"),
        ("no_such_module:make", "cannot import module 'no_such_module' of agent"),
        (f"{PLAYERS}:missing", f"module '{PLAYERS}' has no 'missing'"),
        (f"{PLAYERS}:NOT_CALLABLE", "is not callable; it must make an agent"),
        (f"{PLAYERS}:make_nothing", "returned object, which has no choose"),
        (f"{PLAYERS}:make_failing", "could not be made for Salt 'n' Pepper: RuntimeError: no"),
        ("onnx:", "write an ONNX policy as onnx:PATH"),
        ("onnx:/no/such/policy.onnx", "cannot read the ONNX policy '/no/such/policy.onnx'"),
    ],
)
def test_bad_outside_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(AgentError, match=message):
        agent_from_spec(spec, ludoteca.make("salt_n_pepper"))


def test_a_bad_spec_in_the_arena_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["arena", "salta", "random", "grandmaster", "--no-save"])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    text = " ".join(err.split())
    assert "unknown agent 'grandmaster'; accepted: random" in text
    assert "onnx:PATH" in text and "module:callable" in text and "ludoteca.agents" in text


def test_an_illegal_answer_is_refused_naming_the_agent() -> None:
    agent = agent_from_spec(f"{PLAYERS}:make_cheat", ludoteca.make("salta"))
    with pytest.raises(AgentError, match=f"the agent '{PLAYERS}:make_cheat' chose 'z9-z10'"):
        agent.choose(ludoteca.make("salta").initial_state())


def test_an_entry_point_of_an_installed_plug_in_plays_in_the_arena(tmp_path: Path) -> None:
    """The example plug-in (tests/example_game) installed as a distribution: its game under
    ``ludoteca.games`` and its player under ``ludoteca.agents``, in a fresh process."""
    site = tmp_path / "site"
    dist_info = site / "ludoteca_nim-1.0.dist-info"
    dist_info.mkdir(parents=True)
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: ludoteca-nim\nVersion: 1.0\n")
    (dist_info / "entry_points.txt").write_text(
        "[ludoteca.games]\nnim = ludoteca_nim:NimGame\n\n"
        "[ludoteca.agents]\nnim_greedy = ludoteca_nim.players:make_greedy\n"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(EXAMPLE), str(ROOT)])
    script = """
        import json, sys
        from ludoteca.cli import main
        from ludoteca.ai.outside import installed_agents
        assert installed_agents() == ("nim_greedy",), installed_agents()
        sys.exit(main(["arena", "nim", "nim_greedy", "random", "--games", "6", "--jobs", "2",
                       "--no-save", "--json"]))
    """
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert {s["spec"] for s in report["standings"]} == {"nim_greedy", "random"}
    assert len(report["results"]) == 6


# -- ONNX policies -------------------------------------------------------------------------


def onnx_modules() -> tuple[Any, Any]:
    if not extra_required("learn"):
        pytest.importorskip("onnx", reason="pip install 'ludoteca[learn]'")
    if not extra_required("onnx"):
        pytest.importorskip("onnxruntime", reason="pip install 'ludoteca[onnx]'")
    import onnx
    import onnxruntime

    return onnx, onnxruntime


def write_policy(path: Path, game: ludoteca.Game, preference: np.ndarray, batch: Any = "N") -> Path:
    """An ONNX network whose logits ignore the observation: ``preference``, per action.

    Flatten, then Gemm with zero weights and ``preference`` as the bias: the whole contract of
    docs/rl.md (observation tensor in, one logit per action out), with a choice that is known.
    """
    onnx, _ = onnx_modules()
    from onnx import TensorProto, helper, numpy_helper

    size = int(np.prod(game.observation_shape))
    actions = len(preference)
    weights = numpy_helper.from_array(np.zeros((size, actions), np.float32), "weights")
    bias = numpy_helper.from_array(preference.astype(np.float32), "bias")
    graph = helper.make_graph(
        [
            helper.make_node("Flatten", ["observation"], ["flat"], axis=1),
            helper.make_node("Gemm", ["flat", "weights", "bias"], ["logits"]),
        ],
        "preference",
        [
            helper.make_tensor_value_info(
                "observation", TensorProto.FLOAT, [batch, *game.observation_shape]
            )
        ],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [batch, actions])],
        initializer=[weights, bias],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    path.write_bytes(model.SerializeToString())
    return path


def test_an_onnx_policy_plays_its_best_legal_action(tmp_path: Path) -> None:
    game = ludoteca.make("salt_n_pepper", ranks=6)
    preference = np.arange(game.num_actions, dtype=np.float32)  # the highest index is best
    policy = write_policy(tmp_path / "highest.onnx", game, preference)
    agent = agent_from_spec(f"onnx:{policy}", game)
    state = game.initial_state().apply_action(1)  # Pepper moves first: seat 1's view too
    for _ in range(6):
        assert agent.choose(state).index == max(state.legal_actions())
        state = state.apply_action(min(state.legal_actions()))
    preference[:] = 0.0  # all equal: the lowest legal index
    flat_policy = write_policy(tmp_path / "flat.onnx", game, preference, batch=1)
    flat = agent_from_spec(f"onnx:{flat_policy}", game)
    assert flat.choose(state).index == min(state.legal_actions())
    clone = copy.deepcopy(agent)
    again = pickle.loads(pickle.dumps(agent))
    assert clone.choose(state) == again.choose(state) == agent.choose(state)


def test_an_onnx_policy_is_rated_in_the_arena(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = ludoteca.make("pente_grammai", max_plies=200)  # dice: chance nodes for the arena
    policy = write_policy(tmp_path / "p.onnx", game, np.arange(game.num_actions, dtype=float))
    spec = f"onnx:{policy}"
    report = arena_json(
        capsys, "pente_grammai", spec, "random", "-o", "max_plies=200", "--games", "4"
    )
    standing = next(s for s in report["standings"] if s["spec"] == spec)
    assert standing["games"] == 4 and standing["elo"] is not None


def test_a_network_for_other_options_or_no_network_is_refused(tmp_path: Path) -> None:
    ten_ranks = ludoteca.make("salt_n_pepper")
    policy = write_policy(tmp_path / "ten.onnx", ten_ranks, np.zeros(ten_ranks.num_actions))
    with pytest.raises(AgentError, match=r"takes input \(\?, 8, 10, 10\); .* \(batch, 8, 6, 10\)"):
        agent_from_spec(f"onnx:{policy}", ludoteca.make("salt_n_pepper", ranks=6))
    pente = ludoteca.make("pente_grammai")
    seven = write_policy(tmp_path / "seven.onnx", pente, np.zeros(7))
    with pytest.raises(AgentError, match=r"gives output \(\?, 7\); .* \(batch, 12\)"):
        agent_from_spec(f"onnx:{seven}", pente)
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a network")
    with pytest.raises(AgentError, match="is not an ONNX model onnxruntime can run"):
        agent_from_spec(f"onnx:{junk}", ten_ranks)


def test_without_onnxruntime_the_message_says_what_to_install(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "sys.modules['onnxruntime'] = None\n"
        "import ludoteca\n"
        "from ludoteca.ai import AgentError, agent_from_spec\n"
        "try:\n"
        f"    agent_from_spec('onnx:{tmp_path / 'x.onnx'}', ludoteca.make('salta'))\n"
        "except AgentError as error:\n"
        "    print(error)\n"
    )
    (tmp_path / "x.onnx").write_bytes(b"anything")
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "onnx:PATH agents need onnxruntime: pip install 'ludoteca[onnx]'"
    )
