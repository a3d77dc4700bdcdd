"""Site rules: block paths, the rule a template's sample makes, and the selectors a user pins."""
