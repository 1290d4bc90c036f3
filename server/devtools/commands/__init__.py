"""The developer tools' subcommands of ``guildhall``; one module each, shaped like those of
``server.commands``: ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``.
"""
