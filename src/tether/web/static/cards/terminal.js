// The terminal card: where and how a command runs, the command, and its output with ANSI
// colours. The output box follows the newest lines while the command runs (until the user
// scrolls up; scrolling back to the bottom resumes it). A long output shows its last lines
// first; "Show all" draws the rest in slices, one task each, so the page never stalls.

import { AnsiWriter } from "../ansi.js";
import { append, clear, el, rescroll, scrollBox } from "../dom.js";

/** Lines a long output shows until asked for all of them. */
export const TAIL_LINES = 200;
/** Lines drawn per task when showing all: small enough to stay well inside a frame. */
const SLICE_LINES = 1000;
/** Height of one output line (12.5px text at line-height 1.5) until one is measured. */
const LINE_PX = 18.75;

const states = new WeakMap();

/** Lines in `text`: a final newline ends the last line rather than starting one. */
export function countLines(text) {
  if (!text) return 0;
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return text.endsWith("\n") ? count : count + 1;
}

/** Where the last `n` lines of `text` begin. */
function tailStart(text, n) {
  let at = text.endsWith("\n") ? text.length - 1 : text.length;
  for (let i = 0; i < n; i++) {
    at = text.lastIndexOf("\n", at - 1);
    if (at === -1) return 0;
  }
  return at + 1;
}

