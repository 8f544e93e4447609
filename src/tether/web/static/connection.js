// The page's one WebSocket to the server, which speaks ACP to the agent. The server keeps its
// token across restarts, so a lost connection is retried with backoff.
// Protocol (JSON, tagged by `type`): see src/tether/web/protocol/.

const RETRY_MS = [500, 1000, 2000, 4000, 8000, 10000];

export class Connection {
  /**
   * `onMessage(message)` for each message; `onOpen()` when the socket opens (the agent may
   * still be starting); `onClose(retryMs)` when it closes, before the retry is scheduled.
   */
  constructor({ onMessage, onOpen, onClose }) {
    const token = new URLSearchParams(location.search).get("token") || "";
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?token=${encodeURIComponent(token)}`;
    this.onMessage = onMessage;
    this.onOpen = onOpen;
    this.onClose = onClose;
    this.socket = null;
    this.retries = 0;
  }

  /** Whether this is a reconnection (an earlier socket closed). */
  get retrying() {
    return this.retries > 0;
  }

  connect() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => this.onOpen());
    socket.addEventListener("close", () => {
      const delay = RETRY_MS[Math.min(this.retries, RETRY_MS.length - 1)];
      this.retries += 1;
      this.onClose(delay);
      setTimeout(() => this.connect(), delay);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
  }

  /** The agent answered: the next loss starts the backoff from its shortest delay. */
  settled() {
    this.retries = 0;
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }
}
