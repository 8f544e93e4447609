// ACP's standard content: blocks (text, image, resource link, resource) and tool call items.

import { el, scrollBox } from "../dom.js";
import { fileDiff } from "./diff.js";

/** Text in a scroll box of its own (long output, error text). */
export function textBox(text, { error = false, label = "Output" } = {}) {
  return scrollBox(el("pre", { class: `generic-text${error ? " is-error" : ""}`, text }), label);
}

/** One ACP content block (text, image, resource link, embedded resource). */
export function contentBlock(block, status) {
  if (!block || typeof block !== "object") return textBox(String(block));
  switch (block.type) {
    case "text":
      return textBox(block.text, { error: status === "failed" });
    case "image":
      if (/^image\/(png|jpeg|gif|webp)$/.test(block.mimeType || "")) {
        return el("img", { class: "content-image", alt: "image", src: `data:${block.mimeType};base64,${block.data}` });
      }
      return el("div", { class: "card-note", text: `image (${block.mimeType})` });
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
