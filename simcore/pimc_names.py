"""Policy lists whose searching player carries parameters in its name.

``--policy pimc:worlds=8,goal=deal,heuristic`` is one comma-separated list, so a
parameterised ``pimc`` name arrives split at its commas; each game rejoins it here with
the parameter keys its ``pimc`` takes."""


def join_pimc_parameters(names: list, keys) -> list:
    """``names`` with every piece ``key=value`` (``key`` one of ``keys``) that follows a
    ``pimc`` name put back onto it (``["pimc:worlds=8", "goal=deal", "heuristic"]`` ->
    ``["pimc:worlds=8,goal=deal", "heuristic"]``; a bare ``pimc`` gains a ``:``)."""
    joined = []
    for s in names:
        if joined and joined[-1].startswith("pimc") and s.partition("=")[0] in keys:
            joined[-1] += ("," if ":" in joined[-1] else ":") + s
        else:
            joined.append(s)
    return joined


def split_policy_text(text: str, keys) -> list:
    """A ``--policy`` text as one name per piece, a pimc name's parameters (``keys``: the
    game's ``policy_parameter_keys``) kept on it: ``"pimc:worlds=4,tricks=16,heuristic"``
    -> ``["pimc:worlds=4,tricks=16", "heuristic"]``."""
    return join_pimc_parameters([p.strip() for p in text.split(",")], keys)
