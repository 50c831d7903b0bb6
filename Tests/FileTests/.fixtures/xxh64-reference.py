#!/usr/bin/env python3
"""An independent XXH64 (from the specification, in plain Python) that produced the
expected digests in Tests/ImageTests/XXH64Tests.swift, and a cross-check against zstd.

zstd's frame checksum is the low 32 bits of XXH64 (seed 0) of the content, so
`python3 xxh64-reference.py --check-with-zstd` compares this implementation with a
different one on random data of many lengths. Known published values also agree:
XXH64("", 0) = ef46db3751d8e999, XXH64("abc", 0) = 44bc2cf5ad770999, and the xxhsum
sanity-buffer values used in the tests.
"""
import os
import subprocess
import sys

M = (1 << 64) - 1
P1, P2, P3 = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
P4, P5 = 0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M


def round_(acc, lane):
    return (rotl((acc + lane * P2) & M, 31) * P1) & M


def merge(acc, value):
    return ((acc ^ round_(0, value)) * P1 + P4) & M


def xxh64(data, seed=0):
    n, i = len(data), 0
    if n >= 32:
        v = [(seed + P1 + P2) & M, (seed + P2) & M, seed, (seed - P1) & M]
        while i + 32 <= n:
            for k in range(4):
                v[k] = round_(v[k], int.from_bytes(data[i + 8 * k:i + 8 * k + 8], "little"))
            i += 32
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M
        for k in range(4):
            h = merge(h, v[k])
    else:
        h = (seed + P5) & M
    h = (h + n) & M
    while i + 8 <= n:
        h ^= round_(0, int.from_bytes(data[i:i + 8], "little"))
        h = (rotl(h, 27) * P1 + P4) & M
        i += 8
    if i + 4 <= n:
        h ^= (int.from_bytes(data[i:i + 4], "little") * P1) & M
        h = (rotl(h, 23) * P2 + P3) & M
        i += 4
    while i < n:
        h ^= (data[i] * P5) & M
        h = (rotl(h, 11) * P1) & M
        i += 1
    h ^= h >> 33
    h = (h * P2) & M
    h ^= h >> 29
    h = (h * P3) & M
    return h ^ (h >> 32)


def sanity_buffer(length):
    """xxhsum's test buffer: byte i is the top byte of 2654435761 * 11400714785074694797^i."""
    out, generator = bytearray(), 2654435761
    for _ in range(length):
        out.append(generator >> 56)
        generator = (generator * 11400714785074694797) & M
    return bytes(out)


def check_with_zstd():
    for n in [0, 1, 3, 4, 7, 8, 9, 15, 31, 32, 33, 63, 64, 100, 1000, 4097, 100003]:
        data = os.urandom(n)
        frame = subprocess.run(["zstd", "-q", "-c", "--check", "-"], input=data, capture_output=True, check=True).stdout
        assert int.from_bytes(frame[-4:], "little") == xxh64(data) & 0xFFFFFFFF, n
    print("zstd agrees")


if __name__ == "__main__":
    if "--check-with-zstd" in sys.argv:
        check_with_zstd()
    buffer = sanity_buffer(2367)
    for n in [3, 4, 7, 8, 12, 31, 32, 33, 63, 64, 65, 100, 1024, 2367]:
        for seed in [0, 2654435761, M]:
            print(f"({n}, 0x{seed:X}, 0x{xxh64(buffer[:n], seed):016X}),")
