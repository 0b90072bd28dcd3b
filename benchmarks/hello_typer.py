"""The CLI start-up reference of benchmarks/bench.py: a hello-world Typer app.

One command that prints a line. bench.py runs it as ``python -m hello_typer``
from this folder, so it is started the same way as ``python -m adjudicator``
(bytecode cached, the working directory first on sys.path).
"""

import typer

app = typer.Typer()


@app.command()
def hello() -> None:
    """Print a greeting."""
    typer.echo("hello, world")


if __name__ == "__main__":
    app()
