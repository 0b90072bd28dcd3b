"""The HTML replay in a real browser: headless Chromium driven by Selenium.

The page is opened from a file:// URL as a player would open it, stepped with
the arrow keys, Home and End, the move list and the buttons, switched to
another viewer, and photographed (the screenshot is decoded here, with zlib,
to check it is not blank), on a desktop and on a phone-sized screen.

Needs Debian's ``chromium`` and ``chromium-driver`` (.ci/run installs them);
without them these tests are skipped saying what is missing, and fail instead
when ADJUDICATOR_REQUIRE_BROWSER is set (as .ci/run sets it).
"""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

import msgspec
import pytest

from adjudicator import html, match, narrating
from test_html import EXAMPLE, HOSTILE, all_views, hostile_log, replay_of

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
#: The first seat's colour (drawing.SEAT_COLOURS[0]): its mark is in every picture's footer.
BLUE = (0x00, 0x72, 0xB2)
#: selenium's Keys.ARROW_LEFT, ARROW_RIGHT, HOME and END (selenium may be missing at import).
LEFT, RIGHT, HOME, END = "\ue012", "\ue014", "\ue011", "\ue010"


def _unavailable(reason: str) -> None:
    if os.environ.get("ADJUDICATOR_REQUIRE_BROWSER"):
        pytest.fail(f"{reason} (ADJUDICATOR_REQUIRE_BROWSER is set)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    missing = [f"{path} (Debian package {package})"
               for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver"))
               if not path.exists()]
    if missing:
        _unavailable(f"missing {' and '.join(missing)}: "
                     ".ci/run installs chromium and chromium-driver with apt-get")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _unavailable("the Python package selenium is missing: pip install -e '.[test]'")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1280,1100",
                f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # A driver path given to Service: selenium-manager never looks for (or downloads) one.
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    try:
        yield driver
    finally:
        driver.quit()


