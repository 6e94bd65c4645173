"""Generate gnubg self-play matches saved as SGF (run inside gnubg:
``cd tests/data/sgf && /usr/games/gnubg -t -q -p make_gnubg_sgf.py``).

Writes ``gnubg-<len>p-<seed>.sgf`` (gnubg's own ``save match``) and
``gnubg-<len>p-<seed>.json`` (``gnubg.match()`` with the analysis left out).
Both players are gnubg at 0 ply, so a match takes a few seconds.
"""

import os
import sys

import gnubg

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else os.getcwd()
sys.path.insert(0, os.path.join(HERE, "..", ".."))  # tests/: the shared gnubg helpers

from gnubg_load import dump_match, play_itself

play_itself(gnubg)

for length, seed in ((5, 3), (7, 13)):
    gnubg.command(f"set seed {seed}")
    gnubg.command(f"new match {length}")
    gnubg.command("set player 0 name Weiss")
    gnubg.command("set player 1 name Schwarz")
    base = os.path.join(HERE, f"gnubg-{length}p-{seed}")
    gnubg.command(f"save match {base}.sgf")
    dump_match(gnubg, base + ".json")
