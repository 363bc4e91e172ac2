"""The bot protocol: programs in any language play Kazambi, Kugamai and Stolbiki over
standard input and output, one command a line (docs/bot-protocol.md).

Modules: ``messages`` (every line of the protocol as a typed message: parse and format, in
both directions) and ``client`` (the reference client: subclass ``ClientBot``, call
``serve``). Both use the standard library only, so a bot author can import them without
Django, or copy the two files.
"""
