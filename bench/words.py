"""Royalty word list benchmark: loading the default list, and one lookup in it (RY-17).

    .venv/bin/python bench/words.py

Load: the default SCOWL list (companion/games/royalty/data/words-scowl-70.txt.gz) built from scratch,
without the per-process cache, as the median of several loads; the baseline, measured in the
same run, is the least any loader must do: reading the file's bytes and un-gzipping them.
Lookup: ``word in wordlist`` (WordList.__contains__, as the judge and the capture check do),
the mean over a million lookups of list words and non-words; the baseline is the same loop
over a plain set of the same size built in this process. Both figures include the loop. The
budgets: a load under 0.5 s, a lookup under 1 µs. The judge's whole answer and a
capture check (with lemminflect) are shown too, without a budget.
"""

from __future__ import annotations

import gzip
import random
import statistics
import time
import timeit
from importlib import resources

from companion.games.royalty import words as words_module
from companion.games.royalty.words import DEFAULT_FILE, WordList, capture_check

LOAD_BUDGET_S = 0.5
LOOKUP_BUDGET_US = 1.0
LOADS = 7
LOOKUPS = 1_000_000
SAMPLE = 1000


def median_time(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def mean_lookup(container, sample: list[str]) -> float:
    """Seconds per ``w in container``, the mean over LOOKUPS lookups (loop included)."""
    timer = timeit.Timer("for w in sample: w in container", globals={"sample": sample, "container": container})
    timer.timeit(10)  # warm up
    return min(timer.repeat(repeat=3, number=LOOKUPS // len(sample))) / LOOKUPS


def main() -> None:
    path = resources.files("companion.games.royalty") / "data" / DEFAULT_FILE
    start = time.perf_counter()
    default = WordList.load_default()
    first = time.perf_counter() - start
    uncached = words_module._load_default.__wrapped__
    load = median_time(uncached, LOADS)
    read = median_time(path.read_bytes, LOADS)
    floor = median_time(lambda: gzip.decompress(path.read_bytes()), LOADS)
    print(f"Royalty word list: {len(default)} words from {DEFAULT_FILE} ({len(path.read_bytes()) / 1024:.0f} KiB) "
          "(ratios against baselines measured in this same run)")
    print(f"load, median of {LOADS}: {load * 1e3:.1f} ms = {load / floor:.1f}x the baseline (reading and "
          f"un-gzipping the file: {floor * 1e3:.1f} ms; reading alone {read * 1e3:.2f} ms); first load in this "
          f"process {first * 1e3:.1f} ms; budget {LOAD_BUDGET_S * 1e3:.0f} ms: "
          f"{'within' if max(load, first) < LOAD_BUDGET_S else 'OVER'} ({max(load, first) / LOAD_BUDGET_S:.0%} of it)")

    rng = random.Random(2026)
    listed = rng.sample(sorted(default.words), SAMPLE // 2)
    misses = ["".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(rng.randint(3, 8)))
              for _ in range(SAMPLE // 2)]
    sample = listed + misses
    rng.shuffle(sample)
    plain = set(default.words)
    lookup = mean_lookup(default, sample)
    base = mean_lookup(plain, sample)
    house = mean_lookup(default.with_house(allow=["ZA"], deny=["ZEBRA"]), sample)
    worst = max(lookup, house) * 1e6
    print(f"lookup, mean of {LOOKUPS:,} (half list words, half not): {lookup * 1e9:.0f} ns = {lookup / base:.1f}x "
          f"the baseline (a plain set of the same size: {base * 1e9:.0f} ns); with house words {house * 1e9:.0f} ns; "
          f"budget {LOOKUP_BUDGET_US * 1e3:.0f} ns: {'within' if worst < LOOKUP_BUDGET_US else 'OVER'} "
          f"({worst / LOOKUP_BUDGET_US:.0%} of it)")

    judged = min(timeit.repeat(lambda: default.judge("zebra"), number=10_000, repeat=3)) / 10_000
    start = time.perf_counter()
    capture_check("EAR", "EARS", default)
    lemminflect_first = time.perf_counter() - start
    captured = min(timeit.repeat(lambda: capture_check("EAR", "BEARS", default), number=1000, repeat=3)) / 1000
    print(f"judge('zebra'), whole answer: {judged * 1e6:.2f} µs; capture check EAR -> BEARS: {captured * 1e6:.0f} µs "
          f"(the first capture check loads lemminflect: {lemminflect_first * 1e3:.0f} ms, once per process)")


if __name__ == "__main__":
    main()
