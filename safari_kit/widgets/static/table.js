// safari_kit card table: draws a Safari Witness or Safari Knockout table from `view`.
// Vanilla DOM + inline SVG, no imports. The page knows only what `view` holds (one
// viewer's observation + public faces); what is clickable comes from `selectable`.
//
// How the cards look (120 x 170 SVG): a Mugshot is filled with its color and overlaid
// with its texture as a dark/light SVG pattern (Brick: offset bricks; Wood: wavy grain with
// a knot; Circular Tile: ring grid; Diamond Tile: diamond lattice; Wavy: double waves).
// A white strip on top says the color in large letters and the texture beneath it ("Pink", "Wavy"); a white
// medallion holds the animal (Elephant: ears, trunk, tusks; Owl: ear tufts, big eyes, beak;
// Bear: round ears, snout; Goat: curved horns, long face, beard; Pig: pointed ears,
// snout with nostrils) with its name on a pill below; the name is on a cream banner with
// gold ribbon tails, one monospace letter per cell, and a dark irregular ink blot in place
// of each hidden '?'. A face-down card is navy with a faint diamond lattice, a gold frame,
// a magnifying glass around a '?', and a "Place N" tag. A Safari Pal is a cream card with
// a colored header (the animal's name) and four labelled bars (weight on a log scale) with
// the value and unit; the data item named this turn is outlined in orange.

const SVG_NS = "http://www.w3.org/2000/svg";

const COLOR_FILL = {
  Teal: "#2a9d8f", Yellow: "#f2c94c", Orange: "#f4a261", Pink: "#f08cbf", Violet: "#9b72cf",
};

let tableCounter = 0;

// ------------------------------------------------------------------ tiny DOM helpers
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return el;
}

function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === "text") el.textContent = v;
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c) el.appendChild(c);
  return el;
}

function hash(str) {
  let x = 2166136261;
  for (let i = 0; i < str.length; i++) { x ^= str.charCodeAt(i); x = Math.imul(x, 16777619); }
  return x >>> 0;
}

// ------------------------------------------------------------------ words (issue 30)
// Every word this page draws or says comes from Python, in the learner's language: the synced `words` dict
// (safari_kit/presentation/table_page_words.py, from the catalogue). A template's {named} places are filled
// here with the view's numbers and card words; a count's words (its plural form) are looked up in
// `words.counts`, chosen by gettext in Python. No sentence is written in this file.
function sayer(words) {
  const W = words || {};
  const say = (key, values) => {
    const text = W[key];
    if (typeof text !== "string") return "";
    return values ? text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m)) : text;
  };
  say.count = (kind, n) => {
    const forms = (W.counts || {})[kind] || {};
    return forms[String(n)] ?? String(n);
  };
  say.words = W;
  return say;
}

function whoIs(view, p, say) {
  return p === view.viewer ? say("you") : say("player", { player: p });
}

// ------------------------------------------------------------------ textures
function texturePattern(id, texture) {
  const dark = "rgba(0,0,0,0.30)";
  const light = "rgba(255,255,255,0.45)";
  const p = (w, hgt, ...kids) => s("pattern", { id, width: w, height: hgt, patternUnits: "userSpaceOnUse" }, ...kids);
  switch (texture) {
    case "Brick":
      return p(24, 12,
        s("path", { d: "M0 0.75H24M0 6.75H24M0.75 0.75V6.75M12.75 6.75V12", stroke: dark, "stroke-width": 1.5, fill: "none" }),
        s("path", { d: "M2 2.5H10M14 8.5H22", stroke: light, "stroke-width": 1, fill: "none" }));
    case "Wood":
      return p(40, 20,
        s("path", { d: "M0 4Q10 1 20 4T40 4M0 11Q10 14 20 11T40 11M0 17Q10 15 20 17T40 17", stroke: dark, "stroke-width": 1.2, fill: "none" }),
        s("ellipse", { cx: 30, cy: 8, rx: 3.5, ry: 1.8, stroke: dark, "stroke-width": 1, fill: "none" }));
    case "Circular Tile":
      return p(14, 14,
        s("circle", { cx: 7, cy: 7, r: 5.2, stroke: dark, "stroke-width": 1.3, fill: "none" }),
        s("circle", { cx: 7, cy: 7, r: 2, fill: light }));
    case "Diamond Tile":
      return p(16, 16,
        s("path", { d: "M8 0.8L15.2 8L8 15.2L0.8 8Z", stroke: dark, "stroke-width": 1.3, fill: "none" }),
        s("path", { d: "M8 5L11 8L8 11L5 8Z", fill: light }));
    case "Wavy":
    default:
      return p(20, 10,
        s("path", { d: "M0 5Q5 0 10 5T20 5", stroke: dark, "stroke-width": 1.6, fill: "none" }),
        s("path", { d: "M0 8Q5 3 10 8T20 8", stroke: light, "stroke-width": 1, fill: "none" }));
  }
}

