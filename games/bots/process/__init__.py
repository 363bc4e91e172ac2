"""The process boundary: every bot, built-in or external, plays in its own process.

Modules: ``forkserver`` (one per worker process: starts every bot process, built-in bots
as forks of itself), ``jail`` (namespaces and a minimal file tree, Linux), ``sandbox``
(limits, what a jail shows, environment), ``driver`` (:class:`BotProcess`: one bot
spoken to through the protocol, with deadlines), ``installed`` (the bots installed in a
worker's bots directory, with their manifests), ``launcher`` (a built-in bot served
through the protocol) and ``check`` (a protocol check of a program against the random
bot). The referee (games.series.referee) runs games through them.
"""
