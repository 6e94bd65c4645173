"""The games themselves, pure: rules, positions, plays, move generation, gnubg's IDs,
the Tavla names of the dice, point numbering. No records, no files, no I/O."""
