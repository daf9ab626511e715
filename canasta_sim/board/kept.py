"""What one board app keeps (:mod:`canasta_sim.board.app`): the run folders and positions
folder it was given, its analysis jobs and page worker, and the deals, play sessions and whole
games it holds for the page, the oldest let go past a bound.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from .jobs import Jobs, PageWorker

CACHED_DEALS = 32
PLAYS = 16  # play sessions kept
GAMES = 16  # whole games kept (a game left longer resumes from its address)


@dataclass
class Board:
    """What one app serves.

    Attributes
    ----------
    runs : list of pathlib.Path
        The run folders given, numbered from 0 as the page names them.
    positions : pathlib.Path or None
        The folder position files are saved into and read from (None: saving only as a
        browser download).
    """

    runs: list[Path]
    positions: Path | None = None
    jobs: Jobs = field(default_factory=Jobs)
    worker: PageWorker = field(default_factory=PageWorker)
    plays: OrderedDict = field(default_factory=OrderedDict)
    games: OrderedDict = field(default_factory=OrderedDict)
    _deals: OrderedDict = field(default_factory=OrderedDict)
    _play_ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    _game_ids: itertools.count = field(default_factory=lambda: itertools.count(1))

    async def replay(self, source: dict, gone) -> dict:
        """The frames of the deal ``source`` names (:func:`~.requests.deal_source`), replayed
        by the page worker (``gone`` as :meth:`PageWorker.call` takes it) and kept for the
        last :data:`CACHED_DEALS` deals asked for."""
        key = tuple(sorted((k, str(v)) for k, v in source.items()))
        if key not in self._deals:
            self._deals[key] = await self.worker.call({"deal": source}, gone)
            if len(self._deals) > CACHED_DEALS:
                self._deals.popitem(last=False)
        self._deals.move_to_end(key)
        return self._deals[key]

    def add_play(self, session) -> str:
        """Keep a play session (the last :data:`PLAYS` started); its id."""
        play_id = str(next(self._play_ids))
        self.plays[play_id] = session
        if len(self.plays) > PLAYS:
            self.plays.popitem(last=False)
        return play_id

    def play_id(self, session) -> str:
        """The id of a play session kept, kept anew (:meth:`add_play`) when it is not (a
        game's new deal, or one pushed out by later sessions)."""
        for play_id, kept in self.plays.items():
            if kept is session:
                return play_id
        return self.add_play(session)

    def add_game(self, game) -> str:
        """Keep a whole game (the last :data:`GAMES` started or resumed); its id."""
        game_id = str(next(self._game_ids))
        self.games[game_id] = game
        if len(self.games) > GAMES:
            self.games.popitem(last=False)
        return game_id
