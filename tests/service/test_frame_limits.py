"""``POST /api/tables/{id}/frames`` against image bombs and odd uploads (issue 14 item 2): the
image's size is read from its header before anything decodes it, an image over the pixel limit
is 413, what the decoder cannot read is 415 (never a 500), and the scorer's token is checked
before the upload is read. Real app, real SQLite, no card model needed (the refusals come
before it)."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient
from svc_helpers import ORGANISER, ORGANISER_PIN, PLAYERS4

from service.app import create_app
from service.settings import Settings


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_declaring(width: int, height: int) -> bytes:
    """A PNG whose header declares ``width`` x ``height`` RGB pixels, with one row of data:
    what a decoder allocates is the header's size, not the file's."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * (1 + 3 * min(width, 64)))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        organiser_pin=ORGANISER_PIN,
        db=str(tmp_path / "cam.db"),
        model=str(tmp_path / "absent.onnx"),
        max_frame_pixels=1920 * 1080,
    )
    with TestClient(create_app(settings)) as c:
        yield c


def new_table(client: TestClient) -> tuple[str, dict[str, str]]:
    body = client.post(
        "/api/tables",
        json={"game": "clabber", "name": "Cam", "players": PLAYERS4},
        headers=ORGANISER,
    ).json()
    return body["id"], {"Authorization": f"Bearer {body['scorer_token']}"}


def post(client: TestClient, table: str, auth: dict[str, str], data: bytes) -> object:
    return client.post(
        f"/api/tables/{table}/frames",
        files={"image": ("frame.png", data, "image/png")},
        headers=auth,
    )


@pytest.mark.parametrize(("width", "height"), [(65535, 65535), (30000, 30000), (1921, 1081)])
def test_an_image_declaring_more_pixels_than_the_limit_is_413_before_decoding(
    client: TestClient, width: int, height: int
) -> None:
    table, auth = new_table(client)
    r = post(client, table, auth, png_declaring(width, height))
    assert r.status_code == 413, (r.status_code, r.text[:300])
    assert f"{width}x{height}" in r.json()["detail"]
    assert client.get(f"/api/tables/{table}").json()["seq"] == 0


def test_a_broken_image_within_the_limit_is_415_not_500(client: TestClient) -> None:
    table, auth = new_table(client)
    good = cv2.imencode(".png", np.full((40, 60, 3), 90, np.uint8))[1].tobytes()
    for data in (
        good[:40],  # the header, then nothing
        good[:33] + b"\x00" * 30,  # garbage where the pixels are
        b"\xff\xd8\xff\xe0\x00\x10JFIF\x00",  # a JPEG with no frame header
        b"RIFF\x10\x00\x00\x00WEBPVP8X",  # a WebP cut short
        b"GIF89a\x01\x00\x01\x00",  # a format cameras do not send
    ):
        r = post(client, table, auth, data)
        assert r.status_code == 415, (data[:12], r.status_code, r.text[:300])
    # a real image within the limit gets as far as the (missing) model
    assert post(client, table, auth, good).status_code == 503


def test_the_token_is_checked_before_the_upload_is_read(client: TestClient) -> None:
    """A body that cannot even be parsed as a form: 401/403 (the token), not a parse error."""
    table, auth = new_table(client)
    garbage = b"--x\r\nthis is not a form"
    headers = {"Content-Type": "multipart/form-data; boundary=zzz"}
    r = client.post(f"/api/tables/{table}/frames", content=garbage, headers=headers)
    assert r.status_code == 401, (r.status_code, r.text[:200])
    r = client.post(
        f"/api/tables/{table}/frames",
        content=garbage,
        headers={**headers, "Authorization": "Bearer not-the-token"},
    )
    assert r.status_code == 403, (r.status_code, r.text[:200])
    # with the token, the same body is a clear 4xx too
    r = client.post(f"/api/tables/{table}/frames", content=garbage, headers={**headers, **auth})
    assert 400 <= r.status_code < 500 and r.status_code != 413, r.text


@pytest.mark.parametrize("t", ["nan", "inf", "-1", "x"])
def test_an_odd_capture_time_is_422(client: TestClient, t: str) -> None:
    table, auth = new_table(client)
    good = cv2.imencode(".png", np.full((40, 60, 3), 90, np.uint8))[1].tobytes()
    r = client.post(
        f"/api/tables/{table}/frames",
        files={"image": ("f.png", good, "image/png")},
        data={"t": t},
        headers=auth,
    )
    assert r.status_code == 422, (r.status_code, r.text[:300])
    assert any("t" in e["loc"] for e in r.json()["detail"])