// ------------------------------------------------------------------ animals (drawn around 0,0, about 60 wide)
function animalIcon(animal) {
  const ink = "#2b2b2b";
  switch (animal) {
    case "Elephant":
      return s("g", { class: "st-animal" },
        s("ellipse", { cx: -17, cy: -3, rx: 12, ry: 15, fill: "#8d99a6", stroke: ink, "stroke-width": 1.5 }),
        s("ellipse", { cx: 17, cy: -3, rx: 12, ry: 15, fill: "#8d99a6", stroke: ink, "stroke-width": 1.5 }),
        s("circle", { cx: 0, cy: -5, r: 13, fill: "#b3bdc7", stroke: ink, "stroke-width": 1.5 }),
        s("path", { d: "M-5 3Q-6 18 1 25Q7 28 7 23Q2 17 5 3Z", fill: "#b3bdc7", stroke: ink, "stroke-width": 1.5 }),
        s("path", { d: "M-7 4Q-10 11 -15 12M7 4Q10 11 15 12", stroke: "#fffdf4", "stroke-width": 3, fill: "none", "stroke-linecap": "round" }),
        s("circle", { cx: -5, cy: -8, r: 2, fill: ink }),
        s("circle", { cx: 5, cy: -8, r: 2, fill: ink }));
    case "Owl":
      return s("g", { class: "st-animal" },
        s("path", { d: "M-16 -11L-13 -27L-5 -16ZM16 -11L13 -27L5 -16Z", fill: "#8a5a35", stroke: ink, "stroke-width": 1.5 }),
        s("ellipse", { cx: 0, cy: 3, rx: 18, ry: 23, fill: "#a0704a", stroke: ink, "stroke-width": 1.5 }),
        s("ellipse", { cx: 0, cy: 14, rx: 10, ry: 9, fill: "#dcb88e" }),
        s("circle", { cx: -8, cy: -6, r: 7.5, fill: "#fff", stroke: ink, "stroke-width": 1.5 }),
        s("circle", { cx: 8, cy: -6, r: 7.5, fill: "#fff", stroke: ink, "stroke-width": 1.5 }),
        s("circle", { cx: -8, cy: -6, r: 3.2, fill: ink }),
        s("circle", { cx: 8, cy: -6, r: 3.2, fill: ink }),
        s("path", { d: "M-3.5 1L3.5 1L0 8Z", fill: "#f0a020", stroke: ink, "stroke-width": 1 }));
    case "Bear":
      return s("g", { class: "st-animal" },
        s("circle", { cx: -14, cy: -16, r: 7.5, fill: "#7a4a2a", stroke: ink, "stroke-width": 1.5 }),
        s("circle", { cx: 14, cy: -16, r: 7.5, fill: "#7a4a2a", stroke: ink, "stroke-width": 1.5 }),
        s("circle", { cx: -14, cy: -16, r: 3.5, fill: "#c48a5a" }),
        s("circle", { cx: 14, cy: -16, r: 3.5, fill: "#c48a5a" }),
        s("circle", { cx: 0, cy: 0, r: 19, fill: "#8b5a35", stroke: ink, "stroke-width": 1.5 }),
        s("ellipse", { cx: 0, cy: 8, rx: 9.5, ry: 7.5, fill: "#dcb08c" }),
        s("ellipse", { cx: 0, cy: 4.5, rx: 4, ry: 2.8, fill: ink }),
        s("path", { d: "M0 7V11M-3.5 12Q0 14.5 3.5 12", stroke: ink, "stroke-width": 1.3, fill: "none" }),
        s("circle", { cx: -7, cy: -5, r: 2.2, fill: ink }),
        s("circle", { cx: 7, cy: -5, r: 2.2, fill: ink }));
    case "Goat":
      return s("g", { class: "st-animal" },
        s("path", { d: "M-6 -14Q-15 -30 -24 -18M6 -14Q15 -30 24 -18", stroke: "#8a7a60", "stroke-width": 4.5, fill: "none", "stroke-linecap": "round" }),
        s("ellipse", { cx: -16, cy: -7, rx: 8, ry: 3.5, fill: "#d9d6cf", stroke: ink, "stroke-width": 1.3, transform: "rotate(20 -16 -7)" }),
        s("ellipse", { cx: 16, cy: -7, rx: 8, ry: 3.5, fill: "#d9d6cf", stroke: ink, "stroke-width": 1.3, transform: "rotate(-20 16 -7)" }),
        s("path", { d: "M-3 15L0 29L3 15Z", fill: "#b9b4aa", stroke: ink, "stroke-width": 1 }),
        s("ellipse", { cx: 0, cy: 0, rx: 11, ry: 18, fill: "#efece6", stroke: ink, "stroke-width": 1.5 }),
        s("ellipse", { cx: 0, cy: 12, rx: 6.5, ry: 4.5, fill: "#d4cfc6" }),
        s("circle", { cx: -2.3, cy: 12, r: 1.1, fill: ink }),
        s("circle", { cx: 2.3, cy: 12, r: 1.1, fill: ink }),
        s("rect", { x: -8, y: -6, width: 5, height: 2.2, rx: 1, fill: ink }),
        s("rect", { x: 3, y: -6, width: 5, height: 2.2, rx: 1, fill: ink }));
    case "Pig":
    default:
      return s("g", { class: "st-animal" },
        s("path", { d: "M-15 -10L-18 -25L-5 -17ZM15 -10L18 -25L5 -17Z", fill: "#f4a3b8", stroke: ink, "stroke-width": 1.5 }),
        s("circle", { cx: 0, cy: 0, r: 19, fill: "#f7b6c6", stroke: ink, "stroke-width": 1.5 }),
        s("ellipse", { cx: 0, cy: 7, rx: 8.5, ry: 6.5, fill: "#ef8fa8", stroke: ink, "stroke-width": 1.3 }),
        s("ellipse", { cx: -3, cy: 7, rx: 1.4, ry: 2.4, fill: "#6e2236" }),
        s("ellipse", { cx: 3, cy: 7, rx: 1.4, ry: 2.4, fill: "#6e2236" }),
        s("circle", { cx: -7, cy: -6, r: 2.2, fill: ink }),
        s("circle", { cx: 7, cy: -6, r: 2.2, fill: ink }));
  }
}

