"""Property tests: random legal play in both variants, checking at every step that the state
serialises, refuses junk without changing, and replays exactly from its seed and log."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import lgame
from tests.helpers.engine_checks import check_typed_text, round_trip

MAX_PLIES = 60

# Characters that move text is made of, so that random strings come near real moves.
MOVE_ALPHABET = "abcdeABCDE012345nesNESWwx >-,;→to"

move_like_text = st.one_of(
    st.text(max_size=24),
    st.text(alphabet=MOVE_ALPHABET, max_size=18),
    st.from_regex(r"\A[a-e][0-5] ?[nesw] ?[nesw]( ?[a-e][0-5] ?[>-]? ?[a-e][0-5]){0,3}\Z",
                  fullmatch=True),
)


def mangle(text: str, data: st.DataObject) -> str:
    """Spellings of a move a user might type that must mean the same move."""
    if data.draw(st.booleans(), label="upper"):
        text = text.upper()
    if data.draw(st.booleans(), label="drop comma"):
        text = text.replace(",", "")
    arrow = data.draw(st.sampled_from([">", "-", "", " ", "->", " to "]), label="arrow")
    text = text.replace(">", arrow)
    if data.draw(st.booleans(), label="squash"):
        text = text.replace(" ", "")
    return "  " + text + " " if data.draw(st.booleans(), label="pad") else text


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), sudden_death=st.booleans(),
       move_limit=st.sampled_from([10, 25, 200]), data=st.data())
def test_random_play_keeps_every_invariant(seed: int, sudden_death: bool, move_limit: int,
                                           data: st.DataObject) -> None:
    options = {"sudden_death": sudden_death, "move_limit": move_limit}
    state = lgame.new_game(options, 2, seed)
    plies = data.draw(st.integers(0, MAX_PLIES), label="plies")
    for _ in range(plies):
        # The serialised state rebuilds to an equal state.
        assert round_trip(state).to_dict() == state.to_dict()
        # The game is over exactly when nobody is to move.
        assert (state.outcome() is None) == bool(state.to_move())
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        assert state.turn == seat
        legal = state.legal_actions(seat)
        assert legal and len(legal) == len(set(legal))
        assert state.legal_actions(1 - seat) == []
        check_typed_text(state, legal, data.draw(move_like_text, label="typed"))
        action = data.draw(st.sampled_from(legal), label="action")
        # What the bot shows for a move can be typed back, in many spellings.
        assert state.parse_action(mangle(state.action_text(action), data), seat) == action
        plies_before = state.plies
        state.apply(seat, action)
        assert state.plies == plies_before + 1
        assert state.actions[-1] == action
        assert state.plies <= move_limit
    assert (state.outcome() is None) == bool(state.to_move())
    assert round_trip(state).to_dict() == state.to_dict()
    again = lgame.replay(options, seed, list(state.actions))
    assert again.to_dict() == state.to_dict()
    if state.outcome() is not None:
        assert state.legal_actions(0) == state.legal_actions(1) == []
