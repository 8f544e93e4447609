// The web card of a search: the query, who answered, and the results as a numbered list.
// Each result's title is a link to the page that opens apart from this one (no opener, no
// referrer); its URL, date and snippet are text. Nothing from a result is ever loaded: no
// favicons, thumbnails or previews, so opening a card tells no site anything.

import { el } from "../dom.js";
import { pageLink } from "./web_fetch.js";

/** Each backend's name for people (`tether.tools.web.backends.PROVIDER_LABELS`). */
const PROVIDERS = { brave: "Brave Search", exa: "Exa", tavily: "Tavily", searxng: "SearXNG" };

/** A result's title as a safe link to its http(s) URL (anything else is plain text). */
function titleLink(hit) {
  if (!/^https?:\/\//i.test(hit.url || "")) return el("span", { class: "web-hit-title", text: hit.title || hit.url || "" });
  return el("a", {
    class: "web-hit-title",
    href: hit.url,
    target: "_blank",
    rel: "noopener noreferrer",
    referrerpolicy: "no-referrer",
    text: hit.title || hit.url,
  });
}

function count(n) {
  return `${n} result${n === 1 ? "" : "s"}`;
}

export function render(view, { call }) {
  const results = Array.isArray(view.results) ? view.results : [];
  const provider = PROVIDERS[view.provider] || String(view.provider || "");
  const head = el("div", { class: "card-head" },
    el("span", { class: "web-query", text: `“${view.query}”`, title: view.query }),
    el("span", { class: "web-facts", text: `${provider} · ${count(results.length)}` }));
  const card = el("div", { class: "card card-web card-web-search", dataset: { card: "web", kind: "search" } }, head);
  if (view.title && view.title !== call.title) card.append(el("div", { class: "generic-title web-title", text: view.title }));
  if (!results.length) {
    card.append(el("div", { class: "card-note", text: "No results." }));
    return card;
  }
  const list = el("ol", { class: "web-hits", "aria-label": `Search results for ${view.query}` });
  for (const hit of results) {
    const facts = el("div", { class: "web-hit-url" }, pageLink(hit.url));
    if (hit.published) facts.append(el("span", { class: "web-hit-date", text: hit.published }));
    list.append(el("li", { class: "web-hit" },
      titleLink(hit),
      facts,
      hit.snippet ? el("p", { class: "web-hit-snippet", text: hit.snippet }) : null));
  }
  card.append(list);
  if (view.truncated) card.append(el("div", { class: "card-foot", text: "More results came back than are listed." }));
  return card;
}
