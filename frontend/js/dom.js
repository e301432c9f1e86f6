// h("button", {onclick, class, "aria-pressed": "true"}, "text", child…): a tiny DOM builder.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "value") el.value = value;
    // Through their default (the attribute): the markup shows them (see replaceIfChanged).
    else if (key === "checked") el.defaultChecked = el.checked = Boolean(value);
    else if (key === "selected") el.defaultSelected = el.selected = Boolean(value);
    else if (key === "disabled") el[key] = Boolean(value);
    // Through the CSSOM: the site's Content-Security-Policy (style-src 'self', no
    // 'unsafe-inline') refuses a style attribute set as markup, not one set here.
    else if (key === "style") el.style.cssText = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
}

// Puts `nodes` in `el` unless `el` already shows exactly the same markup: then the elements
// on screen stay (with what is typed, focused, scrolled or under a finger). `force` replaces
// them anyway (a new step: their handlers belong to the old step's choices).
export function replaceIfChanged(el, nodes, { force = false } = {}) {
  const markup = nodes.filter(Boolean).map((node) => node.outerHTML ?? node.textContent).join("");
  if (!force && el.innerHTML === markup) return false;
  clear(el);
  el.append(...nodes.filter(Boolean));
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
    clear(el);
    el.append(...wanted);
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
