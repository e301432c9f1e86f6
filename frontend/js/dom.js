// h("button", {onclick, class, "aria-pressed": "true"}, "text", child…): a tiny DOM builder.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "value") el.value = value;
    // Through their default (the attribute): the markup shows them (js/redraw.js compares it).
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
