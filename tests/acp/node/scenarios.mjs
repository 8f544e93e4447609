// Drives `tether acp` from the official TypeScript ACP SDK through what an editor's panel
// shows: the status of stopped commands, MCP results beyond text, glob's locations, the
// config options after every switch, and the errors of a bad delete and a locked server.
// Usage: node scenarios.mjs WORKSPACE SCENARIO_JSON TETHER_COMMAND [ARGS...]
// SCENARIO_JSON: {"mcpServers": [...], "otherModel": "script:..."}
// Prints one JSON object with what it saw; the Python test checks it.

import { spawn } from "node:child_process";
import { once } from "node:events";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [workspace, scenarioJson, command, ...args] = process.argv.slice(2);
const scenario = JSON.parse(scenarioJson);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));

const updates = [];
const marks = {}; // step name -> index in `updates` when it started
let onUpdate = () => {};

function settle(promise) {
  return promise.then(
    (result) => ({ result }),
    (error) => ({ error: { code: error.code, message: error.message, data: error.data } }),
  );
}

const seen = await acp
  .client()
  .onRequest("session/request_permission", () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }))
  .onNotification("session/update", ({ params }) => {
    updates.push(params.update);
    onUpdate(params.update);
  })
  .connectWith(stream, async (agent) => {
    await agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const session = await agent.request("session/new", { cwd: workspace, mcpServers: scenario.mcpServers });
    const sessionId = session.sessionId;
    const prompt = (text) => agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });

    // Inside the sandbox a shell killed by a signal reads as exit 128+N (bwrap reports it so):
    // the commands run unsandboxed, so the one killed on purpose ends by its signal.
    await agent.request("session/set_config_option", { sessionId, configId: "sandbox", value: "off" });
    marks.run = updates.length;
    const ran = await prompt("run the commands and the tools");

    // Cancel the command once it is running (its first output arrived).
    marks.cancel = updates.length;
    const running = new Promise((resolve) => {
      onUpdate = (u) => {
        if (u.sessionUpdate === "tool_call_update" && u.toolCallId === "cancel-1" && u.status === "in_progress") resolve();
      };
    });
    const pending = prompt("run a long one");
    await running;
    onUpdate = () => {};
    await agent.notify("session/cancel", { sessionId });
    const cancelled = await pending;

    marks.setMode = updates.length;
    await agent.request("session/set_mode", { sessionId, modeId: "ask" });
    marks.slashMode = updates.length;
    const slash = await prompt("/mode auto");
    marks.model = updates.length;
    const switched = await agent.request("session/set_config_option", {
      sessionId,
      configId: "model",
      value: scenario.otherModel,
    });
    marks.end = updates.length;

    const deleted = await settle(agent.request("session/delete", { sessionId: "no-such-session" }));
    return { session, ran, cancelled, slash, switched, deleted };
  });

child.stdin.end();
const [status] = await once(child, "exit");

const between = (from, to) => updates.slice(marks[from], to ? marks[to] : undefined);
const finals = {};
for (const u of updates) {
  if (u.sessionUpdate === "tool_call_update" && ["completed", "failed"].includes(u.status)) finals[u.toolCallId] = u;
}
const configUpdates = (from, to) =>
  between(from, to)
    .filter((u) => u.sessionUpdate === "config_option_update")
    .map((u) => Object.fromEntries(u.configOptions.map((o) => [o.id, o.currentValue])));
const modeUpdates = (from, to) =>
  between(from, to)
    .filter((u) => u.sessionUpdate === "current_mode_update")
    .map((u) => u.currentModeId);

console.log(
  JSON.stringify({
    exitStatus: status,
    stops: [seen.ran.stopReason, seen.cancelled.stopReason, seen.slash.stopReason],
    finals,
    notices: updates
      .filter((u) => u.sessionUpdate === "agent_message_chunk" && u.content.type === "text")
      .map((u) => u.content.text)
      .filter((text) => text.startsWith("Warning: ")),
    configAfterSetMode: configUpdates("setMode", "slashMode"),
    modesAfterSetMode: modeUpdates("setMode", "slashMode"),
    configAfterSlashMode: configUpdates("slashMode", "model"),
    modesAfterSlashMode: modeUpdates("slashMode", "model"),
    configAfterModel: configUpdates("model", "end"),
    switchedModel: seen.switched.configOptions.find((o) => o.id === "model").currentValue,
    deleted: seen.deleted,
  }),
);
