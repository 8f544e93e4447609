"""`python -m tether.web`: the web client without the rest of the command line."""

from tether.web.command import main

raise SystemExit(main())
