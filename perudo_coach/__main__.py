import sys

from perudo_coach.cli import main

sys.exit(main())
