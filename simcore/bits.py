"""Bit helpers and the counter-based random numbers every kernel uses.

Hands, piles and tricks are bit masks (``uint64``); these helpers are the
few bit operations the kernels need, as LLVM intrinsics so that each is one
instruction.  Randomness is a splitmix64 stream per game, seeded from
``(seed, game index)`` alone, so a game plays the same whatever the thread
count or chunking of the run it belongs to.  The solvers' shared steps (the move
ordering's sort, an alpha-beta child's update) sit here too.
"""
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

U1 = np.uint64(1)
U0 = np.uint64(0)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_MASK32 = np.uint64(0xFFFFFFFF)
MASK32 = _MASK32
S32 = _S32


def _bit_intrinsic(name, with_flag):
    @intrinsic
    def _op(typingctx, x):
        if not isinstance(x, types.Integer):
            return None
        sig = types.uint64(x)

        def codegen(context, builder, signature, args):
            v = context.cast(builder, args[0], signature.args[0], types.uint64)
            i64 = ir.IntType(64)
            if with_flag:
                fnty = ir.FunctionType(i64, [i64, ir.IntType(1)])
                fn = builder.module.declare_intrinsic(name, [i64], fnty)
                return builder.call(fn, [v, ir.Constant(ir.IntType(1), 0)])
            fnty = ir.FunctionType(i64, [i64])
            fn = builder.module.declare_intrinsic(name, [i64], fnty)
            return builder.call(fn, [v])

        return sig, codegen

    return _op


popcount = _bit_intrinsic("llvm.ctpop", False)
popcount.__doc__ = "Number of set bits of a 64-bit integer (uint64)."
ctz = _bit_intrinsic("llvm.cttz", True)
ctz.__doc__ = "Count of trailing zero bits (64 for zero)."
clz = _bit_intrinsic("llvm.ctlz", True)
clz.__doc__ = "Count of leading zero bits (64 for zero)."


@njit(cache=True, inline="always")
def highest_bit(x):
    """Index of the highest set bit of a non-zero mask."""
    return np.int64(63) - np.int64(clz(x))


