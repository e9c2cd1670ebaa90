#!/usr/bin/env python3
"""Browser test of dama's page (web/) against the real `dama serve`, in headless Chromium.

Builds a small database (self-play games and a tiny training run), starts
`DAMA_BIN serve --port 0 --db TMP`, reads the URL it prints, then drives the three views:
plays a short game by clicking (a refused move and its reason, a legal move, the engine's
reply; a compulsory multi-capture from a set position), replays a stored game, and opens
the training view.  Saves play.png, replay.png and training.png in DAMA_SCREENSHOTS (a
folder; `DAMA_SCREENSHOTS=docs/screenshots` renews README's pictures), else in the run's
temporary folder, so that a test run leaves the work tree as it was.

Skips (exit 0, one line saying so) only when chromium or chromedriver is not installed;
any other trouble is a failure (exit 1).  Waits are explicit (WebDriverWait on what the
page shows), never sleeps.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DAMA = os.path.abspath(os.path.join(ROOT, os.environ.get("DAMA_BIN", "bin/dama")))
SHOTS = os.environ.get("DAMA_SCREENSHOTS") or os.path.join(tempfile.gettempdir(), "dama-screenshots")
WAIT_S = 15           # the longest any one thing may take to appear
SERVE_START_S = 10    # for `dama serve` to print its URL

# A Turkish position where white must capture: the man on c6 takes c7 landing on the last
# rank (c8), goes on sideways as a man to take b8 (a8), and is crowned when the move ends
# (docs/rules.md, rule 6); the quiet move a2-a3 is refused as "capture-compulsory".
CAPTURE_FEN = "W:Wa2,c6:Bc7,b8,h7"
CAPTURE = "c6xc8xa8"
# The white king on g7 has two captures of three men ending on h2 (by a7, a2 or by c7, c2):
# the page asks which.
CHOICE_FEN = "W:Wg5,Kg7:Ba4,d7,c5,g2"
CHOICE = "g7xc7xc2xh2"
# A middle game with a king on each side, for the screenshot of the Play view.
SHOW_FEN = "W:Wa3,b3,c3,f3,g3,h3,a2,h2,Kd1:Ba6,b6,c6,f6,g6,h6,a7,h7,Kf8"

# Records every change of the pieces' classes and places on a board, in order, so the test
# sees the steps of an animated move however fast it runs.
WATCH_PIECES = """
window.pieceLog = [];
const layer = document.querySelector('#' + arguments[0] + ' .piece-layer');
new MutationObserver((changes) => {
  for (const c of changes) {
    const p = c.target;
    window.pieceLog.push({square: p.dataset.square, kind: p.dataset.kind, cls: p.className,
                          top: p.style.top, left: p.style.left});
  }
}).observe(layer, {attributes: true, subtree: true, attributeFilter: ['class', 'style', 'data-kind']});
"""


def find_browser():
    chromium = next((shutil.which(n) for n in ("chromium", "chromium-browser") if shutil.which(n)), None)
    driver = shutil.which("chromedriver") or (
        "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
    return chromium, driver


def run(args, what):
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError("%s failed (exit %d): %s" % (what, done.returncode, done.stderr.strip()))
    return done.stdout


def build_database(tmp):
    db = os.path.join(tmp, "page.db")
    run([DAMA, "selfplay", "--games", "4", "--nodes", "300", "--db", db], "dama selfplay")
    run([DAMA, "train", "--db", db, "--generations", "2", "--games", "24", "--match-games", "20",
         "--final-games", "0", "--nodes", "300", "--epochs", "20",
         "--out", os.path.join(tmp, "best.txt")], "dama train")
    # Games from the start position itself (no random plies), for the explorer.
    run([DAMA, "selfplay", "--games", "4", "--nodes", "300", "--random-plies", "0", "--db", db],
        "dama selfplay from the start")
    return db


class Server:
    """`dama serve` on a free port; its first line naming http://… is the URL."""

    def __init__(self, db):
        self.proc = subprocess.Popen([DAMA, "serve", "--port", "0", "--db", db], cwd=ROOT,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []
        self.url = None
        found = threading.Event()

        def read():
            for line in self.proc.stdout:
                self.lines.append(line.rstrip("\n"))
                match = re.search(r"https?://[^\s]+", line)
                if match and not found.is_set():
                    self.url = match.group(0).rstrip("/")
                    found.set()
            found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(SERVE_START_S) or self.url is None:
            self.stop()
            raise AssertionError("dama serve printed no URL in %d s: %s" % (SERVE_START_S, " | ".join(self.lines)))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Page:
    def __init__(self, chromium, chromedriver):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                    "--window-size=1280,1000", "--force-device-scale-factor=1", "--lang=en-GB"):
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(chromedriver), options=options)

    def css(self, selector):
        from selenium.webdriver.common.by import By
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def one(self, selector):
        return self.wait_for(lambda: (self.css(selector) or [None])[0], "an element " + selector)

    def wait_for(self, condition, what, timeout=WAIT_S):
        from selenium.webdriver.support.ui import WebDriverWait
        from selenium.common.exceptions import TimeoutException
        from selenium.common.exceptions import StaleElementReferenceException
        try:
            # An element may be redrawn between finding and reading it: that is "not yet".
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05,
                                 ignored_exceptions=(StaleElementReferenceException, IndexError)
                                 ).until(lambda d: condition())
        except TimeoutException:
            raise AssertionError("waited %d s for %s" % (timeout, what)) from None

    def text(self, selector):
        found = self.css(selector)
        return found[0].text if found else ""

    def square(self, board, name):
        return self.one("#%s .square[data-square='%s']" % (board, name))

    def pieces(self, board):
        """{square: kind} as the board draws it."""
        return self.driver.execute_script(
            "const out = {};"
            "for (const p of document.querySelectorAll('#' + arguments[0] + ' .piece'))"
            "  out[p.dataset.square] = p.dataset.kind;"
            "return out;", board)

    def marked(self, board, mark):
        return sorted(e.get_attribute("data-square") for e in self.css("#%s .square.mark-%s" % (board, mark)))

    def select(self, selector, value):
        from selenium.webdriver.support.ui import Select
        Select(self.one(selector)).select_by_value(value)

    def type_into(self, selector, text):
        field = self.one(selector)
        field.clear()
        field.send_keys(text)

    def errors(self):
        """JavaScript errors and failed loads the browser logged, but for the refusals the
        test asks for (422 an illegal move, 409 not the player's turn)."""
        return [e["message"] for e in self.driver.get_log("browser") if e["level"] == "SEVERE"
                and not re.search(r"/api/games/\d+/move .*status of (422|409)", e["message"])]

    def shot(self, name, folder=SHOTS):
        """The whole page: the window is made as tall as the page for the picture."""
        os.makedirs(folder, exist_ok=True)
        self.driver.execute_script("window.scrollTo(0, 0)")
        size = self.driver.get_window_size()
        inner = self.driver.execute_script("return window.innerHeight")
        height = self.driver.execute_script("return document.documentElement.scrollHeight")
        self.driver.set_window_size(size["width"], min(2400, size["height"] - inner + height))
        self.driver.save_screenshot(os.path.join(folder, name + ".png"))
        self.driver.set_window_size(size["width"], size["height"])


