"""The machine's sets of candidates: ``CandidateSets``, one universe as bitmasks.

Candidates are sorted by code so that each code owns one run of bits and counting codes
is a handful of big-int operations. Besides the sets themselves, this holds what can be
read off a set without searching, for the exact search (``engines.turing.machine_exact``)
to bound and prune with: fibers, families of proposals, and the greedy ``_rank``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from math import factorial

from engines.turing.cards import CODES, Code
from engines.turing.machine_costs import _BIG, _DELEGATE_MAX, _log2_ceil
from engines.turing.puzzle import Candidate


def _groups(column: Sequence[int], option_of: dict[int, int]) -> dict[int, int]:
    """Per option, the bitmask of the positions whose mask in ``column`` has it. Bit by bit
    that is a big-int operation per candidate; instead each position's option is a byte,
    and each option's bitmask is read from those bytes as a binary numeral (one C-speed
    pass per option)."""
    present = {option_of[mask]: mask for mask in dict.fromkeys(column)}
    if max(present) > 255:  # not one byte each
        groups: dict[int, int] = dict.fromkeys(present, 0)
        for position, mask in enumerate(column):
            groups[option_of[mask]] |= 1 << position
        return groups
    codes = bytes(map(option_of.__getitem__, reversed(column)))
    found = {}
    for option in present:
        digits = codes.translate(bytes(49 if byte == option else 48 for byte in range(256)))
        found[option] = int(digits, 2)
    return found


class CandidateSets:
    """One universe of candidates, with the tables that questions about its subsets read.
    ``Machine`` searches on it.

    A set of candidates travels with its *letter options*: per letter, a bitmask over the
    distinct criterion masks (``options``) that the tests so far allow there. Tests
    constrain one letter each, so the set is always the universe's members whose option
    at every letter is allowed. When the universe is closed under relabelling the letters
    (nightmare), relabelled sets cost the same, so the memo keys on the sorted options and
    letters with equal options are one choice."""

    def __init__(self, candidates: Sequence[Candidate], letters: int) -> None:
        if not candidates:
            raise ValueError("the machine needs at least one candidate")
        if any(len(c.criteria) != letters for c in candidates):
            raise ValueError(f"every candidate needs {letters} criteria")
        self.letters = letters
        # Candidates with the same masks answer every test alike, so they are one.
        # ``Candidate.masks`` builds a tuple on every call: on the largest universes
        # (350,000 candidates) each is worth taking once.
        unique: dict[tuple[int, ...], Candidate] = {}
        for candidate in candidates:
            unique.setdefault(candidate.masks, candidate)
        pairs = sorted(unique.items(), key=lambda item: (item[1].code, item[0]))
        ordered = [candidate for _, candidate in pairs]
        self.candidates: tuple[Candidate, ...] = tuple(ordered)
        self._index = {masks: i for i, (masks, _) in enumerate(pairs)}
        self.count = len(ordered)
        self.universe = (1 << self.count) - 1
        self._blocks(ordered)
        self._letter_options([masks for masks, _ in pairs])
        # Proposals whose answers are the same on every candidate are one proposal.
        first: dict[tuple[int, ...], int] = {}
        for index, row in enumerate(self._answers):
            first.setdefault(row, index)
        self._proposals = sorted(first.values())
        self.symmetric = letters > 1 and self._closed_under_relabelling()
        self._pattern_cache: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        self._fibers(ordered)

    def _fibers(self, ordered: Sequence[Candidate]) -> None:
        """Fibers for a lower bound on rounds: candidates that agree on every letter but
        ``v`` answer every other letter's tests alike, so only tests of ``v`` tell their
        codes apart, one a round. Kept as (codes in the universe, members), most codes
        first, and only for universes small enough for an exact search to finish."""
        self._fiber_groups: list[tuple[int, int]] = []
        if self.count > _DELEGATE_MAX:
            return
        groups: dict[tuple[int, tuple[int, ...]], list[int]] = {}
        for position, candidate in enumerate(ordered):
            masks = candidate.masks
            for letter in range(self.letters):
                key = (letter, masks[:letter] + masks[letter + 1:])
                groups.setdefault(key, []).append(position)
        for positions in groups.values():
            if len(positions) >= 3:
                bits = sum(1 << position for position in positions)
                if (count := self.code_count(bits)) >= 3:
                    self._fiber_groups.append((count, bits))
        self._fiber_groups.sort(key=lambda item: -item[0])

    def _blocks(self, ordered: Sequence[Candidate]) -> None:
        """Each code owns the bits [start, end) of its candidates. ``_top_bits`` marks each
        block's last bit and ``_low_bits`` the others, for ``code_count``."""
        ends: list[int] = []
        codes: list[Code] = []
        for position, candidate in enumerate(ordered):
            if codes and codes[-1] == candidate.code:
                ends[-1] = position + 1
            else:
                codes.append(candidate.code)
                ends.append(position + 1)
        self._block_end: list[int] = []
        self._block_code: list[Code] = []
        for code, end in zip(codes, ends, strict=True):
            size = end - len(self._block_end)
            self._block_end.extend([end] * size)
            self._block_code.extend([code] * size)
        self._top_bits = sum(1 << (end - 1) for end in ends)
        self._low_bits = self.universe & ~self._top_bits

    def _letter_options(self, masks: Sequence[tuple[int, ...]]) -> None:
        """``_members[v][o]``: the candidates with option ``o`` at letter ``v``;
        ``_answers[p][v]``: those answering ✅ to proposal ``p`` on ``v``;
        ``_accept[p]``: the options accepting ``p``; ``root_options`` per letter.
        ``masks`` are the candidates' criterion masks, in the machine's order."""
        option_of: dict[int, int] = {}
        members: list[dict[int, int]] = []
        for at_letter in zip(*masks, strict=True):
            for mask in dict.fromkeys(at_letter):
                option_of.setdefault(mask, len(option_of))
            members.append(_groups(at_letter, option_of))
        self._members = members
        self.options: tuple[int, ...] = tuple(option_of)
        self.root_options = tuple(sum(1 << o for o in column) for column in members)
        self._accept = [sum(1 << o for o, mask in enumerate(self.options)
                            if mask >> index & 1) for index in range(len(CODES))]
        # Many proposals accept the same options, so their answer sets are shared.
        cache: dict[tuple[int, int], int] = {}
        answers: list[tuple[int, ...]] = []
        for accepted in self._accept:
            row = []
            for letter, column in enumerate(members):
                key = (letter, accepted & self.root_options[letter])
                shared = cache.get(key)
                if shared is None:
                    shared = 0
                    for option, members_of in column.items():
                        if accepted >> option & 1:
                            shared |= members_of
                    cache[key] = shared
                row.append(shared)
            answers.append(tuple(row))
        self._answers = answers

    def _closed_under_relabelling(self) -> bool:
        """Whether every relabelling of the letters of a candidate is a candidate too: the
        candidates sharing a sorted mask tuple must be all of its distinct orders."""
        groups = Counter(map(tuple, map(sorted, self._index)))  # counted at C speed
        for key, count in groups.items():
            orders = factorial(len(key))
            for repeats in Counter(key).values():
                orders //= factorial(repeats)
            if count != orders:
                return False
        return True

    # ------------------------------------------------------------------ sets
    def subset(self, candidates: Sequence[Candidate]) -> int:
        """The bitmask of ``candidates``; ``ValueError`` for one outside the universe.
        Bits are set in a byte array: setting them one by one in a big int would cost
        a pass over the whole int each."""
        bits = bytearray((self.count + 7) // 8)
        for candidate in candidates:
            position = self._index.get(candidate.masks)
            if position is None:
                raise ValueError(f"candidate {candidate.ids} is not one the machine knows")
            bits[position >> 3] |= 1 << (position & 7)
        return int.from_bytes(bits, "little")

    def members(self, s: int) -> list[Candidate]:
        """The candidates of ``s``, in order, found in its binary numeral (one C-speed
        pass) rather than bit by bit (a pass over the whole big int each)."""
        digits = bin(s)[:1:-1]
        found = []
        position = digits.find("1")
        while position >= 0:
            found.append(self.candidates[position])
            position = digits.find("1", position + 1)
        return found

    def options_of(self, s: int) -> tuple[int, ...]:
        """The letter options of ``s``: those some member has, per letter."""
        return tuple(sum(1 << o for o, bits in column.items() if bits & s)
                     for column in self._members)

    def reachable(self, s: int) -> bool:
        """Whether ``s`` is the universe narrowed letter by letter, as tests narrow it:
        exactly the members whose option at each letter some member of ``s`` has. Only
        such sets may share memo entries with their relabellings."""
        rebuilt = self.universe
        for allowed, column in zip(self.options_of(s), self._members, strict=True):
            rebuilt &= sum(bits for o, bits in column.items() if allowed >> o & 1)
        return rebuilt == s

    def _present(self, s: int, options: tuple[int, ...]) -> tuple[int, ...]:
        """``options`` without those no member of ``s`` has."""
        present = []
        for allowed, column in zip(options, self._members, strict=True):
            kept = 0
            rest = allowed
            while rest:
                low = rest & -rest
                if column[low.bit_length() - 1] & s:
                    kept |= low
                rest ^= low
            present.append(kept)
        return tuple(present)

    def single(self, s: int) -> bool:
        """Whether every candidate of the non-empty ``s`` has the same code."""
        low = (s & -s).bit_length() - 1
        return s >> self._block_end[low] == 0

    def code(self, s: int) -> Code:
        return self._block_code[(s & -s).bit_length() - 1]

    def code_count(self, s: int) -> int:
        """How many codes ``s`` holds: the code blocks it touches, all counted at once.
        Adding each block's low bits to their all-ones carries into the block's top bit
        exactly when the block has a member below it."""
        return ((((s & self._low_bits) + self._low_bits) | s) & self._top_bits).bit_count()

    def _key(self, s: int, options: tuple[int, ...]) -> Hashable:
        return tuple(sorted(options)) if self.symmetric else s

    def test(self, s: int, options: tuple[int, ...], proposal: int, letter: int,
             answer: bool) -> tuple[int, tuple[int, ...]]:
        """The set and letter options after ``letter`` answers ``answer`` to the proposal
        of index ``proposal``."""
        yes = self._answers[proposal][letter] & s
        accepted = self._accept[proposal]
        narrowed = options[letter] & (accepted if answer else ~accepted)
        return (yes if answer else s ^ yes,
                (*options[:letter], narrowed, *options[letter + 1:]))

    def row(self, proposal: int, tested: Sequence[int] = ()) -> tuple[int, ...]:
        """The ✅ sets of the proposal of index ``proposal`` per letter; letters tested
        this round may not be tested again, so their sets are left empty."""
        masks = self._answers[proposal]
        return tuple(0 if v in tested else masks[v] for v in range(self.letters))

    # ------------------------------------------------------------------ pruning tables
    # What the search reads off a set without searching: its families of proposals, how
    # good a round looks, the proposals grouped by options, and the fibers' bound.
    def _families(self, s: int, proposals: Sequence[int]) -> list[int]:
        """One proposal per family of splits of ``s`` (the first in ``proposals``),
        leaving out the dominated ones: a proposal whose splits are all splits of another
        is never better, as the other can make the same tests."""
        # A test acts on a letter through the options it accepts among those present
        # there, so proposals alike in those small ints are alike: only one of each
        # needs its splits computed on the big sets.
        present = self._present(s, self.root_options)
        patterns: dict[tuple[int, ...], int] = {}
        for proposal in proposals:
            accepted = self._accept[proposal]
            patterns.setdefault(tuple(accepted & allowed for allowed in present), proposal)
        families: dict[frozenset[int], int] = {}
        for proposal in patterns.values():
            splits = frozenset(min(y, s ^ y) for m in self._answers[proposal]
                               if (y := m & s) and y != s)
            if splits:
                families.setdefault(splits, proposal)
        # Larger families first, so dominators come first. ``having[split]`` marks the
        # kept families with that split: a family is dominated when one has them all.
        having: dict[int, int] = {}
        kept: list[int] = []
        for splits, proposal in sorted(families.items(), key=lambda item: -len(item[0])):
            common = -1
            for split in splits:
                common &= having.get(split, 0)
                if not common:
                    break
            if common:
                continue
            bit = 1 << len(kept)
            for split in splits:
                having[split] = having.get(split, 0) | bit
            kept.append(proposal)
        return kept

    def _rank(self, s: int, row: tuple[int, ...], left: int) -> tuple[int, int]:
        """How good a round of ``row`` looks on ``s``: the codes and candidates of its
        worst leaf when each test is the one whose worse part has the fewest codes."""
        if not left or self.single(s):
            return self.code_count(s), s.bit_count()
        best: tuple[int, int, int] | None = None
        for m in row:
            yes = m & s
            if not yes or yes == s:
                continue
            no = s ^ yes
            rank = max((self.code_count(yes), yes.bit_count()),
                       (self.code_count(no), no.bit_count()))
            if best is None or rank < best[:2]:
                best = (*rank, yes)
        if best is None:
            return self.code_count(s), s.bit_count()
        yes = best[2]
        return max(self._rank(yes, row, left - 1), self._rank(s ^ yes, row, left - 1))

    def _patterns(self, allowed: int) -> list[tuple[int, tuple[int, ...]]]:
        """The proposals grouped by the options among ``allowed`` they accept, leaving
        out the groups whose test on such a letter splits nothing."""
        found = self._pattern_cache.get(allowed)
        if found is None:
            groups: dict[int, list[int]] = {}
            for proposal in self._proposals:
                pattern = self._accept[proposal] & allowed
                if pattern and pattern != allowed:
                    groups.setdefault(pattern, []).append(proposal)
            found = [(pattern, tuple(members)) for pattern, members in groups.items()]
            self._pattern_cache[allowed] = found
        return found

    def _fiber_floor(self, s: int, static: int) -> int:
        """``static`` raised by the fibers (see ``_fibers``): one of ``f`` codes needs
        ``ceil(log2 f)`` tests of its letter, each in a round of its own."""
        best = static
        rounds = best // _BIG
        for count, bits in self._fiber_groups:
            if count <= 1 << rounds:
                break  # no fiber left can have more than 2 ** rounds codes
            part = bits & s
            if part:
                need = _log2_ceil(self.code_count(part))
                if need > rounds:
                    rounds = need
                    best = _BIG * need + need
        return best
