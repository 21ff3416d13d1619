"""The deck designs the card classifier learns from, and rendering them to card images.

Every aisleriot deck (``/usr/share/aisleriot/cards/*.svgz``, Debian package ``gnome-cards-data``)
is one SVG document laid out as a 13 x 5 grid: rows clubs, diamonds, hearts, spades, extras;
columns ace, 2..10, jack, queen, king; the extras row holds two jokers and, in column 2, the
card back. Rendering one card by its SVG element id is unreliable (many ids render a fragment),
so the whole document is rendered once with ``rsvg-convert`` and the grid is sliced.
The usable KDE decks (``vision/render/kdedecks.py``, Debian package ``kdegames-card-data-kf5``) follow
the aisleriot ones as further training designs named ``kde-NAME``; none is held out.
datasets/README.md lists which decks are used, held out or left out, and why.

Rendered cards are cached under ``datasets/cache/decks/`` (git-ignored) as one ``.npz`` per deck.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from rules.cards import DECK_52, Rank, Suit
from vision.files import save_npz
from vision.render.kdedecks import KDE_DIR, KDE_PREFIX, KDE_USED, kde_deck_path, render_kde_cards

AISLERIOT_DIR = Path("/usr/share/aisleriot/cards")
DEFAULT_CACHE = Path("datasets/cache/decks")
RENDER_CARD_H = 320
"""Rendered card height in pixels: twice the warp height, so scenes can also shrink it."""

GRID_ROWS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
GRID_COLS: tuple[Rank, ...] = (Rank.ACE, *[r for r in Rank if r is not Rank.ACE][:12])
BACK_CELL = (4, 2)
"""(row, column) of the card back in the extras row."""
ASPECT_RANGE = (0.58, 0.80)
"""Accepted card width/height: bridge (0.64) to wide continental cards."""

EXCLUDED: dict[str, str] = {
    "swiss-xvii": "German/Swiss suits (acorns, bells, shields, roses), not French suits",
    "anglo_modern_4_color": "four-colour deck: diamonds yellow, clubs green",
    "neoclassical_4_color": "four-colour deck: diamonds yellow, clubs green",
    "atlasnye_skat": "four-colour (skat) deck: diamonds yellow, spades green",
    "anglo_bitmap": "a bitmap copy of 'anglo' (would leak a held-in design into any split)",
    "gnomangelo_bitmap": "a bitmap copy of 'gnomangelo'",
    "Атласные": "the same design as 'atlasnye' under a Cyrillic file name",
    "guyenne-classic": "court cards carry no rank index (only a suit sign in the corner)",
    "tango_nuevo": "index so large that the corner crop cuts '10' to '1' and loses the suit",
}
"""Aisleriot decks left out of training and evaluation, with the reason."""

HELDOUT: tuple[str, ...] = ("bellot", "plastic", "tigullio")
"""Deck designs never trained on: accuracy on them measures transfer to unseen designs."""


class DeckError(RuntimeError):
    """A deck that cannot be rendered (missing file, missing rsvg-convert, odd geometry)."""


@dataclass(frozen=True)
class Deck:
    """One usable deck design."""

    name: str
    path: Path
    heldout: bool
    source: str = "aisleriot"
    """``aisleriot`` (13 x 5 grid sheet) or ``kde`` (cards found by SVG id)."""


def list_decks(directory: Path = AISLERIOT_DIR, kde_directory: Path = KDE_DIR) -> list[Deck]:
    """Every usable aisleriot deck in ``directory``, sorted by name (excluded ones left out),
    then the usable KDE decks found in ``kde_directory`` in ``KDE_USED`` order (appended, so
    an index into the aisleriot part means the same deck with or without the KDE package)."""
    decks = []
    for path in sorted(directory.glob("*.svgz")):
        name = path.name[: -len(".svgz")]
        if name in EXCLUDED:
            continue
        decks.append(Deck(name=name, path=path, heldout=name in HELDOUT))
    for name in KDE_USED:
        kde_path = kde_deck_path(name, kde_directory)
        if kde_path is not None:
            decks.append(Deck(KDE_PREFIX + name, kde_path, heldout=False, source="kde"))
    return decks


def card_cell_labels() -> dict[str, tuple[int, int]]:
    """Label -> (row, column) of the grid cell holding it: the 52 cards and ``back``."""
    cells = {
        f"{rank.value}{suit.value}": (r, c)
        for r, suit in enumerate(GRID_ROWS)
        for c, rank in enumerate(GRID_COLS)
    }
    assert sorted(cells) == sorted(str(card) for card in DECK_52)
    cells["back"] = BACK_CELL
    return cells


def _render_document(path: Path, width: int) -> np.ndarray:
    """Render a whole SVG(Z) document to a BGRA image ``width`` pixels wide."""
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise DeckError("rsvg-convert not found: install Debian package librsvg2-bin")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "deck.png"
        done = subprocess.run(
            [exe, "-w", str(width), "-o", str(out), str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        image = cv2.imread(str(out), cv2.IMREAD_UNCHANGED) if out.exists() else None
    if done.returncode != 0 or image is None:
        raise DeckError(f"rsvg-convert could not render {path}: {done.stderr.strip()[:200]}")
    if image.ndim == 2 or image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA if image.ndim == 2 else cv2.COLOR_BGR2BGRA)
    return image


def _trim(cell: np.ndarray) -> np.ndarray:
    """The card inside a grid cell: the bounding box of its opaque pixels."""
    ys, xs = np.nonzero(cell[:, :, 3] > 128)
    if len(xs) == 0:
        return cell
    return cell[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def render_deck(deck: Deck, card_h: int = RENDER_CARD_H) -> dict[str, np.ndarray]:
    """Render ``deck``: label -> BGRA card image ``card_h`` pixels tall (alpha = card shape)."""
    if deck.source == "kde":
        try:
            found = render_kde_cards(deck.path, card_h, _render_document)
        except ImportError as exc:
            raise DeckError(f"deck {deck.name!r} needs svgelements (extra 'train')") from exc
        except ValueError as exc:
            raise DeckError(f"deck {deck.name!r} ({deck.path}): {exc}") from exc
        return _checked(deck, found, card_h)
    probe = _render_document(deck.path, 13 * 40)
    cell_aspect = (probe.shape[1] / 13) / (probe.shape[0] / 5)
    width = int(round(13 * card_h * cell_aspect * 1.02))
    sheet = _render_document(deck.path, width)
    h, w = sheet.shape[:2]
    cells: dict[str, np.ndarray] = {}
    for label, (r, c) in card_cell_labels().items():
        y0, y1 = round(r * h / 5), round((r + 1) * h / 5)
        x0, x1 = round(c * w / 13), round((c + 1) * w / 13)
        cells[label] = _trim(sheet[y0:y1, x0:x1])
    return _checked(deck, cells, card_h)


def _checked(deck: Deck, found: dict[str, np.ndarray], card_h: int) -> dict[str, np.ndarray]:
    """``found`` cards resized to ``card_h`` pixels tall, after checking each has card shape."""
    cards: dict[str, np.ndarray] = {}
    for label, card in found.items():
        aspect = card.shape[1] / card.shape[0] if card.shape[0] else 0.0
        if not ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1]:
            raise DeckError(f"deck {deck.name!r}: card {label} has aspect {aspect:.2f}")
        new_w = int(round(card_h * aspect))
        cards[label] = cv2.resize(card, (new_w, card_h), interpolation=cv2.INTER_AREA)
    return cards


def load_deck(
    deck: Deck, cache_dir: Path = DEFAULT_CACHE, card_h: int = RENDER_CARD_H
) -> dict[str, np.ndarray]:
    """``render_deck`` through the on-disk cache (one ``.npz`` per deck and card height)."""
    cache = cache_dir / f"{deck.name}_{card_h}.npz"
    if cache.exists():
        with np.load(cache) as data:
            return {key: data[key] for key in data.files}
    cards = render_deck(deck, card_h)
    save_npz(cache, cards, compressed=True)
    return cards
