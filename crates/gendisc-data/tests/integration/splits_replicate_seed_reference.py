#!/usr/bin/env python3
"""Independent reference implementation of `gendisc_data::splits::replicate_seed`.

It follows the algorithm as documented on that function, not the Rust code, and prints the
seeds that `splits_replicate_seeds.rs` checks. Run: python3 splits_replicate_seed_reference.py
"""

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def replicate_seed(study_seed, parts):
    h = study_seed

    def absorb(word):
        nonlocal h
        h = mix64(((h + GAMMA) & MASK) ^ word)

    for part in parts:
        if isinstance(part, int):
            absorb(1)
            absorb(part)
        else:
            data = part.encode("utf-8")
            absorb(2)
            absorb(len(data))
            for start in range(0, len(data), 8):
                chunk = data[start:start + 8].ljust(8, b"\0")
                absorb(int.from_bytes(chunk, "little"))
    absorb(len(parts))
    return h


CASES = [
    (0, []),
    (1, [0]),
    (20240601, ["normal-equal-diagonal", 100, 0]),
    (20240601, ["bernoulli-unequal-full", 400, 399]),
    (2**64 - 1, ["σ-unicode name longer than eight bytes", 2**64 - 1, 7]),
]

if __name__ == "__main__":
    for seed, parts in CASES:
        print(f"{seed} {parts!r} -> {replicate_seed(seed, parts)}")
