"""``python -m croupier``: the command line, as the ``croupier`` script."""

from croupier.cli import app

app(prog_name="croupier")
