// One WebSocket to the game, kept alive: heartbeat under API Gateway's 10-minute idle
// limit, reconnect at once when the phone wakes or comes back online, then with backoff.
const HEARTBEAT_MS = 4 * 60 * 1000;
const BACKOFF_MS = [300, 1000, 2000, 4000, 8000];
const GIVE_UP_SEAT_AFTER = 4; // refused reconnects in a row: the room or seat is gone

export class Connection {
  constructor(url, { seat, onMessage, onState, onSeatRefused }) {
    Object.assign(this, { url, seat, onMessage, onState, onSeatRefused });
    this.socket = null;
    this.state = "connecting";
    this.seq = -1;
    this.queue = [];
    this.failures = 0;
    this.timer = null;
    setInterval(() => this.ping(), HEARTBEAT_MS);
  }

  open() {
    clearTimeout(this.timer);
    if (this.socket && this.socket.readyState <= WebSocket.OPEN) return;
    const seat = this.seat();
    const query = seat ? `?room=${encodeURIComponent(seat.room)}&token=${encodeURIComponent(seat.token)}` : "";
    const socket = new WebSocket(this.url + query);
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.failures = 0;
      this.setState("open");
      this.ping(); // takes the seat and brings the whole current view (docs/protocol.md)
      for (const message of this.queue.splice(0)) socket.send(JSON.stringify(message));
    };
    socket.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (message.type === "view") {
        if (message.seq < this.seq) return; // an older view arriving late
        this.seq = message.seq;
      }
      this.onMessage(message);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.setState("closed");
      if (!opened && this.seat()) {
        this.failures += 1;
        if (this.failures >= GIVE_UP_SEAT_AFTER) { this.failures = 0; this.seq = -1; this.onSeatRefused(); }
      }
      const wait = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)];
      this.timer = setTimeout(() => this.open(), wait);
    };
  }

  setState(state) {
    this.state = state;
    this.onState(state);
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    else { this.queue.push(message); this.open(); }
  }

  ping() {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(this.seq >= 0 ? { action: "ping", seq: this.seq } : { action: "ping" }));
    }
  }

  wake() {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.ping();
    else this.open();
  }
}
