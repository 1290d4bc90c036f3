"""Subcommands of the ``guildhall`` command line; one module each.

Each module defines ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``.
"""
