"""``tricksim serve``: the web page (play against the bots, study a record, browse
results).  Needs the ``web`` extra (starlette, uvicorn, python-multipart, markdown);
this module imports none of it until the command runs, so the core works without it.
"""
from __future__ import annotations

import ipaddress
import secrets
import socket
from pathlib import Path

import click

from simcore.errors import TricksimError

#: hosts that reach this machine only
LOOPBACK = ("127.0.0.1", "localhost", "::1")
INSTALL = 'the web page needs the web extra: pip install -e ".[web]"'


def _loopback(host: str) -> bool:
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def web_available() -> bool:
    """Whether the web extra is installed."""
    import importlib.util
    return all(importlib.util.find_spec(m) is not None
               for m in ("starlette", "uvicorn", "multipart", "markdown"))


def serve_command(user_errors):
    """The ``serve`` command, with the CLI's error handling passed in."""

    @click.command()
    @click.option("--folder", type=click.Path(file_okay=False), default=".",
                  show_default=True,
                  help="The folder served: its results (run, sweep, compare, batch folders) "
                       "and records are browsable, finished games are saved under "
                       "saved-games/ in it; nothing outside it is readable.")
    @click.option("--host", default="127.0.0.1", show_default=True,
                  help="Address to listen on. Anything but this machine's loopback needs "
                       "--allow-remote and then a token (printed) on every request.")
    @click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
                  help="Port to listen on (0: any free port).")
    @click.option("--allow-remote", is_flag=True,
                  help="Let --host be an address other machines reach (see docs/web.md "
                       "for what that exposes); a random token is required then.")
    @user_errors
    def serve(folder, host, port, allow_remote):
        """Serve the web page: play every game against the bots (with hints), study a
        record move by move, browse result folders.  Prints its address; Ctrl-C stops.

        \b
        Example (each runs until Ctrl-C):
          tricksim serve
          tricksim serve --folder results --port 8000
          tricksim serve --host 0.0.0.0 --allow-remote     # prints a token address
        """
        if not web_available():
            raise TricksimError(INSTALL)
        root = Path(folder)
        if not root.is_dir():
            raise TricksimError(f"--folder '{folder}' is not a folder; give one that exists")
        token = None
        if not _loopback(host):
            if not allow_remote:
                raise TricksimError(f"--host {host} lets other machines in; give "
                                    "--allow-remote too (a token is then required), or "
                                    "keep the default 127.0.0.1")
            token = secrets.token_urlsafe(18)
        import uvicorn

        from .app import make_app
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            sock.close()
            raise TricksimError(f"cannot listen on {host}:{port}: {exc.strerror or exc}; "
                                "give another --port or --host") from None
        bound = sock.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        url = f"http://{shown}:{bound}/" + (f"?token={token}" if token else "")
        click.echo(f"tricksim serve: {url}  (folder {root.resolve()}; Ctrl-C stops)")
        if token:
            click.echo("the token is required on every request; anyone with this address "
                       "can play, study and read the folder (docs/web.md)")
        config = uvicorn.Config(make_app(root, token), log_level="warning")
        server = uvicorn.Server(config)
        try:
            server.run(sockets=[sock])
        finally:
            sock.close()

    return serve
