// Permission requests asked by a prompt running in a session not shown: kept by session, and
// shown with it when it is opened (or dropped once answered or withdrawn).

export class ParkedQuestions {
  /** `announce(text)` tells a screen reader that a question waits elsewhere. */
  constructor(announce) {
    this.announce = announce;
    this.bySession = new Map(); // sessionId -> the requests waiting for it, in order
  }

  /** Keep `request` for its session; `asked`: it is new (not one moved off the screen). */
  park(request, asked = true) {
    const list = this.bySession.get(request.sessionId) || [];
    if (!list.some((r) => r.requestId === request.requestId)) list.push(request);
    this.bySession.set(request.sessionId, list);
    if (asked) this.announce(`A prompt in another session asks for permission: ${request.toolCall.title || "a tool call"}`);
  }

  /** The request was answered or withdrawn: no session waits for it any more. */
  unpark(requestId) {
    for (const [sessionId, list] of this.bySession) {
      const left = list.filter((r) => r.requestId !== requestId);
      if (left.length) this.bySession.set(sessionId, left);
      else this.bySession.delete(sessionId);
    }
  }

  /** The requests waiting for `sessionId` (still kept until answered). */
  waiting(sessionId) {
    return this.bySession.get(sessionId) || [];
  }

  /** The agent that asked is gone (the connection closed): nothing waits. */
  clear() {
    this.bySession.clear();
  }
}