def new_game(page, fen="", turn_seconds=0, wait=True):
    page.select("#play-variant", "turkish")
    page.select("#play-side", "white")
    page.select("#play-level-kind", "nodes")
    page.type_into("#play-level-value", "300")
    page.type_into("#play-turn", str(turn_seconds))
    page.type_into("#play-fen", fen)
    page.one("#play-new").click()
    if wait:
        page.wait_for(lambda: "Your move" in page.text("#play-status") and page.marked("play-board", "movable")
                      and move_count(page) == 0, "a new game with white's pieces that may move marked")


def move_count(page):
    return len(page.css("#play-moves .move"))


def test_play(page, url):
    page.driver.get(url + "/#play")
    page.wait_for(lambda: len(page.css("#play-board .square")) == 64, "the Turkish board of 64 squares")
    new_game(page)
    # White's men on rank 3 may move, those on rank 2 may not.
    movable = page.marked("play-board", "movable")
    assert movable == sorted(c + "3" for c in "abcdefgh"), "pieces that may move: %s" % movable

    # A piece that may not move: chosen, it gets no target, and a move with it is refused
    # with the server's reason.
    page.square("play-board", "c2").click()
    page.wait_for(lambda: page.marked("play-board", "selected") == ["c2"], "c2 selected")
    assert page.marked("play-board", "target") == [], "an immovable piece got targets"
    assert "no legal move" in page.text("#play-message")
    page.square("play-board", "c4").click()
    page.wait_for(lambda: "refusal" in page.one("#play-message").get_attribute("class"),
                  "the refusal of c2-c4")
    refused = page.text("#play-message")
    assert refused and move_count(page) == 0, "refused %r, moves %d" % (refused, move_count(page))

    # A legal piece: its targets are marked; an unmarked square is refused; the marked
    # target is played, shown in the move list, and the engine replies.
    page.square("play-board", "c3").click()
    page.wait_for(lambda: page.marked("play-board", "target") == ["c4"], "c3's target c4 marked")
    page.square("play-board", "c6").click()   # a black man's square: no move goes there
    page.wait_for(lambda: "refusal" in page.one("#play-message").get_attribute("class")
                  and page.text("#play-message") != "", "the refusal of c3-c6")
    assert move_count(page) == 0
    assert page.marked("play-board", "selected") == ["c3"], "a refusal keeps the piece chosen"
    assert page.marked("play-board", "target") == ["c4"]
    page.square("play-board", "c4").click()
    page.wait_for(lambda: move_count(page) >= 1 and page.css("#play-moves .move")[0].text == "c3-c4",
                  "c3-c4 in the move list")
    page.wait_for(lambda: move_count(page) == 2 and "Your move" in page.text("#play-status"),
                  "the engine's reply")
    assert page.pieces("play-board").get("c4") == "w" and "c3" not in page.pieces("play-board")
    engine_move = page.css("#play-moves .move")[1].text
    engine_box = page.text("#play-engine")
    assert engine_move in engine_box and "Evaluation" in engine_box, engine_box
    assert page.one("#play-pdn").get_attribute("href").endswith("/pdn")

    # A compulsory capture from a set position: the quiet move is refused with the piece
    # that can capture highlighted; the capture is played jump by jump, each man taken
    # fading as it is jumped, and the man crowned at the end.
    new_game(page, CAPTURE_FEN)
    assert page.marked("play-board", "movable") == ["c6"]
    page.square("play-board", "a2").click()
    page.square("play-board", "a3").click()
    page.wait_for(lambda: page.one("#play-message").get_attribute("data-refusal") == "capture-compulsory",
                  "the refusal name capture-compulsory")
    assert page.marked("play-board", "alert") == ["c6"], page.marked("play-board", "alert")
    page.square("play-board", "c6").click()
    page.wait_for(lambda: page.marked("play-board", "target") == ["a8"], "c6's capture landing on a8")
    page.driver.execute_script(WATCH_PIECES, "play-board")
    page.square("play-board", "a8").click()
    # (read inside the wait: the engine's reply may redraw the list between find and read)
    page.wait_for(lambda: move_count(page) >= 1 and page.css("#play-moves .move")[0].text == CAPTURE,
                  "the capture in the move list")
    after = page.pieces("play-board")
    assert after.get("a8") == "W" and "c7" not in after and "b8" not in after, after
    log = page.driver.execute_script("return window.pieceLog")
    mover = [e for e in log if e["square"] == "c6"]
    places = [(e["top"], e["left"]) for e in mover]
    c8, a8 = ("0%", "25%"), ("0%", "0%")
    assert c8 in places and a8 in places and places.index(c8) < places.index(a8), \
        "the capturing man did not go c6, c8, a8 jump by jump (its places: %s)" % places
    faded = [i for i, e in enumerate(log) if e["square"] == "c7" and "taken" in e["cls"]]
    at_a8 = next(i for i, e in enumerate(log) if e["square"] == "c6" and (e["top"], e["left"]) == a8)
    assert faded and faded[0] < at_a8, "c7 did not fade before the second jump: %s" % log
    assert any(e["kind"] == "W" for e in mover), "the man was not crowned during its move: %s" % mover
    page.wait_for(lambda: move_count(page) == 2 or page.text("#play-status").startswith("Game over"),
                  "the engine's reply to the capture")

    # Two captures end on one square: the page offers both, pointing at one shows its
    # squares, the one chosen is played.
    new_game(page, CHOICE_FEN)
    page.square("play-board", "g7").click()
    page.wait_for(lambda: page.marked("play-board", "target") == ["h2"], "g7's captures ending on h2")
    page.square("play-board", "h2").click()
    page.wait_for(lambda: len(page.css("#play-choices button")) == 2, "the two captures offered")
    offered = {b.text: b for b in page.css("#play-choices button")}
    assert sorted(offered) == sorted([CHOICE, "g7xa7xa2xh2"]), sorted(offered)
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(page.driver).move_to_element(offered[CHOICE]).perform()
    page.wait_for(lambda: page.marked("play-board", "hint") == ["c2", "c5", "c7", "d7", "g2", "h2"],
                  "the squares of %s shown" % CHOICE)
    offered[CHOICE].click()
    page.wait_for(lambda: move_count(page) >= 1 and page.css("#play-moves .move")[0].text == CHOICE,
                  "the chosen capture played")
    page.wait_for(lambda: move_count(page) == 2 and "Your move" in page.text("#play-status"),
                  "the engine's reply to the chosen capture")

    # Resigned, the game is over and saved to the database; "Replay it" opens it there.
    page.one("#play-resign").click()
    page.wait_for(lambda: page.text("#play-status").startswith("Game over"), "the game over after resigning")
    page.wait_for(lambda: re.search(r"game \d+", page.text("#play-saved")), "the saved game's number")
    saved = re.search(r"game (\d+)", page.text("#play-saved")).group(1)
    page.one("#play-saved button").click()
    page.wait_for(lambda: page.text("#replay-title").startswith("Game %s " % saved), "saved game %s replayed" % saved)
    assert [m.text for m in page.css("#replay-moves .move")][:1] == [CHOICE]
    page.one("#tab-play").click()

    # The turn clock: when the turn's second runs out the page asks the server, which plays
    # a move for the player; a second time-out in a row loses the game.
    new_game(page, turn_seconds=1, wait=False)
    page.wait_for(lambda: "Time ran out:" in page.text("#play-message"), "a move played when the time ran out")
    assert move_count(page) >= 1
    page.wait_for(lambda: page.text("#play-status").startswith("Game over") and "time" in page.text("#play-status"),
                  "the game lost on the second time-out")
    page.wait_for(lambda: re.search(r"game \d+", page.text("#play-saved")), "the game lost on time saved")

    # A move by dragging: d3 dropped on d4.
    new_game(page)
    from selenium.webdriver.common.action_chains import ActionChains
    source, target = page.square("play-board", "d3"), page.square("play-board", "d4")
    ActionChains(page.driver).click_and_hold(source).move_to_element_with_offset(source, 0, -20) \
        .move_to_element(target).release(target).perform()
    page.wait_for(lambda: move_count(page) >= 1 and page.css("#play-moves .move")[0].text == "d3-d4",
                  "d3-d4 played by dragging")
    page.wait_for(lambda: move_count(page) == 2 and "Your move" in page.text("#play-status"), "the engine's reply")
    # For the screenshot: a middle game with a king each, a move and the engine's reply,
    # then the white king chosen with its targets marked.
    new_game(page, SHOW_FEN)
    page.square("play-board", "c3").click()
    page.square("play-board", "c4").click()
    page.wait_for(lambda: move_count(page) == 2 and "Your move" in page.text("#play-status"), "the engine's reply")
    movable = page.marked("play-board", "movable")
    piece = "d1" if "d1" in movable else movable[0]   # the king, unless a capture is due
    page.square("play-board", piece).click()
    page.wait_for(lambda: page.marked("play-board", "target"), "the targets of " + piece)
    page.shot("play")


