// Redrawing a screen without losing a tap: the whole of the client's "reconciler", fenced
// here. Screens are built anew from each view (js/dom.js h); what is shown is kept where it
// has not changed, and no redraw lands between a finger going down and its click.
//
// Three promises, each held by a test (docs/client.md, "Redraws and taps"):
// - a tap during a redraw lands: a view arriving while a finger is down, or lifted with its
//   click still to come, is drawn after that click (`tapSafe`);
// - a held control stays the one held: a redraw waits while the finger is down (up to
//   HOLD_MAX_MS: a longer press lost its pointerup), and an element whose markup has not
//   changed is never replaced (`replaceIfChanged`, `morph`);
// - a pressed button stays pressed: its markup says so (aria-pressed), and an unchanged
//   screen keeps its elements, with their focus, typed text and scroll.
// Why not a rendering library: docs/client.md.

export const TAP_SETTLE_MS = 350; // a touch's click follows its pointerup by up to ~300 ms
export const HOLD_MAX_MS = 5000; // a finger down longer: its pointerup was lost; draw anyway

// `draw` made safe for taps: the function returned draws now, or, while a tap is under way
// on `target` (the page), once it has landed. Listens from the capture phase, so a screen's
// own handlers cannot hide a finger from it.
export function tapSafe(draw, target = document) {
  const pointer = { down: false, since: 0, clickDue: 0 }; // clickDue: a lifted finger's click may come until then
  let waiting = false;
  const underway = () => (pointer.down && Date.now() - pointer.since < HOLD_MAX_MS) || Date.now() < pointer.clickDue;
  const flush = () => {
    if (!waiting || underway()) return; // the tap's click (or its timer) flushes it
    waiting = false;
    draw();
  };
  target.addEventListener("pointerdown", () => { pointer.down = true; pointer.since = Date.now(); }, true);
  const up = (clickComing) => () => {
    Object.assign(pointer, { down: false, clickDue: clickComing ? Date.now() + TAP_SETTLE_MS : 0 });
    setTimeout(flush, clickComing ? TAP_SETTLE_MS : 0);
  };
  target.addEventListener("pointerup", up(true), true);
  target.addEventListener("pointercancel", up(false), true);
  target.addEventListener("click", () => { pointer.clickDue = 0; setTimeout(flush, 0); }); // after the tap's own handler
  return () => {
    if (!underway()) { draw(); return; }
    waiting = true;
    setTimeout(flush, HOLD_MAX_MS);
  };
}

// Puts `nodes` in `el` unless `el` already shows exactly the same markup: then the elements
// on screen stay (with what is typed, focused, scrolled or under a finger). `force` replaces
// them anyway (a new step: their handlers belong to the old step's choices).
export function replaceIfChanged(el, nodes, { force = false } = {}) {
  const shown = nodes.filter(Boolean);
  if (!force && el.innerHTML === shown.map(markup).join("")) return false;
  el.replaceChildren(...shown);
  return true;
}

// Makes `el`'s children look like `nodes`, replacing only what differs: an element whose
// markup is unchanged stays (with a finger on it, or an animation under way), and one that
// differs only inside keeps itself and has its children made alike in turn. For what is
// redrawn often and tapped (the strip: its countdown changes every second, and a tap on a
// tracker beside it must land).
export function morph(el, nodes) {
  const wanted = nodes.filter(Boolean);
  const shown = [...el.childNodes];
  if (shown.length !== wanted.length) {
    el.replaceChildren(...wanted);
    return;
  }
  wanted.forEach((node, i) => {
    const old = shown[i];
    if (markup(old) === markup(node)) return;
    if (old.nodeType === Node.ELEMENT_NODE && node.nodeType === Node.ELEMENT_NODE && sameOpeningTag(old, node)) {
      morph(old, [...node.childNodes]);
    } else old.replaceWith(node);
  });
}

const markup = (node) => node.outerHTML ?? node.textContent;

function sameOpeningTag(a, b) {
  return a.tagName === b.tagName && a.attributes.length === b.attributes.length
    && [...a.attributes].every((attr) => b.getAttribute(attr.name) === attr.value);
}
