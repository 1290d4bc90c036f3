"""Turn clocks: the pure clock model (``model``): live bank, over days, untimed; sealed and
ordered planning, retract, timeouts covered by a bot, pause, added time, downtime."""
