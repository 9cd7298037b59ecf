"""``python -m safari_kit``: the same as the ``safari-kit`` command."""
import sys

from safari_kit.cli import main

if __name__ == "__main__":
    sys.exit(main())
