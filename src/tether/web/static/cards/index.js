// Cards: tether's render intents, one module each, and the fallback to ACP's standard content.
// A card module exports `render(view, ctx)` returning an element, and may export
// `update(node, view, ctx)` to change that element in place when the same card updates
// (a running command's output); ctx is {call, start}: the accumulated ACP tool call and
// its call-side view. A new card is one module and one line in a table below.

import { isRejection } from "../permission_prompt.js";
import * as diff from "./diff.js";
import * as fallback from "./fallback.js";
import * as generic from "./generic.js";
import * as read from "./read.js";
import * as search from "./search.js";
import * as task from "./task.js";
import * as terminal from "./terminal.js";
import * as webFetch from "./web_fetch.js";
import * as webSearch from "./web_search.js";

/** Result cards by `card`, or by `card:kind` where one card has several kinds (web). */
const RESULT_CARDS = {
  read,
  diff: diff.applied,
  terminal,
  "web:fetch": webFetch,
  "web:search": webSearch,
  generic: generic.result,
  search,
  task,
};

/** Call cards by `card`: what a call shows before its result. */
const CALL_CARDS = {
  terminal,
  diff: diff.proposed,
  generic: generic.call,
};

function lookup(table, view) {
  if (!view || typeof view.card !== "string") return null;
  return (view.kind && table[`${view.card}:${view.kind}`]) || table[view.card] || null;
}

/** The card module and view a call shows now: its result's, else its call's, else the fallback. */
function pick(call) {
  // A call refused permission never ran: what it proposed stays, when the agent said so in its
  // own words (tether's `_meta`; its error then adds nothing); another agent's account is shown.
  const start = lookup(CALL_CARDS, call.callView);
  const refused = isRejection(call.permission) || call.permission === "refused";
  if (start && refused && call.permissionSaid) return { card: start, view: call.callView };
  const result = lookup(RESULT_CARDS, call.resultView);
  if (result) return { card: result, view: call.resultView };
  if (start) return { card: start, view: call.callView };
  return { card: fallback, view: null };
}

/**
 * The body of a tool call block. `call` is the accumulated ACP tool call
 * ({title, kind, status, content, rawInput, callView, resultView}). When `previous` (the body
 * shown so far) came from the same card module and that module updates in place, it is
 * updated and returned; otherwise a new element is.
 */
export function renderToolBody(call, previous = null) {
  const { card, view } = pick(call);
  const ctx = { call, start: call.callView || null };
  if (previous && previous.__card === card && card.update && card.update(previous, view, ctx)) return previous;
  const node = card.render(view, ctx);
  node.__card = card;
  return node;
}

export { contentBlock } from "./content.js";
export { childUpdates, connectTasks, delegatedQuestion, resetTasks } from "./task.js";
export { fileDiff } from "./diff.js";
