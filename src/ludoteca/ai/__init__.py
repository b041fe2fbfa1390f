"""Computer players: the agent interface and the agents themselves."""

from ludoteca.ai.agents import AGENT_SPECS, Agent, AgentError, RandomAgent, agent_from_spec

__all__ = ["AGENT_SPECS", "Agent", "AgentError", "RandomAgent", "agent_from_spec"]
