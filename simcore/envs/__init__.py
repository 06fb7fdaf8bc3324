"""Environments for reinforcement-learning libraries (optional: ``pip install tricksim[rl]``).

Nothing in the core imports this package; each module imports its library itself.
"""
