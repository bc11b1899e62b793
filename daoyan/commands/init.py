import click
@click.command("init")
def command() -> None:
    """placeholder"""
