"""Training the page-type classifier (needs the ``train`` extra: LightGBM)."""
