"""``POST /api/tables/{id}/frames``: a camera that cannot run trickcam posts frames; the server
recognises the cards and follows the hand, posting plays as ``camera`` events.

* The error paths, whatever model is installed: 401/403 tokens, 404 table, 413 size, 415 not
  an image, 422 no image, 503 naming the missing model file.
* A rendered Clabber hand (``trickcam dataset video``), its frames posted one by one with their
  capture times: the first trick's plays appear in the table's log on the right seats, once.
  Read by the rendered deck's own faces (``vision.render.tablevideo.deck_reader``: the server-side
  watcher and the event path apart from the classifier, always runs) and by the shipped model.
* With the shipped model (models/cards.onnx): a still rendered frame's cards are named.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient
from svc_helpers import ORGANISER, ORGANISER_PIN, PLAYERS4

from service.app import create_app
from service.camera import Cameras, ReaderVision
from service.settings import Settings
from tests.ci import need, needs
from vision.read.classify import MODEL_PATH


def png(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", image)
    assert ok
    return bytes(data.tobytes())


def new_table(client: TestClient, game: str = "clabber") -> tuple[str, dict[str, str]]:
    body = client.post(
        "/api/tables", json={"game": game, "name": "Cam", "players": PLAYERS4}, headers=ORGANISER
    ).json()
    return body["id"], {"Authorization": f"Bearer {body['scorer_token']}"}


def post_frame(
    client: TestClient, table: str, auth: dict[str, str], data: bytes, t: float | None = None
) -> Any:
    form = {} if t is None else {"t": str(t)}
    return client.post(
        f"/api/tables/{table}/frames",
        files={"image": ("frame.png", data, "image/png")},
        data=form,
        headers=auth,
    )


@pytest.fixture
def no_model_client(tmp_path: Path) -> Any:
    settings = Settings(
        organiser_pin=ORGANISER_PIN,
        db=str(tmp_path / "cam.db"),
        model=str(tmp_path / "absent.onnx"),
        max_frame_bytes=50_000,
    )
    with TestClient(create_app(settings)) as c:
        yield c


def test_frames_refuse_bad_requests_with_clear_4xx(no_model_client: TestClient) -> None:
    client = no_model_client
    table, auth = new_table(client)
    frame = png(np.full((90, 160, 3), 60, np.uint8))
    assert post_frame(client, table, {}, frame).status_code == 401
    assert post_frame(client, table, {"Authorization": "Bearer nope"}, frame).status_code == 403
    assert post_frame(client, "nosuchtable", auth, frame).status_code == 404
    r = post_frame(client, table, auth, b"GIF89a this is no picture at all")
    assert r.status_code == 415 and "not an image" in r.json()["detail"]
    assert post_frame(client, table, auth, b"").status_code == 415
    big = post_frame(client, table, auth, b"\xff" * 50_001)  # over max_frame_bytes
    assert big.status_code == 413 and "50000" in big.json()["detail"]
    # far over: refused from Content-Length before the body is read
    assert post_frame(client, table, auth, b"\xff" * 200_000).status_code == 413
    r = client.post(f"/api/tables/{table}/frames", data={"t": "1"}, headers=auth)
    assert r.status_code == 422 and any("image" in e["loc"] for e in r.json()["detail"])
    # an image, but a speck: no table to see in it (a watcher fed one used to fail inside)
    r = post_frame(client, table, auth, png(np.full((1, 1, 3), 60, np.uint8)))
    assert r.status_code == 415 and "1x1 pixels: too small" in r.json()["detail"]
    # a real image, but no model: 503 naming the file
    r = post_frame(client, table, auth, frame)
    assert r.status_code == 503 and "absent.onnx" in r.json()["detail"]
    assert client.get(f"/api/tables/{table}").json()["seq"] == 0  # nothing was written


@pytest.fixture(scope="module")
def rendered_video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A rendered Clabber hand (8 fps) and its truth."""
    from cli import dataset_video as cmd_dataset_video
    from vision.render.tablevideo import load_truth

    video = tmp_path_factory.mktemp("cam") / "clabber.mp4"
    argv = ["--game", "clabber", "--seed", "11", "--fps", "8", "--quiet", str(video)]
    assert cmd_dataset_video.main(argv) == 0
    return video, load_truth(video.with_suffix(".json"))


def frames_until(video: Path, until_s: float) -> list[np.ndarray]:
    frames = []
    capture = cv2.VideoCapture(str(video))
    while len(frames) < until_s * 8:
        ok, frame = capture.read()
        if not ok:
            break
        frames.append(frame)
    capture.release()
    return frames


