// The page: four views behind tabs (Play, Replay, Explorer, Training), their variant
// selects filled with the server's games, the version in the footer.

import { api } from "./api.js";
import { resizeVisibleCharts } from "./charts.js";
import { fillGameSelect, gamesTitle } from "./games.js";
import { PlayView } from "./play.js";
import { ExplorerView } from "./explorer.js";
import { ReplayView } from "./replay.js";
import { TrainingView } from "./training.js";

const views = {};
const tabs = [...document.querySelectorAll('[role="tab"]')];

function show(name) {
  for (const tab of tabs) {
    const on = tab.dataset.view === name;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    tab.tabIndex = on ? 0 : -1;
    document.getElementById(tab.getAttribute("aria-controls")).hidden = !on;
  }
  if (views.training && name !== "training") views.training.leave();
  const view = views[name];
  const entered = view && view.enter ? view.enter() : null;
  Promise.resolve(entered).then(resizeVisibleCharts);
  if (location.hash !== "#" + name) history.replaceState(null, "", "#" + name);
}

for (const tab of tabs) {
  tab.addEventListener("click", () => show(tab.dataset.view));
  // Arrow keys move between tabs (the ARIA tabs pattern).
  tab.addEventListener("keydown", (e) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
    if (!step) return;
    e.preventDefault();
    const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length];
    next.focus();
    show(next.dataset.view);
  });
}

// The games the server plays fill the selects before any view asks which one is chosen;
// then the views are made and the one the address names is shown.
async function start() {
  let info;
  try {
    info = await api.info();
  } catch (err) {
    document.getElementById("version").textContent = "The server cannot tell its games: " + err.message;
    return;
  }
  const chosen = info.default_variant;
  fillGameSelect(document.getElementById("play-variant"), info.games, { withSize: true }, chosen);
  fillGameSelect(document.getElementById("replay-variant"), info.games, { anyText: "any" });
  fillGameSelect(document.getElementById("explorer-variant"), info.games, {}, chosen);
  fillGameSelect(document.getElementById("training-variant"), info.games, {}, chosen);
  document.title = "dama – " + gamesTitle(info.games);
  document.getElementById("version").textContent =
    "dama " + info.version + (info.db ? " · database " + info.db : "");

  views.replay = new ReplayView(document.getElementById("view-replay"));
  views.explorer = new ExplorerView(document.getElementById("view-explorer"));
  views.training = new TrainingView(document.getElementById("view-training"));
  views.play = new PlayView(document.getElementById("view-play"), {
    replay: async (gameId) => {
      show("replay");
      await views.replay.open(gameId);
    },
  });
  const first = location.hash.slice(1);
  show(views[first] ? first : "play");
}

// The Turkish board checkered, or in one colour with lines between the squares, as a
// traditional Turkish board is (seed 003); the choice is remembered by the browser.
const plainBox = document.getElementById("turkish-plain");
const LOOK_KEY = "dama.turkishBoard";
function applyLook() {
  document.body.classList.toggle("turkish-plain", plainBox.checked);
}
try {
  plainBox.checked = localStorage.getItem(LOOK_KEY) === "plain";
} catch (err) {
  // storage refused (private mode): the checkered default
}
applyLook();
plainBox.addEventListener("change", () => {
  applyLook();
  try {
    localStorage.setItem(LOOK_KEY, plainBox.checked ? "plain" : "checkered");
  } catch (err) {
    // not remembered, but applied
  }
});

start();
