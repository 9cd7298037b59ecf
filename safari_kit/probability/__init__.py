"""Exact probabilities (fractions.Fraction) for both games, from one player's point of view."""
