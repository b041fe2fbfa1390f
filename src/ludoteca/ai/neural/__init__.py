"""The neural player: PUCT with chance nodes guided by a small policy/value network.

`NeuralAgent` plays with the network a game ships (`ludoteca.core.LearnedPlayer`), in numpy and
numba; `ludoteca.ai.neural.train` trains one by self-play (it needs torch, the ``learn`` extra).
"""

from ludoteca.ai.neural.agent import NeuralAgent, game_network
from ludoteca.ai.neural.network import Network, NetworkError, load_network, save_weights
from ludoteca.ai.neural.puct import PUCTResult, PUCTSearch, RootNoise

__all__ = [
    "Network",
    "NetworkError",
    "NeuralAgent",
    "PUCTResult",
    "PUCTSearch",
    "RootNoise",
    "game_network",
    "load_network",
    "save_weights",
]
