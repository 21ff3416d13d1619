"""The camera page's server side (issue 13), on a real app (SQLite and PostgreSQL) and, where
the card model is needed, the shipped one: the QR code carries the camera page's link with
the scorer's token in its fragment (decoded back from the picture); the seats come from a
frame of the bundled hand with one card before each player, or an overhead default turned so
that the chosen player sits at the bottom, and are refused while a hand is followed; a person's
answer about a play the camera does not hold is a clear 409; the home page's list of tables
being played; the camera page alone may use the camera (Permissions-Policy)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient
from svc_helpers import ORGANISER, PLAYERS4, base_hand_events

from tests.ci import need
from vision.read.classify import MODEL_PATH

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "samples" / "clabber_hand.mp4"


def new_table(client: TestClient) -> tuple[str, str]:
    body = client.post(
        "/api/tables",
        json={"game": "clabber", "name": "Cam", "players": PLAYERS4},
        headers=ORGANISER,
    ).json()
    return body["id"], body["scorer_token"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def sample_frame(index: int) -> np.ndarray:
    capture = cv2.VideoCapture(str(SAMPLE))
    capture.set(cv2.CAP_PROP_POS_FRAMES, index)
    ok, frame = capture.read()
    capture.release()
    assert ok
    return frame


def jpeg(frame: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return bytes(data.tobytes())


def film(client: TestClient, table: str, auth: dict[str, str], frames: int, first: int = 0) -> None:
    """Post frames ``first`` to ``frames`` of the bundled hand (10 fps) as the phone would."""
    capture = cv2.VideoCapture(str(SAMPLE))
    try:
        for i in range(frames):
            ok, shot = capture.read()
            assert ok
            if i < first:
                continue
            r = client.post(
                f"/api/tables/{table}/frames",
                files={"image": ("f.jpg", jpeg(shot), "image/jpeg")},
                data={"t": str(i / 10)},
                headers=auth,
            )
            assert r.status_code == 200, r.text
    finally:
        capture.release()


def hand_read_as(
    client: TestClient, card: str, reads: dict[str, float]
) -> tuple[str, dict[str, str]]:
    """A new Clabber table whose camera reads the bundled hand by its deck's own faces, but
    ``card`` with the probabilities ``reads`` (the rest 0.02, spread); dealt, bid, play
    ahead. Returns the table and the scorer's auth."""
    import json

    from service.camera import Cameras, ReaderVision
    from vision.read.decode import LABELS
    from vision.render.tablevideo import deck_reader

    truth = json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))
    faces = deck_reader(truth["rendered"]["look"]["deck"])
    which = LABELS.index(card)

    def reader(crops: list[np.ndarray]) -> np.ndarray:
        probs = np.array(faces(crops), np.float64)
        for row in probs:
            if int(np.argmax(row)) == which:
                row *= 0.02 / max(1e-9, row.sum() - row[which])
                for name, p in reads.items():
                    row[LABELS.index(name)] = p
        return probs

    client.app.state.cameras = Cameras(vision=ReaderVision(reader))  # type: ignore[attr-defined]
    table, token = new_table(client)
    auth = bearer(token)
    events = [{"type": "deal", "dealer": 0, "upcard": "9S"}]
    events += [
        {"type": "bid", "seat": s, "bid": b}
        for s, b in ((1, "pass"), (2, "pass"), (3, "pass"), (0, "play"))
    ]
    for event in events:
        assert (
            client.post(f"/api/tables/{table}/events", json=event, headers=auth).status_code == 200
        )
    return table, auth


def test_the_qr_code_carries_the_camera_link_with_the_token_in_its_fragment(
    client: TestClient, tmp_path: Path
) -> None:
    table, token = new_table(client)
    url = f"/api/tables/{table}/camera/qr"
    origin = {"origin": "https://club.example:8443"}
    assert client.post(url, json=origin).status_code == 401
    assert client.post(url, json=origin, headers=bearer("nope")).status_code == 403
    bad = client.post(url, json={"origin": "javascript:alert(1)"}, headers=bearer(token))
    assert bad.status_code == 422
    r = client.post(url, json=origin, headers=bearer(token))
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    rsvg = shutil.which("rsvg-convert")
    need(rsvg, "rsvg-convert (apt-get install librsvg2-bin) to read the QR code back")
    svg, png = tmp_path / "qr.svg", tmp_path / "qr.png"
    svg.write_text(r.text, encoding="utf-8")
    subprocess.run([str(rsvg), "-o", str(png), str(svg)], check=True)
    assert read_qr(cv2.imread(str(png))) == (
        f"https://club.example:8443/tables/{table}/camera#token={token}"
    )


