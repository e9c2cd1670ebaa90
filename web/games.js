// The games the server plays (/api/info "games": name, title, rows, columns): the page's
// variant selects are filled from them, so the page names no game itself.

// The options of a variant select: [{value, text}]; withSize adds the board's size
// ("Turkish draughts (8×8)"), anyText an option for any game first (value "").
export function gameOptions(games, { withSize = false, anyText = null } = {}) {
  const options = anyText ? [{ value: "", text: anyText }] : [];
  for (const game of games) {
    const size = withSize ? " (" + game.rows + "×" + game.columns + ")" : "";
    options.push({ value: game.name, text: game.title + size });
  }
  return options;
}

// Fills a <select> with gameOptions, choosing `chosen` (a game's name) when given.
export function fillGameSelect(select, games, style, chosen) {
  select.textContent = "";
  for (const { value, text } of gameOptions(games, style)) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = text;
    select.appendChild(option);
  }
  if (chosen !== undefined && [...select.options].some((o) => o.value === chosen)) select.value = chosen;
}

// "Turkish draughts and International draughts": the games, for the page's title.
export function gamesTitle(games) {
  const titles = games.map((g) => g.title);
  return titles.length < 2 ? titles.join("") : titles.slice(0, -1).join(", ") + " and " + titles[titles.length - 1];
}
