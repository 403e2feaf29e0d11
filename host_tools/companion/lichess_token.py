"""The Lichess personal API token: from ``LICHESS_TOKEN``, else a file in the user's config folder.

The file is written with permissions 0600 (only its owner reads it). The token
is never printed nor logged: errors name the file, never its content.
"""

import logging
import os
import re
import stat

import platformdirs

ENV = "LICHESS_TOKEN"
FILE_NAME = "lichess-token"
SCOPE = "board:play"
# Where a person makes a token with the one scope the Board API needs.
CREATE_URL = "https://lichess.org/account/oauth/token/create?scopes[]=board:play&description=Scacchiera"
_SHAPE = re.compile(r"^[A-Za-z0-9_\-]{8,128}$")


class TokenError(ValueError):
    """No token, a malformed one, or one Lichess refuses: the message says what to do."""


def default_path():
    """lichess-token in the user's config folder (platformdirs: ~/.config/scacchiera on Linux)."""
    return os.path.join(platformdirs.user_config_dir("scacchiera", appauthor=False), FILE_NAME)


def check(token, scope=SCOPE, create_url=CREATE_URL):
    """``token`` stripped, or TokenError if it cannot be one (the message does not repeat it)."""
    if not isinstance(token, str) or not token.strip():
        raise TokenError("no Lichess token: make one with the scope %s at %s" % (scope, create_url))
    token = token.strip()
    if not _SHAPE.match(token):
        raise TokenError("that is not a Lichess token (letters, digits and _ only, like lip_…): "
                         "copy it again from %s" % create_url)
    return token


def load(path=None, environ=None, env=ENV):
    """(token, where) from the environment variable ``env`` or the file; (None, None) when there is
    neither. (A club's broadcast token has its own variable and file: host_tools/club/broadcast.py.)"""
    environ = os.environ if environ is None else environ
    if environ.get(env, "").strip():
        return check(environ[env]), "the environment variable %s" % env
    path = path or default_path()
    try:
        with open(path) as f:
            text = f.read()
            mode = os.fstat(f.fileno()).st_mode
    except FileNotFoundError:
        return None, None
    except OSError as e:
        raise TokenError("cannot read %s: %s" % (path, e.strerror))
    if mode & 0o077:
        _make_private(path, mode)
    return check(text), path


def _make_private(path, mode):
    """A token file others could read (0644: copied by hand, an old umask) is made 0600, and said."""
    try:
        os.chmod(path, 0o600)
    except OSError as e:
        raise TokenError("%s is readable by others (%o) and cannot be made private (%s): chmod 600 it"
                         % (path, stat.S_IMODE(mode), e.strerror)) from None
    logging.getLogger("scacchiera.lichess").warning(
        "the Lichess token file %s was readable by others (%o): now 0600, its owner's only", path, stat.S_IMODE(mode))


def save(token, path=None):
    """Write ``token`` to ``path`` (default: the config folder) readable by its owner only: written
    beside it (0600, O_EXCL) and renamed over it, so that nobody else ever sees it and a symbolic
    link planted at ``path`` is never followed (TokenError: it names the link)."""
    token = check(token)
    path = path or default_path()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.islink(path):
        raise TokenError("%s is a symbolic link: the token is not written through it (remove the link)" % path)
    aside = "%s.%d.tmp" % (path, os.getpid())
    try:
        fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        os.unlink(aside)                 # a crashed save's own leftover (O_NOFOLLOW: never a link's target)
        fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (token + "\n").encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(aside, path)              # a link planted meanwhile is replaced, never written through
    return path
