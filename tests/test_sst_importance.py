"""Site style tree importance: sums of feature entropies."""


def test_spread_total_sums_the_entropies_of_features_on_several_pages():
    from scrapy_boilerplate.models.style_tree.importance import EntropyCache, entropy

    per_pages = [{0: 1, 1: 1}, {0: 3}, {0: 1, 1: 2, 2: 1}, {1: 1, 2: 1}]
    cache = EntropyCache()
    expected = entropy([1, 1], 3) + entropy([1, 2, 1], 3) + entropy([1, 1], 3)
    assert cache.spread_total(per_pages, 3) == expected
    assert cache.spread_total(per_pages, 3) == expected  # the second time from the cache
    assert cache.spread_total([{0: 2}], 3) == 0.0
