"""mulberry32, bit-for-bit the generator in src/main/stats/random.ts, and the shared helpers
(type-7 quantile, percentile interval) so that Python reproduces the TypeScript resamples."""

M32 = 0xFFFFFFFF


def mulberry32(seed):
    a = int(seed) & M32

    def nxt():
        nonlocal a
        a = (a + 0x6D2B79F5) & M32
        t = ((a ^ (a >> 15)) * (1 | a)) & M32
        t = ((t + (((t ^ (t >> 7)) * (61 | t)) & M32)) & M32) ^ t
        return ((t ^ (t >> 14)) & M32) / 4294967296

    return nxt


def random_index(rng, n):
    return int(rng() * n)  # floor for non-negative values


def quantile_sorted(sorted_vals, p):
    """Hyndman & Fan type 7 (numpy 'linear'), same arithmetic as quantile.ts."""
    n = len(sorted_vals)
    h = (n - 1) * p
    lo = int(h // 1)
    hi = min(lo + 1, n - 1)
    f = h - lo
    return sorted_vals[lo] if f == 0 else sorted_vals[lo] + f * (sorted_vals[hi] - sorted_vals[lo])


def percentile_interval(values, level):
    s = sorted(values)
    return [quantile_sorted(s, (1 - level) / 2), quantile_sorted(s, (1 + level) / 2)]
