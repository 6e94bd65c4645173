"""Generate gnubg self-play matches (run inside gnubg: ``gnubg -t -q -p make_selfplay.py``).

Writes ``selfplay-<len>p-<seed>.mat`` (gnubg's ``export match mat``) and
``selfplay-<len>p-<seed>.json`` (``gnubg.match()`` with the analysis left out).
"""

import os
import sys

import gnubg

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else os.getcwd()
sys.path.insert(0, os.path.join(HERE, "..", ".."))  # tests/: the shared gnubg helpers

from gnubg_load import dump_match, play_itself

gnubg.command("set defaultnames Alpha Bravo")
play_itself(gnubg)

for length, seed in ((3, 1), (3, 7), (5, 2), (5, 11), (7, 5)):
    gnubg.command(f"set seed {seed}")
    gnubg.command(f"new match {length}")
    base = os.path.join(HERE, f"selfplay-{length}p-{seed}")
    gnubg.command(f"export match mat {base}.mat")
    dump_match(gnubg, base + ".json")
