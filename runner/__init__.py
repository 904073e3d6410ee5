"""The game-agnostic referee: seats, external programs, clocks, records.  No pygame here."""
