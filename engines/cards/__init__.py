"""What the card games (bOOleO, Digitalo) share: the pyramid of gate cards and the
determinised lookahead of their expert players. Imports no game."""