class Replay:
    """The page as the tests see it through the browser."""

    def __init__(self, driver, path: Path, *, url: str | None = None,
                 keep_metrics: bool = False) -> None:
        from selenium.webdriver.common.by import By

        self.driver, self.by = driver, By
        if not keep_metrics:
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.get(url or path.as_uri())
        log = driver.get_log("browser")  # and the console is empty from here on
        if not driver.execute_script("return document.getElementById('nojs').hidden"):
            pytest.fail(f"the page's script did not run; the console says: {log}")
        # Loading the same file again may restore where an earlier test had scrolled to.
        driver.execute_script("window.scrollTo(0, 0)")

    def el(self, ident: str):
        return self.driver.find_element(self.by.ID, ident)

    def press(self, *keys: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        for key in keys:
            ActionChains(self.driver).send_keys(key).perform()

    @property
    def ply(self) -> int:
        return int(self.el("ply").text)

    def legal(self) -> list[str]:
        """The legal moves as the page shows them, the list opened: one line each."""
        if not self.el("legal-box").get_attribute("open"):
            self.driver.find_element(self.by.CSS_SELECTOR, "#legal-box > summary").click()
        items = self.el("legal").find_elements(self.by.TAG_NAME, "li")
        assert all(item.is_displayed() for item in items)
        return [item.text for item in items]

    @property
    def move(self) -> str:
        return self.el("move").text

    @property
    def picture(self) -> str:
        """The SVG shown, as the browser holds it."""
        return self.driver.execute_script(
            "var s = document.querySelector('#picture > svg');"
            "return s && s.namespaceURI === 'http://www.w3.org/2000/svg' ? s.outerHTML : null;")

    @property
    def picture_title(self) -> str:
        return self.driver.execute_script(
            "return document.querySelector('#picture > svg > title').textContent;")

    def console(self) -> list[dict]:
        """The errors logged since the last look (a script error, a blocked request)."""
        return [e for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]


@pytest.fixture(scope="module")
def page_file(tmp_path_factory) -> tuple[Path, match.Replay]:
    mp = pytest.MonkeyPatch()
    try:
        rep = replay_of(EXAMPLE)
        text = html.page(f"{rep.game.title}: {EXAMPLE.name}", all_views(rep),
                         subtitle=", ".join(rep.players))
    finally:
        mp.undo()
    path = tmp_path_factory.mktemp("replay") / "replay.html"
    path.write_text(text, encoding="utf-8")
    return path, rep


def test_steps_through_the_game_with_keys_list_and_buttons(browser, page_file):
    path, rep = page_file
    moves, n = rep.log.moves, len(rep.log.moves)
    page = Replay(browser, path)
    assert (page.ply, page.el("total").text) == (0, str(n))
    assert page.move == "Start of the game"
    assert "start" in page.picture_title and "public view" in page.picture_title
    seen = {page.picture}

    page.press(RIGHT)
    assert page.ply == 1
    assert page.move == f"Move 1: {moves[0].by} {moves[0].move}"
    assert "after move 1" in page.picture_title
    seen.add(page.picture)
    page.press(RIGHT, RIGHT)
    assert page.ply == 3 and moves[2].move in page.move
    page.press(LEFT)
    assert page.ply == 2 and "after move 2" in page.picture_title
    seen.add(page.picture)
    assert len(seen) == 3, "each position shows its own picture"

    page.press(END)
    assert page.ply == n and page.move == f"Move {n}: {moves[-1].by} {moves[-1].move}"
    assert page.el("result").text == html.result_line(rep.log.result)
    assert page.el("forward").get_attribute("disabled") is not None
    page.press(RIGHT)  # nothing beyond the end
    assert page.ply == n
    page.press(HOME)
    assert page.ply == 0 and not page.el("result").is_displayed()
    page.press(LEFT)
    assert page.ply == 0

    # The move list, then the buttons.
    page.driver.find_element(page.by.CSS_SELECTOR, '#moves button[data-ply="5"]').click()
    assert page.ply == 5 and page.move == f"Move 5: {moves[4].by} {moves[4].move}"
    assert "after move 5" in page.picture_title
    current = page.driver.find_element(page.by.CSS_SELECTOR, '#moves [aria-current="true"]')
    assert current.get_attribute("data-ply") == "5"
    page.el("forward").click()
    assert page.ply == 6
    page.el("back").click()
    page.el("back").click()
    assert page.ply == 4
    page.el("last").click()
    assert page.ply == n
    page.el("first").click()
    assert page.ply == 0 and page.el("first").get_attribute("disabled") is not None
    page.press(RIGHT)  # the keys still work with the focus on a button
    assert page.ply == 1
    assert page.console() == [], "the page logged errors (a script error, a blocked request?)"
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0


def test_switching_viewer_keeps_the_position_and_shows_the_legal_moves(browser, page_file):
    from selenium.webdriver.support.ui import Select

    path, rep = page_file
    game = rep.game
    page = Replay(browser, path)
    choice = Select(page.el("viewer"))
    assert [o.text for o in choice.options] == ["public view", *rep.players]
    page.press(RIGHT, RIGHT)
    public = page.picture
    assert not page.el("legal-box").is_displayed()
    seat = game.to_move(rep.states[2])
    name = rep.players[seat]
    choice.select_by_visible_text(name)
    assert page.ply == 2
    assert f"as seen by {name}" in page.picture_title and page.picture != public
    legal = [game.format_move(rep.states[2], m) for m in game.legal_moves(rep.states[2])]
    assert page.el("legal-box").is_displayed()
    assert page.el("legal-count").text == str(len(legal))
    # Each move with its words, as legal --explain says them (issue #26).
    said = narrating.explained(game, game.view(rep.states[2], seat), legal)
    assert page.legal() == [f"{m} {w}" for m, w in said]
    page.el("picture").click()  # the focus away from the <select>: the keys step again
    page.press(RIGHT)
    assert page.ply == 3 and f"as seen by {name}" in page.picture_title
    assert page.el("legal-box").is_displayed() == (game.to_move(rep.states[3]) == seat)
    assert page.console() == []


def test_screenshot_shows_the_picture_on_a_desktop(browser, page_file):
    path, _ = page_file
    page = Replay(browser, path)
    page.press(RIGHT)
    width, height, ratio = browser.execute_script(
        "return [innerWidth, innerHeight, devicePixelRatio]")
    rect = page.el("picture").rect
    assert rect["width"] > 500, "the picture should fill its column on a desktop"
    assert rect["y"] + rect["height"] <= height, "the whole picture should be in the window"
    shot = decode_png(browser.get_screenshot_as_png())
    assert (shot.width, shot.height) == (round(width * ratio), round(height * ratio))
    assert len(shot.colours()) > 8, "the screenshot is blank"
    inside = shot.crop(*(round(rect[k] * ratio) for k in ("x", "y", "width", "height")))
    colours = inside.colours()
    assert BLUE in colours, "the picture's seat marks were not drawn"
    assert len(colours) > 8, "the picture is blank"
    outside = shot.crop(0, round((rect["y"] + rect["height"]) * ratio) + 4, round(width * ratio), 0)
    assert BLUE not in outside.colours()


def test_on_a_phone_the_picture_fits_the_width(browser, page_file):
    path, _ = page_file
    page = Replay(browser, path)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    try:
        page.press(END)
        size = browser.execute_script(
            "var r = document.querySelector('#picture > svg').getBoundingClientRect();"
            "var d = document.documentElement;"
            "return {inner: innerWidth, client: d.clientWidth, scroll: d.scrollWidth,"
            "        left: r.left, right: r.right, width: r.width, height: r.height};")
        assert size["inner"] == 390
        assert size["scroll"] <= size["client"], "the page scrolls sideways on a phone"
        assert size["left"] >= 0 and size["right"] <= size["client"]
        assert size["width"] > 0.85 * size["client"], "the picture should use the width"
        assert size["height"] > 0.3 * size["width"], "the picture keeps its aspect ratio"
        shot = decode_png(browser.get_screenshot_as_png())
        assert (shot.width, shot.height) == (780, 1688)
        assert BLUE in shot.colours() and len(shot.colours()) > 8
        # The buttons stay big enough to tap.
        assert page.el("forward").rect["height"] >= 30
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_hostile_comment_is_shown_as_text_and_never_run(browser, tmp_path, monkeypatch):
    from selenium.common.exceptions import NoAlertPresentException

    rep = match.validate(hostile_log(), keep=True)
    path = tmp_path / "hostile.html"
    path.write_text(html.page(HOSTILE, [(HOSTILE, html.frames(rep, None)),
                                        ("ann", html.frames(rep, 0))], subtitle=HOSTILE),
                    encoding="utf-8")
    page = Replay(browser, path)
    assert page.ply == 4  # a game under way opens on its position now
    page.press(HOME, RIGHT, RIGHT)
    assert page.ply == 2
    assert page.el("comment").get_attribute("textContent") == HOSTILE
    assert page.el("title").get_attribute("textContent") == HOSTILE
    assert browser.title == HOSTILE
    assert browser.execute_script("return document.scripts.length") == 2
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert  # noqa: B018
    assert page.console() == []


# --- a game under way, links to a move, no JavaScript, a phone (issue #26) ---------------------


@pytest.fixture(scope="module")
def open_page(tmp_path_factory) -> tuple[Path, match.Replay]:
    """The page of an open game under way, as ``replay --html`` writes it."""
    full = replay_of(EXAMPLE).log
    under_way = match.validate(msgspec.structs.replace(full, moves=full.moves[:9], result=None),
                               keep=True)
    path = tmp_path_factory.mktemp("open") / "open.html"
    path.write_text(html.page("Q-Turn under way", all_views(under_way), follow=True),
                    encoding="utf-8")
    return path, under_way


def test_an_open_game_opens_on_the_player_to_move_with_the_legal_moves(browser, open_page):
    from selenium.webdriver.support.ui import Select

    path, rep = open_page
    game, n = rep.game, len(rep.log.moves)
    page = Replay(browser, path)
    assert page.ply == n, "a game under way opens on its position now"
    mover = rep.players[game.to_move(rep.states[n])]
    assert f"as seen by {mover}" in page.picture_title
    legal = [game.format_move(rep.states[n], m) for m in game.legal_moves(rep.states[n])]
    assert page.el("legal-box").is_displayed()
    said = narrating.explained(game, game.view(rep.states[n], game.to_move(rep.states[n])), legal)
    assert page.legal() == [f"{m} {w}" for m, w in said]
    choice = Select(page.el("viewer"))
    assert choice.first_selected_option.text == "player to move"
    page.press(HOME)  # the view follows whoever is to move
    first = rep.players[game.to_move(rep.states[0])]
    assert page.ply == 0 and f"as seen by {first}" in page.picture_title
    assert page.el("legal-box").is_displayed()
    choice.select_by_visible_text("public view")
    assert "public view" in page.picture_title and not page.el("legal-box").is_displayed()
    assert page.console() == []


def test_a_link_to_a_move_opens_it_and_the_address_follows(browser, page_file):
    path, rep = page_file
    browser.get(path.as_uri() + "#5")
    page = Replay(browser, path, url=path.as_uri() + "#5")
    assert page.ply == 5 and "after move 5" in page.picture_title
    page.press(RIGHT)
    assert page.ply == 6 and browser.execute_script("return location.hash") == "#6"
    browser.execute_script("location.hash = '#2'")
    assert page.ply == 2 and "after move 2" in page.picture_title
    assert page.console() == []


def test_without_javascript_the_page_shows_a_picture(browser, open_page):
    path, rep = open_page
    n = len(rep.log.moves)
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(path.as_uri())
        from selenium.webdriver.common.by import By

        nojs = browser.find_element(By.ID, "nojs")
        assert nojs.is_displayed() and f"move {n}" in nojs.text
        svg = browser.find_element(By.CSS_SELECTOR, "#picture > svg")
        assert svg.is_displayed() and svg.rect["width"] > 300
        assert browser.find_element(By.ID, "move").text.startswith(f"Move {n}: ")
        assert browser.find_element(By.ID, "legal-box").is_displayed()
        browser.find_element(By.CSS_SELECTOR, "#legal-box > summary").click()
        game, state = rep.game, rep.states[n]
        legal = [game.format_move(state, m) for m in game.legal_moves(state)]
        said = narrating.explained(game, game.view(state, game.to_move(state)), legal)
        shown = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#legal li")]
        assert shown == [f"{m} {w}" for m, w in said]  # the words without a script too
        assert not browser.find_element(By.ID, "bar").is_displayed()
        shot = decode_png(browser.get_screenshot_as_png())
        assert BLUE in shot.colours(), "the picture was not drawn"
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


def test_on_a_412_px_phone_the_legend_is_legible(browser, page_file):
    path, _ = page_file
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 412, "height": 915, "deviceScaleFactor": 2.625,
                             "mobile": True})
    try:
        page = Replay(browser, path, keep_metrics=True)
        page.press(END)
        got = browser.execute_script(
            "var svg = document.querySelector('#picture > svg');"
            "var scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;"
            "var inside = Array.from(svg.querySelectorAll('.legend'));"
            "var items = Array.from(document.querySelectorAll('#legend li'));"
            "return {scale: scale, inner: innerWidth,"
            "  hidden: inside.every(function (t) { return getComputedStyle(t).display === 'none'; }),"
            "  inside: inside.map(function (t) { return t.textContent; }),"
            "  items: items.map(function (t) { return t.textContent; }),"
            "  sizes: items.map(function (t) { return parseFloat(getComputedStyle(t).fontSize); }),"
            "  shown: items.every(function (t) { return t.getBoundingClientRect().height > 0; })};")
        assert got["inner"] == 412
        # Drawn in the picture the legend would be 13 px times the picture's scale.
        assert 13 * got["scale"] < 8, got["scale"]
        assert got["inside"] and got["hidden"], "the picture's own legend stays hidden"
        assert got["items"] == got["inside"] and got["shown"]
        assert min(got["sizes"]) >= 13, "the legend below the picture is full size"
        assert page.console() == []
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


