import sys

from practice.cli import main

sys.exit(main())