def test_replay(page):
    page.one("#tab-replay").click()
    page.wait_for(lambda: page.css("#replay-games tr"), "the stored games listed")
    # Filtered by run: the 4 games of the first self-play run (run 1), and only those.
    page.select("#replay-run", "1")
    page.one("#replay-filters button[type=submit]").click()
    page.wait_for(lambda: page.text("#replay-count") == "Games 1–4 of 4.", "the 4 games of run 1")
    runs = {r.find_elements("css selector", "td")[1].text for r in page.css("#replay-games tr")}
    assert runs == {"1"}, "games of runs %s listed for run 1" % runs
    # The longest game listed, so there is something to step through.
    rows = page.css("#replay-games tr")
    plies = [int(r.find_elements("css selector", "td")[5].text) for r in rows]
    rows[plies.index(max(plies))].click()
    # the game shown before (the one just played) may linger until the chosen one is in
    page.wait_for(lambda: len(page.css("#replay-moves .move")) == max(plies)
                  and page.text("#replay-ply").startswith("Ply 0 of"),
                  "the chosen game (%d moves, as the table says) at its start" % max(plies))
    start = page.pieces("replay-board")
    assert start, "the board shows no pieces"
    page.one("#replay-next").click()
    page.wait_for(lambda: page.text("#replay-ply").startswith("Ply 1 of"), "ply 1")
    first = page.css("#replay-moves .move")[0]
    assert "current" in first.get_attribute("class")
    assert page.pieces("replay-board") != start, "the board did not change after the first move"
    squares = re.split("[-x]", first.text)
    assert squares[0] not in page.pieces("replay-board") and squares[-1] in page.pieces("replay-board")
    from selenium.webdriver.common.keys import Keys
    page.one("body").send_keys(Keys.ARROW_RIGHT)
    page.wait_for(lambda: page.text("#replay-ply").startswith("Ply 2 of"), "ply 2 by the arrow key")
    page.wait_for(lambda: page.css("#replay-eval canvas"), "the evaluation graph")
    page.one("#replay-nodes").clear()
    page.one("#replay-nodes").send_keys("2000")
    page.one("#replay-analyze").click()
    page.wait_for(lambda: page.text("#replay-analysis").startswith("Best "), "the engine's analysis")
    page.shot("replay")


