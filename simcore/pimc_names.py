"""Names of the ``pimc[:worlds=N]`` player and its kernel ids, for games whose pimc
takes the one parameter ``worlds`` (Schnapsen, Wendish): id ``pimc_id + (N << shift)``,
the other policies' ids their index in ``plain`` (below ``1 << shift``)."""


def parse_worlds_policy(name: str, plain: tuple, pimc_id: int, shift: int, default: int,
                        most: int, example: int) -> int:
    """The kernel id of ``name``: one of ``plain``, ``pimc`` or ``pimc:worlds=N`` (N from
    1 to ``most``); ValueError naming what is allowed."""
    if name in plain:
        return plain.index(name)
    if name == "pimc" or name.startswith("pimc:"):
        worlds = default
        for part in filter(None, name[5:].split(";")):
            key, _, val = part.partition("=")
            if key != "worlds" or not val.isdigit() or not 1 <= int(val) <= most:
                raise ValueError(f"bad pimc parameter '{part}': allowed is worlds=N with N "
                                 f"from 1 to {most} (e.g. pimc:worlds={example})")
            worlds = int(val)
        return pimc_id + (worlds << shift)
    raise ValueError(f"unknown policy '{name}'; policies: {', '.join(plain)}, "
                     f"pimc[:worlds=N] (default {default} worlds)")


def worlds_policy_name(pid: int, plain: tuple, pimc_id: int, shift: int) -> str:
    """The canonical name of a kernel id (``pimc:worlds=N`` for pimc)."""
    if pid & ((1 << shift) - 1) == pimc_id:
        return f"pimc:worlds={pid >> shift}"
    return plain[pid]