def read_qr(image: np.ndarray) -> str:
    """The text of the QR code in ``image``. OpenCV's decoder misses about one valid code in
    40 at a given size (a phone's camera tries frame after frame); try a few sizes and both of
    its detectors, as a phone would try again: 0 misses in 400 random links."""
    for scale in (1.0, 0.5, 0.75, 1.5):
        resized = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
            text, _points, _ = detector.detectAndDecode(resized)
            if text:
                return str(text)
    return ""


def test_before_any_frame_the_camera_says_so_and_a_naming_is_refused(client: TestClient) -> None:
    table, token = new_table(client)
    state = client.get(f"/api/tables/{table}/camera").json()
    assert state["watching"] is False and state["plays"] == [] and "phone" in state["reason"]
    r = client.post(
        f"/api/tables/{table}/camera/plays/0", json={"deal": 1, "card": "9D"}, headers=bearer(token)
    )
    assert r.status_code == 409 and "follows no hand" in r.json()["detail"]
    assert (
        client.post(
            f"/api/tables/{table}/camera/plays/0", json={"deal": 1, "card": "9D"}
        ).status_code
        == 401
    )


def test_overhead_seats_turn_so_that_the_chosen_player_sits_at_the_bottom(
    client: TestClient,
) -> None:
    table, token = new_table(client)
    r = client.post(
        f"/api/tables/{table}/camera/seats", data={"bottom_seat": "2"}, headers=bearer(token)
    )
    assert r.status_code == 200, r.text
    assert r.json()["calibrated"] is False and r.json()["camera"]["bottom_seat"] == 2
    bad = client.post(
        f"/api/tables/{table}/camera/seats", data={"bottom_seat": "4"}, headers=bearer(token)
    )
    assert bad.status_code == 422 and "0 to 3" in bad.text


@pytest.mark.parametrize("bottom", [0, 1])
def test_seats_are_found_from_one_card_before_each_player(client: TestClient, bottom: int) -> None:
    """Frame 90 of the bundled hand: trick 1's four cards, one before each player. The seat
    whose area holds the card nearest the bottom edge is the one chosen to sit there; a hand
    being followed keeps its seats (409)."""
    need(MODEL_PATH.is_file(), f"the card model {MODEL_PATH}")
    table, token = new_table(client)
    frame = sample_frame(90)
    r = client.post(
        f"/api/tables/{table}/camera/seats",
        data={"bottom_seat": str(bottom)},
        files={"image": ("setup.jpg", jpeg(frame), "image/jpeg")},
        headers=bearer(token),
    )
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["calibrated"] is True and len(answer["found"]) == 4
    seats = answer["camera"]["seats"]
    lowest = max(answer["found"], key=lambda q: np.mean([y for _, y in q]))
    centre = np.mean(lowest, axis=0) / [frame.shape[1], frame.shape[0]]
    holder = [k for k, s in enumerate(seats) if inside(centre, s["area"])]
    assert holder == [bottom]
    # the table with nothing on it: no seats to find
    empty = client.post(
        f"/api/tables/{table}/camera/seats",
        files={"image": ("empty.jpg", jpeg(np.full_like(frame, 40)), "image/jpeg")},
        headers=bearer(token),
    )
    assert empty.status_code == 422 and "one card face up" in empty.text
    # once a hand is followed and a card played, the seats stay as they are until it ends
    for event in [{"type": "deal", "dealer": 0, "upcard": "9S"}] + [
        {"type": "bid", "seat": s, "bid": b}
        for s, b in ((1, "pass"), (2, "pass"), (3, "pass"), (0, "play"))
    ]:
        assert (
            client.post(
                f"/api/tables/{table}/events", json=event, headers=bearer(token)
            ).status_code
            == 200
        )
    film(client, table, bearer(token), 45)  # the first card rests at 3.2 s
    assert client.get(f"/api/tables/{table}/camera").json()["plays"], "no play seen"
    busy = client.post(
        f"/api/tables/{table}/camera/seats", data={"bottom_seat": "0"}, headers=bearer(token)
    )
    assert busy.status_code == 409 and "between hands" in busy.text


def inside(point: Any, polygon: list[list[float]]) -> bool:
    contour = np.asarray(polygon, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) > 0


