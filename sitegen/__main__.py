from sitegen.cli import run_command

run_command()
