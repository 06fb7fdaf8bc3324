"""The ``tricksim`` console script: imports the CLI inside a guard, so a Ctrl-C while the
libraries load (numpy, pandas and numba take a second or more) is one line and exit
status 130, as it is once a command runs (``cli.main.user_errors``)."""
import sys


def main() -> None:
    """Console-script entry point: ``cli.main.main`` behind an import-time Ctrl-C guard."""
    try:
        from cli.main import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted (Ctrl-C) while starting; nothing was run\n")
        raise SystemExit(130) from None
    run()


if __name__ == "__main__":
    main()
