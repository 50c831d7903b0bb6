// A libm that rounds differently from glibc's, loaded with LD_PRELOAD by
// PortableRenderTests: every function below asks the real libm (the next definition
// of its name, dlsym RTLD_NEXT) and returns an answer a few ulps away, as another
// platform's libm might. The number of steps (1 to 4) and their direction come from
// the argument's bits, so the same call always gets the same answer, and neighbouring
// arguments are moved different ways.
//
// Only functions whose results IEEE 754 leaves to the implementation are here: the
// ones it defines exactly (sqrt, fma, floor, ceil, round, trunc, rint, fmod, ...) give
// the same bits on every conforming platform, so moving them would model no platform.
// A moved answer stays inside the function's range (|sin| <= 1, atan2 within
// [-pi, pi], ...), as every real libm's does: when the chosen direction would leave
// it, the answer moves the other way.
//
// At exit the library writes how many answers it changed, per function, one
// "name count" line each, to the file named by PERTURBED_LIBM_REPORT (if set).
//
// Built by the test: cc -shared -fPIC -O2 perturbed-libm.c -o perturbed-libm.so -ldl -lm
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The functions, with the range every answer must stay in. X(name, low, high).
#define ONE_ARGUMENT(X)                         \
    X(sin, -1, 1)                               \
    X(cos, -1, 1)                               \
    X(tan, -INFINITY, INFINITY)                 \
    X(asin, -M_PI_2, M_PI_2)                    \
    X(acos, 0, M_PI)                            \
    X(atan, -M_PI_2, M_PI_2)                    \
    X(sinh, -INFINITY, INFINITY)                \
    X(cosh, 1, INFINITY)                        \
    X(tanh, -1, 1)                              \
    X(asinh, -INFINITY, INFINITY)               \
    X(acosh, 0, INFINITY)                       \
    X(atanh, -INFINITY, INFINITY)               \
    X(exp, 0, INFINITY)                         \
    X(exp2, 0, INFINITY)                        \
    X(exp10, 0, INFINITY)                       \
    X(expm1, -1, INFINITY)                      \
    X(log, -INFINITY, INFINITY)                 \
    X(log2, -INFINITY, INFINITY)                \
    X(log10, -INFINITY, INFINITY)               \
    X(log1p, -INFINITY, INFINITY)               \
    X(cbrt, -INFINITY, INFINITY)                \
    X(erf, -1, 1)                               \
    X(erfc, 0, 2)                               \
    X(tgamma, -INFINITY, INFINITY)              \
    X(lgamma, -INFINITY, INFINITY)
#define TWO_ARGUMENTS(X)                        \
    X(atan2, -M_PI, M_PI)                       \
    X(pow, -INFINITY, INFINITY)                 \
    X(hypot, 0, INFINITY)

// One counter per function (float variants share their double's), in this order.
enum {
#define NAME(name, low, high) index_##name,
    ONE_ARGUMENT(NAME) TWO_ARGUMENTS(NAME) index_sincos, function_count
#undef NAME
};
static const char *const names[function_count] = {
#define NAME(name, low, high) #name,
    ONE_ARGUMENT(NAME) TWO_ARGUMENTS(NAME) "sincos",
#undef NAME
};
static unsigned long changed[function_count];

// SplitMix64's finaliser: every bit of the argument decides the nudge.
static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t bits(double x) {
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

// `value` moved 1 to 4 ulps, the way `key` chooses, staying within [low, high].
// NaN and infinities are left as they are: they are exact in every libm.
static double nudge(double value, uint64_t key, double low, double high, int function) {
    if (!isfinite(value)) return value;
    uint64_t h = mix(key);
    int steps = 1 + (int)(h & 3);
    double toward = (h & 4) ? INFINITY : -INFINITY;
    double moved = value;
    for (int i = 0; i < steps; i++) moved = nextafter(moved, toward);
    if (moved < low || moved > high || !isfinite(moved)) {
        moved = value;
        for (int i = 0; i < steps; i++) moved = nextafter(moved, -toward);
    }
    if (moved < low || moved > high) moved = value;
    if (bits(moved) != bits(value)) __atomic_fetch_add(&changed[function], 1, __ATOMIC_RELAXED);
    return moved;
}

static float nudgef(float value, uint64_t key, double lowBound, double highBound, int function) {
    if (!isfinite(value)) return value;
    float low = (float)lowBound, high = (float)highBound;
    uint64_t h = mix(key);
    int steps = 1 + (int)(h & 3);
    float toward = (h & 4) ? INFINITY : -INFINITY;
    float moved = value;
    for (int i = 0; i < steps; i++) moved = nextafterf(moved, toward);
    if (moved < low || moved > high || !isfinite(moved)) {
        moved = value;
        for (int i = 0; i < steps; i++) moved = nextafterf(moved, -toward);
    }
    if (moved < low || moved > high) moved = value;
    if (moved != value) __atomic_fetch_add(&changed[function], 1, __ATOMIC_RELAXED);
    return moved;
}

// The real function, looked up once (racing threads all store the same pointer).
static void *real(const char *name, void **slot) {
    void *f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (f) return f;
    f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "perturbed-libm: no real %s\n", name);
        abort();
    }
    __atomic_store_n(slot, f, __ATOMIC_RELEASE);
    return f;
}

#define DEFINE_ONE(name, low, high)                                                      \
    double name(double x) {                                                              \
        static void *slot;                                                               \
        double r = ((double (*)(double))real(#name, &slot))(x);                          \
        return nudge(r, bits(x), low, high, index_##name);                               \
    }                                                                                    \
    float name##f(float x) {                                                             \
        static void *slot;                                                               \
        float r = ((float (*)(float))real(#name "f", &slot))(x);                         \
        return nudgef(r, bits(x), low, high, index_##name);                              \
    }
#define DEFINE_TWO(name, low, high)                                                      \
    double name(double x, double y) {                                                    \
        static void *slot;                                                               \
        double r = ((double (*)(double, double))real(#name, &slot))(x, y);               \
        return nudge(r, bits(x) ^ mix(bits(y)), low, high, index_##name);                \
    }                                                                                    \
    float name##f(float x, float y) {                                                    \
        static void *slot;                                                               \
        float r = ((float (*)(float, float))real(#name "f", &slot))(x, y);               \
        return nudgef(r, bits(x) ^ mix(bits(y)), low, high, index_##name);               \
    }
ONE_ARGUMENT(DEFINE_ONE)
TWO_ARGUMENTS(DEFINE_TWO)

// A compiler may join sin(x) and cos(x) of one x into one sincos call.
void sincos(double x, double *s, double *c) {
    static void *slot;
    ((void (*)(double, double *, double *))real("sincos", &slot))(x, s, c);
    *s = nudge(*s, bits(x), -1, 1, index_sincos);
    *c = nudge(*c, ~bits(x), -1, 1, index_sincos);
}

void sincosf(float x, float *s, float *c) {
    static void *slot;
    ((void (*)(float, float *, float *))real("sincosf", &slot))(x, s, c);
    *s = nudgef(*s, bits(x), -1, 1, index_sincos);
    *c = nudgef(*c, ~bits(x), -1, 1, index_sincos);
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("PERTURBED_LIBM_REPORT");
    if (!path || !*path) return;
    FILE *file = fopen(path, "w");
    if (!file) return;
    for (int i = 0; i < function_count; i++) {
        unsigned long n = __atomic_load_n(&changed[i], __ATOMIC_RELAXED);
        if (n) fprintf(file, "%s %lu\n", names[i], n);
    }
    fclose(file);
}
