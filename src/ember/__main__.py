"""``python -m ember info | demo | bench``: the same as the ``ember`` console script."""

from ember.cli import main

raise SystemExit(main())
