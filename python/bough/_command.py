"""The `bough` command of an installed wheel: the CLI packaged in the wheel as bough/bin/bough."""
import os
import sys


def main():
    cli = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "bough")
    if not os.access(cli, os.X_OK):
        sys.exit(f"bough: this installation has no command line tool ({cli} is missing)")
    os.execv(cli, ["bough", *sys.argv[1:]])