# --- a forum post as the browser shows it (issue #26) --------------------------------------------


@pytest.mark.parametrize("fenced", [True, False], ids=["code-block", "bare"])
def test_a_forum_post_reads_back_from_the_text_a_browser_shows(browser, tmp_path, fenced):
    """A refereed game's view file posted on a Markdown forum, in the code
    block ``convert --to forum`` writes or bare, rendered (markdown-it-py,
    CommonMark), shown in Chromium and copied as the browser gives its text
    (``innerText``): it reads back. Bare, Markdown ate the soft breaks'
    ``\\``, the moves' numbers and the ``\\`` of escapes; the reader makes
    up for all three. The text Chromium shows is the one the tests' own
    ``inner_text`` makes (tests/test_forums.py)."""
    from markdown_it import MarkdownIt
    from test_textform import views

    from adjudicator import log, mailparse, textform

    # A move with a comment full of what Markdown eats ("\\}", "\\\\"), in a
    # game under way (its moves a list): the reader puts it back.
    value = next(v for v in views() if v.log.moves and "\\}" in textform.dumps(v))
    text = textform.forum(value) if fenced else textform.dumps(value)
    assert "\\\n" in textform.dumps(value)  # it has soft breaks
    page = tmp_path / "post.html"
    post = MarkdownIt("commonmark").render("Round 2, over to you:\n\n" + text + "\nCheers\n")
    page.write_text("<!DOCTYPE html><meta charset=utf-8><title>post</title><body>" + post,
                    encoding="utf-8")
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    browser.get(page.as_uri())
    shown = browser.execute_script("return document.body.innerText")
    assert "Round 2" in shown and "Cheers" in shown
    assert log.encode(mailparse.extract(shown)) == log.encode(value)
    assert log.encode(mailparse.extract(page.read_text())) == log.encode(value)
    if not fenced:
        from test_forums import inner_text

        def lines(text: str) -> list[str]:
            return [line for line in text.splitlines() if line.strip()]

        assert lines(shown) == lines(inner_text(post))


