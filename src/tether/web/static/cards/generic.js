// The generic card: a title and text, for calls and results no other card fits; a result's
// attachments (an MCP tool's images and resources) below its text. Text that is Markdown (a
// plan) comes rendered by the server (`html`, made safe there) and is shown rendered.

import { el, safeHtml } from "../dom.js";
import { byteSize, hasRawInput, inlineImage, rawInputDetails, textBox } from "./content.js";

export const call = {
  render(view, { call: acp }) {
    const card = el("div", { class: "card card-generic", dataset: { card: "generic" } });
    if (view.content) card.append(body(view));
    const locations = view.locations || [];
    if (locations.length) {
      card.append(el("div", { class: "locations" },
        locations.map((l) => el("span", { class: "location", text: l.line ? `${l.path}:${l.line}` : l.path }))));
    }
    const raw = view.rawInput ?? acp.rawInput;
    const showRaw = hasRawInput(raw);
    if (showRaw) card.append(rawInputDetails(raw));
    const pending = !["completed", "failed"].includes(acp.status);
    if (!view.content && !locations.length && !showRaw) {
      card.append(el("div", { class: "card-note", text: pending ? "Waiting…" : "" }));
    }
    return card;
  },
};

export const result = {
  render(view, { call: acp }) {
    const card = el("div", { class: "card card-generic", dataset: { card: "generic" } });
    if (view.title && view.title !== acp.title) card.append(el("div", { class: "generic-title", text: view.title }));
    const attachments = Array.isArray(view.attachments) ? view.attachments : [];
    if (view.content && acp.status === "failed") card.append(textBox(view.content, { error: true }));
    else if (view.content) card.append(body(view));
    else if (!attachments.length) card.append(el("div", { class: "card-note", text: "(no output)" }));
    // An image attachment's data is the n-th image block of the call's ACP content.
    const images = (Array.isArray(acp.content) ? acp.content : [])
      .map((item) => (item && item.type === "content" ? item.content : null))
      .filter((block) => block && block.type === "image");
    let next = 0;
    for (const attachment of attachments) {
      card.append(attachmentItem(attachment, attachment && attachment.type === "image" ? images[next++] : null));
    }
    return card;
  },
};

/** The card's text: rendered Markdown when the server rendered it, else the text as it is. */
function body(view) {
  if (view.markdown && typeof view.html === "string") {
    return el("div", { class: "md generic-markdown" }, safeHtml(view.html));
  }
  return textBox(view.content);
}

/** One attachment of a result: an image, a link to a resource, an embedded resource. */
function attachmentItem(attachment, image) {
  if (!attachment || typeof attachment !== "object") return null;
  switch (attachment.type) {
    case "image":
      if (!image) return el("div", { class: "card-note attachment", text: `image (${attachment.mimeType} · ${byteSize(attachment.bytes)})` });
      return inlineImage(image.data, image.mimeType, attachment.bytes);
    case "resource_link": {
      const facts = [attachment.mimeType, byteSize(attachment.size)].filter(Boolean).join(" · ");
      // Named, never followed or fetched: the page does not know what the URI leads to.
      return el("div", { class: "resource-link attachment" },
        el("span", { class: "badge", text: "link" }),
        el("span", { text: attachment.title || attachment.name }),
        el("span", { class: "uri", text: attachment.uri }),
        facts ? el("span", { class: "uri", text: facts }) : null);
    }
    case "resource": {
      const facts = [attachment.mimeType, byteSize(attachment.bytes)].filter(Boolean).join(" · ");
      return el("div", { class: "resource attachment" },
        el("div", {},
          el("span", { class: "badge", text: "resource" }), " ",
          el("span", { class: "uri", text: attachment.uri }), " ",
          facts ? el("span", { class: "uri", text: facts }) : null),
        typeof attachment.text === "string" ? textBox(attachment.text, { label: attachment.uri }) : null);
    }
    default:
      return textBox(JSON.stringify(attachment, null, 2));
  }
}