def test_the_home_page_lists_the_tables_being_played(client: TestClient) -> None:
    table, token = new_table(client)
    quiet, _ = new_table(client)
    for event in base_hand_events():
        assert (
            client.post(
                f"/api/tables/{table}/events", json=event, headers=bearer(token)
            ).status_code
            == 200
        )
    rows = client.get("/api/playing").json()
    assert [r["id"] for r in rows][:2] == [table, quiet]  # the latest active first
    played = rows[0]
    assert played["totals"] == [128, 104] and played["hand"] == 1 and played["camera"] is False


def test_only_the_camera_page_may_use_the_camera(client: TestClient) -> None:
    table, _ = new_table(client)
    page = client.get(f"/tables/{table}/camera")
    assert page.status_code == 200 and "camera.js" in page.text
    assert "camera=(self)" in page.headers["permissions-policy"]
    for path in ("/", f"/tables/{table}", "/camera", "/api/tables"):
        assert client.get(path).headers["permissions-policy"].startswith("camera=()"), path


def test_a_play_read_in_doubt_is_ruled_by_a_tap_as_a_correction(client: TestClient) -> None:
    """The bundled hand's first trick read by its deck's own faces, the king of clubs made to
    look nearly as much like the queen: the camera posts KC marked for confirmation (its two
    candidates and crop kept as evidence; the table's state lists it awaiting). A person taps
    QC: a ``correct`` event as the scorer's, the evidence ruled, nothing awaiting; the same
    tap again changes nothing."""
    table, auth = hand_read_as(client, "KC", {"KC": 0.52, "QC": 0.46})
    film(client, table, auth, 95)  # the first trick rests by 8.5 s
    camera = client.get(f"/api/tables/{table}/camera").json()
    asked = [p for p in camera["plays"] if p["ask"]]
    assert [(p["index"], p["card"], p["candidates"]) for p in asked] == [(1, "KC", ["KC", "QC"])]
    state = client.get(f"/api/tables/{table}").json()
    [awaiting] = state["awaiting_confirmation"]
    assert awaiting["card"] == "KC" and awaiting["candidates"] == ["KC", "QC"]
    assert awaiting["crop_url"] and client.get(awaiting["crop_url"]).status_code == 200
    body = {"deal": camera["deal"], "card": "QC"}
    r = client.post(f"/api/tables/{table}/camera/plays/1", json=body, headers=auth)
    assert r.status_code == 200, r.text
    [fix] = r.json()["accepted"]
    assert fix["actor"] == "scorer" and fix["event"]["type"] == "correct"
    assert fix["event"]["seq"] == awaiting["seq"] and fix["event"]["event"]["card"] == "QC"
    state = client.get(f"/api/tables/{table}").json()
    assert state["current"]["tricks"][0]["cards"][1] == "QC"
    assert state["awaiting_confirmation"] == []
    assert not any(p["ask"] for p in r.json()["camera"]["plays"])
    again = client.post(f"/api/tables/{table}/camera/plays/1", json=body, headers=auth)
    assert again.status_code == 200 and again.json()["accepted"] == []


def test_the_cameras_own_revision_of_a_posted_play_is_posted_as_the_cameras(
    client: TestClient,
) -> None:
    """The bundled hand's third card, AS, read as KS 0.9 (posted, marked); the fourth, KS,
    then read KS surely. Each card is played once: the hand read together revises the third
    play to AS, a ``correct`` event the camera posts as its own (not as a person's)."""
    table, auth = hand_read_as(client, "AS", {"KS": 0.9, "AS": 0.08})
    film(client, table, auth, 95)  # the first trick rests by 8.5 s
    state = client.get(f"/api/tables/{table}").json()
    assert state["current"]["tricks"][0]["cards"] == ["JS", "KC", "AS", "KS"]
    log = client.get(f"/api/tables/{table}/events").json()
    fixes = [e for e in log if e["event"]["type"] == "correct"]
    assert [(e["actor"], e["event"]["event"]["card"]) for e in fixes] == [("camera", "AS")]


