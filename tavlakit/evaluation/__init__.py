"""How good a position is: gnubg's neural nets compiled by numba, the cubeful model,
and the match equity tables (gnubg's and Tavla's)."""
