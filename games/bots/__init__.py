"""Game-playing bots (pure Python): random, greedy, MCTS and exact solvers.

>>> from games.bots.registry import get_bot
>>> bot = get_bot("mcts", seed=1)

A bot only ever receives what its seat may see (``engine.observation(state, seat)``); see
:mod:`games.bots.base`.
"""
