"""Names in simcore/ and cli/ that vulture (tests/test_dead_code.py) reports as unused
but that are used where it cannot see: read by vulture as code, never imported or run.
Each line names the place; add a line here only for a use vulture cannot follow."""
# ruff: noqa
# click commands registered on a group by decorator
analyse  # cli/analysis.py: the `analyse` command
# attributes set for a library that reads them
_.disabled  # cli/main.py: logging.Logger.disabled
_.should_exit  # cli/web/app.py: uvicorn.Server.should_exit
_.CACHE_DIR  # simcore/_cache.py: numba.config.CACHE_DIR
_.use_sticky_edges  # simcore/statistics/plots.py: matplotlib Axes.use_sticky_edges
_.infos  # simcore/envs/aec.py: PettingZoo AECEnv.infos
# module-level magic (lazy attributes, the package's module class)
__getattr__  # simcore/__init__.py and each game's __init__.py: PEP 562 lazy attributes
_.__class__  # simcore/__init__.py: the package module's class
# callbacks whose parameters are fixed by the caller
typingctx  # simcore/bits.py: numba @intrinsic's first parameter
signum  # simcore/players.py: a signal handler's first parameter
dask_setup  # simcore/running/_dask_worker.py: Dask's preload hook
# interfaces of other libraries, called by them
_.observation_space  # simcore/envs/aec.py: PettingZoo AECEnv
_.action_space  # simcore/envs/aec.py: PettingZoo AECEnv
_.make_py_observer  # simcore/envs/openspiel.py: pyspiel.Game
_._legal_actions  # simcore/envs/openspiel.py: pyspiel.State
_._apply_action  # simcore/envs/openspiel.py: pyspiel.State
_._action_to_string  # simcore/envs/openspiel.py: pyspiel.State
_.set_from  # simcore/envs/openspiel.py: pyspiel observer
_.string_from  # simcore/envs/openspiel.py: pyspiel observer
# loaded by name through the registry (simcore/registry.py: "...show:Narrator")
Narrator
# layout constants named for every slot of a range, read or not
D_MAR1, D_TR1, D_EX1, D_MC1, D_MP1, L_HAND1  # simcore/games/schnapsen/play.py
V_FOUR, V_THREE, V_SHARP  # simcore/games/wendish/cards.py
