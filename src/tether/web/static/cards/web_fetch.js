// The web card of a fetch: a safe link to the page, its status and size, and its text as
// Markdown the server rendered (raw HTML escaped), set apart from the agent's own answer.

import { el, scrollBox } from "../dom.js";
import { byteSize, textBox } from "./content.js";

/** A link to a web URL that opens apart from this page (no opener, no referrer). */
export function pageLink(url) {
  if (!/^https?:\/\//i.test(url || "")) return el("span", { class: "path", text: url || "" });
  return el("a", { class: "path web-url", href: url, target: "_blank", rel: "noopener noreferrer", text: url, title: url });
}


/** The server's safe HTML for a fetched page, parsed inert, links made absolute and safe. */
export function fetchedHtml(html, base) {
  const parsed = document.createElement("template");
  parsed.innerHTML = html;
  const body = parsed.content;
  for (const img of body.querySelectorAll("img")) {
    // A fetched page's images are not loaded on their own (no tracking by opening a card):
    // each becomes a link to the image.
    img.replaceWith(el("a", { href: img.getAttribute("src") || "", text: `[image${img.alt ? `: ${img.alt}` : ""}]` }));
  }
  for (const a of body.querySelectorAll("a[href]")) {
    // A relative link is relative to the fetched page, not to this one.
    try {
      const target = new URL(a.getAttribute("href"), base);
      if (/^(https?|mailto):$/.test(target.protocol)) a.setAttribute("href", target.href);
      else a.removeAttribute("href");
    } catch {
      a.removeAttribute("href");
    }
    a.setAttribute("target", "_blank");
    a.setAttribute("rel", "noopener noreferrer");
  }
  return body;
}

export function render(view, { call }) {
  const ok = view.statusCode < 400;
  const facts = [view.contentType ? view.contentType.split(";")[0] : null, byteSize(view.bytes)].filter(Boolean).join(" · ");
  const card = el("div", { class: "card card-web", dataset: { card: "web" } },
    el("div", { class: "card-head" },
      pageLink(view.url),
      facts ? el("span", { class: "web-facts", text: facts }) : null,
      el("span", { class: `pill ${ok ? "pill-ok" : "pill-bad"}`, text: String(view.statusCode) })));
  if (view.title && view.title !== call.title) card.append(el("div", { class: "generic-title web-title", text: view.title }));
  if (view.redirect) {
    card.append(el("div", { class: "card-note web-redirect" }, "Redirects to another host (not followed): ", pageLink(view.redirect)));
  }
  if (typeof view.html === "string") {
    card.append(scrollBox(el("div", { class: "markdown web-body hl" }, fetchedHtml(view.html, view.url)), `Fetched page ${view.url}`));
  } else if (view.content) {
    card.append(textBox(view.content, { label: `Fetched page ${view.url}` }));
  } else if (!view.redirect) {
    card.append(el("div", { class: "card-note", text: "(no text)" }));
  }
  if (view.truncated) card.append(el("div", { class: "card-foot", text: "Truncated: the model saw the start of the page." }));
  return card;
}
