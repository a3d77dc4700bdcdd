"""Regenerate ``example_project/saved_pages``: two synthetic sites with gold article text.

python example_project/make_saved_pages.py
"""

from pathlib import Path

from scrapy_boilerplate.testing.synthetic import write_corpus

if __name__ == "__main__":
    target = Path(__file__).resolve().parent / "saved_pages"
    count = write_corpus(str(target), {"news.example": 8, "blog.example": 6})
    print(f"wrote {count} pages under {target}")
