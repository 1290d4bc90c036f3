"""Developer tools: benchmarks, bot tournaments, random self-play and the load test.

They measure and exercise the server; a server never runs them. So they live here, in one
package that only a development checkout has: the wheel leaves it out
(``[tool.setuptools.packages.find]`` in ``pyproject.toml``) and so does the image
(``.dockerignore``), and no runtime module imports it (``tests/import_layers.py`` ranks it
above everything else, so any import of it from below is an arrow pointing up). Their
commands keep their names: ``guildhall selfplay``, ``guildhall tournament`` and
``guildhall loadtest`` run them in a checkout (``server/cli.py`` hands them over), and in a
server install they answer that they are developer tools.

- ``bench``: ``make bench``, every figure the project measures, printed.
- ``views_bench``: its "views and patches" section; ``bots.bench`` its bot section, and
  ``commands.selfplay.bench`` its engine section.
- ``bots``: tournaments (``bots.tournament``) and their statistics (``bots.stats``).
- ``commands``: the three subcommands, one module each, as in ``server.commands``.
- ``load``: the load test, its scripted players, app processes on 127.0.0.1 and fresh
  databases (the process tests start their servers with it too).
"""
