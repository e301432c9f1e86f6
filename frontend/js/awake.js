// Keeps a seated phone's screen on. A discussion can run two minutes without a tap, longer
// than most phones wait before they sleep, and a sleeping phone's socket is suspended.
//
// The Screen Wake Lock API where the browser has it. It exists only in a secure context
// (https, or localhost): `make dev` serves plain http on the Wi-Fi, and Safari before iOS
// 16.4 has none at all. There, NoSleep.js's technique: a tiny muted video that plays inline
// and loops keeps iOS and Android awake, as any playing video does. A browser may refuse to
// start media without a tap, so every tap while the screen is not held tries again, and a
// refused lock falls back to the video. The video is two same-origin files (vendor/README.md),
// which the Content-Security-Policy's default-src 'self' allows (a data: URL it would not).
//
// How the screen is held is a plain fact on <body data-awake>: "lock", "video" or "none"
// (the browser tests of every engine read it).

// WebM for Chromium and Firefox, MP4 (H.264) for older Safari; the first one the browser
// can play is used. Relative to this module, so a deploy's versioned copies are found.
const SOURCES = [["../vendor/nosleep.webm", "video/webm"], ["../vendor/nosleep.mp4", "video/mp4"]];

let wanted = false;   // the phone has a seat
let lock = null;      // the WakeLockSentinel held
let asking = false;   // a lock request is under way
let video = null;     // made the first time it is needed
let videoPlaying = false;

function state() {
  if (lock) return "lock";
  return videoPlaying ? "video" : "none";
}

function showState() { document.body.dataset.awake = state(); }

// Called with whether the phone has a seat: whenever that may have changed, and when the
// page is shown again (a hidden page loses its lock, and a phone pauses its video).
export function keepScreenOn(seated) {
  wanted = seated;
  if (wanted) hold(); else letSleep();
}

function hold() {
  // Neither a lock nor media is granted to a hidden page; showing it calls keepScreenOn again.
  if (!wanted || asking || state() !== "none" || document.hidden) return;
  if ("wakeLock" in navigator) askForLock(); else playVideo();
}

async function askForLock() {
  asking = true;
  try {
    const sentinel = await navigator.wakeLock.request("screen");
    sentinel.addEventListener("release", () => {
      if (lock === sentinel) lock = null; // the browser let it go (the page was hidden)
      showState();
    });
    lock = sentinel;
    if (!wanted) letSleep(); // the seat went while the lock was asked for
  } catch {
    // Refused (a browser's policy, a battery saver): the video may be allowed.
    if (wanted) playVideo();
  } finally {
    asking = false;
    showState();
  }
}

function playVideo() {
  video = video || makeVideo();
  // Called within a tap's own handler where there is one: Safari lets only that start media.
  const started = video.play();
  if (started) started.catch(() => {}); // refused without a tap: the next tap tries again
}

function makeVideo() {
  const element = document.createElement("video");
  // Muted and inline (never full screen), as browsers require of media started by a page.
  element.muted = true;
  element.setAttribute("muted", "");
  element.playsInline = true;
  element.setAttribute("playsinline", "");
  element.loop = true;
  for (const [file, type] of SOURCES) {
    const source = document.createElement("source");
    source.src = new URL(file, import.meta.url).href;
    source.type = type;
    element.append(source);
  }
  // As NoSleep.js plays its MP4 (over a second long): within its first second, never to
  // its end, where iOS may let the screen sleep.
  element.addEventListener("timeupdate", () => {
    if (element.duration > 1 && element.currentTime > 0.5) element.currentTime = Math.random();
  });
  const playing = (now) => () => { videoPlaying = now; showState(); };
  element.addEventListener("playing", playing(true));
  for (const stopped of ["pause", "ended", "emptied", "error"]) element.addEventListener(stopped, playing(false));
  return element;
}

function letSleep() {
  if (lock) {
    const held = lock;
    lock = null;
    held.release().catch(() => {});
  }
  if (video) video.pause();
  showState();
}

// A tap is what lets media start: each one retries while the screen is not held yet. Taps'
// own handlers are untouched (passive, capture: before any handler could stop the event).
for (const tap of ["touchend", "click"]) document.addEventListener(tap, hold, { capture: true, passive: true });
showState();
