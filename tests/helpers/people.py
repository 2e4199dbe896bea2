"""The people and the place of service-level tests."""

from __future__ import annotations

from bot.service import Place, User

ALICE = User("test", "alice", "Alice")
BOB = User("test", "bob", "Bob")
CAROL = User("test", "carol", "Carol")
PLACE = Place("test", "channel-1", emoji=False)