@pytest.fixture(scope="module")
def rendered_hand(rendered_video: tuple[Path, dict]) -> tuple[list[np.ndarray], dict]:
    """The first trick of a rendered Clabber hand: its frames (8 fps) and the truth."""
    video, truth = rendered_video
    first_trick_done = float(truth["plays"][3]["t_rest"]) + 3.5  # type: ignore[index]
    return frames_until(video, first_trick_done), truth


def deal_and_bid(client: TestClient, table: str, auth: dict[str, str], args: dict) -> None:
    dealer = int(args["dealer"])
    r = client.post(
        f"/api/tables/{table}/events",
        json={"type": "deal", "dealer": dealer, "upcard": args["upcard"]},
        headers=auth,
    )
    assert r.status_code == 200, r.text
    for i, call in enumerate(str(args["bidding"]).split(",")):
        bid = {"type": "bid", "seat": (dealer + 1 + i) % 4, "bid": call}
        r = client.post(f"/api/tables/{table}/events", json=bid, headers=auth)
        assert r.status_code == 200, r.text


@pytest.mark.parametrize("reader", ["deck", "model"])
def test_posted_frames_of_a_rendered_hand_become_the_plays_of_its_first_trick(
    client: TestClient, rendered_hand: tuple[list[np.ndarray], dict], reader: str
) -> None:
    """``deck``: read by the rendered deck's own faces (always runs); ``model``: by the
    shipped classifier the app loaded at startup, as a real camera's frames would be."""
    from vision.render.tablevideo import deck_reader

    frames, truth = rendered_hand
    if reader == "deck":
        client.app.state.cameras = Cameras(  # type: ignore[attr-defined]
            vision=ReaderVision(deck_reader(truth["look"]["deck"]))
        )
    else:
        need(MODEL_PATH.is_file(), f"the card model {MODEL_PATH} (trickcam train)")
    table, auth = new_table(client)
    # before the bidding is over the camera names the cards but follows no hand
    r = post_frame(client, table, auth, png(frames[0]), t=0.0)
    assert r.status_code == 200 and r.json()["watching"] is False
    assert "deal" in r.json()["reason"]
    deal_and_bid(client, table, auth, truth["watch_args"])
    accepted: list[dict[str, Any]] = []
    for i, frame in enumerate(frames):
        r = post_frame(client, table, auth, png(frame), t=i / 8)
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["watching"] is True and body["refused"] == []
        accepted += body["accepted"]
    true_plays = truth["plays"][:4]
    assert [e["event"]["seat"] for e in accepted] == [p["seat"] for p in true_plays]
    assert all(e["actor"] == "camera" and e["event"]["type"] == "play" for e in accepted)
    right = sum(e["event"]["card"] == p["card"] for e, p in zip(accepted, true_plays, strict=True))
    assert right >= 3  # the deck reader is crude: look-alike pips now and then
    log = client.get(f"/api/tables/{table}/events").json()
    plays = [e for e in log if e["event"]["type"] == "play"]
    assert [e["seq"] for e in plays] == [e["seq"] for e in accepted]  # each once
    state = client.get(f"/api/tables/{table}").json()
    assert len(state["current"]["tricks"]) == 1  # the first trick, complete


@needs(MODEL_PATH.is_file(), f"the card model {MODEL_PATH} (trickcam train)")
def test_the_shipped_model_names_the_cards_of_a_still_frame(client: TestClient) -> None:
    from vision.render.decks import HELDOUT, list_decks, load_deck
    from vision.render.scene import card_quad, paste_card, table_texture

    deck = next(d for d in list_decks() if d.name not in HELDOUT)
    faces = load_deck(deck)
    rng = np.random.default_rng(5)
    frame = table_texture("green_felt", 960, 540, rng)
    cards = random.Random(5).sample(["AS", "10H", "KD", "7C", "QS", "2H"], 3)
    for k, card in enumerate(cards):
        paste_card(frame, faces[card], card_quad((220 + 260 * k, 270), 200, 8 * k - 8))
    table, auth = new_table(client)
    r = post_frame(client, table, auth, png(frame))
    assert r.status_code == 200, r.text
    named = {c["card"] for c in r.json()["cards"]}
    assert set(cards) <= named, r.json()["cards"]


