"""Example bots written in Python (docs/strategy.md): two fuller ones and ``Minimal``.

Play them with a spec ``py:FILE.py:CLASS``, e.g.::

    canasta-sim simulate --deals 200 --bots py:docs/example_bots.py:PileHoarder,expert
    canasta-sim compare py:docs/example_bots.py:EagerMelder careful --deals 100

Each class has one method, ``choose(view, choices)``: ``view`` is the seat's
:class:`canasta_sim.Observation` (``view.phase_label`` is ``"draw"`` or ``"play"``; fields in
docs/observation.md), ``choices`` the legal candidates of that decision
(:class:`canasta_sim.players.choices.Candidate`, the same ``canasta-sim analyse`` lists) in a
read-only :class:`canasta_sim.players.choices.Choices` sequence; it returns one of them.
"""

from canasta_sim import KINDS

#: Card values (R-04), to keep the points and shed the rest.
VALUES = {"JK": 50, "2": 20, "A": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10}


def cards_laid(c) -> int:
    """Cards a candidate lays from hand: a pickup's cards with the top card and its melds, a
    play's melds (``"A: 2"`` names the rank of a wild card laid alone)."""
    texts = [c.with_, *c.melds]
    return sum(1 for text in texts for token in text.split() if not token.endswith(":"))


def cheapest_discard(view, plays):
    """Of the play candidates ``plays``, the discard of a black three if it has one (it blocks
    the next player, R-23), else of the rank it holds fewest of, the cheaper first; wild
    cards last. A candidate without a discard (the end of the deal after a last-card red
    three, R-45) when there is nothing to discard."""
    hand = view.hand_counts  # cards per kind, in KINDS order

    def cost(c):
        if not c.discard:
            return (True, 0, 0)
        if c.discard == "B3":
            return (-1, 0, 0)
        wild = c.discard in ("2", "JK")
        return (wild, hand[KINDS.index(c.discard)], VALUES.get(c.discard, 5))

    return min(plays, key=cost)


class PileHoarder:
    """Takes the discard pile whenever it may (the biggest pile is all there is: the one on
    the table), melds only to go out, discards cheap singles."""

    def choose(self, view, choices):
        if view.phase_label == "draw":
            takes = [c for c in choices if c.move == "take"]
            # the pickup that lays the fewest cards from hand keeps the most for later
            return min(takes, key=cards_laid) if takes else choices[0]  # "draw" comes first
        out = [c for c in choices if c.going_out]
        if out:
            return out[0]
        return cheapest_discard(view, [c for c in choices if not c.melds])


class EagerMelder:
    """Draws unless the pile holds 8 cards or more, lays down the plan with the most cards
    (going out as soon as it can), discards cheap singles."""

    def choose(self, view, choices):
        if view.phase_label == "draw":
            takes = [c for c in choices if c.move == "take" and view.pile_size >= 8]
            return takes[0] if takes else choices[0]
        most = max((c.going_out, cards_laid(c)) for c in choices)
        return cheapest_discard(view, [c for c in choices if (c.going_out, cards_laid(c)) == most])


class Minimal:
    """The smallest bot of docs/strategy.md: draws unless the pile holds 10 cards or more,
    then takes it the first way listed; plays the first candidate (the empty plan's first
    discard, when it has one)."""

    def choose(self, view, choices):
        if view.phase_label == "draw":
            takes = [c for c in choices if c.move == "take"]
            return takes[0] if takes and view.pile_size >= 10 else choices[0]
        return choices[0]  # the empty plan's first discard, when it has one
