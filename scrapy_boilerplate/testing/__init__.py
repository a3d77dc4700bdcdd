"""Synthetic sites with known article text, a local web server and a seeded fuzzer, for tests,
benchmarks and the demo.

Nothing in the crawl, the models or the command line imports this package.
"""
