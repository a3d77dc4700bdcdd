"""Test support: crawl and store harnesses, test-only site models, Redis, Scrapy-version shims, a PNG reader,
a headless browser driver and the inspection report's token checks."""
