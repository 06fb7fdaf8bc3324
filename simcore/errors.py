"""Errors a user can cause; the CLI prints them as one line, never a traceback."""


class TricksimError(Exception):
    """Bad input from a user: unknown option or value, malformed file, and so on."""


class RulesError(TricksimError):
    """A rule set that cannot be built: names the option and what is allowed."""


class ReplayError(TricksimError):
    """A record that does not replay: names the deal, the action and the rule broken."""

    def __init__(self, message, deal=None, action=None):
        super().__init__(message)
        self.deal = deal
        self.action = action


class ApiError(TricksimError, ValueError):
    """A bad argument to the Python API (``simcore.engine`` and friends): names the
    argument and what is allowed.  Also a ValueError, as these calls raised before."""


class StateError(ApiError):
    """A state array that is not a whole, undamaged state of the engine's game."""
