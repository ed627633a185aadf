import sys

from skat.cli import main

sys.exit(main())
