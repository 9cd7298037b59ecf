"""Teaching helpers: exercise checks with hints, and student copies of the notebooks."""
from safari_kit.teaching.exercises import Exercise, Feedback, Hint, check, exercises, register

__all__ = ["Exercise", "Feedback", "Hint", "check", "exercises", "register"]
