"""The pages in a real headless browser (Playwright driving Debian's Chromium) against the real
``trickcam serve``: a hand's events posted through the API show on the open pages within a
bounded wait, over their live streams (nothing reloads the page)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from svc_helpers import ORGANISER, ORGANISER_PIN, base_hand_events, free_port

from tests.ci import need, need_module

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("TRICKCAM_CHROMIUM", "/usr/bin/chromium")
WAIT_MS = 5000  # every page change must show within this
TEAMS = [
    {"name": "Aces", "players": ["Ann", "Al"]},
    {"name": "Kings", "players": ["Bob", "Bea"]},
]

need_module("playwright.sync_api", "playwright (extra 'dev'; ./dev.sh test installs it)")
from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``trickcam serve`` on a free port (its own process group, killed at the end)."""
    port = free_port()
    db = tmp_path_factory.mktemp("pages") / "pages.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--db", str(db), "--port", str(port),
         "--log-level", "warning"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        env={**os.environ, "TRICKCAM_ORGANISER_PIN": ORGANISER_PIN},
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"trickcam serve exited with {proc.returncode}: {err}")
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{url}/api/tables", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                pytest.fail("trickcam serve did not answer in time")
            time.sleep(0.05)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        if proc.stderr:
            proc.stderr.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    need(
        shutil.which(CHROMIUM) is not None or Path(CHROMIUM).exists(),
        f"Chromium at {CHROMIUM} (apt-get install chromium, or set TRICKCAM_CHROMIUM)",
    )
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def tournament(url: str, **options: Any) -> dict[str, Any]:
    body = {"name": "Club night", "game": "clabber", "entrants": TEAMS, "options": options}
    r = httpx.post(f"{url}/api/tournaments", json=body, headers=ORGANISER)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def post(url: str, table: dict[str, Any], events: list[dict[str, Any]]) -> list[int]:
    auth = {"Authorization": f"Bearer {table['scorer_token']}"}
    seqs = []
    for event in events:
        r = httpx.post(f"{url}/api/tables/{table['id']}/events", json=event, headers=auth)
        assert r.status_code == 200, r.text
        seqs.append(r.json()["seq"])
    return seqs


def new_page(browser: Browser, **options: Any) -> tuple[Page, list[str]]:
    """A page and the JavaScript errors it throws (a test ends asserting there were none)."""
    page = browser.new_page(**options)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


def live(page: Page) -> None:
    expect(page.locator("#live.on")).to_be_visible(timeout=WAIT_MS)