@njit(cache=True, inline="always")
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero mask."""
    return np.int64(ctz(x))


def _bmi2_intrinsic(name):
    """A BMI2 instruction of two uint64 operands (``llvm.x86.bmi.<name>.64``) as a numba
    intrinsic: one instruction on CPUs that have it."""
    @intrinsic
    def _op(typingctx, src, mask):
        if not (isinstance(src, types.Integer) and isinstance(mask, types.Integer)):
            return None
        sig = types.uint64(src, mask)

        def codegen(context, builder, signature, args):
            a = context.cast(builder, args[0], signature.args[0], types.uint64)
            b = context.cast(builder, args[1], signature.args[1], types.uint64)
            i64 = ir.IntType(64)
            fnty = ir.FunctionType(i64, [i64, i64])
            fn = cgutils_get_or_insert(builder.module, fnty, f"llvm.x86.bmi.{name}.64")
            return builder.call(fn, [a, b])

        return sig, codegen

    return _op


#: BMI2 parallel bit deposit
_pdep = _bmi2_intrinsic("pdep")
#: BMI2 parallel bit extract
_pext = _bmi2_intrinsic("pext")


def cgutils_get_or_insert(module, fnty, name):
    """Declare (once) an LLVM function in a module."""
    from numba.core import cgutils
    return cgutils.get_or_insert_function(module, fnty, name)


def _host_has_bmi2() -> bool:
    try:
        from llvmlite import binding as ll
        return bool(ll.get_host_cpu_features().get("bmi2", False))
    except Exception:  # pragma: no cover - unusual llvmlite builds
        return False


HAS_BMI2 = _host_has_bmi2()


@njit(cache=True, inline="always")
def _kth_bit_pdep(mask, k):
    return np.int64(ctz(_pdep(U1 << np.uint64(k), np.uint64(mask))))


@njit(cache=True, inline="always")
def _kth_bit_loop(mask, k):
    m = np.uint64(mask)
    for _ in range(k):
        m &= m - U1
    return np.int64(ctz(m))


# numba's cache is keyed by the CPU, so the choice made here is safe to cache
kth_bit = _kth_bit_pdep if HAS_BMI2 else _kth_bit_loop
kth_bit.__doc__ = "Index of the k-th (from 0, lowest first) set bit of ``mask``."


@njit(cache=True, inline="always")
def _compress_pext(x, mask):
    return _pext(np.uint64(x), np.uint64(mask))


@njit(cache=True, inline="always")
def _compress_loop(x, mask):
    x = np.uint64(x)
    m = np.uint64(mask)
    out = U0
    k = U0
    while m != U0:
        low = m & (U0 - m)
        if (x & low) != U0:
            out |= U1 << k
        k += U1
        m ^= low
    return out


compress_bits = _compress_pext if HAS_BMI2 else _compress_loop
compress_bits.__doc__ = ("The bits of ``x`` at the set bits of ``mask``, packed into the low bits "
                         "in order (BMI2 ``pext``).")


@intrinsic
def prefetch(typingctx, addr):
    """Ask the CPU to bring the cache line at address ``addr`` (an integer, e.g.
    ``arr.ctypes.data``) in, for a read soon; no effect on any value."""
    if not isinstance(addr, types.Integer):
        return None
    sig = types.void(addr)

    def codegen(context, builder, signature, args):
        ptrty = ir.PointerType(ir.IntType(8))
        p = builder.inttoptr(args[0], ptrty)
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptrty, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", [ptrty], fnty)
        builder.call(fn, [p, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, inline="always")
def mix64(z):
    """The splitmix64 finaliser: a bijective scramble of 64 bits."""
    z = np.uint64(z)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def game_stream(seed, index):
    """Initial RNG state of game ``index`` of a run with ``seed``."""
    return mix64(mix64(np.uint64(seed) ^ GOLDEN) + np.uint64(index) * GOLDEN)


@njit(cache=True, inline="always")
def next_u64(state):
    """Advance a splitmix64 state; returns (new_state, 64 random bits)."""
    state = state + GOLDEN
    return state, mix64(state)


@njit(cache=True, inline="always")
def bounded(state, n):
    """A uniform integer in [0, n) for n < 2**32 (Lemire's multiply-shift).

    Returns (new_state, value).
    """
    state, r = next_u64(state)
    return state, np.int64(((r >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True, inline="always")
def uniform01(state):
    """A uniform float in [0, 1); returns (new_state, value)."""
    state, r = next_u64(state)
    return state, np.float64(r >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def mask_ids(mask, out):
    """Write the indices of the set bits of ``mask`` into ``out``, lowest first;
    returns how many there are."""
    n = 0
    m = np.uint64(mask)
    while m != U0:
        out[n] = np.int64(ctz(m))
        n += 1
        m &= m - U1
    return n


@njit(cache=True, inline="always")
def sort_by_key_desc(items, keys, n):
    """Sort ``items[:n]`` with ``keys[:n]`` in place, highest key first; equal keys keep
    their order (an insertion sort: the solvers' move ordering, a handful of moves)."""
    for i in range(1, n):
        a = items[i]
        k = keys[i]
        j = i - 1
        while j >= 0 and keys[j] < k:
            items[j + 1] = items[j]
            keys[j + 1] = keys[j]
            j -= 1
        items[j + 1] = a
        keys[j + 1] = k


@njit(cache=True, inline="always")
def ab_child(maxing, v, act, best, best_act, alpha, beta):
    """Alpha-beta, one child searched: its value ``v`` (reached by ``act``) into the
    node's best value and action, and the window it narrows (``alpha`` raised for the
    maximizing side, ``beta`` lowered for the other); returns the four (the solvers'
    common step; the caller cuts off once ``alpha >= beta``)."""
    if maxing:
        if v > best:
            best = v
            best_act = act
            if v > alpha:
                alpha = v
    elif v < best:
        best = v
        best_act = act
        if v < beta:
            beta = v
    return best, best_act, alpha, beta


@njit(cache=True, inline="always")
def draw_from_mask(state, pool, k, ids):
    """``k`` ids drawn uniformly without replacement from the set bits of ``pool``
    (k at most their count): a partial Fisher-Yates over ``ids``, which is left holding
    the pool's ids with the draws first.  One 64-bit draw per id, Lemire's multiply-shift
    on its high half.  Returns (new_state, the mask of the drawn ids) (the pimc samplers'
    "the opponent's unknown cards")."""
    na = 0
    m = np.uint64(pool)
    while m != U0:
        ids[na] = lowest_bit(m)
        na += 1
        m &= m - U1
    got = U0
    for i in range(k):
        state, off = bounded(state, na - i)
        j = i + off
        c = ids[j]
        ids[j] = ids[i]
        ids[i] = c
        got |= U1 << np.uint64(c)
    return state, got


@njit(cache=True)
def shuffle_inplace(state, arr, n):
    """Fisher-Yates shuffle of ``arr[:n]``; returns the new RNG state.

    Each 64-bit draw gives two swaps (Lemire's multiply-shift on each 32-bit
    half; the bias, below n / 2**32, is far under any simulation's noise).
    """
    i = n - 1
    while i > 0:
        state, r = next_u64(state)
        j = np.int64(((r & _MASK32) * np.uint64(i + 1)) >> _S32)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t
        i -= 1
        if i > 0:
            j = np.int64(((r >> _S32) * np.uint64(i + 1)) >> _S32)
            t = arr[i]
            arr[i] = arr[j]
            arr[j] = t
            i -= 1
    return state


def seed_from_entropy():
    """A fresh random seed for runs started without ``--seed``."""
    return int(np.random.SeedSequence().entropy % (2**63))
