"""How often counting a number card's pips (vision/read/pips.py) gives an opinion, and how often
a wrong one, and how often a card's middle shows a picture: on every deck design's rendered
faces, clean and as a camera sees them, and on the real rectified single cards of
../shared/realcards (never copied here).

    .venv/bin/python bench/pips.py [--realcards DIR] [--seed 1] [--verbose]

A count is a second look at a number card's rank that never reads its index; the watcher weighs
it against the classifier and marks a play where the two disagree. It must therefore almost
never be wrong; giving no opinion (a court card, an ace, a pip touching the index, a finger
over the middle) only costs the second look. Per deck and per source it prints:

  counted  number cards (2-10) counted right, of all number cards
  none     number cards given no opinion
  wrong    number cards counted as another rank, or aces counted other than one (the figure
           that must stay 0)
  court    court cards counted at all (must stay 0)
  aces     aces counted (as one: only an ace drawn with a sign the size of a pip), of all aces
  picture  court cards whose middle shows a picture (``shows_picture``: the watcher marks a
           number card read where the middle shows one), of all courts; and number cards
           whose middle shows one (must stay 0)

"worn" faces are each card shrunk to 70-120 px long, blurred, tinted and noised, then warped up
to the classifier's upright size (what a far card on a video gives). The real sets are the
rectified crops (``singles/vosloo``: a Piatnik deck with four indices, glare, three tints;
``singles/mathsvlog``: a webcam's contrast-boosted deck); ``singles/kentdoan``'s photos are whole
scenes (a card small on cloth), not warps, and are left out. Also: the median time per count.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.cards import Card, Rank  # noqa: E402
from vision.read.pips import NUMBER_PIPS, count_pips, shows_picture  # noqa: E402
from vision.render.decks import DeckError, list_decks, load_deck  # noqa: E402

RECTIFIED = ("vosloo", "mathsvlog")


def worn(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A rendered face as a camera gives a far card (see the module docstring)."""
    face = face[:, :, :3]
    h = int(rng.integers(70, 120))
    w = round(h * face.shape[1] / face.shape[0])
    small = cv2.GaussianBlur(cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA), (3, 3), 0.8)
    tinted = small.astype(np.float32) * rng.uniform(0.6, 1.0, 3) + rng.normal(0, 4, small.shape)
    return cv2.resize(np.clip(tinted, 0, 255).astype(np.uint8), (160, 240))


def score(tally: Counter[str], code: str, n: int | None, picture: bool = False) -> str:
    rank = Card.parse(code).rank
    own = NUMBER_PIPS.get(rank)
    if rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        tally["courts"] += 1
        tally["court_picture"] += picture
    elif own is not None:
        tally["number_picture"] += picture
    if rank is Rank.ACE:  # counted only when its sign is pip-sized, then as one
        kind = "ace_none" if n is None else ("ace" if n == 1 else "wrong")
    elif own is None:
        kind = "court" if n is not None else "court_none"
    else:
        kind = "none" if n is None else ("counted" if n == own else "wrong")
    tally[kind] += 1
    tally["numbers"] += own is not None
    return kind


def line(name: str, t: Counter[str]) -> str:
    numbers = max(t["numbers"], 1)
    return (
        f"{name:28s} counted {t['counted']:4d}/{t['numbers']:<4d} ({t['counted'] / numbers:6.1%})"
        f"  none {t['none']:4d}  wrong {t['wrong']:2d}  court {t['court']:2d}"
        f"  aces {t['ace']:3d}/{t['ace'] + t['ace_none']:<3d}"
        f"  picture: courts {t['court_picture']:3d}/{t['courts']:<3d} numbers {t['number_picture']}"
    )


def real_singles(realcards: Path) -> Iterator[tuple[str, str, str, np.ndarray]]:
    """(set, file, card code, upright image) of every rectified real single in
    :data:`RECTIFIED`; a set not there, or a photo that does not load, is said and skipped."""
    for source in RECTIFIED:
        folder = realcards / "singles" / source
        if not (folder / "labels.csv").is_file():
            print(f"real {source}: {folder} not found (../shared/realcards), skipped")
            continue
        with (folder / "labels.csv").open(newline="") as f:
            for row in csv.DictReader(f):
                image = cv2.imread(str(folder / row["file"]))
                if image is None:
                    print(f"real {source}: cannot read {row['file']}")
                    continue
                if image.shape[1] > image.shape[0]:
                    image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
                yield source, row["file"], row["cards"], image


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--realcards", type=Path, default=ROOT / ".." / "shared" / "realcards")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verbose", action="store_true", help="list every wrong count")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    totals = {"clean": Counter[str](), "worn": Counter[str](), "held-out worn": Counter[str]()}
    times: list[float] = []
    wrong: list[str] = []
    decks = list_decks()
    if not decks:
        print("no deck designs found (Debian's gnome-cards-data; ./dev.sh test installs it)")
    for deck in decks:
        try:
            faces = load_deck(deck)
        except DeckError as exc:
            print(f"{deck.name}: {exc}")
            continue
        per = {"clean": Counter[str](), "worn": Counter[str]()}
        for code, face in faces.items():
            if code == "back":
                continue
            for look in ("clean", "worn"):
                image = (
                    cv2.resize(face[:, :, :3], (160, 240)) if look == "clean" else worn(face, rng)
                )
                t0 = time.perf_counter()
                n = count_pips(image)
                times.append(time.perf_counter() - t0)
                picture = shows_picture(image)
                kind = score(per[look], code, n, picture)
                score(totals[look], code, n, picture)
                if look == "worn" and deck.heldout:
                    score(totals["held-out worn"], code, n, picture)
                if picture and NUMBER_PIPS.get(Card.parse(code).rank) is not None:
                    wrong.append(f"{deck.name} {code} ({look}): its middle shows a picture")
                if kind in ("wrong", "court"):
                    wrong.append(f"{deck.name} {code} ({look}): counted {n}")
        flag = " (held out)" if deck.heldout else ""
        print(line(f"{deck.name}{flag} clean", per["clean"]))
        print(line(f"{deck.name}{flag} worn", per["worn"]))
    print()
    for look, t in totals.items():
        print(line(f"all designs, {look}", t))
    real = Counter[str]()
    tallies: dict[str, Counter[str]] = {}
    for source, name, card, image in real_singles(args.realcards):
        tally = tallies.setdefault(source, Counter[str]())
        n = count_pips(image)
        picture = shows_picture(image)
        kind = score(tally, card, n, picture)
        score(real, card, n, picture)
        if kind in ("wrong", "court"):
            wrong.append(f"real {source} {name} ({card}): counted {n}")
        if picture and NUMBER_PIPS.get(Card.parse(card).rank) is not None:
            wrong.append(f"real {source} {name} ({card}): its middle shows a picture")
    for source, tally in tallies.items():
        print(line(f"real {source}", tally))
    if real:
        print(line("real, all", real))
    print(f"median time per count: {statistics.median(times) * 1000:.2f} ms (one thread)")
    if args.verbose or wrong:
        for w in wrong:
            print("  ", w)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