def test_the_table_page_shows_each_card_and_the_score_as_they_are_posted(
    server: str, browser: Browser
) -> None:
    made = tournament(server, game_target=100)
    table = made["tables"][0]
    page, errors = new_page(browser, viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/tables/{table['id']}")
    live(page)
    expect(page.locator("#info")).to_contain_text("Waiting for the first deal")
    hand = base_hand_events()
    post(server, table, hand[:3])  # deal, "play" (hearts), the first card JH
    expect(page.locator('#trick .card[data-card="JH"]')).to_be_visible(timeout=WAIT_MS)
    expect(page.locator('#trump [data-suit="H"]')).to_have_text("\u2665")
    expect(page.locator('#trick .card[data-card="JH"]')).to_have_class(re.compile(r"\bred\b"))
    post(server, table, hand[3:])
    expect(page.locator('[data-total="0"]')).to_have_text("128", timeout=WAIT_MS)
    expect(page.locator('[data-total="1"]')).to_have_text("104")
    expect(page.locator("#sheet tbody tr")).to_have_count(1)
    expect(page.locator("#last-hand")).to_contain_text("bella")
    assert errors == []
    page.close()


def test_the_big_screen_standings_change_when_a_game_ends(server: str, browser: Browser) -> None:
    made = tournament(server, game_target=100)
    table = made["tables"][0]
    home = TEAMS[table["entrants"][0]]["name"]
    page, errors = new_page(browser, viewport={"width": 1920, "height": 1080})
    page.goto(f"{server}/?t={made['id']}")
    live(page)
    expect(page.locator("#standings tbody tr")).to_have_count(2)
    expect(page.locator(f'[data-table="{table["id"]}"]')).to_be_visible()
    post(server, table, base_hand_events())
    first = page.locator("#standings tbody tr").first
    expect(first).to_contain_text(home, timeout=WAIT_MS)
    expect(first.locator("td.points")).to_have_text("128", timeout=WAIT_MS)
    expect(page.locator(f'[data-table="{table["id"]}"]')).to_contain_text("finished")
    assert errors == []
    page.close()


def test_on_a_phone_the_pages_fit_and_the_table_follows_the_play(
    server: str, browser: Browser
) -> None:
    made = tournament(server)
    table = made["tables"][0]
    page, errors = new_page(
        browser,
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
        has_touch=True,
    )  # fmt: skip
    page.goto(f"{server}/tables/{table['id']}")
    live(page)
    post(server, table, base_hand_events()[:6])  # a whole trick: JH QH 10H 9H
    expect(page.locator("#trick .card")).to_have_count(4, timeout=WAIT_MS)
    expect(page.locator("#trick-note")).to_contain_text("taken by")
    # nothing wider than the phone: no sideways scrolling, here or on the standings
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.goto(f"{server}/?t={made['id']}")
    live(page)
    expect(page.locator("#standings tbody tr")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert errors == []
    page.close()


def test_the_referee_sees_a_play_in_doubt_arrive_and_rules_on_it(
    server: str, browser: Browser
) -> None:
    made = tournament(server)
    table = made["tables"][0]
    seqs = post(server, table, base_hand_events()[:3])  # JH led
    page, errors = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/referee#token={made['referee_token']}&name=Rita")
    live(page)
    expect(page.locator("#confirmations")).to_contain_text("None.")
    # the camera's doubt reaches the open page by the tournament's stream
    auth = {"Authorization": f"Bearer {table['scorer_token']}"}
    r = httpx.post(
        f"{server}/api/tables/{table['id']}/plays/{seqs[2]}/evidence",
        json={"candidates": ["JH", "JD"], "confirm": True, "reason": "JH and JD are close"},
        headers=auth,
    )
    assert r.status_code == 201, r.text
    item = page.locator(f'#confirmations .item[data-seq="{seqs[2]}"]')
    expect(item).to_contain_text("JH and JD are close", timeout=WAIT_MS)  # pushed, not reloaded
    item.locator('button[data-choose="JD"]').click()
    expect(page.locator("#confirmations .item")).to_have_count(0, timeout=WAIT_MS)
    state = httpx.get(f"{server}/api/tables/{table['id']}").json()
    assert state["current"]["trick"] == [{"seat": 0, "card": "JD"}]
    log = httpx.get(f"{server}/api/tables/{table['id']}/events").json()
    assert log[-1]["actor"] == "referee:Rita" and log[-1]["event"]["type"] == "correct"
    assert "token" not in page.url  # the token is not left in the address bar
    assert errors == []
    page.close()


def test_the_big_screen_shows_the_tournament_the_organiser_chose(
    server: str, browser: Browser
) -> None:
    """Issue 14 item 4: not the latest tournament, the one chosen (PUT /api/screen); the
    screen follows a new choice without a reload."""
    first, second = tournament(server), tournament(server)
    httpx.put(f"{server}/api/screen", json={"tournament": None}, headers=ORGANISER)
    page, errors = new_page(browser, viewport={"width": 1920, "height": 1080})
    page.goto(f"{server}/")
    expect(page.locator("#nothing")).to_contain_text("not chosen", timeout=WAIT_MS)
    r = httpx.put(f"{server}/api/screen", json={"tournament": first["id"]}, headers=ORGANISER)
    assert r.status_code == 200, r.text
    expect(page.locator(f'[data-table="{first["tables"][0]["id"]}"]')).to_be_visible(timeout=30_000)
    assert page.locator(f'[data-table="{second["tables"][0]["id"]}"]').count() == 0
    assert errors == []
    page.close()


def test_the_pages_run_under_their_content_security_policy_and_docs_work_offline(
    server: str, browser: Browser
) -> None:
    """Issue 14 item 10: every page works under its CSP (no violation reported), and /docs
    lays out the API with every request to another host blocked (an offline club room)."""
    made = tournament(server)
    page, errors = new_page(browser, viewport={"width": 1280, "height": 900})
    violations: list[str] = []
    page.on(
        "console", lambda m: violations.append(m.text) if "Content Security" in m.text else None
    )
    outside: list[str] = []

    def only_this_server(route: Any) -> None:
        if route.request.url.startswith(server):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_this_server)
    page.goto(f"{server}/docs")
    expect(page.locator("#operations")).to_contain_text(
        "/api/tables/{table_id}/events", timeout=WAIT_MS
    )
    for path in (f"/?t={made['id']}", f"/tables/{made['tables'][0]['id']}", "/referee"):
        page.goto(server + path)
        page.wait_for_load_state("load")
        page.wait_for_timeout(1000)  # its scripts run, its stream opens
    assert outside == [] and violations == [] and errors == []
    page.close()
