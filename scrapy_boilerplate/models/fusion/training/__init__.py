"""Training the fusion weights (needs the ``train`` extra: LightGBM)."""
