// Charts through dygraphs (Debian's libjs-dygraphs, served at /lib/dygraphs/): one chart
// per element, updated in place, with a plain note instead when there is nothing to draw.

const charts = new Map();   // element -> Dygraph

const BASE = {
  axisLabelFontSize: 12,
  legend: "always",
  gridLineColor: "#d8d8d8",
  strokeWidth: 2,
  drawPoints: true,
  pointSize: 2.5,
  highlightCircleSize: 4,
};

function note(el, text) {
  const chart = charts.get(el);
  if (chart) {
    chart.destroy();
    charts.delete(el);
  }
  el.textContent = "";
  const p = document.createElement("p");
  p.className = "chart-note";
  p.textContent = text;
  el.appendChild(p);
  el.classList.add("empty");
}

// Draws rows ([[x, y1, y2…]…], or [x, [low, mid, high]] with customBars) in el;
// `empty` is the note shown when there are no rows.
export function drawChart(el, rows, options, empty) {
  if (typeof window.Dygraph !== "function") {
    note(el, "Charts need the dygraphs library (Debian package libjs-dygraphs) served at /lib/dygraphs/.");
    return null;
  }
  if (!rows || rows.length === 0) {
    note(el, empty || "Nothing to draw yet.");
    return null;
  }
  const settings = Object.assign({}, BASE, options);
  let chart = charts.get(el);
  if (chart && chart.numColumns() === settings.labels.length && !!chart.getOption("customBars") === !!settings.customBars) {
    chart.updateOptions(Object.assign({ file: rows }, settings));
    return chart;
  }
  if (chart) chart.destroy();
  el.textContent = "";
  el.classList.remove("empty");
  chart = new window.Dygraph(el, rows, settings);
  charts.set(el, chart);
  return chart;
}

// Charts drawn while their view was hidden have no size: redraw those now visible.
export function resizeVisibleCharts() {
  for (const [el, chart] of charts) {
    if (el.offsetParent !== null) chart.resize();
  }
}

// A plotter for customBars series drawn as whiskers (low to high, with caps) around a
// dot: Elo intervals of separate generations, which dygraphs' default band would join.
export function whiskerPlotter(e) {
  const ctx = e.drawingContext;
  const area = e.plotArea;
  ctx.strokeStyle = e.color;
  ctx.fillStyle = e.color;
  ctx.lineWidth = 2;
  for (const p of e.points) {
    if (p.yval === null || Number.isNaN(p.canvasy)) continue;
    const top = Number.isNaN(p.y_top) ? p.canvasy : area.h * p.y_top + area.y;
    const bottom = Number.isNaN(p.y_bottom) ? p.canvasy : area.h * p.y_bottom + area.y;
    ctx.beginPath();
    ctx.moveTo(p.canvasx, top);
    ctx.lineTo(p.canvasx, bottom);
    for (const y of [top, bottom]) {
      ctx.moveTo(p.canvasx - 5, y);
      ctx.lineTo(p.canvasx + 5, y);
    }
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(p.canvasx, p.canvasy, 4.5, 0, 2 * Math.PI);
    ctx.fill();
  }
}

// Axis options for whole numbers on x (generations, epochs), with half a step of room.
export function integerX(xs) {
  const lo = Math.min(...xs), hi = Math.max(...xs);
  return {
    dateWindow: [lo - 0.5, hi + 0.5],
    axes: { x: { axisLabelFormatter: (x) => (Number.isInteger(x) ? String(x) : ""), pixelsPerLabel: 30 } },
  };
}

// A histogram's bins: [[start, count]…] from {value: count} pairs, about `bins` bins of a
// round width, with a closing empty bin so the last step is drawn.
export function histogram(pairs, bins) {
  if (pairs.length === 0) return [];
  const values = pairs.map((p) => p[0]);
  const lo = Math.min(...values), hi = Math.max(...values);
  const raw = Math.max(1, (hi - lo + 1) / bins);
  const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500].find((w) => w >= raw) || Math.ceil(raw);
  const first = Math.floor(lo / step) * step;
  const counts = new Map();
  for (const [value, count] of pairs) {
    const bin = first + Math.floor((value - first) / step) * step;
    counts.set(bin, (counts.get(bin) || 0) + count);
  }
  const rows = [];
  for (let bin = first; bin <= hi + step; bin += step) rows.push([bin, counts.get(bin) || 0]);
  return rows;
}
