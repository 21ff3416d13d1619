"""KDE card decks (Debian ``kdegames-card-data-kf5``): whole cards located by their SVG ids.

Every KDE deck (``/usr/share/carddecks/svg-NAME/*.svgz``) names each card's group by one id
scheme, ``{1..10,jack,queen,king}_{club,diamond,heart,spade}`` (``1`` is the ace) plus
``back``; their sheet layouts differ from deck to deck, so the grid slicing used for aisleriot
does not apply. Rendering an id alone with ``rsvg-convert -i`` is not used either: in many decks
the output is a fragment, or a canvas sized by filter regions that says nothing of where the
card lies. Instead the whole document is rendered once, each id's group bounding box (all
transforms applied) is computed with ``svgelements``, and the card is the opaque region of the
render that contains the box centre, trimmed to its own outline: the geometry comes from the
pixels (no stroke or filter guesswork), the label from the id.
"""

from __future__ import annotations

import gzip
import io
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from rules.cards import DECK_52, Rank, Suit

KDE_DIR = Path("/usr/share/carddecks")
KDE_PREFIX = "kde-"
"""Deck names get this prefix so they never collide with aisleriot names (dondorf, paris)."""

KDE_USED: tuple[str, ...] = (
    "ancient-egyptians",
    "jolly-royal",
    "nicu-white",
    "penguins",
    "standard",
    "xskat-french",
)
"""KDE decks (directory ``svg-NAME``) used as training designs, in list order."""

_NO_INDEX = (
    "number cards print the rank top-right and no index at top-left (at most a pip), so the "
    "top-left / bottom-right corner crops the classifier reads carry no index"
)
KDE_EXCLUDED: dict[str, str] = {
    "oxygen": _NO_INDEX,
    "oxygen-air": _NO_INDEX,
    "oxygen-white": _NO_INDEX,
    "dondorf": "the same art as aisleriot 'dondorf' (already a training design)",
    "gm-paris": "the same art as aisleriot 'paris' (already a training design)",
    "nicu-ornamental": "the same art as aisleriot 'ornamental' (already a training design)",
    "tigullio-international": "the same design as aisleriot 'tigullio', a HELD-OUT design",
    "future": "not playing-card art: wide chip-like tiles, suits told by four pastel colours",
    "konqi-modern": "four-colour deck (blue clubs, green hearts, teal diamonds)",
    "xskat-german": "German suits (acorns, leaves, hearts, bells), not French suits",
}
"""KDE decks left out, with the reason."""

_RANK_IDS: dict[Rank, str] = {
    Rank.ACE: "1",
    **{r: r.value for r in Rank if r.value.isdigit()},
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
}
_SUIT_IDS: dict[Suit, str] = {
    Suit.CLUBS: "club",
    Suit.DIAMONDS: "diamond",
    Suit.HEARTS: "heart",
    Suit.SPADES: "spade",
}


def card_ids() -> dict[str, str]:
    """Label (``10H``, ``QS``, ``back``) -> the SVG id of that card in every KDE deck."""
    ids = {str(card): f"{_RANK_IDS[card.rank]}_{_SUIT_IDS[card.suit]}" for card in DECK_52}
    ids["back"] = "back"
    return ids


def kde_deck_path(name: str, directory: Path = KDE_DIR) -> Path | None:
    """The ``.svgz`` (or ``.svg``) document of KDE deck ``name``, or None when not installed."""
    folder = directory / f"svg-{name}"
    found = sorted(folder.glob("*.svgz")) or sorted(folder.glob("*.svg"))
    return found[0] if found else None


def card_boxes(document: str) -> dict[str, tuple[float, float, float, float]]:
    """Each label's group bounding box (x0, y0, x1, y1), all transforms applied, in the user
    units of the root ``viewBox`` (the coordinates ``framed`` takes)."""
    from svgelements import SVG, Matrix  # type: ignore[import-untyped]  # extra: train

    svg = SVG.parse(io.StringIO(document), reify=True)
    to_user = ~Matrix(svg.viewbox_transform) if svg.viewbox_transform else Matrix()
    boxes = {}
    for label, element_id in card_ids().items():
        element = svg.get_element_by_id(element_id)
        if element is None:
            raise ValueError(f"no card element with id {element_id!r} ({label})")
        parts = element.select() if hasattr(element, "select") else [element]
        found = np.array([b for b in map(_part_box, parts) if b is not None], float)
        if not len(found):
            raise ValueError(f"card element {element_id!r} ({label}) holds no shape")
        corners = [
            to_user.point_in_matrix_space((found[:, 0].min(), found[:, 1].min())),
            to_user.point_in_matrix_space((found[:, 2].max(), found[:, 3].max())),
        ]
        (x0, y0), (x1, y1) = corners
        boxes[label] = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    return boxes