def test_posted_frames_of_a_rendered_clag_round_become_the_plays_of_its_first_trick(
    client: TestClient, tmp_path: Path
) -> None:
    """Clag too: once the round's deal, trump and contracts are posted, the camera's frames
    become the first trick's plays (read by the rendered deck's own faces)."""
    from cli import dataset_video as cmd_dataset_video
    from cli.post import setup_events
    from vision.render.tablevideo import deck_reader, load_truth
    from vision.track import games

    video = tmp_path / "clag.mp4"
    argv = ["--game", "clag", "--seed", "11", "--fps", "8", "--quiet", str(video)]
    assert cmd_dataset_video.main(argv) == 0
    truth = load_truth(video.with_suffix(".json"))
    args = truth["watch_args"]
    client.app.state.cameras = Cameras(  # type: ignore[attr-defined]
        vision=ReaderVision(deck_reader(truth["look"]["deck"]))
    )
    table, auth = new_table(client, "clag")
    # the table plays a whole game: rounds 1 and 2 first (random, lawful), dealt so that the
    # rendered round 3 has the dealer the schedule gives it
    players = int(args["players"])
    rng = random.Random(3)
    for round_no in (1, 2):
        dealer = (int(args["dealer"]) - 3 + round_no) % players
        for event in clag_round_events(players, round_no, dealer, rng):
            r = client.post(f"/api/tables/{table}/events", json=event, headers=auth)
            assert r.status_code == 200, r.text
    spec = games.clag(
        int(args["players"]),
        int(args["round"]),
        int(args["dealer"]),
        args.get("trump_card"),
        args.get("trump"),
        args.get("contracts"),
    )
    for event in setup_events(spec):
        r = client.post(f"/api/tables/{table}/events", json=event, headers=auth)
        assert r.status_code == 200, r.text
    true_plays = truth["plays"][:players]
    until = float(true_plays[-1]["t_rest"]) + 3.5
    capture = cv2.VideoCapture(str(video))
    accepted: list[dict[str, Any]] = []
    i = 0
    while i < until * 8:
        ok, frame = capture.read()
        if not ok:
            break
        r = post_frame(client, table, auth, png(frame), t=i / 8)
        assert r.status_code == 200, r.text
        assert r.json()["watching"] is True, r.json()
        accepted += r.json()["accepted"]
        i += 1
    capture.release()
    assert [e["event"]["seat"] for e in accepted] == [p["seat"] for p in true_plays]
    right = sum(e["event"]["card"] == p["card"] for e, p in zip(accepted, true_plays, strict=True))
    assert right >= players - 1  # the deck reader is crude: look-alike pips now and then
    state = client.get(f"/api/tables/{table}").json()
    assert state["current"]["round"] == 3 and len(state["current"]["tricks"]) == 1


def clag_round_events(
    players: int, round_no: int, dealer: int, rng: random.Random
) -> list[dict[str, Any]]:
    """A random lawful Clag round as the API's events: deal, trump, contracts, plays."""
    from rules.clag.simulate import random_round

    st = random_round(players, round_no, dealer, rng)
    events: list[dict[str, Any]] = [
        {"type": "deal", "dealer": dealer},
        {"type": "trump", "card": str(st.trump_card)},
    ]
    for k in range(players):
        seat = (dealer + 1 + k) % players
        events.append({"type": "bid", "seat": seat, "bid": st.contracts[seat]})
    for number, trick in enumerate(st.tricks):
        leader = st.leaders[number]
        for k, played in enumerate(trick):
            events.append({"type": "play", "seat": (leader + k) % players, "card": str(played)})
    return events


