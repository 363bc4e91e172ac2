"""Game-playing bots (pure Python): random, greedy, MCTS and exact solvers.

>>> from games.bots.registry import get_bot
>>> from games.bots.base import Budget
>>> from games.engines import get_engine
>>> engine = get_engine("kugamai")
>>> state = engine.new_game(seed=1)
>>> seat = engine.to_move(state)
>>> get_bot("mcts", seed=1).choose("kugamai", engine.observation(state, seat), Budget(50))
'0-0'

A bot only ever receives what its seat may see, ``engine.observation(state, seat)``: the
whole state in Kazambi and Kugamai, the seat's own hand, the table, hand sizes and shown
cards in Stolbiki (see :mod:`games.bots.base`). Modules: ``base`` (Bot, Budget, errors),
``registry`` (``get_bot``), ``adapters`` (search over the engines' fast paths, Stolbiki
determinization), ``random_bot``, ``greedy``, ``mcts``, ``solvers`` and ``play`` (a
referee loop for benchmarks and tests).
"""
