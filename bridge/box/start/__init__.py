"""Starting a box from what a group already has (issue #24 point 5): a Tabletop Simulator save of
its box or a VASSAL module gives the board's picture and the names and pictures of its pieces and
cards, which the game's box tools then use (a map traced on the board's picture, its places named
from the list; a card's picture may be enrolled as its face).

The start is game-neutral: it says what the file shows, never what it means in a game. Both kinds
of file come from anyone, so they are read as a box file is (``bridge.box.archive``): limits
checked before a byte is inflated, XML parsed by defusedxml, pictures measured from their headers
before they are decoded, and nothing fetched from the network unless the host asks.
"""

from .common import Picture, Start, write_pictures
from .read import read_start

__all__ = ["Picture", "Start", "read_start", "write_pictures"]