def test_a_camera_fed_table_records_the_plays_of_its_second_game(
    client: TestClient, rendered_hand: tuple[list[np.ndarray], dict]
) -> None:
    """Issue 14 item 1: the camera's Idempotency-Keys must be unique per table for ever. The
    same rendered hand is played as game 1 (the camera posts its first trick, the scorer the
    rest; a game to 1 point ends with the hand) and again as game 2: the camera's plays of
    game 2 must be recorded as game 2's, not answered as repeats of game 1's."""
    from vision.render.tablevideo import deck_reader

    frames, truth = rendered_hand
    client.app.state.cameras = Cameras(  # type: ignore[attr-defined]
        vision=ReaderVision(deck_reader(truth["look"]["deck"]))
    )
    r = client.post(
        "/api/tables",
        json={"game": "clabber", "name": "Cam", "players": PLAYERS4, "options": {"game_target": 1}},
        headers=ORGANISER,
    )
    table, auth = r.json()["id"], {"Authorization": f"Bearer {r.json()['scorer_token']}"}
    args = truth["watch_args"]

    def camera_trick() -> list[dict[str, Any]]:
        deal_and_bid(client, table, auth, args)
        accepted: list[dict[str, Any]] = []
        for i, frame in enumerate(frames):
            r = post_frame(client, table, auth, png(frame), t=i / 8)
            assert r.status_code == 200, r.text
            assert r.json()["refused"] == [], r.json()["refused"]
            accepted += r.json()["accepted"]
        return accepted

    first = camera_trick()
    assert len(first) == 4
    # the scorer names any card the crude deck reader got wrong, then plays out the hand
    for got, play in zip(first, truth["plays"][:4], strict=True):
        if got["event"]["card"] != play["card"]:
            fix = {
                "type": "correct",
                "seq": got["seq"],
                "event": {**got["event"], "card": play["card"]},
            }
            assert (
                client.post(f"/api/tables/{table}/events", json=fix, headers=auth).status_code
                == 200
            )
    for play in truth["plays"][4:]:
        event = {"type": "play", "seat": play["seat"], "card": play["card"]}
        r = client.post(f"/api/tables/{table}/events", json=event, headers=auth)
        assert r.status_code == 200, r.text
    state = client.get(f"/api/tables/{table}").json()
    assert state["games"][0]["over"], state["games"]
    # the camera sees the game is over, then the same hand is dealt as game 2's first
    r = post_frame(client, table, auth, png(frames[0]), t=1000.0)
    assert r.json()["watching"] is False
    second = camera_trick()
    assert [e["event"]["seat"] for e in second] == [p["seat"] for p in truth["plays"][:4]]
    assert all(e["seq"] > first[-1]["seq"] for e in second), "game 1's events, not new ones"
    state = client.get(f"/api/tables/{table}").json()
    assert len(state["games"]) == 2
    assert len(state["current"]["tricks"]) == 1  # game 2's first trick, recorded


@pytest.mark.parametrize("cut", ["between tricks", "mid-trick"])
def test_a_server_restarted_mid_hand_goes_on_from_the_plays_recorded(
    tmp_path: Path, rendered_video: tuple[Path, dict], cut: str
) -> None:
    """The server is stopped and started again (the same database) while a camera-fed hand
    is being played, after trick 1 (gathered) or in the middle of trick 2 (two of its cards
    still lying there). The new server's watcher goes on from the plays recorded: the next
    play is trick 2's next, never numbered again from the hand's first (its Idempotency-Key
    is then refused as another event's), and the cards still lying there are not posted
    again. Read by the shipped model, which reads this hand exactly (test_watch_e2e)."""
    need(MODEL_PATH.is_file(), f"the card model {MODEL_PATH} (trickcam train)")
    video, truth = rendered_video
    plays = truth["plays"]
    t_rest = [float(p["t_rest"]) for p in plays]
    stop_s = (t_rest[3] + t_rest[4]) / 2 if cut == "between tricks" else (t_rest[5] + t_rest[6]) / 2
    frames = frames_until(video, t_rest[7] + 3.5)
    stop = int(stop_s * 8)
    settings = Settings(organiser_pin=ORGANISER_PIN, db=str(tmp_path / "cam.db"))
    accepted: list[dict[str, Any]] = []
    with TestClient(create_app(settings)) as client:
        table, auth = new_table(client)
        deal_and_bid(client, table, auth, truth["watch_args"])
        for i in range(stop):
            r = post_frame(client, table, auth, png(frames[i]), t=i / 8)
            assert r.status_code == 200 and r.json()["refused"] == [], r.text
            accepted += r.json()["accepted"]
    before = len(accepted)
    assert before == (4 if cut == "between tricks" else 6)
    with TestClient(create_app(settings)) as client:  # the server started again
        for i in range(stop, len(frames)):
            r = post_frame(client, table, auth, png(frames[i]), t=i / 8)
            assert r.status_code == 200 and r.json()["refused"] == [], r.json()["refused"]
            accepted += r.json()["accepted"]
        log = client.get(f"/api/tables/{table}/events").json()
        state = client.get(f"/api/tables/{table}").json()
    recorded = [
        (e["event"]["seat"], e["event"]["card"]) for e in log if e["event"]["type"] == "play"
    ]
    assert recorded == [(p["seat"], p["card"]) for p in plays[:8]]
    assert len(accepted) == 8  # each play posted once, over both servers
    assert len(state["current"]["tricks"]) == 2
