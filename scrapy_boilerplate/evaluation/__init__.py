"""Measuring extraction quality: the token P/R/F1 metric, peers, and the ``bench`` runner."""
