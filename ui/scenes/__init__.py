"""The shell's screens: home, new match, match, replay, how to play, settings."""
