// ACP's standard content: blocks (text, image, resource link, resource) and tool call items.

import { el, scrollBox } from "../dom.js";
import { fileDiff } from "./diff.js";

/** Text in a scroll box of its own (long output, error text). */
export function textBox(text, { error = false, label = "Output" } = {}) {
  return scrollBox(el("pre", { class: `generic-text${error ? " is-error" : ""}`, text }), label);
}

/** `512 B`, `12.3 KB`, `4.0 MB`; null for no size. */
export function byteSize(size) {
  if (typeof size !== "number") return null;
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

// The largest image drawn inline (decoded bytes); a larger one is named, not drawn.
const INLINE_IMAGE_BYTES = 5 * 1024 * 1024;
// Only raster types a browser draws without running anything (no SVG).
const INLINE_IMAGE_TYPES = /^image\/(png|jpeg|gif|webp)$/;

/**
 * An image drawn from its base64 data only (a data: URL, never a fetch of a URI it names),
 * when it is a safe raster type and not too large; otherwise a note with its type and size.
 */
export function inlineImage(data, mimeType, size) {
  const bytes = typeof size === "number" ? size : Math.floor(((data || "").length * 3) / 4);
  const facts = [mimeType, byteSize(bytes)].filter(Boolean).join(" · ");
  if (typeof data !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(data) || !INLINE_IMAGE_TYPES.test(mimeType || "")) {
    return el("div", { class: "card-note attachment", text: `image (${facts}) not shown` });
  }
  if (bytes > INLINE_IMAGE_BYTES) {
    return el("div", { class: "card-note attachment", text: `image (${facts}) too large to show` });
  }
  return el("figure", { class: "attachment attachment-image" },
    el("img", { class: "content-image", alt: `image (${facts})`, src: `data:${mimeType};base64,${data}` }),
    el("figcaption", { class: "uri", text: facts }));
}

/** One ACP content block (text, image, resource link, embedded resource). */
export function contentBlock(block, status) {
  if (!block || typeof block !== "object") return textBox(String(block));
  switch (block.type) {
    case "text":
      return textBox(block.text, { error: status === "failed" });
    case "image":
      return inlineImage(block.data, block.mimeType, null);
    case "resource_link":
      return el("div", { class: "resource-link" }, el("span", { class: "badge", text: "link" }), el("span", { text: block.title || block.name }), el("span", { class: "uri", text: block.uri }));
    case "resource":
      if (block.resource && typeof block.resource.text === "string") {
        return el("div", { class: "resource" }, el("div", { class: "uri", text: block.resource.uri }), textBox(block.resource.text, { label: block.resource.uri }));
      }
      return el("div", { class: "card-note", text: `resource ${block.resource ? block.resource.uri : ""}` });
    default:
      return textBox(JSON.stringify(block, null, 2));
  }
}

/** One item of a tool call's `content`: a content block, a diff or a terminal. */
export function contentItem(item, status) {
  if (!item || typeof item !== "object") return textBox(String(item));
  switch (item.type) {
    case "content":
      return contentBlock(item.content, status);
    case "diff":
      return fileDiff(item);
    case "terminal":
      return el("div", { class: "card-note", text: `Terminal ${item.terminalId} (live terminals are not shown here)` });
    default:
      return textBox(JSON.stringify(item, null, 2));
  }
}

/** Whether raw input says anything: not absent, not an empty object, list or string. */
export function hasRawInput(raw) {
  if (raw === undefined || raw === null) return false;
  if (typeof raw === "string") return raw.trim() !== "";
  if (Array.isArray(raw)) return raw.length > 0;
  if (typeof raw === "object") return Object.keys(raw).length > 0;
  return true;
}

/** The call's raw input, folded away under "input". */
export function rawInputDetails(raw) {
  let text;
  try {
    text = typeof raw === "string" ? raw : JSON.stringify(raw, null, 2);
  } catch {
    text = String(raw);
  }
  return el("details", { class: "raw-input" }, el("summary", { text: "input" }), scrollBox(el("pre", { text }), "Input"));
}
