"""Example Scrapy project that cleans boilerplate with scrapy-boilerplate."""
