"""``python -m bench.box_entry``: see :mod:`bench.box_entry.run`."""

import sys

from bench.box_entry.run import main

sys.exit(main())
