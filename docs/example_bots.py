"""Two example bots written in Python (docs/strategy.md).

Play them with a spec ``py:FILE.py:CLASS``, e.g.::

    canasta-sim simulate --deals 200 --bots py:docs/example_bots.py:PileHoarder,expert
    canasta-sim compare py:docs/example_bots.py:EagerMelder careful --deals 100

Each class has one method, ``choose(view, choices)``: ``view`` is a
:class:`canasta_sim.pybot.SeatView` (``view.decision`` is ``"draw"``, ``"meld"`` or
``"discard"``), ``choices`` the legal choices; it returns one of them.
"""

from canasta_sim.pybot import Discard, Draw, Meld, Stop, TakePile

#: Card values (R-04), to keep the points and shed the rest.
VALUES = {"JK": 50, "2": 20, "A": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10}


def cheapest_discard(view, choices):
    """A black three if it has one (it blocks the next player, R-23), else the card of the
    rank it holds fewest of, the cheaper first; wild cards last."""
    hand = view.hand.split()

    def cost(choice: Discard):
        card = choice.card
        if card == "B3":
            return (-1, 0)
        wild = card in ("2", "JK")
        return (wild, hand.count(card), VALUES.get(card, 5))

    return min(choices, key=cost)


class PileHoarder:
    """Takes the discard pile whenever it may (the biggest pile is all there is: the one on
    the table), melds only to go out, discards cheap singles."""

    def choose(self, view, choices):
        if view.decision == "draw":
            takes = [c for c in choices if isinstance(c, TakePile)]
            # the pickup that lays the fewest cards from hand keeps the most for later
            return min(takes, key=lambda c: len(" ".join(c.melds).split())) if takes else Draw()
        if view.decision == "meld":
            out = [c for c in choices if isinstance(c, Meld) and c.out]
            return out[0] if out else Stop()
        return cheapest_discard(view, choices)


class EagerMelder:
    """Draws unless the pile holds 8 cards or more, lays down the meld with the most cards
    at every chance (going out as soon as it can), discards cheap singles."""

    def choose(self, view, choices):
        if view.decision == "draw":
            takes = [c for c in choices if isinstance(c, TakePile) and c.cards >= 8]
            return takes[0] if takes else Draw()
        if view.decision == "meld":
            melds = [c for c in choices if isinstance(c, Meld)]
            if not melds:
                return Stop()
            return max(melds, key=lambda c: (c.out, len(" ".join(c.melds).split())))
        return cheapest_discard(view, choices)
