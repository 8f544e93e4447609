"""`python -m tether`: the command line."""

import sys

from tether.cli import main

if __name__ == "__main__":
    sys.exit(main())
