"""Developer tools for the post-game analysis: its calibration and its play-out rates."""