def test_a_play_posted_sure_and_doubted_later_awaits_a_person_with_its_crop(
    client: TestClient,
) -> None:
    """The bundled hand's first trick read by its deck's own faces, but its fourth card, KS,
    read plainly as JS, the first card's name (a classifier that reads two cards alike). JS
    was posted sure seconds before; each card is played once, so one of the two is misread:
    the camera marks the JS play too, after it was posted, and keeps its crop as evidence
    for a person, beside the KS play's own."""
    import json

    truth = json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))
    assert truth["tricks"][0][0] == "JS" and truth["tricks"][0][3] == "KS"
    table, auth = hand_read_as(client, "KS", {"JS": 0.9, "KS": 0.08})
    film(client, table, auth, 75)  # JS (3.2 s), KC and AS (6.8 s) rest; KS not yet played
    state = client.get(f"/api/tables/{table}").json()
    trick = [(p["seat"], p["card"]) for p in state["current"]["trick"]]
    assert trick == [(1, "JS"), (2, "KC"), (3, "AS")]
    assert state["awaiting_confirmation"] == []  # JS posted sure
    film(client, table, auth, 95, first=75)  # KS rests by 8.5 s
    state = client.get(f"/api/tables/{table}").json()
    awaiting = {a["card"]: a for a in state["awaiting_confirmation"]}
    assert set(awaiting) == {"JS", "KS"}, awaiting
    assert "reads as JS too" in awaiting["JS"]["reason"]
    # read sure, marked for the card read twice: the card and the camera's runner-up to choose
    # (before, none at all: the referee's page had no button for it)
    first, runner = awaiting["JS"]["candidates"]
    assert first == "JS" and runner != "JS"
    assert awaiting["JS"]["crop_url"] and client.get(awaiting["JS"]["crop_url"]).status_code == 200
    assert state["current"]["tricks"][0]["cards"] == ["JS", "KC", "AS", "KS"]


def test_a_play_never_seen_that_the_deck_names_awaits_a_person_on_the_table_page(
    client: TestClient,
) -> None:
    """A Clabber hand followed to its end, its 14th card (KD) never seen (a resting hand over
    it its whole trick): the camera posts the plays before it and holds the rest. Once the hand
    is over the deck names it (the one card no other play shows), and the camera posts it with
    the plays it held back, marked: the table's state lists it awaiting confirmation, with why
    and the card to choose (the camera read none, so no crop and no runner-up); a person's tap
    confirms it, and nothing awaits. (Before, it was posted with no evidence: only the camera's
    own page showed it.) The watcher's log is set play by play, as the camera's frames would."""
    from rules.cards import Card
    from service.camera import FrameResult, game_spec, hand_key, last_deal_seq
    from tests.vision.handlog_helpers import add_play

    events = base_hand_events()
    plays = [e for e in events if e["type"] == "play"]
    table, token = new_table(client)
    auth = bearer(token)
    for event in events:
        if event["type"] != "play":
            assert client.post(f"/api/tables/{table}/events", json=event, headers=auth).is_success
    store = client.app.state.store  # type: ignore[attr-defined]
    meta = store.meta(table)
    snap = store.snapshot(meta)
    spec, _ = game_spec(meta.game, snap.state["current"], 4)
    key = hand_key(snap.state["current"], last_deal_seq(snap.effective))
    camera = client.app.state.cameras.table(table)  # type: ignore[attr-defined]
    camera._start(spec, lambda crops: np.zeros((len(crops), 54)), key, 4)
    log = camera.watcher.log
    for i, play in enumerate(plays):
        card = None if i == 13 else Card.parse(play["card"])
        add_play(log, play["seat"], card, i // 4 + 1, leads=i % 4 == 0)

    def post() -> None:
        result = FrameResult([], True, "")
        camera._post_corrections(store, meta, key, result)
        camera._post_plays(store, meta, key, result)
        assert result.refused == []

    post()
    state = client.get(f"/api/tables/{table}").json()
    # 10D posted; the KD play, missed, holds back those after it
    assert len(state["current"]["tricks"]) == 3
    assert [p["card"] for p in state["current"]["trick"]] == ["10D"]
    assert state["awaiting_confirmation"] == []  # (the camera's page asks to name it)
    assert "the one card of the deck" in camera.watcher._revise(60.0)[0].text
    post()
    state = client.get(f"/api/tables/{table}").json()
    [awaiting] = state["awaiting_confirmation"]
    assert (awaiting["card"], awaiting["candidates"], awaiting["crop_url"]) == ("KD", ["KD"], None)
    assert "no other play shows" in awaiting["reason"]
    assert state["current"]["over"] and [h["end"] for h in state["hands"]] == ["complete"]
    assert state["current"]["tricks"][3]["cards"] == ["10D", "KD", "JC", "AD"]
    deal = client.get(f"/api/tables/{table}/camera").json()["deal"]
    r = client.post(
        f"/api/tables/{table}/camera/plays/13", json={"deal": deal, "card": "KD"}, headers=auth
    )
    assert r.status_code == 200, r.text
    assert client.get(f"/api/tables/{table}").json()["awaiting_confirmation"] == []
