// @ts-check
// Building DOM without a framework: h("button", {class: "card", onclick}, "G7").
// Boards get this as ctx.h, so they never import from the shell's URL.

/**
 * What h takes as props: any key, as the comment on h says how each is read;
 * the listeners a page uses are typed, with the element as `currentTarget`.
 * @template {Element} [E=HTMLElement]
 * @typedef {{
 *   [key: string]: any,
 *   onclick?: ((event: MouseEvent & {currentTarget: E}) => unknown) | null,
 *   onkeydown?: ((event: KeyboardEvent & {currentTarget: E}) => unknown) | null,
 *   onchange?: ((event: Event & {currentTarget: E}) => unknown) | null,
 *   onsubmit?: ((event: SubmitEvent & {currentTarget: E}) => unknown) | null,
 * }} Props
 */
/**
 * What h takes as children (false and undefined are left out, like null).
 * @typedef {Node | string | number | boolean | null | undefined | Child[]} Child
 */

/**
 * Create an element. Props: "class", "text", "dataset" (object; null/undefined/false entries are left
 * out), "style" (object),
 * "on<event>" (listener), booleans (true = present attribute, false/null = absent),
 * anything else as an attribute. Children: nodes, strings, numbers, arrays, null.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props<HTMLElementTagNameMap[K]> | null} [props]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = String(value);
    else if (key === "dataset") {
      for (const [name, data] of Object.entries(value)) {
        if (data !== null && data !== undefined && data !== false) el.dataset[name] = String(data);
      }
    }
    else if (key === "style" && typeof value === "object") {
      for (const [name, css] of Object.entries(value)) el.style.setProperty(name, css);
    }
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/**
 * @param {HTMLElement} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.append(child);
    else el.append(document.createTextNode(String(child)));
  }
}

/**
 * Say something to screen readers through the page's live region.
 * @param {string} text
 */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  region.textContent = "";
  // A fresh text node after clearing makes repeated identical messages heard again.
  requestAnimationFrame(() => { region.textContent = text; });
}

/**
 * A page's own stylesheet, linked once when the page is first drawn rather
 * than on every page (index.html links only what every page uses); resolves
 * when it has loaded, so the page is never drawn unstyled.
 * @param {string} href
 * @returns {Promise<void>}
 */
export function useStylesheet(href) {
  const linked = document.querySelector(`link[rel="stylesheet"][href="${href}"]`);
  if (linked) return Promise.resolve();
  return new Promise((resolve) => {
    const link = h("link", { rel: "stylesheet", href });
    link.addEventListener("load", () => resolve(), { once: true });
    link.addEventListener("error", () => resolve(), { once: true }); // the page still works unstyled
    document.head.append(link);
  });
}
