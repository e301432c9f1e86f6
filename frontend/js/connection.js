// One WebSocket to the game, kept alive: heartbeat under API Gateway's 10-minute idle
// limit, reconnect at once when the phone wakes or comes back online, then with backoff,
// for as long as it takes: a socket that did not open says nothing of the seat
// (offline, a lift, a Wi-Fi handover, a throttle all look alike to a browser). The seat is
// named in the first frame (`resume`, its token in no URL), and only the server's answer
// over an opened socket (`seat_lost`) makes the phone forget it.
// The heartbeat is sent only when the phone has sent nothing for HEARTBEAT_MS
// (every frame is billed; a move keeps the socket alive as well as a ping). Only frames
// sent count: whether API Gateway counts its own pushes against the idle limit is not
// documented, so the phone does not rely on them.
const HEARTBEAT_MS = 4 * 60 * 1000;
const SAME_TAP_MS = 3000;
const HEARTBEAT_CHECK_MS = 15 * 1000;
// Waits between tries, the last repeated: at most 30 s between tries however long it takes.
const BACKOFF_MS = [300, 1000, 2000, 4000, 8000, 15000, 30000];
// What the server sends. API Gateway answers a frame it throttled, or whose Lambda failed,
// with {"message": "Too Many Requests" | "Internal server error", "connectionId", "requestId"}:
// no `type`, and nothing that says which frame. A frame of no known type is such a failure.
const KNOWN_TYPES = new Set(["view", "joined", "error", "pong", "replay", "seat_link"]);
// The frames of a phone with no room yet: they name none (join, resume, watch and take_seat
// name their own). A copy of the server's ROOMLESS_ACTIONS (service/commands.py;
// tests/service/test_protocol_lists.py).
const ROOMLESS_ACTIONS = new Set(["create_room", "join", "resume", "watch", "take_seat"]);
// A failed move is sent once more after about a second; the jitter keeps a table of phones
// throttled together from all retrying in the same instant (and being throttled again).
const RETRY_MS = 1000;
const RETRY_JITTER_MS = 500;
// A failure frame this long after the last move is not about it (the Lambda's timeout is
// 10 s): it answers a heartbeat ping, which needs no retry, since the heartbeat repeats.
// Retrying an old move there would only earn "You are already Ready."
const MOVE_ANSWER_MS = 30 * 1000;
// Every frame the phone sends is padded with spaces (a `pad` field the server drops) to a
// multiple of SENT_FRAME_BYTES: to someone on the Wi-Fi a witch's spell, a villager's guess,
// the Seer's look, a suspect marked and a ping are all one length (docs/security.md).
const SENT_FRAME_BYTES = 512;
const PAD_FIELD_BYTES = ',"pad":""'.length;
// A page back from the background (docs/protocol.md, A page coming back). Away for longer
// than DOUBT_AFTER_AWAY_MS (locked, another app, a frozen or cached tab, offline), its
// socket may look open and be dead: iOS suspends a locked tab and its connection with it
// without a close the page sees, and the views pushed meanwhile are lost. So the socket is
// asked (a ping: the view missed, or a pong), and frames wait for its answer; no word within
// PROBE_MS and a new socket is opened, whose resume brings the whole current view.
// Asking first, rather than opening a new socket every time: a socket that lived through
// the wait (the usual case, and every short one) costs one frame and its answer, where a new
// socket costs a $connect, a resume and the old one's $disconnect, three Lambda calls; and
// one that died with a close is reopened at once either way. Only a silent dead one costs
// the wait, which keeps the phone within a second of the table.
// Away for less (a glance at another app), the socket is only pinged, as before.
// PROBE_MS: a ping's answer over 4G (a 150 ms round trip and the Lambda's) takes about
// 200 ms; a slower network's late answer only costs a new socket that was not needed.
const DOUBT_AFTER_AWAY_MS = 2000;
const PROBE_MS = 300;

export function paddedFrame(message) {
  const bytes = new TextEncoder().encode(JSON.stringify(message)).length + PAD_FIELD_BYTES;
  const size = Math.ceil(bytes / SENT_FRAME_BYTES) * SENT_FRAME_BYTES;
  return JSON.stringify({ ...message, pad: " ".repeat(size - bytes) });
}

export class Connection {
  // step(): which step the screen is at; a move is retried only while that step lasts.
  // onSendFailed(message): a move failed twice; the player must hear of it.
  constructor(url, { seat, step, onMessage, onState, onSendFailed }) {
    Object.assign(this, { url, seat, step, onMessage, onState, onSendFailed });
    this.socket = null;
    this.state = "connecting";
    this.seq = -1;   // orders views: an older one arriving late is dropped
    this.rev = null; // names the view shown; a ping with it brings the view only if it changed
    this.queue = [];
    this.answered = false; // the open socket's first frame was answered (see onopen)
    this.failures = 0;
    this.timer = null;
    this.lastMove = null; // {message, step, at, retried}: the newest message that is not a ping
    this.lastSent = Date.now(); // the last frame sent on this socket
    this.awaySince = null; // when the page went to the background (see away)
    this.probe = null; // the timer of a doubted socket's question (see doubt)
    setInterval(() => { if (Date.now() - this.lastSent >= HEARTBEAT_MS) this.ping(); }, HEARTBEAT_CHECK_MS);
  }

