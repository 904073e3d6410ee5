"""Answers garbage on every turn (placements included)."""
with open("MOVE.OUT", "w") as fh:
    fh.write("attack at dawn\n")
