"""Turn clocks: the pure clock model (``model``): live bank, over days, untimed; sealed and
ordered planning, retract, timeouts covered by a bot, pause, added time, downtime; and the
votes on a pause or a hand-over (``votes``). No database, no tasks: the table service stores a
clock (``server.tables.clock``), the keeper (``server.timekeeping``) acts when one is due."""
