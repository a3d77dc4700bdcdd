"""``python -m scrapy_boilerplate`` runs the command-line interface."""

import sys

from scrapy_boilerplate.cli import main

sys.exit(main())