# A Turkish blunder (tests/test_annotate.c): d4-d5 lets d6 take three men, where g7-g8
# crowned a king; `dama annotate` marks it ?? with g7-g8 as the better move.
BLUNDER_PDN = """[Event "blunder"]
[FEN "W:Wd4,d3,c2,h2,g7:Bd6,h7,a7,b7,a6"]
[GameType "30"]

1. d4-d5 d6xd4xd2xb2 0-2
"""


def test_annotated_replay(page, url, db, tmp):
    pdn = os.path.join(tmp, "blunder.pdn")
    with open(pdn, "w") as f:
        f.write(BLUNDER_PDN)
    run([DAMA, "pdn", "import", "--db", db, pdn], "dama pdn import")
    import sqlite3
    con = sqlite3.connect(db)
    game, imported_run = con.execute("SELECT id, run_id FROM games ORDER BY id DESC LIMIT 1").fetchone()
    con.close()
    run([DAMA, "annotate", "--game", str(game), "--db", db, "--depth", "8", "--out", os.devnull], "dama annotate")
    page.driver.get(url)   # the run list anew, with the import's run
    page.one("#tab-replay").click()
    page.wait_for(lambda: page.css("#replay-run option[value='%d']" % imported_run), "the import's run listed")
    page.select("#replay-run", str(imported_run))
    page.one("#replay-filters button[type=submit]").click()
    page.wait_for(lambda: page.text("#replay-count") == "Games 1–1 of 1.", "the imported game")
    page.css("#replay-games tr")[0].click()
    page.wait_for(lambda: page.text("#replay-title").startswith("Game %d " % game), "the annotated game")
    moves = page.css("#replay-moves .move")
    assert [m.text for m in moves] == ["d4-d5??", "d6xd4xd2xb2"], [m.text for m in moves]
    # no scores are stored with an imported game: the graph is the annotation's
    page.wait_for(lambda: page.css("#replay-eval canvas"), "the evaluation graph of the annotation")
    assert page.one("#replay-better").get_attribute("hidden") is not None, "a better line offered at the start"
    moves[0].click()
    page.wait_for(lambda: page.one("#replay-better").is_displayed(), "the better line offered for d4-d5??")
    page.one("#replay-better").click()
    page.wait_for(lambda: "better g7-g8 · line g7-g8" in page.text("#replay-analysis"), "the better line shown")
    assert page.text("#replay-ply").startswith("Ply 0 of"), "not at the position before the blunder"
    page.shot("replay-annotated")


