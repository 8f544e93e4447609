// Drives `tether acp` from the official TypeScript ACP SDK: a new session, one prompt that
// reads a file and then edits it (answering the permission request), then session/list.
// Usage: node client.mjs WORKSPACE TETHER_COMMAND [ARGS...]
// Prints one JSON object with what it saw; exits non-zero when a check fails.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [workspace, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));

const updates = [];
const permissions = [];

const seen = await acp
  .client()
  .onRequest("session/request_permission", ({ params }) => {
    permissions.push(params);
    return { outcome: { outcome: "selected", optionId: "allow_once" } };
  })
  .onNotification("session/update", ({ params }) => {
    updates.push(params.update);
  })
  .connectWith(stream, async (agent) => {
    const init = await agent.request("initialize", {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
      clientInfo: { name: "node-test", version: "1.0.0" },
    });
    const session = await agent.request("session/new", { cwd: workspace, mcpServers: [] });
    const prompt = await agent.request("session/prompt", {
      sessionId: session.sessionId,
      prompt: [{ type: "text", text: "Read then edit greet.py" }],
    });
    const config = await agent.request("session/set_config_option", {
      sessionId: session.sessionId,
      configId: "mode",
      value: "auto",
    });
    const listed = await agent.request("session/list", {});
    return { init, session, prompt, config, listed };
  });

child.stdin.end();
const [status] = await once(child, "exit");

// The read card rides in _meta.tether.view of the read's final tool_call_update.
const readDone = updates.find(
  (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "read-1" && u.status === "completed",
);
assert.ok(readDone, "no completed read");
const view = readDone._meta.tether.view;
assert.equal(view.card, "read");
assert.deepEqual(
  view.lines.map((line) => line.number),
  [1, 2, 3],
);
assert.equal(view.totalLines, 3);
assert.equal(readDone.content[0].content.type, "text");
assert.equal(readDone.content[0].content.text, view.content);

assert.equal(permissions.length, 1);
assert.equal(permissions[0].toolCall.toolCallId, "edit-1");
// The request carries the whole call: one title, its kind, the proposed diff, its places.
const editStart = updates.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "edit-1");
assert.equal(permissions[0].toolCall.title, editStart.title);
assert.equal(permissions[0].toolCall.content[0].type, "diff");
// The request names the same files, with the line the change starts at.
assert.deepEqual(
  permissions[0].toolCall.locations.map((place) => place.path),
  editStart.locations.map((place) => place.path),
);
assert.ok(permissions[0].toolCall.locations.every((place) => place.line >= 1));
const editDone = updates.find((u) => u.toolCallId === "edit-1" && u.status === "completed");
assert.ok(editDone, "no completed edit");
assert.equal(editDone.content[0].type, "diff");
assert.equal(seen.prompt.stopReason, "end_turn");
assert.equal(status, 0);

console.log(
  JSON.stringify({
    protocolVersion: seen.init.protocolVersion,
    agent: seen.init.agentInfo.name,
    modes: seen.session.modes.availableModes.map((m) => m.id),
    stopReason: seen.prompt.stopReason,
    listed: seen.listed.sessions.map((s) => s.sessionId),
    sessionId: seen.session.sessionId,
    readView: view,
    permission: permissions[0],
    readLocations: readDone.locations,
    editLocations: editDone.locations,
    configOptions: seen.session.configOptions.map((o) => o.id),
    modeAfter: seen.config.configOptions.find((o) => o.id === "mode").currentValue,
    modeUpdates: updates.filter((u) => u.sessionUpdate === "current_mode_update").map((u) => u.currentModeId),
    commands: (updates.find((u) => u.sessionUpdate === "available_commands_update") || { availableCommands: [] })
      .availableCommands.map((c) => c.name),
    editContent: editDone.content,
    kinds: updates.map((u) => u.sessionUpdate),
  }),
);
