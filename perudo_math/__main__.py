import sys

from perudo_math.cli import main

sys.exit(main())