def test_explorer(page):
    """The Explorer tab: the moves played from the start position, with their games."""
    page.one("#tab-explorer").click()
    page.wait_for(lambda: page.css("#explorer-moves tr"), "the moves played from the start position")
    rows = [[td.text for td in r.find_elements("css selector", "td")] for r in page.css("#explorer-moves tr")]
    games = sum(int(r[1]) for r in rows)
    # the 4 self-play games from the start, and the games the play view saved
    assert games >= 4, "the start position's moves add up to %d games, fewer than the 4 played from it: %s" % (games, rows)
    assert all(int(r[1]) == int(r[2]) + int(r[3]) + int(r[4]) for r in rows), "results do not add up: %s" % rows
    assert page.text("#explorer-summary").startswith("%d games" % games), page.text("#explorer-summary")
    assert len(page.pieces("explorer-board")) == 32, "the start position is not on the board"
    page.css("#explorer-moves tr")[0].click()
    page.wait_for(lambda: "black to move" in page.text("#explorer-summary"), "the position after the first move")
    assert page.one("#explorer-back").is_enabled()
    page.shot("explorer")


def square_colours(page):
    return set(page.driver.execute_script(
        "return [...document.querySelectorAll('#play-board .square')]"
        ".map((e) => getComputedStyle(e).backgroundColor);"))


