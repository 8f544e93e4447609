// The context budget as a small gauge in the header: the share of the model's window in use,
// amber past 60%, red past the point where the agent compacts the conversation (tether says
// where in `usage_update._meta.tether.compactAt`; for other agents, 90%).

const WARN_AT = 0.6;
const RED_WITHOUT_THRESHOLD = 0.9;

/** A token count as the terminal shows it: 950, 9.8k, 23.1k, 104k, 1.2M. */
export function shortTokens(count) {
  const trim = (value) => value.toFixed(1).replace(/\.0$/, "");
  if (count < 1000) return String(count);
  if (count < 100000) return `${trim(count / 1000)}k`;
  if (count < 1000000) return `${Math.floor(count / 1000)}k`;
  return `${trim(count / 1000000)}M`;
}

export class BudgetGauge {
  constructor(root) {
    this.root = root;
    this.fill = root.querySelector(".budget-fill");
    this.text = root.querySelector(".budget-text");
  }

  /** Show an ACP `usage_update` ({used, size, _meta?}). */
  show(update) {
    const { used, size } = update;
    if (typeof used !== "number" || typeof size !== "number" || size <= 0) return;
    const tether = update._meta && update._meta.tether ? update._meta.tether : {};
    const compactAt = typeof tether.compactAt === "number" ? tether.compactAt : null;
    const share = used / size;
    const percent = Math.round(share * 100);
    const level = share >= (compactAt ?? RED_WITHOUT_THRESHOLD) ? "high" : share >= WARN_AT ? "warn" : "ok";
    this.root.dataset.level = level;
    this.fill.style.width = `${Math.min(100, share * 100)}%`;
    this.text.textContent = "";
    this.text.append(
      Object.assign(document.createElement("span"), { className: "budget-tokens", textContent: `${shortTokens(used)} / ${shortTokens(size)} · ` }),
      `${percent}%`);
    this.root.setAttribute("aria-valuenow", String(Math.min(100, percent)));
    this.root.setAttribute("aria-valuetext", `${percent}% of the context window in use`);
    const when = compactAt !== null
      ? `The conversation is compacted at ${Math.round(compactAt * 100)}% (${shortTokens(Math.round(size * compactAt))} tokens).`
      : "";
    // What the session cost so far, when the agent knows it; tether says so when it does not.
    const cost = update.cost && typeof update.cost.amount === "number"
      ? `Cost so far: ${money(update.cost.amount, update.cost.currency)}.`
      : update._meta && update._meta.tether ? "Cost: unknown (no price for this model)." : "";
    this.root.title = `Context: ${used.toLocaleString("en-US")} of ${size.toLocaleString("en-US")} tokens (${percent}%). ${when} ${cost}`.replace(/ +/g, " ").trim();
    this.root.hidden = false;
  }

  clear() {
    this.root.hidden = true;
    this.root.removeAttribute("data-level");
  }
}

/** `$0.0042`, `$1.37` (as the terminal writes dollars); another currency by its code. */
function money(amount, currency) {
  const digits = amount >= 1 ? 2 : 4;
  return currency === "USD" || !currency ? `$${amount.toFixed(digits)}` : `${amount.toFixed(digits)} ${currency}`;
}
