"""Load testing: K concurrent tables of websocket players against uvicorn on 127.0.0.1.

For each configuration (SQLite or Postgres; one or two app processes sharing the database) a
run migrates a fresh database, starts the servers (or uses ``--target``), creates K tables whose
seats are all taken by scripted players, and lets every player answer its own view with a
random legal command over a real websocket until the tables finish, ``--commands`` commands
were acknowledged or ``--seconds`` passed. It prints throughput (acknowledged commands/s),
command→patch latency (from sending a command to receiving the patch that contains it on the
sender's own connection) p50/p95/p99, each server's peak resident memory, and the server CPU
time per acknowledged command (which, unlike the rest, does not depend on what else the
machine is doing). With Postgres it also measures the raw single-row INSERT+COMMIT rate of the
same server, the physical limit of one durable command, and prints the ratio. SQLite runs with
one process only: without Postgres there is no fan-out between processes.

Everything is bounded: tables, commands, seconds, and every wait has a timeout.

Modules, from the bottom up:

- ``measure``: what a run records (``Stats``, ``percentile``), CPU and memory of a process,
  the raw INSERT+COMMIT probe.
- ``servers``: app processes on 127.0.0.1 and the fresh databases they run on.
- ``tables``: tables created and started over the HTTP API.
- ``players``: the scripted random players over websockets, and the ``Budget`` they share.
- ``report``: one run's figures and how they are printed (a table row or JSON).
- ``runs``: every requested configuration, start to finish; ``guildhall loadtest`` calls it.
"""
