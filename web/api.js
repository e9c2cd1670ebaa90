// The JSON API of `dama serve` (README "JSON API"): one fetch wrapper, so every view gets
// the server's own sentence when a request is refused.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || "the server answered " + status);
    this.status = status;
    this.body = body || {};
  }
}

async function request(method, path, body) {
  const options = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new ApiError(0, { error: "the server cannot be reached (" + err.message + ")" });
  }
  let data = null;
  const text = await response.text();
  if (text !== "") {
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new ApiError(response.status, { error: "the server sent something that is not JSON" });
    }
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// "?a=1&b=x" from the fields that are set.
function query(fields) {
  const pairs = Object.entries(fields).filter(([, v]) => v !== undefined && v !== null && v !== "");
  if (pairs.length === 0) return "";
  return "?" + pairs.map(([k, v]) => encodeURIComponent(k) + "=" + encodeURIComponent(v)).join("&");
}

export const api = {
  info: () => request("GET", "/api/info"),
  board: (variant) => request("GET", "/api/board" + query({ variant })),
  newGame: (settings) => request("POST", "/api/games", settings),
  game: (id) => request("GET", "/api/games/" + id),
  // move: {move: text} or {from, to}: the server writes the text of a move by squares.
  move: (id, move) => request("POST", "/api/games/" + id + "/move", move),
  engine: (id) => request("POST", "/api/games/" + id + "/engine"),
  resign: (id) => request("POST", "/api/games/" + id + "/resign"),
  pdnUrl: (id) => "/api/games/" + id + "/pdn",
  analyze: (variant, fen, nodes) => request("POST", "/api/analyze", { variant, fen, nodes }),
  dbGames: (filters) => request("GET", "/api/db/games" + query(filters)),
  dbGame: (id) => request("GET", "/api/db/games/" + id),
  runs: () => request("GET", "/api/runs"),
  run: (id) => request("GET", "/api/runs/" + id),
  training: (variant) => request("GET", "/api/training" + query({ variant })),
  explorer: (variant, fen) => request("GET", "/api/explorer" + query({ variant, fen })),
};

// Board layouts do not change while the page is open: one request per variant.
const layouts = {};
export function boardLayout(variant) {
  if (!layouts[variant]) {
    layouts[variant] = api.board(variant).catch((err) => {
      delete layouts[variant];
      throw err;
    });
  }
  return layouts[variant];
}

// A position as the page draws it (/api/position): {fen, side, pieces} of fen ("" the
// start) and, given a move's text, {move: its squares, after: the position after it}, so
// the page never reads FEN or move text itself.  Positions do not change: each is asked
// for once (the store is emptied when it grows large).
const POSITIONS_KEPT = 4000;
const positions = new Map();
export function position(variant, fen, move) {
  const key = JSON.stringify([variant, fen || "", move || ""]);
  if (!positions.has(key)) {
    if (positions.size >= POSITIONS_KEPT) positions.clear();
    const answer = request("GET", "/api/position" + query({ variant, fen, move })).catch((err) => {
      positions.delete(key);
      throw err;
    });
    positions.set(key, answer);
  }
  return positions.get(key);
}
