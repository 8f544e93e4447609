// ANSI SGR colour codes to styled <span>s. Text is inserted as text nodes; every other
// escape sequence (cursor moves, OSC titles, ...) is dropped.

const NAMES = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"];
// One regex for all escapes: CSI (ESC [ params final), OSC (ESC ] ... BEL/ST), lone ESC x.
const ESCAPE = /\x1b\[([0-9;?]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

function freshStyle() {
  return { fg: null, bg: null, fgRgb: null, bgRgb: null, bold: false, dim: false, italic: false, underline: false, inverse: false };
}

function xterm256(n) {
  if (n < 16) return null; // handled as a named colour
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return `rgb(${v}, ${v}, ${v})`;
  }
  const i = n - 16;
  const level = (x) => (x === 0 ? 0 : 55 + x * 40);
  return `rgb(${level(Math.floor(i / 36))}, ${level(Math.floor(i / 6) % 6)}, ${level(i % 6)})`;
}

function named(n) {
  return n < 8 ? NAMES[n] : `bright-${NAMES[n - 8]}`;
}

// Apply one SGR parameter list to the running style.
function applySgr(style, params) {
  const codes = params === "" ? [0] : params.split(";").map((p) => (p === "" ? 0 : Number(p)));
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (c === 0) Object.assign(style, freshStyle());
    else if (c === 1) style.bold = true;
    else if (c === 2) style.dim = true;
    else if (c === 3) style.italic = true;
    else if (c === 4) style.underline = true;
    else if (c === 7) style.inverse = true;
    else if (c === 22) style.bold = style.dim = false;
    else if (c === 23) style.italic = false;
    else if (c === 24) style.underline = false;
    else if (c === 27) style.inverse = false;
    else if (c >= 30 && c <= 37) { style.fg = named(c - 30); style.fgRgb = null; }
    else if (c >= 90 && c <= 97) { style.fg = named(c - 90 + 8); style.fgRgb = null; }
    else if (c >= 40 && c <= 47) { style.bg = named(c - 40); style.bgRgb = null; }
    else if (c >= 100 && c <= 107) { style.bg = named(c - 100 + 8); style.bgRgb = null; }
    else if (c === 39) style.fg = style.fgRgb = null;
    else if (c === 49) style.bg = style.bgRgb = null;
    else if (c === 38 || c === 48) {
      let colour = null;
      let name = null;
      if (codes[i + 1] === 5) {
        const n = codes[i + 2] ?? 0;
        if (n < 16) name = named(n); else colour = xterm256(n);
        i += 2;
      } else if (codes[i + 1] === 2) {
        const [r, g, b] = [codes[i + 2], codes[i + 3], codes[i + 4]].map((v) => Math.min(255, v ?? 0));
        colour = `rgb(${r}, ${g}, ${b})`;
        i += 4;
      }
      if (c === 38) { style.fg = name; style.fgRgb = colour; } else { style.bg = name; style.bgRgb = colour; }
    }
  }
}

function isPlain(style) {
  return !style.fg && !style.bg && !style.fgRgb && !style.bgRgb && !style.bold && !style.dim && !style.italic && !style.underline && !style.inverse;
}

function span(text, style) {
  if (isPlain(style)) return document.createTextNode(text);
  const node = document.createElement("span");
  const classes = [];
  if (style.fg) classes.push(`ansi-${style.fg}`);
  if (style.bg) classes.push(`ansi-bg-${style.bg}`);
  if (style.bold) classes.push("ansi-bold");
  if (style.dim) classes.push("ansi-dim");
  if (style.italic) classes.push("ansi-italic");
  if (style.underline) classes.push("ansi-underline");
  if (style.inverse) classes.push("ansi-inverse");
  node.className = classes.join(" ");
  // Exact colours (256/truecolour) go through CSSOM, which the page's CSP allows.
  if (style.fgRgb) node.style.color = style.fgRgb;
  if (style.bgRgb) node.style.backgroundColor = style.bgRgb;
  node.textContent = text;
  return node;
}

/** Carriage-return progress lines: keep what a terminal would finally show on each line. */
function settled(text) {
  return text.replace(/\r\n/g, "\n").replace(/^.*\r(?=[^\n])/gm, "");
}

/**
 * Turns output into styled fragments piece by piece, carrying the colour state from one
 * piece to the next (a long output is drawn in parts; a colour set earlier still holds).
 * Pieces should be split at line ends.
 */
export class AnsiWriter {
  constructor() {
    this.style = freshStyle();
  }

  /** Apply a piece's colour changes without drawing it (output above what is shown). */
  skip(text) {
    for (const match of text.matchAll(ESCAPE)) if (match[2] === "m") applySgr(this.style, match[1]);
  }

  /** A piece as a fragment of text nodes and spans. */
  fragment(text) {
    const fragment = document.createDocumentFragment();
    let last = 0;
    const cleaned = settled(text);
    for (const match of cleaned.matchAll(ESCAPE)) {
      if (match.index > last) fragment.append(span(cleaned.slice(last, match.index), this.style));
      if (match[2] === "m") applySgr(this.style, match[1]);
      last = match.index + match[0].length;
    }
    if (last < cleaned.length) fragment.append(span(cleaned.slice(last), this.style));
    return fragment;
  }
}

/** Convert terminal output with ANSI escapes into a DocumentFragment of text and spans. */
export function ansiToFragment(text) {
  return new AnsiWriter().fragment(text);
}

/** Text without any escape sequences (for copying and for tests). */
export function stripAnsi(text) {
  return text.replace(ESCAPE, "");
}
