"""The players' links (companion/web/links.py): one unguessable token per player of one game,
from a secret kept in the data folder; another game, another seat or new links give other
tokens, and a token that is not one finds no player."""

from __future__ import annotations

import stat
import string

from hypothesis import given
from hypothesis import strategies as st

from companion.web.links import KEY_BYTES, KEY_NAME, TOKEN_CHARS, Links

URL_SAFE = set(string.ascii_letters + string.digits + "-_")


def test_the_secret_is_made_once_kept_private_and_read_again(tmp_path):
    first = Links.open(tmp_path)
    key = tmp_path / KEY_NAME
    assert len(key.read_bytes()) == KEY_BYTES
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    again = Links.open(tmp_path)
    assert again.token(7, 2) == first.token(7, 2)


def test_a_damaged_secret_is_replaced_and_its_links_end(tmp_path):
    before = Links.open(tmp_path).token(1, 0)
    (tmp_path / KEY_NAME).write_bytes(b"short")
    after = Links.open(tmp_path)
    assert after.token(1, 0) != before
    assert after.seat(before, 1, 4) is None


def test_new_links_refuse_the_old_tokens_and_are_kept(tmp_path):
    links = Links.open(tmp_path)
    old = links.token(3, 1)
    renewed = links.renew()
    assert renewed.seat(old, 3, 4) is None
    assert renewed.seat(renewed.token(3, 1), 3, 4) == 1
    assert Links.open(tmp_path).token(3, 1) == renewed.token(3, 1)


@given(game=st.integers(1, 10**9), players=st.integers(2, 4), data=st.data())
def test_each_token_finds_its_own_seat_of_its_own_game_only(game, players, data):
    links = Links(b"k" * KEY_BYTES)
    seat = data.draw(st.integers(0, players - 1))
    token = links.token(game, seat)
    assert len(token) == TOKEN_CHARS and set(token) <= URL_SAFE
    assert links.seat(token, game, players) == seat
    assert links.seat(token, game + 1, players) is None
    assert all(links.token(game, other) != token for other in range(players) if other != seat)


@given(st.text(max_size=40))
def test_any_other_text_finds_no_player(text):
    links = Links(b"s" * KEY_BYTES)
    tokens = {links.token(5, seat) for seat in range(4)}
    if text not in tokens:
        assert links.seat(text, 5, 4) is None
