"""Generate a gnubg self-play match played with the cube off, saved as SGF
(run inside gnubg: ``cd tests/data/sgf && /usr/games/gnubg -t -q -p make_gnubg_nocube.py``).

Writes ``gnubg-3p-nocube.sgf`` (gnubg's own ``save match``; gnubg writes
``RU[NoCube]`` for a match played with ``set cube use off``).
"""

import os
import sys

import gnubg

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else os.getcwd()
sys.path.insert(0, os.path.join(HERE, "..", ".."))  # tests/: the shared gnubg helpers

from gnubg_load import play_itself

play_itself(gnubg)
gnubg.command("set cube use off")
gnubg.command("set seed 5")
gnubg.command("new match 3")
gnubg.command("set player 0 name Weiss")
gnubg.command("set player 1 name Schwarz")
gnubg.command(f"save match {os.path.join(HERE, 'gnubg-3p-nocube')}.sgf")