// ------------------------------------------------------------------ ink blot over a hidden letter
function inkBlot(cx, cy, r, seed) {
  let x = seed || 1;
  const rnd = () => { x = (Math.imul(x, 1103515245) + 12345) >>> 0; return (x >>> 8) / 16777216; };
  const n = 9;
  const pts = [];
  for (let i = 0; i < n; i++) {
    const a = (i / n) * Math.PI * 2;
    const rr = r * (0.72 + rnd() * 0.5);
    pts.push([cx + Math.cos(a) * rr, cy + Math.sin(a) * rr]);
  }
  let d = "";
  for (let i = 0; i < n; i++) {
    const [x1, y1] = pts[i];
    const [x2, y2] = pts[(i + 1) % n];
    const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
    d += (i === 0 ? `M${mx.toFixed(1)} ${my.toFixed(1)}` : "") + `Q${x2.toFixed(1)} ${y2.toFixed(1)} ${((x2 + pts[(i + 2) % n][0]) / 2).toFixed(1)} ${((y2 + pts[(i + 2) % n][1]) / 2).toFixed(1)}`;
  }
  return s("g", { class: "st-ink" },
    s("path", { d: d + "Z", fill: "#16142a" }),
    s("circle", { cx: cx + r * 1.05, cy: cy - r * 0.7, r: r * 0.16, fill: "#16142a" }),
    s("circle", { cx: cx - r * 0.95, cy: cy + r * 0.85, r: r * 0.11, fill: "#16142a" }));
}

// ------------------------------------------------------------------ cards
function mugshotSVG(face, prefix) {
  const pid = `${prefix}-tex-${face.id}`;
  const fill = COLOR_FILL[face.color] || "#cccccc";
  const letters = Array.from(face.name || "");
  const cell = letters.length > 3 ? 19 : 22;
  const x0 = 60 - ((letters.length - 1) * cell) / 2;
  const seed = hash(face.id);
  // the words drawn on the card, in the learner's language (issue 30); color, texture, animal stay the keys
  const words = face.words || face;
  return s("svg", { viewBox: "0 0 120 170", class: "st-card-svg", role: "img", "aria-label": face.label, focusable: "false" },
    s("defs", {}, texturePattern(pid, face.texture)),
    s("rect", { x: 1.5, y: 1.5, width: 117, height: 167, rx: 10, fill }),
    s("rect", { x: 1.5, y: 1.5, width: 117, height: 167, rx: 10, fill: `url(#${pid})`, stroke: "#222", "stroke-width": 2.5 }),
    // the colour in large letters (a colour-blind learner reads it: some card colours look alike to them),
    // the texture smaller beneath it (its pattern shows it too)
    s("rect", { x: 8, y: 5, width: 104, height: 27, rx: 5, fill: "rgba(255,255,255,0.92)" }),
    s("text", { x: 60, y: 18.5, "text-anchor": "middle", class: "st-card-colour", text: words.color }),
    s("text", { x: 60, y: 28.5, "text-anchor": "middle", class: "st-card-words", text: words.texture,
      textLength: words.texture.length > 16 ? 98 : null, lengthAdjust: words.texture.length > 16 ? "spacingAndGlyphs" : null }),
    s("circle", { cx: 60, cy: 66, r: 32, fill: "rgba(255,255,255,0.93)", stroke: "#222", "stroke-width": 1.5 }),
    s("g", { transform: "translate(60 66) scale(0.92)" }, animalIcon(face.animal)),
    s("rect", { x: 33, y: 102, width: 54, height: 15, rx: 7.5, fill: "rgba(255,255,255,0.9)" }),
    s("text", { x: 60, y: 113.5, "text-anchor": "middle", class: "st-card-animal", text: words.animal }),
    s("path", { d: "M3 130L14 126V158L3 154L8 142ZM117 130L106 126V158L117 154L112 142Z", fill: "#c9a227", stroke: "#222", "stroke-width": 1.2 }),
    s("rect", { x: 12, y: 123, width: 96, height: 36, rx: 4, fill: "#fff8dc", stroke: "#222", "stroke-width": 1.5 }),
    letters.map((ch, i) => ch === "?"
      ? inkBlot(x0 + i * cell, 141, 9.5, seed + i * 7919)
      : s("text", { x: x0 + i * cell, y: 148, "text-anchor": "middle", class: "st-card-name", text: ch })));
}

function backSVG(place, prefix, say) {
  const pid = `${prefix}-back`;
  const label = place === null || place === undefined ? say("deck") : say("place", { place });
  const named = place ? say("face_down_card_at", { place }) : say("face_down_card");
  return s("svg", { viewBox: "0 0 120 170", class: "st-card-svg", role: "img", "aria-label": named, focusable: "false" },
    s("defs", {}, s("pattern", { id: pid, width: 14, height: 14, patternUnits: "userSpaceOnUse" },
      s("path", { d: "M7 0L14 7L7 14L0 7Z", fill: "none", stroke: "rgba(255,255,255,0.18)", "stroke-width": 1.5 }))),
    s("rect", { x: 1.5, y: 1.5, width: 117, height: 167, rx: 10, fill: "#23395d" }),
    s("rect", { x: 8, y: 8, width: 104, height: 154, rx: 7, fill: `url(#${pid})`, stroke: "#f2c94c", "stroke-width": 2 }),
    s("circle", { cx: 54, cy: 76, r: 24, fill: "#fff8dc", stroke: "#f2c94c", "stroke-width": 6 }),
    s("path", { d: "M71 93L92 116", stroke: "#f2c94c", "stroke-width": 9, "stroke-linecap": "round" }),
    s("text", { x: 54, y: 88, "text-anchor": "middle", class: "st-back-q", text: "?" }),
    s("rect", { x: 22, y: 134, width: 76, height: 20, rx: 10, fill: "#f2c94c" }),
    s("text", { x: 60, y: 148.5, "text-anchor": "middle", class: "st-back-label", text: label }));
}

