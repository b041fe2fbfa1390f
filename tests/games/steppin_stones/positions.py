"""Positions shared by the Steppin' Stones tests, drawn as diagrams (see `diagrams`).

Each holds all twenty coins and four pawns, since the position text requires them.
"""

# The start position (default options).
START = """
8 .  .  S5 .  .  M5 .  .
7 .  .  S4 .  .  M4 .  .
6 S3 S2 S0 .  .  M0 M2 M3
5 .  .  .  CP AP .  .  .
4 .  .  .  MP SP .  .  .
3 A3 A2 A0 .  .  C0 C2 C3
2 .  .  A4 .  .  C4 .  .
1 .  .  A5 .  .  C5 .  .
"""

# A phase-1 position for passing: the Arms 4 on a1 has a corridor along rank 1 over the Sun 2,
# a Sun stone and the Sun null, while the Moon 4 on c2 (equal value) and the fives above close
# every way up. The Moon 3 on c4 faces the Moon and Sun pawns.
CORRIDOR = """
8 S3 .  .  .  A0 .  .  .
7 .  .  .  .  .  .  .  .
6 .  .  .  .  .  .  .  .
5 .  .  .  CP AP .  .  .
4 .  .  M3 MP SP .  .  .
3 .  .  .  .  .  C2 C3 C4
2 M5 S5 M4 C5 .  A5 A2 A3
1 A4 S2 s  S0 .  M0 M2 C0
"""

# The Suns have one coin left to turn, the Sun 5 on c6.
LAST_SUN = """
8 .  .  s  .  .  M5 .  .
7 .  .  s  .  .  M4 .  .
6 s  s  S5 .  .  M0 M2 M3
5 .  .  .  CP AP .  .  .
4 .  .  .  MP SP .  .  .
3 A3 A2 A0 .  .  C0 C2 C3
2 .  .  A4 .  .  C4 .  .
1 .  .  A5 .  .  C5 .  .
"""

# Every suit in phase 2 and nobody home: the Sun pawn on e4 has its stones at e3 and e2 below
# it, more Sun stones stand on c8, d7 and b5, and a Moon stone on f4 sits beside the Sun pawn.
PHASE_TWO = """
8 .  .  s  .  .  m  .  .
7 .  .  .  s  .  m  .  .
6 .  .  .  .  .  m  .  .
5 .  s  .  CP AP .  .  .
4 .  .  .  MP SP m  .  .
3 a  a  a  .  s  c  c  c
2 .  .  a  .  s  c  .  .
1 .  .  a  .  m  c  .  .
"""

# The Sun pawn stands on its stone on c7, next to its home tile (b7); Sun stones on c8, c6, c5
# and e4. The other suits are in phase 2 with their pawns at the start.
HOME_RUN = """
8 .  .  s  .  .  m  .  .
7 .  .  SP+s .  .  m  .  .
6 .  .  s  .  .  m  .  .
5 .  .  s  CP AP .  .  .
4 .  .  .  MP s  m  .  .
3 a  a  a  .  .  c  c  c
2 .  .  a  .  .  c  .  .
1 .  .  a  .  m  c  .  .
"""

# Three suits are home; the Arms pawn stands on its stone on c2, next to its home tile.
ALMOST_WON = """
8 SP .  .  .  .  .  .  MP
7 .  .  s  .  .  .  .  .
6 s  s  s  .  .  m  m  m
5 .  .  .  .  .  .  .  .
4 .  s  .  .  .  .  .  m
3 a  a  .  .  .  c  c  c
2 .  .  AP+a .  .  c  .  .
1 .  .  a  a  m  c  .  CP
"""

# Three suits are home; the five Arms stones are walled in by stones of the retired suits and
# the board's edge, and the Arms pawn on e5 has no Arms stone beside it.
WALLED_IN = """
8 SP .  .  .  .  .  .  MP
7 .  .  .  .  .  .  .  .
6 s  s  s  .  .  m  m  .
5 c  c  .  .  AP .  .  .
4 m  .  .  .  .  .  .  .
3 .  .  .  c  c  .  .  .
2 .  .  s  a  a  m  c  .
1 .  s  a  a  a  m  .  CP
"""

# Phase 2 for the Suns while the Arms still show their null on d3; an Arms stone on b6.
NULL_IN_THE_WAY = """
8 .  .  s  .  .  m  .  .
7 .  .  .  s  .  m  .  .
6 .  a  .  .  .  m  .  .
5 .  s  .  CP AP .  .  .
4 .  .  .  MP SP m  .  .
3 a  a  .  A0 s  c  c  c
2 .  .  a  .  s  c  .  .
1 .  .  .  .  m  c  .  .
"""

# Four aces (b5, g5, g4, b4); the Sun pawn stands on its stone on c4, beside the Arms ace.
ACE_NEXT_DOOR = """
8 .  .  s  .  .  m  .  .
7 .  .  .  s  .  m  .  .
6 .  .  .  .  .  m  .  .
5 .  S* .  CP AP .  M* .
4 .  A* SP+s MP s  m  C* .
3 a  a  a  .  s  c  c  c
2 .  .  a  .  .  c  .  .
1 .  .  a  .  m  c  .  .
"""

# The large board after the Sun pawn left the hole (f5) for its stone on f4.
LARGE_PHASE_TWO = """
10 .  .  s  .  .  .  .  m  .  .
 9 .  .  s  .  .  .  .  m  .  .
 8 .  .  s  .  .  .  .  m  m  m
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  CP AP .  .  .  .
 5 .  .  .  .  MP #  s  .  .  .
 4 .  .  .  .  .  SP+s .  .  .  .
 3 a  a  a  .  .  .  .  c  c  c
 2 .  .  a  .  .  .  .  c  .  .
 1 .  .  a  .  .  .  .  c  .  .
"""