def test_games_and_geometry(page, url):
    """The variant selects list the server's games, and a board is drawn from its geometry:
    Russian's 32 dark squares with every file and rank on the edges (light cells too),
    International's 50 numbered squares, turned round for a person playing black."""
    page.driver.get(url + "/#play")
    page.wait_for(lambda: len(page.css("#play-board .square")) == 64, "the Turkish board of 64 squares")
    options = [(o.get_attribute("value"), o.text) for o in page.css("#play-variant option")]
    # every game the server has (its registry), Turkish and International first
    with urllib.request.urlopen(url + "/api/info") as answer:
        games = json.load(answer)["games"]
    assert options == [(g["name"], "%s (%d×%d)" % (g["title"], g["rows"], g["columns"])) for g in games], options
    assert options[:2] == [("turkish", "Turkish draughts (8×8)"), ("international", "International draughts (10×10)")], options
    replay = [o.get_attribute("value") for o in page.css("#replay-variant option")]
    assert replay == [""] + [g["name"] for g in games], replay
    page.select("#play-variant", "russian")
    page.wait_for(lambda: len(page.css("#play-board .square")) == 32, "the Russian board of 32 squares")
    edges = [e.text for e in page.css("#play-board .coord")]
    assert edges == ["8", "7", "6", "5", "4", "3", "2", "a 1", "b", "c", "d", "e", "f", "g", "h"], \
        "a..h and 1..8 round the Russian board, a1 bottom left: %s" % edges
    page.select("#play-variant", "international")
    page.wait_for(lambda: len(page.css("#play-board .square")) == 50, "the International board of 50 squares")
    assert len(page.pieces("play-board")) == 40, "not the start position: %s" % page.pieces("play-board")
    labels = [e.text for e in page.css("#play-board .square .coord")]
    assert labels == [str(n) for n in range(1, 51)], "numbers on the squares, 1 top left: %s" % labels
    page.select("#play-side", "black")
    page.type_into("#play-level-value", "300")
    page.type_into("#play-turn", "0")
    page.type_into("#play-fen", "")
    page.one("#play-new").click()
    # black at the bottom: square 1 drawn in the bottom right corner, the engine (white) moves first
    page.wait_for(lambda: [e.text for e in page.css("#play-board .square .coord")][-1:] == ["1"],
                  "the board turned round for black")
    page.wait_for(lambda: move_count(page) == 1 and "Your move" in page.text("#play-status"), "white's first move")
    page.driver.get("about:blank")   # so that the next test's page is loaded anew


