"""The clocks at work: what acts on tables when the pure clock model (``server.clocks``) says
so. The keeper (``keeper``) fires due deadlines in whichever process sees them first, gives
back the time every process was down (``downtime``) and stores what people do to a table's
clock (``acts``), each through the table service, so this package sits above ``tables``."""