function plural(n, one, many) {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

function exitPill(result, status) {
  if (result && result.signal) return el("span", { class: "pill pill-bad", text: `killed · ${result.signal}` });
  if (result && typeof result.exitCode === "number") {
    // A command stopped by its timeout or a cancel failed, whatever code its shell exited with.
    const ok = result.exitCode === 0 && status !== "failed";
    return el("span", { class: `pill ${ok ? "pill-ok" : "pill-bad"}`, text: `exit ${result.exitCode}` });
  }
  if (status === "failed") return el("span", { class: "pill pill-bad", text: "failed" });
  if (status === "completed") return el("span", { class: "pill", text: "done" });
  return el("span", { class: "pill pill-run" }, el("span", { class: "dot" }), "running");
}

/** The card's parts from the views: the call's terminal view and the result so far. */
function parts(view, { call, start }) {
  const callView = start && start.card === "terminal" ? start : null;
  const result = view && view !== callView && view.card === "terminal" ? view : null;
  const finished = Boolean(result && (typeof result.exitCode === "number" || result.signal));
  // A background command runs on after its call completed, until its card says it ended.
  const job = call.job && !call.job.ended;
  const running = !finished && (job || !["completed", "failed"].includes(call.status));
  return { callView, result, running, output: result && result.output ? result.output : "" };
}

export function render(view, ctx) {
  const { callView } = parts(view, ctx);
  const command = callView ? callView.title : ctx.call.title;
  const head = el("div", { class: "term-head" });
  const box = scrollBox(el("div", { class: "term-out" }), `Output of ${command || "the command"}`);
  // What the result says beyond the output: a sandbox limit hit, processes left running.
  const notes = el("div", { class: "term-notes" });
  const node = el("div", { class: "card card-terminal", dataset: { card: "terminal" } },
    head,
    el("pre", { class: "term-cmd" }, el("span", { class: "prompt-sign", text: "$ " }), command || ""),
    box,
    notes);
  const state = { head, box, notes, output: null, running: null, all: false, follow: true, drawing: 0 };
  states.set(node, state);
  box.addEventListener("scroll", () => {
    state.follow = box.scrollHeight - box.scrollTop - box.clientHeight < 4;
  });
  update(node, view, ctx);
  return node;
}

export function update(node, view, ctx) {
  const state = states.get(node);
  if (!state) return false;
  const { callView, result, running, output } = parts(view, ctx);
  const lines = running ? 0 : countLines(output);
  append(clear(state.head), [
    el("span", { class: "cwd", text: callView && callView.cwd ? callView.cwd : "", title: callView && callView.cwd ? callView.cwd : null }),
    callView && callView.description ? el("span", { class: "term-desc", text: callView.description }) : null,
    callView && callView.sandbox ? el("span", { class: "term-sandbox", text: callView.sandbox }) : null,
    lines ? el("span", { class: "term-lines", text: plural(lines, "line", "lines") }) : null,
    exitPill(result, running ? "running" : ctx.call.status)]);
  const said = result && Array.isArray(result.notes) ? result.notes : [];
  append(clear(state.notes), said.map((text) => el("div", { class: "term-note", text: String(text) })));
  if (output === state.output && running === state.running) return true;
  state.output = output;
  state.running = running;
  draw(state, output, running);
  return true;
}

function draw(state, output, running) {
  const { box } = state;
  const top = box.scrollTop;
  // Where the view is now decides, not the last scroll event: one for a scroll the user just
  // made may still be queued behind this update.
  if (!box.hidden) state.follow = box.scrollHeight - top - box.clientHeight < 4;
  state.drawing++; // a slice still queued from an earlier draw stops
  clear(box);
  box.hidden = !output && running;
  if (!output) {
    if (!running) box.append(el("div", { class: "term-empty", text: "(no output)" }));
    rescroll(box);
    return;
  }
  const total = countLines(output);
  if (total <= TAIL_LINES) {
    box.append(el("pre", { class: "term-text" }, new AnsiWriter().fragment(output)));
  } else {
    // The last lines now, with the colours of what comes before them.
    const from = tailStart(output, TAIL_LINES);
    const writer = new AnsiWriter();
    writer.skip(output.slice(0, from));
    const tail = el("pre", { class: "term-text term-tail" }, writer.fragment(output.slice(from)));
    box.append(tail);
    if (state.all) {
      drawEarlier(state, output.slice(0, from), total - TAIL_LINES, tail);
    } else {
      const hidden = total - TAIL_LINES;
      tail.before(el("div", { class: "term-more" },
        el("span", { text: `${plural(hidden, "earlier line", "earlier lines")} not shown · ` }),
        el("button", {
          type: "button", class: "link term-show-all", text: `Show all ${plural(total, "line", "lines")}`,
          onclick: (event) => showAll(state, event.currentTarget.parentElement, tail, output.slice(0, from), hidden),
        })));
    }
  }
  rescroll(box);
  // Following, the newest line shows; else the view stays where the user left it.
  box.scrollTop = state.follow ? box.scrollHeight : top;
}

/** Replace the "earlier lines" bar by those lines, keeping what the view shows in place. */
function showAll(state, bar, tail, earlier, count) {
  const { box } = state;
  state.all = true;
  const offset = tail.offsetTop - box.scrollTop;
  bar.remove();
  drawEarlier(state, earlier, count, tail);
  box.scrollTop = state.follow ? box.scrollHeight : tail.offsetTop - offset;
  // The button is gone: the keyboard stays on the output it opened.
  rescroll(box);
  if (box.tabIndex >= 0) box.focus({ preventScroll: true });
}

/**
 * The `count` lines of `text` above the tail, as slices of SLICE_LINES lines each: all of
 * them placed at once at their estimated height (unseen slices are not laid out), then
 * filled one task at a time from the top, carrying the colours along.
 */
function drawEarlier(state, text, count, tail) {
  const { box } = state;
  const generation = state.drawing;
  const starts = [0];
  for (let line = SLICE_LINES, at = 0; line < count; line += SLICE_LINES) {
    for (let i = 0; i < SLICE_LINES; i++) at = text.indexOf("\n", at) + 1;
    starts.push(at);
  }
  // Unseen slices take the height of the tail's lines (exact unless lines wrap).
  const measured = tail.getBoundingClientRect().height / Math.max(1, countLines(tail.textContent));
  const linePx = measured > 0 ? measured : LINE_PX;
  const slices = starts.map((from, i) => {
    const pre = el("pre", { class: "term-text term-slice" });
    const lines = i < starts.length - 1 ? SLICE_LINES : count - SLICE_LINES * i;
    pre.style.containIntrinsicSize = `auto ${Math.round(lines * linePx)}px`;
    return { pre, text: text.slice(from, starts[i + 1]) };
  });
  tail.before(...slices.map((slice) => slice.pre));
  box.setAttribute("aria-busy", "true");
  const writer = new AnsiWriter();
  let next = 0;
  const step = () => {
    if (state.drawing !== generation) return;
    // A slice drawn near the view may settle at another height than estimated: unless the
    // user scrolled meanwhile, the tail stays where it was on screen.
    const offset = tail.offsetTop - box.scrollTop;
    const top = box.scrollTop;
    const slice = slices[next++];
    slice.pre.append(writer.fragment(slice.text));
    if (!state.follow && box.scrollTop === top) box.scrollTop = tail.offsetTop - offset;
    if (next < slices.length) setTimeout(step, 0);
    else box.removeAttribute("aria-busy");
  };
  setTimeout(step, 0);
}