def test_board_look(page, url):
    """The Turkish board checkered, or in one colour (seed 003), the choice remembered."""
    page.driver.get(url + "/#play")
    page.wait_for(lambda: len(page.css("#play-board .square")) == 64, "the Turkish board of 64 squares")
    assert len(square_colours(page)) == 2, "checkered: %s" % square_colours(page)
    page.one("#turkish-plain").click()
    page.wait_for(lambda: len(square_colours(page)) == 1, "the board in one colour")
    page.driver.refresh()
    page.wait_for(lambda: len(page.css("#play-board .square")) == 64, "the board again")
    assert page.one("#turkish-plain").is_selected(), "the look is remembered"
    assert len(square_colours(page)) == 1, "one colour after a reload: %s" % square_colours(page)
    page.one("#turkish-plain").click()
    page.wait_for(lambda: len(square_colours(page)) == 2, "checkered again")


def test_training(page):
    page.one("#tab-training").click()
    page.wait_for(lambda: any(r.find_elements("css selector", "td")[1].text == "train"
                              for r in page.css("#training-runs tr")), "the training run listed")
    page.wait_for(lambda: page.css("#view-training .chart canvas"), "a chart of the training view")
    # A self-play run's games: the histogram of their lengths.
    row = next(r for r in page.css("#training-runs tr") if r.find_elements("css selector", "td")[1].text == "selfplay")
    row.click()
    page.wait_for(lambda: page.css("#training-lengths canvas"), "the game lengths of a self-play run")
    page.shot("training")


def main():
    chromium, chromedriver = find_browser()
    if not chromium or not chromedriver:
        print("SKIP test_page: chromium or chromedriver is not installed "
              "(scripts/install-deps installs chromium and chromium-driver)")
        return 0
    try:
        import selenium  # noqa: F401
    except ImportError:
        print("FAIL test_page: python3-selenium is missing (scripts/install-deps installs it)", file=sys.stderr)
        return 1
    began = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="dama-page-")
    server = page = None
    failed = None
    try:
        db = build_database(tmp)
        server = Server(db)
        page = Page(chromium, chromedriver)
        for name, test in (("games and geometry", lambda: test_games_and_geometry(page, server.url)),
                           ("board look", lambda: test_board_look(page, server.url)),
                           ("play", lambda: test_play(page, server.url)),
                           ("replay", lambda: test_replay(page)),
                           ("annotated replay", lambda: test_annotated_replay(page, server.url, db, tmp)),
                           ("explorer", lambda: test_explorer(page)),
                           ("training", lambda: test_training(page))):
            test()
            errors = page.errors()
            assert not errors, "the browser logged errors in the %s view: %s" % (name, errors)
            print("ok test_page %s" % name, flush=True)
    except AssertionError as err:
        failed = str(err)
    except Exception as err:   # selenium's own errors, a crashed browser: a failure too
        failed = "%s: %s" % (type(err).__name__, err)
    finally:
        if page is not None:
            if failed:   # what the page showed, for the report (build/ is not committed)
                page.shot("test_page-failure", os.path.join(ROOT, "build"))
            page.driver.quit()
        if server is not None:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    if failed:
        print("FAIL test_page: %s" % failed, file=sys.stderr)
        if server is not None and server.lines:
            print("dama serve said: %s" % " | ".join(server.lines[-10:]), file=sys.stderr)
        return 1
    print("test_page: the games, 4 views, an annotated game and the board's look passed in %.1f s" % (time.monotonic() - began))
    return 0


if __name__ == "__main__":
    sys.exit(main())