  open() {
    clearTimeout(this.timer);
    if (this.socket && this.socket.readyState <= WebSocket.OPEN) return;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.everOpened = true;
      this.failures = 0;
      // A seated phone's other frames wait for the answer to its `resume`: sent at once, one
      // could reach the server first (each frame is a Lambda call of its own, in no set
      // order) and find the connection seatless.
      this.answered = !this.seat();
      this.setState("open");
      this.greet(); // takes the seat and brings the whole current view (docs/protocol.md)
      if (this.answered) this.flush();
    };
    socket.onmessage = (event) => {
      if (!this.answered && this.socket === socket) {
        this.answered = true;
        this.flush();
      }
      let message;
      try { message = JSON.parse(event.data); } catch { message = {}; }
      if (!KNOWN_TYPES.has(message.type)) { this.moveFailed(); return; }
      if (message.type === "view") {
        if (message.seq < this.seq) return; // an older view arriving late
        this.seq = message.seq;
        this.rev = message.rev;
      }
      this.onMessage(message);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      // Until a socket has opened once, the phone is still connecting: nothing was lost.
      this.setState(this.everOpened ? "closed" : "connecting");
      const wait = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)];
      this.failures += 1;
      this.timer = setTimeout(() => this.open(), wait);
    };
  }

  setState(state) {
    this.state = state;
    this.onState(state);
  }

  send(message) {
    // A second tap on the same control while its move is on its way (a slow network, a
    // redraw under the finger) is the same move: one frame, not two (a phone that
    // sent two frames where others send one stood out on the Wi-Fi).
    // Game moves only (they name their step): a room action asked again is a new ask (the
    // replay, watched after it was saved).
    const last = this.lastMove;
    if ("step" in message && last && last.step === this.step() && Date.now() - last.at < SAME_TAP_MS
        && JSON.stringify(last.message) === JSON.stringify(message)) return;
    this.lastMove = { message, step: this.step(), at: Date.now(), retried: false };
    this.transmit(message);
  }

  transmit(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN && this.answered) this.frame(message);
    else { this.queue.push(message); this.open(); }
  }

  flush() {
    for (const message of this.queue.splice(0)) this.frame(message);
  }

  // Every frame goes out here: the heartbeat waits for HEARTBEAT_MS of silence. A seated
  // phone names its room in each, so the server reads the room while it looks the
  // connection up (one round trip fewer; docs/protocol.md).
  frame(message) {
    const seat = this.seat();
    const named = seat && !ROOMLESS_ACTIONS.has(message.action) && !("room" in message)
      ? { ...message, room: seat.room } : message;
    this.socket.send(paddedFrame(named));
    this.lastSent = Date.now();
  }

  // The server did not take a frame: take it to be the last move (see KNOWN_TYPES). Send it
  // once more; if that fails too, tell the player rather than lose the move in silence.
  moveFailed() {
    const move = this.lastMove;
    if (!move || this.isStale(move)) return; // a ping's failure, or a move for an ended step
    if (move.retried) { this.lastMove = null; this.onSendFailed(move.message); return; }
    move.retried = true;
    setTimeout(() => {
      if (this.lastMove !== move || this.isStale(move)) return; // a newer move replaced it
      move.at = Date.now();
      this.transmit(move.message);
    }, RETRY_MS + Math.random() * RETRY_JITTER_MS);
  }

  isStale(move) {
    return Date.now() - move.at > MOVE_ANSWER_MS || this.step() !== move.step;
  }

  ping() {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.frame(this.rev ? { action: "ping", rev: this.rev } : { action: "ping" });
    }
  }

  // A new socket's first frame: a seated phone names its seat (the token in a frame, never
  // in the URL: access logs and history keep URLs); a phone with none pings.
  greet() {
    const seat = this.seat();
    if (!seat) { this.ping(); return; }
    const resume = { action: "resume", room: seat.room, token: seat.token };
    this.frame(this.rev ? { ...resume, rev: this.rev } : resume);
  }

  // A frame that asks nothing and gets no answer: where another role's phone sends a move
  // only the step's end answers, this one sends a cover (docs/security.md). It names the
  // step it covers, as a move does.
  cover(step) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.frame({ action: "cover", step });
  }

  // Another room (or none): its views count from their own start.
  forgetView() {
    this.seq = -1;
    this.rev = null;
  }

  // The server is closing this socket (the host removed this phone): a frame sent on it
  // in the meantime (a join typed at once) would be lost with it, so the next frame waits
  // for a new socket, which takes no seat.
  startOver() {
    this.forgetView();
    this.reopen();
  }

  // Lets the socket go without waiting for its close (a dead one's may take minutes) and
  // opens a new one at once.
  reopen() {
    const socket = this.socket;
    this.socket = null; // its close is not a lost connection (onclose checks this)
    if (socket) socket.close();
    this.failures = 0;
    this.open();
  }

  // The page went to the background (hidden, frozen, into the back/forward cache) or
  // offline: its socket may die meanwhile without a word (see DOUBT_AFTER_AWAY_MS).
  away() {
    this.awaySince ??= Date.now();
  }

  // The phone woke, came back online or to the foreground: try now, not after the
  // backoff's wait; a socket that looks open after a long absence is doubted.
  wake() {
    const awayFor = this.awaySince === null ? 0 : Date.now() - this.awaySince;
    this.awaySince = null;
    if (this.probe) return; // already asked (a page coming back fires resume, then visible)
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
      this.failures = 0;
      this.open(); // a socket still opening is left to open
      return;
    }
    if (awayFor < DOUBT_AFTER_AWAY_MS) { this.ping(); return; }
    this.doubt();
  }

  // The open socket is asked, and frames wait for its answer as for a resume's (onmessage
  // sends them when any word comes); silence for PROBE_MS and it is replaced.
  doubt() {
    const socket = this.socket;
    if (this.answered) this.ping(); // else its resume is the question, still unanswered
    this.answered = false;
    this.probe = setTimeout(() => {
      this.probe = null;
      if (this.socket === socket && !this.answered) this.reopen();
    }, PROBE_MS);
  }
}
