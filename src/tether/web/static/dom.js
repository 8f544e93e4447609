// Small DOM helpers. Agent data enters the page as text nodes (textContent); the one
// exception is `safeHtml`, for the server's Markdown rendering (raw HTML disabled there).

/**
 * Create an element: el("div", {class: "a b", text: "hi", title: "t", dataset: {x: 1}}, ...children)
 * `text` sets textContent; other keys become attributes; children may be nodes, strings or null.
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

/** Append nodes or strings (as text) to a parent, skipping null/undefined. */
export function append(parent, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return parent;
}

/** Remove every child of a node. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/**
 * Parse HTML the server made safe (tether.web.markdown: no raw HTML, safe links) into a
 * fragment (its code blocks scroll boxes). It is parsed inert (no scripts run, nothing loads until it is inserted), and any
 * event-handler attribute or script that could only come from a bug is dropped on the way.
 */
export function safeHtml(html) {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  for (const bad of doc.body.querySelectorAll("script, style, iframe, object, embed")) bad.remove();
  for (const node of doc.body.querySelectorAll("*")) {
    for (const attr of [...node.attributes]) {
      if (attr.name.startsWith("on")) node.removeAttribute(attr.name);
    }
  }
  const fragment = document.createDocumentFragment();
  fragment.append(...doc.body.childNodes);
  // A code block with a long line scrolls sideways (a phone): reachable by keyboard then.
  for (const pre of fragment.querySelectorAll("pre")) scrollBox(pre, "Code");
  return fragment;
}

// Scroll boxes (code, output, lists) take keyboard focus only while they actually scroll,
// so arrow keys can move them without adding a tab stop to every short card.
const scrollers = new WeakMap();
const overflow = typeof ResizeObserver === "function"
  ? new ResizeObserver((entries) => {
    for (const entry of entries) {
      const box = entry.target.classList.contains("scroll-box") ? entry.target : entry.target.parentElement;
      if (box) markScrollable(box);
    }
  })
  : null;

function markScrollable(box) {
  const label = scrollers.get(box);
  if (label === undefined) return;
  const scrolls = box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1;
  // A list keeps its own role (its items need it); anything else becomes a named region.
  const ownRole = /^(UL|OL|TABLE|DL)$/.test(box.tagName);
  if (scrolls) {
    box.tabIndex = 0;
    if (!ownRole) box.setAttribute("role", "region");
    box.setAttribute("aria-label", label);
  } else {
    box.removeAttribute("tabindex");
    if (!ownRole) box.removeAttribute("role");
    box.removeAttribute("aria-label");
  }
}

/** Make `box` reachable by keyboard, named `label`, whenever its content overflows it. */
export function scrollBox(box, label) {
  box.classList.add("scroll-box");
  scrollers.set(box, label);
  if (overflow) {
    overflow.observe(box);
    if (box.firstElementChild) overflow.observe(box.firstElementChild);
  }
  return box;
}

/** Check a scroll box again after its content changed without resizing it. */
export function rescroll(box) {
  markScrollable(box);
}
