"""The players' links: one unguessable token per player of one game, made from a secret kept
in the data folder (`phones.key`, readable by its owner only). A token is an HMAC of the game's
id and the player's seat, so it reads that game only; a new game gives new tokens, and `renew`
(Settings: New links) makes a new secret, so every link given out before stops working."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from pathlib import Path

from companion.files import make_private_folder, write_atomically

KEY_NAME = "phones.key"
KEY_BYTES = 32
TOKEN_CHARS = 22  # 132 bits of the HMAC, base64url: unguessable, short enough for a QR code


class Links:
    """The secret behind the players' links, and the tokens it makes."""

    def __init__(self, secret: bytes, path: Path | None = None) -> None:
        self._secret = secret
        self.path = path

    @classmethod
    def open(cls, folder: Path) -> Links:
        """The secret kept in `folder` (made there the first time); OSError when it cannot be
        read or written."""
        path = folder / KEY_NAME
        try:
            secret = path.read_bytes()
        except FileNotFoundError:
            secret = b""
        if len(secret) != KEY_BYTES:  # none yet, or damaged: a new one (old links end)
            return cls._made(path)
        return cls(secret, path)

    @classmethod
    def _made(cls, path: Path) -> Links:
        secret = secrets.token_bytes(KEY_BYTES)
        make_private_folder(path.parent)
        write_atomically(path, secret)  # 0600
        return cls(secret, path)

    def renew(self) -> Links:
        """A new secret (kept where this one was): every token made before is refused."""
        if self.path is None:
            return Links(secrets.token_bytes(KEY_BYTES))
        return self._made(self.path)

    def token(self, game: int, seat: int) -> str:
        """The token of the player in `seat` (0 first) of game `game`."""
        digest = hmac.new(self._secret, f"phoenix-phone/{game}/{seat}".encode(),
                          hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode()[:TOKEN_CHARS]

    def seat(self, token: str, game: int, players: int) -> int | None:
        """The seat whose token `token` is in game `game` of `players` players (None: none),
        compared in constant time."""
        found = None
        for seat in range(players):
            if hmac.compare_digest(self.token(game, seat).encode(), token.encode()):
                found = seat
        return found
