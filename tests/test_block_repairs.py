"""The repairs of the improved block models, with hand-computed expectations."""

from __future__ import annotations

from scrapy_boilerplate.html import iter_blocks, parse_html
from scrapy_boilerplate.models.blocks.repairs import best_run, link_density


def test_best_run_pays_for_removed_characters_between_kept_ones():
    lengths, kept = [10, 5, 100, 3, 50], [True, False, True, False, True]
    # penalty 4: values 10, -20, 100, -12, 50 -> best run is blocks 2..4 (138)
    assert best_run(lengths, kept, penalty=4.0) == (2, 5)
    # penalty 1: values 10, -5, 100, -3, 50 -> the whole page (152)
    assert best_run(lengths, kept, penalty=1.0) == (0, 5)
    assert best_run([5, 5], [False, False]) == (0, 0)


def test_link_density_is_the_share_of_link_text():
    root = parse_html("<body><p>Read <a href='/a'>this story</a></p><li><a href='/b'>Only a link</a></li></body>").root
    story, links = list(iter_blocks(root))
    assert link_density(story) == len("this story") / len("Read this story")
    assert link_density(links) == 1.0
