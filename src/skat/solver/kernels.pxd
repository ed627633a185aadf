# C declarations of skat/solver/kernels.py, the solver's kernels compiled by Cython (setup.py).
#
# The constants are C constants here, so that the compiler folds them (the search indexes its stack
# FS[d * F_SIZE + field] on every step); kernels.py defines the same values for the uncompiled module
# (tests/test_solver_kernels.py compares the two). `cpdef enum` also makes them module attributes.

cpdef enum:
    MODE_POINTS = 0
    MODE_TRICKS = 1
    MODE_NULL = 2
    MODE_RAMSCH = 3
    TT_BITS = 20
    P_GT = 0
    P_DECL = 1
    P_MODE = 2
    P_GEN = 3
    P_NODES = 4
    P_TTMASK = 5
    P_LIMIT = 6
    P_ABORT = 7
    P_DEADLINE = 8
    P_SKAT = 9
    P_SIZE = 16
    F_H0 = 0
    F_H1 = 1
    F_H2 = 2
    F_LEAD = 3
    F_N = 4
    F_C0 = 5
    F_C1 = 6
    F_ALPHA = 7
    F_BETA = 8
    F_A0 = 9
    F_B0 = 10
    F_BEST = 11
    F_BMOVE = 12
    F_K = 13
    F_I = 14
    F_P = 15
    F_TV = 16
    F_KEY = 17
    F_IDX = 18
    F_FOUND = 19
    F_OLO = 20
    F_OHI = 21
    F_PLY = 22
    F_SIZE = 24
    MB_SIZE = 12
    _CLOCK_EVERY = 4096
    _N_GAMES = 7
    _ENTER = 0
    _NEXT = 1
    _RETURN = 2

# The bit operations, the prefetch and the clock: gcc/clang builtins and clock_gettime. Overflowing
# arithmetic is unsigned (the hash and the random numbers): signed overflow is undefined in C.
cdef extern from *:
    """
    #include <time.h>
    #define SKAT_HASH_MUL 0x9E3779B97F4A7C15ULL
    #define SKAT_LCG_MUL 6364136223846793005ULL
    #define SKAT_LCG_ADD 1442695040888963407ULL
    #define SKAT_MASK64 0xFFFFFFFFFFFFFFFFULL
    static inline long long skat_popcount(long long x) { return __builtin_popcountll((unsigned long long)x); }
    static inline long long skat_lowest_bit(long long x) { return __builtin_ctzll((unsigned long long)x); }
    static inline long long skat_highest_bit(long long x) { return 63 - __builtin_clzll((unsigned long long)x); }
    static inline void skat_prefetch(const long long *base, long long i) { __builtin_prefetch(base + i, 0, 3); }
    static inline long long skat_monotonic_ns(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (long long)ts.tv_sec * 1000000000LL + (long long)ts.tv_nsec;
    }
    """
    const unsigned long long HASH_MUL "SKAT_HASH_MUL"
    const unsigned long long LCG_MUL "SKAT_LCG_MUL"
    const unsigned long long LCG_ADD "SKAT_LCG_ADD"
    const unsigned long long MASK64 "SKAT_MASK64"
    long long popcount "skat_popcount"(long long x) nogil
    long long lowest_bit "skat_lowest_bit"(long long x) nogil
    long long highest_bit "skat_highest_bit"(long long x) nogil
    void prefetch "skat_prefetch"(const long long *base, long long i) nogil
    long long monotonic_ns "skat_monotonic_ns"() nogil