function palCard(face, view, say) {
  const hue = hash(face.id) % 360;
  const rows = face.bars.map((b) => {
    const named = view.item === b.item;
    return h("div", { class: "st-bar-row" + (named ? " st-named" : "") },
      h("span", { class: "st-bar-label" }, b.label),
      h("span", { class: "st-bar-track", title: b.scale === "log" ? say("bar_log_title") : null },
        h("span", { class: "st-bar-fill", style: `width:${(b.fraction * 100).toFixed(1)}%` })),
      h("span", { class: "st-bar-value" }, b.text));
  });
  return h("div", { class: "st-pal", role: "img", "aria-label": face.label },
    h("div", { class: "st-pal-head", style: `background:hsl(${hue} 55% 42%)` }, face.name),
    h("div", { class: "st-pal-bars" }, rows),
    h("div", { class: "st-pal-foot" }, say("weight_bar_note")));
}

// ------------------------------------------------------------------ the widget
export default {
  render({ model, el }) {
    const prefix = `st${++tableCounter}`;
    const root = h("div", { class: "safari-table" });
    el.appendChild(root);
    let hintTimer = null;

    const key = (kind, id) => `${kind}:${JSON.stringify(id)}`;

    function send(kind, id) {
      const old = model.get("click") || {};
      const seq = (typeof old.seq === "number" ? old.seq : 0) + 1;
      model.set("click", { kind, id, seq });
      model.save_changes();
    }

    function hint(text) {
      const box = root.querySelector(".st-hint");
      if (!box) return;
      box.textContent = text;
      clearTimeout(hintTimer);
      hintTimer = setTimeout(() => { box.textContent = ""; }, 4000);
    }

    function draw() {
      const view = model.get("view") || {};
      const selectable = model.get("selectable") || [];
      const highlight = model.get("highlight") || [];
      const sel = new Map(selectable.map((t) => [key(t.kind, t.id), t]));
      const lit = new Set(highlight.map((t) => key(t.kind, t.id)));
      const notes = model.get("notes") || {};
      const noteWords = model.get("note_words") || {};
      const live = !!model.get("interactive");  // a table shown as a picture: nothing looks clickable
      const say = sayer(model.get("words"));
      const who = (v, p) => whoIs(v, p, say);
      // a seat's badge: the learner's own seat ("You") has its own words (Spanish: "te toca", not "le toca")
      const badge = (seat, key) => (seat.you ? say("you_" + key) || say(key) : say(key));
      const focused = root.contains(document.activeElement) ? document.activeElement.getAttribute("data-key") : null;
      ringShown = !!focused && document.activeElement.matches(":focus-visible, .safari-focus-ring");
      const row = focused ? document.activeElement.closest(".st-cards") : null;
      const focusedRow = row ? [...root.querySelectorAll(".st-cards")].indexOf(row) : -1;

      // what a screen reader says after a card's name: the words of its note (issue 20), else the note itself
      const spokenNote = (candidates) => {
        for (const [a, b] of candidates) {
          const k = key(a, b);
          if (noteWords[k]) return noteWords[k];
          if (notes[k]) return notes[k].split("\n").join(" ");
        }
        return "";
      };

      // a click target: candidates = [[kind, id], ...]; the first selectable one wins. `label` is the name a
      // screen reader says: what a sighted learner sees (a place's number, face down or the card, the chance
      // written under it); a face-down place's name never holds its card (the page does not know it).
      function target(node, candidates, label) {
        const hit = live ? candidates.find(([k, i]) => sel.has(key(k, i))) : undefined;
        const [kind, id] = hit || candidates[0];
        const k = key(kind, id);
        const said = spokenNote(candidates);
        if (said) label = `${label}, ${said}`;
        // the card's picture inside is named by this node: not a second time (a screen reader reads one name)
        for (const inner of node.querySelectorAll("[role='img']")) inner.setAttribute("aria-hidden", "true");
        node.setAttribute("data-key", k);
        node.setAttribute("data-keys", JSON.stringify(candidates.map(([a, b]) => key(a, b))));
        node.classList.add("st-target");
        if (lit.has(k) || candidates.some(([a, b]) => lit.has(key(a, b)))) node.classList.add("st-highlight");
        if (hit) {
          const t = sel.get(k);
          node.classList.add("st-selectable");
          node.setAttribute("tabindex", "0");  // one tab stop per row of cards: see rove()
          if (node.tagName !== "BUTTON") node.setAttribute("role", "button");
          // a card's name is the table's own words (what is seen); a button's name is its label
          const name = node.tagName === "BUTTON" ? (t.label || label) : label;
          node.setAttribute("aria-label", name);
          node.setAttribute("title", t.label || label);
          // a pick (a place, a card, a data item) is pressed while it is the one picked
          if (kind !== "button") node.setAttribute("aria-pressed", node.classList.contains("st-highlight") ? "true" : "false");
          const go = (ev) => { ev.preventDefault(); ev.stopPropagation(); send(kind, id); };
          node.addEventListener("click", go);
          node.addEventListener("keydown", (ev) => {
            if (ev.key === "Enter" || ev.key === " " || ev.key === "Spacebar") go(ev);
            else arrow(ev, node);
          });
        } else if (live) {
          node.classList.add("st-disabled");
          if (node.tagName !== "BUTTON") node.setAttribute("role", "img");  // a card seen, not a control now
          node.setAttribute("aria-label", label);
          node.addEventListener("click", (ev) => {
            ev.preventDefault();
            hint(say("not_clickable"));
            send(kind, id); // Python answers in the message line with the reason
          });
        } else {
          if (node.tagName !== "BUTTON") node.setAttribute("role", "img");
          node.setAttribute("aria-label", label);
        }
        return node;
      }

      // a short computed number under a card (e.g. the chance that a place matches), from `notes`
      const noteFor = (kind, id) => {
        const text = notes[key(kind, id)];
        // read as part of the card's name (see spokenNote), so not read a second time
        return text ? h("div", { class: "st-under", "aria-hidden": "true" }, text) : null;
      };

      const cardBox = (face, candidates, extra) =>
        target(h("div", { class: "st-card" + (extra ? " " + extra : "") }, mugshotSVG(face, prefix)), candidates, face.label);

      root.replaceChildren();
      if (!view.game) {
        root.appendChild(h("div", { class: "st-empty" }, say("empty_table")));
        return;
      }
      root.classList.toggle("st-my-turn", !!view.my_turn && live);
      root.classList.toggle("st-picture", !live);
      const header = h("div", { class: "st-header" },
        h("div", { class: "st-title" }, view.game === "witness" ? "Safari Witness" : "Safari Knockout"),
        h("div", { class: "st-phase" }, view.phase_words || ""));
      // the message line is the table's live region when it stands alone; a lab says one sentence per action
      // itself (its LiveRegion), so there the line is only read, never announced twice
      const liveLine = model.get("live_message") !== false;
      const message = h("div", { class: "st-message", role: liveLine ? "status" : null, "aria-live": liveLine ? "polite" : null },
        h("span", { class: "st-message-text" }, model.get("message") || ""),
        h("span", { class: "st-hint" }));
      root.append(header, message);
      root.appendChild(view.game === "witness" ? witness(view) : knockout(view));

      rove(focused, focusedRow);

      // ---------------------------------------------------------- Witness
      function witness(v) {
        const cards = v.cards || {};
        const body = h("div", { class: "st-body" });

        // players strip, with the deck as a chip (its back says nothing: the count is what matters)
        body.appendChild(h("div", { class: "st-seats" }, (v.archives || []).map((a) =>
          h("div", { class: "st-seat" + (a.player === v.current_player ? " st-to-act" : "") + (a.you ? " st-you" : "") },
            h("b", {}, a.you ? say("you_seat", { player: a.player }) : say("player", { player: a.player })),
            h("span", { class: "st-score" }, say.count("points", (v.scores || [])[a.player] ?? a.count)),
            a.player === v.current_player ? h("span", { class: "st-badge" }, badge(a, "to_play")) : null,
            (v.winners || []).includes(a.player) ? h("span", { class: "st-badge st-win" }, badge(a, "winner")) : null)),
          h("div", { class: "st-seat st-deck", title: say("deck_title") },
            h("span", { class: "st-deck-icon", "aria-hidden": "true" }, "?"),
            h("b", {}, say("deck")), say.count("cards", v.deck_count))));

        // one row: clue area, the Unidentified Area, the cards won this turn
        const row = h("div", { class: "st-row" });
        const clue = h("div", { class: "st-cards" });
        for (const cid of v.clue_area || []) {
          const face = cards[cid];
          if (!face) continue;
          const done = (v.identified_clues || []).includes(cid);
          const box = cardBox(face, [["clue", cid], ["card", cid]], done ? "st-done" : "");
          clue.appendChild(h("div", { class: "st-slot" },
            box, done ? h("div", { class: "st-tag st-ok" }, say("identified")) : null,
            v.challenged === cid ? h("div", { class: "st-tag" }, say("challenged")) : null,
            noteFor("clue", cid)));
        }
        if (!(v.clue_area || []).length) clue.appendChild(h("div", { class: "st-none" }, say("empty")));
        const clueTitle = v.clue_title || say("clue_area");  // names a Challenge only while its card lies here
        row.appendChild(h("div", { class: "st-zone st-clue" }, h("div", { class: "st-zone-title" }, clueTitle), clue));

        // Unidentified Area
        const places = h("div", { class: "st-cards" });
        for (const p of v.places || []) {
          let box;
          if (p.face_up && cards[p.card]) {
            box = target(h("div", { class: "st-card st-face-up" + (v.remember ? " st-remember" : "") }, mugshotSVG(cards[p.card], prefix)),
              [["place", p.place], ["card", p.card]],
              say(v.remember ? "place_face_up_remember" : "place_face_up", { place: p.place, card: cards[p.card].label }));
          } else {
            box = target(h("div", { class: "st-card st-back" }, backSVG(p.place, `${prefix}-p${p.place}`, say)),
              [["place", p.place]], say("place_face_down", { place: p.place }));
          }
          // the "Place N" tag looks like part of its card, so a click on it is a click on the card (issue 27: it
          // did nothing and said nothing); not a second tab stop: the card is the control
          const tag = h("div", { class: "st-place-id" + (box.classList.contains("st-selectable") ? " st-tag-link" : "") },
            say("place", { place: p.place }));
          if (live) tag.addEventListener("click", (ev) => { ev.preventDefault(); box.click(); });
          places.appendChild(h("div", { class: "st-slot" }, tag, box, noteFor("place", p.place)));
        }
        const area = h("div", { class: "st-zone st-unidentified" + (v.remember ? " st-remembering" : "") },
          h("div", { class: "st-zone-title" }, say("unidentified_area")));
        if (v.remember) {
          // no emoji: a laptop without an emoji font would show an empty box; the sentence follows the count
          // and whose turn it was, so Python wrote it whole (words.remember)
          const banner = say.words.remember || {};
          area.appendChild(h("div", { class: "st-remember-banner" },  // said by the lab's sentence, not a live region
            h("span", { class: "st-remember-icon", "aria-hidden": "true" }, "!"),
            h("span", {}, h("b", {}, `${banner.title || ""} `), banner.text || "")));
        }
        area.appendChild(places);
        row.appendChild(area);
        if ((v.won_this_turn || []).length && v.phase === "archive") {
          const won = h("div", { class: "st-cards" });
          for (const cid of v.won_this_turn) if (cards[cid]) won.appendChild(h("div", { class: "st-slot" }, cardBox(cards[cid], [["card", cid]])));
          const zone = h("div", { class: "st-zone st-won" },
            h("div", { class: "st-zone-title" }, say("won_to_archive")), won);
          if ((v.archive_order || []).length) {
            zone.appendChild(h("div", { class: "st-note" }, say("already_archived",
              { cards: v.archive_order.map((cid) => (cards[cid] ? cards[cid].label : cid)).join(" → ") })));
          }
          row.appendChild(zone);
        }
        body.appendChild(row);

        // buttons
        body.appendChild(buttons(v));
        if (v.remember) {
          const moment = `${v.turn}:${v.current_player}:${(v.face_up_places || []).join(",")}`;
          if (moment !== shownMoment) {
            shownMoment = moment;
            showMoment();
          }
        }

        // archives: the top card of each (the one that counts for ALEX and abilities), the rest on request
        const arch = h("div", { class: "st-archives" });
        for (const a of v.archives || []) {
          const top = a.cards.length ? a.cards[a.cards.length - 1] : null;
          const topIdx = a.cards.length - 1;
          const panel = h("div", { class: "st-zone st-archive" + (a.you ? " st-you" : "") },
            h("div", { class: "st-zone-title" },
              a.you ? say("your_archive", { count: a.count }) : say("player_archive", { player: a.player, count: a.count })));
          const inner = h("div", { class: "st-archive-inner" });
          if (top && cards[top]) {
            inner.appendChild(h("div", { class: "st-slot" },
              cardBox(cards[top], [["archive", `A${a.player}.${topIdx}`], ["card", top]], "st-small"),
              h("div", { class: "st-tag" }, say("top"))));
          } else inner.appendChild(h("div", { class: "st-none" }, say("empty")));
          if (a.cards.length > 1) {
            const all = h("div", { class: "st-cards st-archive-all" });
            a.cards.forEach((cid, i) => {
              if (cards[cid]) all.appendChild(cardBox(cards[cid], [["archive", `A${a.player}.${i}`], ["card", cid]], "st-tiny"));
            });
            inner.appendChild(h("details", {}, h("summary", {}, say("all_archive", { count: a.count })), all));
          }
          panel.appendChild(inner);
          arch.appendChild(panel);
        }
        body.appendChild(arch);

        if (v.case_card) {
          body.appendChild(h("div", { class: "st-case" }, h("b", {}, say("your_case_card")), " ", v.case_card.text));
        }
        if (v.case_cards) {
          body.appendChild(h("div", { class: "st-case" }, h("b", {}, say("case_cards")), " ",
            h("ul", {}, v.case_cards.map((c) => h("li", {}, say("case_card_of", { who: who(v, c.player), text: c.text }))))));
        }
        if (say.words.abilities_line) body.appendChild(h("div", { class: "st-note" }, say.words.abilities_line));
        if (v.alex) body.appendChild(h("div", { class: "st-note" }, say("alex")));
        return body;
      }

      function buttons(v) {
        const bar = h("div", { class: "st-buttons" });
        if (!live) return bar;  // a picture of a table has no buttons
        const groups = { type: [], use: [], main: [] };
        for (const t of selectable) {
          if (t.kind !== "button") continue;
          const id = String(t.id);
          const g = id.startsWith("type:") ? "type" : id.startsWith("use:") ? "use" : "main";
          groups[g].push(t);
        }
        const make = (t) => target(h("button", { type: "button", class: "st-button" }, t.label), [["button", t.id]], t.label);
        if (groups.type.length) bar.appendChild(h("div", { class: "st-button-group" }, h("span", {}, say("clue_type")), groups.type.map(make)));
        if (groups.use.length) bar.appendChild(h("div", { class: "st-button-group" }, h("span", {}, say("abilities")), groups.use.map(make)));
        if (groups.main.length) bar.appendChild(h("div", { class: "st-button-group" }, groups.main.map(make)));
        return bar;
      }

      // ---------------------------------------------------------- Knockout
      function knockout(v) {
        const cards = v.cards || {};
        const played = (p, card) => (p === v.viewer ? say("you_played", { card }) : say("player_played", { player: p, card }));
        const wonBy = (p) => (p === v.viewer ? say("won_by_you") : say("won_by_player", { player: p }));
        const body = h("div", { class: "st-body" });
        body.appendChild(h("div", { class: "st-seats" },
          h("div", { class: "st-info" },
            h("span", {}, say("round_of", { round: v.round, rounds: v.rounds })),
            v.item_label ? h("span", { class: "st-badge st-item-now" }, say("named", { item: v.item_label })) : null,
            v.elimination ? h("span", {}, say("elimination")) : null),
          (v.seats || []).map((p) =>
          h("div", { class: "st-seat" + (p.to_play ? " st-to-act" : "") + (p.you ? " st-you" : "") + (p.out ? " st-out" : "") },
            h("b", {}, p.you ? say("you_seat", { player: p.player }) : say("player", { player: p.player })),
            h("span", { class: "st-score" }, say.count("points", p.score)),
            h("span", {}, say.count("cards", p.hand_size)),
            p.dealer ? h("span", { class: "st-badge" }, badge(p, "dealer")) : null,
            p.lead ? h("span", { class: "st-badge" }, badge(p, "lead")) : null,
            p.to_play ? h("span", { class: "st-badge" }, badge(p, "to_play")) : null,
            p.out ? h("span", { class: "st-badge st-out-badge" }, badge(p, "out")) : null,
            (v.winners || []).includes(p.player) ? h("span", { class: "st-badge st-win" }, badge(p, "winner")) : null))));

        const trick = h("div", { class: "st-cards" });
        (v.trick || []).forEach((play, i) => {
          const face = cards[play.card];
          if (!face) return;
          trick.appendChild(h("div", { class: "st-slot" },
            h("div", { class: "st-place-id" }, say("play_position", { position: i + 1, who: who(v, play.player) })),
            target(h("div", { class: "st-card st-pal-box" }, palCard(face, v, say)), [["card", play.card]], played(play.player, face.label))));
        });
        const last = !(v.trick || []).length ? v.last_turn : null;
        let playedTitle = say("played_this_turn");
        if (last) {
          // before the first card of a turn: the turn just finished, so who won it stays on the table
          playedTitle = say(last.winner === v.viewer ? "last_turn_you" : "last_turn_player",
            { number: last.number, item: last.item_label, player: last.winner });
          last.plays.forEach((play, i) => {
            const face = cards[play.card];
            if (!face) return;
            const won = play.card === last.winning_card;
            trick.appendChild(h("div", { class: "st-slot st-last" + (won ? " st-last-won" : "") },
              h("div", { class: "st-place-id" }, say("play_position", { position: i + 1, who: who(v, play.player) })),
              target(h("div", { class: "st-card st-pal-box" }, palCard(face, Object.assign({}, v, { item: last.item }), say)),
                [["card", play.card]], played(play.player, face.label)),
              won ? h("div", { class: "st-tag st-ok" }, say("won_the_turn")) : null));
          });
          trick.appendChild(h("div", { class: "st-none st-next-turn" }, say("next_turn_empty", { number: last.number + 1 })));
        } else if (!(v.trick || []).length) trick.appendChild(h("div", { class: "st-none" }, say("no_card_yet")));
        body.appendChild(h("div", { class: "st-zone st-played" + (last ? " st-finished" : "") },
          h("div", { class: "st-zone-title" }, playedTitle), trick));

        const items = live ? selectable.filter((t) => t.kind === "item") : [];
        if (items.length) {
          body.appendChild(h("div", { class: "st-buttons" }, h("div", { class: "st-button-group" },
            h("span", {}, say("name_item")),
            items.map((t) => target(h("button", { type: "button", class: "st-button" }, t.label), [["item", t.id]], t.label)))));
        }
        body.appendChild(buttons(v));

        const hand = h("div", { class: "st-cards st-hand" });
        for (const cid of v.hand || []) {
          const face = cards[cid];
          if (face) hand.appendChild(h("div", { class: "st-slot" },
            target(h("div", { class: "st-card st-pal-box" }, palCard(face, v, say)), [["card", cid]], face.label), noteFor("card", cid)));
        }
        if (!(v.hand || []).length) hand.appendChild(h("div", { class: "st-none" }, say(v.you_are_out ? "you_are_out" : "no_cards_in_hand")));
        body.appendChild(h("div", { class: "st-zone st-you" }, h("div", { class: "st-zone-title" }, say("your_hand")), hand));

        if ((v.turns_this_round || []).length) {
          body.appendChild(h("div", { class: "st-zone" }, h("div", { class: "st-zone-title" }, say("turns_this_round")),
            h("ol", { class: "st-turns" }, v.turns_this_round.map((t) => h("li", {},
              h("b", {}, say("turn_item", { item: t.item_label })), " ",
              t.plays.map((p) => say("turn_play", { who: who(v, p.player), card: cards[p.card] ? cards[p.card].name : "?" })).join(", "),
              h("span", { class: "st-badge st-win" }, wonBy(t.winner)))))));
        }
        if ((v.earlier_rounds || []).length) {
          body.appendChild(h("div", { class: "st-note" }, say("earlier_rounds", { rounds:
            v.earlier_rounds.map((r) => say("earlier_round", { round: r.round,
              wins: r.wins.map((w, p) => say("round_wins_of", { who: who(v, p), wins: w })).join(" · ") })).join(" | ") })));
        }
        return body;
      }
    }

    // Keyboard (issue 20): each row of cards (the places, the Clue Area, the hand, ...) is ONE tab stop; the
    // arrow keys (and Home / End) move along its clickable cards, Enter or Space clicks. The stop remembers
    // the card last focused in its row across redraws, else the picked one, else the first. Buttons stay
    // ordinary tab stops. Focus that was on a card is put back on the same card after a redraw.
    const stopOf = new Map();  // row index -> data-key of its tab stop
    let ringShown = false;  // the card focused before a redraw showed the focus ring
    const rows = () => [...root.querySelectorAll(".st-cards")];
    const membersOf = (g) => [...g.querySelectorAll(".st-selectable")].filter((n) => n.closest(".st-cards") === g);

    function rove(focused, focusedRow) {
      rows().forEach((g, gi) => {
        const m = membersOf(g);
        if (!m.length) return;
        const zone = g.closest(".st-zone");
        const title = zone ? zone.querySelector(".st-zone-title") : null;
        g.setAttribute("role", "group");
        if (title) g.setAttribute("aria-label", sayer(model.get("words"))("row_keys", { title: title.textContent }));
        const keyOf = (n) => n.getAttribute("data-key");
        const stop = m.find((n) => keyOf(n) === focused) || m.find((n) => keyOf(n) === stopOf.get(gi))
          || m.find((n) => n.classList.contains("st-highlight")) || m[0];
        for (const n of m) n.setAttribute("tabindex", n === stop ? "0" : "-1");
        stopOf.set(gi, keyOf(stop));
      });
      if (focused) {
        let again = [...root.querySelectorAll("[data-key]")].find((n) => n.getAttribute("data-key") === focused);
        if (!(again && again.getAttribute("tabindex") === "0") && focusedRow >= 0) {
          // the focused card is no longer clickable (a place just revealed): stay in its row, at the row's stop
          const g = rows()[focusedRow];
          again = g ? membersOf(g).find((n) => n.getAttribute("tabindex") === "0") : null;
        }
        if (!(again && again.getAttribute("tabindex") === "0")) {
          // a button of the table that is gone with its step (Identify, a clue type): the table's first tab stop
          again = root.querySelector(".st-selectable[tabindex='0']");
        }
        if (again && again.getAttribute("tabindex") === "0") {
          // the new node of the same card, with its ring if it had one; where it already was: no scrolling
          again.focus({ focusVisible: ringShown, preventScroll: true });
          if (ringShown) {
            again.classList.add("safari-focus-ring");
            again.addEventListener("blur", () => again.classList.remove("safari-focus-ring"), { once: true });
          }
        }
      }
    }

    function arrow(ev, node) {
      const g = node.closest(".st-cards");
      if (!g) return;
      const m = membersOf(g);
      const i = m.indexOf(node);
      if (i < 0) return;
      const j = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: m.length - 1 }[ev.key];
      if (j === undefined) return;
      ev.preventDefault();
      const to = m[(j + m.length) % m.length];
      for (const n of m) n.setAttribute("tabindex", n === to ? "0" : "-1");
      stopOf.set(rows().indexOf(g), to.getAttribute("data-key"));
      to.focus();
    }

    // The face-up moment (W4/W5) begins: bring the cards to remember (and the table's button to go on)
    // into view once, if the table is on screen at all (a notebook run far away is left alone).
    let shownMoment = null;
    function showMoment(tries = 20) {
      requestAnimationFrame(() => {  // after every redraw of this update: read the nodes on the page now
        const area = root.querySelector(".st-unidentified.st-remembering");
        const bar = root.querySelector(".st-body > .st-buttons");
        if (!root.isConnected || !area || !bar) {
          if (tries > 0 && !(root.isConnected && !area)) showMoment(tries - 1);
          return;
        }
        const vh = window.innerHeight || document.documentElement.clientHeight;
        const t = root.getBoundingClientRect();
        if (t.bottom <= 0 || t.top >= vh) return;
        const withButton = !!bar.querySelector(".st-button");
        const a = area.getBoundingClientRect();
        const last = (withButton ? bar : area).getBoundingClientRect();
        if (a.top >= 0 && last.bottom <= vh) return;
        if (withButton) bar.scrollIntoView({ block: "nearest" });
        area.scrollIntoView({ block: "nearest" });
      });
    }

    function safeDraw() {
      try {
        draw();
      } catch (err) {
        console.error("safari_kit table: drawing failed", err);
        const failed = sayer(model.get("words"))("draw_failed", { error: err && err.message ? err.message : err });
        root.replaceChildren(h("div", { class: "st-error", role: "alert" }, failed || String(err)));
      }
    }

    // A pick (a place, a clue card) changes only the highlight and the message: those are applied to the
    // cards already drawn, so the click answers at once; anything else redraws the table. The change
    // events of one message are coalesced into one update.
    function mark() {
      const lit = new Set((model.get("highlight") || []).map((t) => key(t.kind, t.id)));
      for (const node of root.querySelectorAll("[data-keys]")) {
        const keys = JSON.parse(node.getAttribute("data-keys") || "[]");
        node.classList.toggle("st-highlight", keys.some((k) => lit.has(k)));
        if (node.hasAttribute("aria-pressed")) node.setAttribute("aria-pressed", node.classList.contains("st-highlight") ? "true" : "false");
      }
      const text = root.querySelector(".st-message-text");
      if (text) text.textContent = model.get("message") || "";
    }

    let pending = null;
    function changed(name) {
      if (pending === null) {
        pending = new Set();
        queueMicrotask(() => {
          const names = pending;
          pending = null;
          const light = [...names].every((n) => n === "highlight" || n === "message");
          try {
            if (light && root.querySelector(".st-message-text")) mark();
            else safeDraw();
          } catch (err) {  // the light path failed: draw the whole table
            safeDraw();
          }
        });
      }
      pending.add(name);
    }

    safeDraw();
    const names = ["view", "selectable", "message", "highlight", "notes", "interactive", "words"];
    const handlers = names.map((n) => [`change:${n}`, () => changed(n)]);
    for (const [ev, fn] of handlers) model.on(ev, fn);
    return () => {
      for (const [ev, fn] of handlers) model.off(ev, fn);
      clearTimeout(hintTimer);
    };
  },
};
