"""Computer players: random, MCTS, expectimax/alpha-beta, game experts, levels 1-5, hints."""

from ludoteca.ai.agents import Agent, AgentError, RandomAgent
from ludoteca.ai.alphabeta import AlphaBetaAgent
from ludoteca.ai.expert import ExpertAgent
from ludoteca.ai.levels import LEVELS, Hint, hint, level_setting, make_agent
from ludoteca.ai.mcts import MCTSAgent, SearchResult
from ludoteca.ai.specs import AGENT_SPECS, ALL_AGENT_SPECS, agent_from_spec

__all__ = [
    "AGENT_SPECS",
    "ALL_AGENT_SPECS",
    "LEVELS",
    "Agent",
    "AgentError",
    "AlphaBetaAgent",
    "ExpertAgent",
    "Hint",
    "MCTSAgent",
    "RandomAgent",
    "SearchResult",
    "agent_from_spec",
    "hint",
    "level_setting",
    "make_agent",
]
