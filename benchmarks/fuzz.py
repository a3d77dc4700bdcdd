"""The long fuzz: seeded mutants of real pages through every built-in model, page decoding, the
pipeline and model loading (the suite runs a short one, tests/test_fuzz.py).

    PYTHONPATH=. python benchmarks/fuzz.py --cases 10000
    PYTHONPATH=. python benchmarks/fuzz.py --cases 10000 --pages ../shared/datasets/dragnet

Mutants come from the example project's pages and from synthetic sites, and from ``--pages``
folders too (one site per folder of ``*.html`` files).  Prints the cases, the failures (each with
the model and the mutations that caused it), the cleans over the CPU-time budget and the slowest
clean; exits 1 on any failure or clean over the budget.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from scrapy_boilerplate.testing.fuzz import MAX_PAGE_BYTES, SECONDS_PER_100KB, builtin_models, run_fuzz

EXAMPLES = Path(__file__).resolve().parent.parent / "example_project"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000, help="mutant pages (default 10000)")
    parser.add_argument("--model-files", type=int, default=None, help="damaged model files (default: cases / 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pages", action="append", default=[], help="more folders of saved pages")
    parser.add_argument("--models", default=None, help="comma-separated models (default: every built-in one)")
    args = parser.parse_args()
    folders = [EXAMPLES / "saved_pages", EXAMPLES / "demo" / "corpus", *args.pages]
    models = args.models.split(",") if args.models else builtin_models()
    started = time.perf_counter()
    report = run_fuzz(args.cases, args.seed, folders, args.model_files, models=models)
    print(f"models: {', '.join(models)}; seed {args.seed}; {time.perf_counter() - started:.0f} s")
    print(f"cases: {report.cases} mutant pages, {report.model_files} damaged model files")
    print(f"calls: {report.fits} fits, {report.cleans} cleans")
    breaches = report.failures + report.slow
    print(f"failures: {len(report.failures)}; cleans over the time budget: {len(report.slow)}")
    for (step, model, error), count in Counter(
        (f.step, f.model, f.error.split("(")[0] if f.step != "slow" else "over budget") for f in breaches
    ).most_common():
        print(f"  {count:5d}  {step:9s} {model:12s} {error}")
    for failure in breaches[:20]:
        print(f"  e.g. {failure.step} {failure.model} after {'+'.join(failure.mutations)}: {failure.error}")
    slowest = report.slowest
    if slowest is not None:
        print(
            f"slowest page (under {MAX_PAGE_BYTES:,} bytes): {slowest.model} took {slowest.seconds:.2f} s "
            f"for {slowest.size:,} bytes ({slowest.per_100kb:.2f} s per 100 KB; budget {SECONDS_PER_100KB:.1f}) "
            f"after {'+'.join(slowest.mutations)}"
        )
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
