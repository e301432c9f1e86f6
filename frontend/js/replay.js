// A finished game's replay file (docs/replay.md, "A game played in a room"): the phone
// asks for it with {"action": "replay"} and gets it in parts (zlib, base64), which it
// puts together and either saves as a JSON file that `python -m engine.replay` plays, or
// hands to the viewer (replay.html), which the tap opened in a new tab: leaving this page
// would close its socket, and a seat whose phone is gone is freed.
import { KEYS } from "./storage.js";

const parts = new Map();

// One `replay` message; once every part has come, the file is decompressed and saved
// (`mode` "save") or watched ("watch").
export async function receiveReplayPart(message, room, mode = "save") {
  if (message.part === 0) parts.clear();
  parts.set(message.part, message.data);
  if (parts.size < message.parts) return;
  const data = Array.from({ length: message.parts }, (_, i) => parts.get(i)).join("");
  parts.clear();
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  // "deflate" is the zlib format Python's zlib.compress writes.
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  const text = await new Response(stream).text();
  const file = JSON.parse(text);
  if (mode === "watch") {
    // The viewer's tab, opened by the tap (app.js), is told by the storage event.
    localStorage.setItem(KEYS.watchReplay, text);
    return;
  }
  save(JSON.stringify(file), fileName(file, room));
}

function fileName(file, room) {
  const started = file.started_at ? new Date(file.started_at * 1000) : new Date();
  const when = started.toISOString().slice(0, 16).replace(/[T:]/g, "-");
  return `${(file.game || "game").replace(/_/g, "-")}-${room || "room"}-${when}.json`;
}

function save(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