def _part_box(part: object) -> tuple[float, float, float, float] | None:
    """The drawn box of one element of a card (stroke included), or None for a container.
    svgelements puts an ``<image>``'s box at (0, 0, 0, 0), so images are boxed here from their
    x, y, width, height and transform (``xskat-french`` cards are one bitmap each)."""
    from svgelements import Image, Shape  # type: ignore[import-untyped]

    if isinstance(part, Shape):
        box = part.bbox(with_stroke=True)
        return None if box is None else tuple(float(v) for v in box)  # type: ignore[return-value]
    if isinstance(part, Image):
        x, y, w, h = part.x, part.y, part.width, part.height
        pts = [
            part.transform.point_in_matrix_space(p)
            for p in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))
        ]
        xs, ys = [float(p[0]) for p in pts], [float(p[1]) for p in pts]
        return (min(xs), min(ys), max(xs), max(ys))
    return None


def read_document(path: Path) -> str:
    """The SVG text of a ``.svg`` or gzip-compressed ``.svgz`` file."""
    raw = path.read_bytes()
    return (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8")


_ROOT_SIZE = re.compile(r"""\s(width|height|viewBox|preserveAspectRatio)\s*=\s*("[^"]*"|'[^']*')""")


def framed(document: str, view: tuple[float, float, float, float], width: int, height: int) -> str:
    """``document`` with its root ``<svg>`` showing exactly ``view`` (x0, y0, x1, y1 in user
    units) on ``width`` x ``height`` pixels: some decks draw cards (the back of ``standard``)
    outside their own page, which a plain render would clip."""
    match = re.search(r"<svg\b[^>]*>", document)
    if match is None:
        raise ValueError("no <svg> root element")
    x0, y0, x1, y1 = view
    root = _ROOT_SIZE.sub("", match.group(0))
    size = (
        f' width="{width}" height="{height}" viewBox="{x0:.4f} {y0:.4f} {x1 - x0:.4f} '
        f'{y1 - y0:.4f}" preserveAspectRatio="none"'
    )
    root = root[:4] + size + root[4:]
    return document[: match.start()] + root + document[match.end() :]


def sheet_layout(
    boxes: dict[str, tuple[float, float, float, float]], card_h: float
) -> tuple[tuple[float, float, float, float], float, int, int]:
    """The view holding every card (with a margin), the zoom that makes the median card
    ``card_h`` pixels tall, and the sheet's pixel size."""
    arr = np.array(list(boxes.values()))
    zoom = card_h / float(np.median(arr[:, 3] - arr[:, 1]))
    margin = 0.05 * float(np.median(arr[:, 3] - arr[:, 1]))
    view = (
        float(arr[:, 0].min()) - margin,
        float(arr[:, 1].min()) - margin,
        float(arr[:, 2].max()) + margin,
        float(arr[:, 3].max()) + margin,
    )
    width = int(round((view[2] - view[0]) * zoom))
    height = int(round((view[3] - view[1]) * zoom))
    return view, zoom, width, height


def crop_cards(
    sheet: np.ndarray,
    boxes: dict[str, tuple[float, float, float, float]],
    origin: tuple[float, float],
    zoom: float,
) -> dict[str, np.ndarray]:
    """Cut each card out of the rendered ``sheet`` (BGRA): the opaque connected region that
    holds the centre of its box (``(user - origin) * zoom`` pixels, stroke included), trimmed
    to that region.
    A card with nothing opaque at its centre comes back empty (0 x 0) for the caller to reject."""
    h, w = sheet.shape[:2]
    cards = {}
    for label, box in boxes.items():
        x0, y0, x1, y1 = ((v - origin[i % 2]) * zoom for i, v in enumerate(box))
        a0, b0 = max(0, int(x0)), max(0, int(y0))
        a1, b1 = min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1)))
        cx, cy = int((x0 + x1) / 2) - a0, int((y0 + y1) / 2) - b0
        cards[label] = sheet[:0, :0]
        if not (0 <= cx < a1 - a0 and 0 <= cy < b1 - b0):
            continue
        window = sheet[b0:b1, a0:a1]
        _, comp = cv2.connectedComponents((window[:, :, 3] > 128).astype(np.uint8), connectivity=8)
        region = comp[cy, cx]
        if region == 0:
            continue
        ys, xs = np.nonzero(comp == region)
        cards[label] = window[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return cards


def render_kde_cards(
    path: Path, card_h: int, render: Callable[[Path, int], np.ndarray]
) -> dict[str, np.ndarray]:
    """Label -> BGRA card of KDE deck ``path`` as drawn (about ``card_h`` * 1.1 pixels tall,
    not yet resized); ``render(svg_path, width)`` rasterises a document (``rsvg-convert``)."""
    document = read_document(path)
    boxes = card_boxes(document)
    view, zoom, width, height = sheet_layout(boxes, card_h * 1.1)
    with tempfile.TemporaryDirectory() as tmp:
        sheet_svg = Path(tmp) / "sheet.svg"
        sheet_svg.write_text(framed(document, view, width, height), encoding="utf-8")
        sheet = render(sheet_svg, width)
    zoom = sheet.shape[1] / (view[2] - view[0])
    return crop_cards(sheet, boxes, (view[0], view[1]), zoom)