# --- a PNG decoder, enough for Chromium's screenshots -----------------------------------------


class Png:
    def __init__(self, width: int, height: int, channels: int, rows: list[bytes]) -> None:
        self.width, self.height, self.channels, self.rows = width, height, channels, rows

    def crop(self, x: int, y: int, width: int, height: int) -> Png:
        """The part of the image from (x, y), ``width`` by ``height`` (0: to the bottom)."""
        c = self.channels
        rows = self.rows[y:y + height] if height else self.rows[y:]
        return Png(width, len(rows), c, [row[x * c:(x + width) * c] for row in rows])

    def colours(self) -> set[tuple[int, int, int]]:
        """The distinct RGB colours of the image."""
        c = self.channels
        out: set[tuple[int, int, int]] = set()
        for row in self.rows:
            out.update(zip(row[0::c], row[1::c], row[2::c]))
        return out


def decode_png(data: bytes) -> Png:
    """An 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes), unfiltered."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    assert header is not None, "no IHDR"
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    c = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * c
    assert len(raw) == height * (stride + 1)
    rows: list[bytes] = []
    prior = bytearray(stride)
    low7 = int.from_bytes(b"\x7f" * stride, "big")
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 2:
            # Up, the commonest filter: add the rows byte by byte (mod 256) in one big int.
            x, p = int.from_bytes(line, "big"), int.from_bytes(prior, "big")
            total = ((x & low7) + (p & low7)) ^ ((x ^ p) & ~low7 & ((1 << 8 * stride) - 1))
            line = bytearray(total.to_bytes(stride, "big"))
        elif kind == 1:  # Sub
            for i in range(c, stride):
                line[i] = (line[i] + line[i - c]) & 0xFF
        elif kind == 3:  # Average
            for i in range(c):
                line[i] = (line[i] + (prior[i] >> 1)) & 0xFF
            for i in range(c, stride):
                line[i] = (line[i] + ((line[i - c] + prior[i]) >> 1)) & 0xFF
        elif kind == 4:  # Paeth; in the first pixel, left and upper left are 0: up wins
            for i in range(c):
                line[i] = (line[i] + prior[i]) & 0xFF
            for i in range(c, stride):
                a, b, d = line[i - c], prior[i], prior[i - c]
                pa, pb, pc = abs(b - d), abs(a - d), abs(a + b - 2 * d)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else d)) & 0xFF
        else:
            assert kind == 0, f"unknown PNG filter {kind}"
        rows.append(bytes(line))
        prior = line
    return Png(width, height, c, rows)


def test_png_decoder_reverses_every_filter():
    """The decoder above, checked on a PNG written here with each filter in turn."""
    width, height, c = 7, 10, 4
    pixels = [bytes((x * 37 + y * 91 + k * 53 + x * y * 7) & 0xFF
                    for x in range(width) for k in range(c)) for y in range(height)]

    def paeth(a: int, b: int, d: int) -> int:
        p = a + b - d
        pa, pb, pc = abs(p - a), abs(p - b), abs(p - d)
        return a if pa <= pb and pa <= pc else b if pb <= pc else d

    raw = bytearray()
    prior = bytes(width * c)
    for y, row in enumerate(pixels):
        kind = y % 5
        raw.append(kind)
        for i, v in enumerate(row):
            a = row[i - c] if i >= c else 0
            b, d = prior[i], prior[i - c] if i >= c else 0
            pred = (0, a, b, (a + b) >> 1, paeth(a, b, d))[kind]
            raw.append((v - pred) & 0xFF)
        prior = row

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(bytes(raw))) + chunk(b"IEND", b""))
    image = decode_png(png)
    assert (image.width, image.height, image.channels) == (width, height, c)
    assert image.rows == pixels


def test_tournament_page_in_the_browser(browser, tmp_path):
    """The standings page of an event (#27): the standings, the crosstable
    and the games table shown, a disputed game marked, every game's replay
    linked and opening as a working replay page; nothing blocked or broken."""
    from selenium.webdriver.common.by import By

    from adjudicator.tournament import page, rounds
    from test_tournament_events import START, by_library, setup_event

    t, key = setup_event(tmp_path, 25, "atlas", 6, "3", "per-move=72h")
    now = START
    for number in (1, 2):
        rounds.start_round(t, tmp_path, key, now=now)
        now = by_library(t, tmp_path, number, now)
    games = tmp_path / "referee" / "games"
    tampered = games / "ev-r2-t1.json"
    tampered.write_text(tampered.read_text().replace('"place": 1', '"place": 9', 1))
    logs = rounds.event_logs(t, games)
    s = rounds.current(t, logs)
    out = tmp_path / "site" / "standings.html"
    assert page.write(s, logs, out) == 4
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    browser.get(out.as_uri())
    rows = browser.find_elements(By.CSS_SELECTOR, "#standings tbody tr")
    assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in rows] == [r.player for r in s.rows]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#crosstable tbody tr")) == 6
    disputed = browser.find_elements(By.CSS_SELECTOR, "#games tr.disputed")
    assert len(disputed) == 1 and "signatures" in disputed[0].text
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "#games a")]
    assert len(links) == 4
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    for link in links:
        browser.get(link)
        assert browser.execute_script("return document.getElementById('nojs').hidden"), link
        assert browser.find_element(By.ID, "picture").find_elements(By.TAG_NAME, "svg"), link
        assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"], link
