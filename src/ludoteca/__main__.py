"""``python -m ludoteca`` runs the ``ludoteca`` command."""

import sys

from ludoteca.cli import main

sys.exit(main())
