"""One package per game. A game package imports only from `ludoteca.core`."""
