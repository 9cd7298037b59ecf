"""Playing many games: bots, whole games between them, tournaments, batch simulators and benchmarks.

The sampled side of the kit (the exact side is :mod:`safari_kit.probability`): a lesson compares the two.

- ``bots``, ``witness_bots``, ``knockout_bots``: players that see only their seat's observation;
  ``registry`` turns a bot's name ("memory:0.25") into one; ``seats`` seats them beside a learner in a lab.
- ``play``: the one loop that plays a whole game between bots; ``tournament``: N such games as pandas
  tables, reproducible from a seed, run by ``runners`` (serially, on a process pool or a Dask cluster).
- ``challenge_batch``, ``knockout_batch``: many games at once with numpy, for the Simulation lab's speed.
- ``challenge_positions``: the Challenge lab's starting positions, reached by real play.
- ``bench``: ``safari-kit bench``, every speed figure beside its target.
- ``charts``: only a stub for one release: the SVG charts moved to ``safari_kit.presentation.charts`` (issue 28).

Nothing here imports the widgets; numpy and pandas are imported only where batches and tables need them,
so the play path (bots, seats, play, registry) runs in Python without them.
"""
from safari_kit.simulation.bots import Bot, RandomBot
from safari_kit.simulation.play import GameResult, play_game

__all__ = ["Bot", "RandomBot", "GameResult", "play_game"]
