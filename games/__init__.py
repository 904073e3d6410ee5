"""Arena's games: one package per game, each with pure rules, a file protocol,
bots, record readers and (the only pygame-using part) a renderer."""
