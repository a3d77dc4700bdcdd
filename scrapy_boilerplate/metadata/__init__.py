"""What a page declares about itself: title, author, publication date, language."""

from scrapy_boilerplate.metadata.read import FIELDS, PageMetadata, read_metadata

__all__ = ["FIELDS", "PageMetadata", "read_metadata"]
