"""Synthetic sites with known article text and a local web server, for tests, benchmarks and the demo.

Nothing in the crawl, the models or the command line imports this package.
"""
