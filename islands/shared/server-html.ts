// Helpers for islands that re-render server HTML they do not own.

/** Parses HTML inertly: a <template> loads no images and runs nothing. */
export function parseHtml(html: string): DocumentFragment {
  const t = document.createElement("template");
  t.innerHTML = html;
  return t.content;
}

/** React prop names of the HTML attributes whose name differs (the rest: aria-*, data-*, id, role… pass as is). */
const reactNames: Record<string, string> = { class: "className", tabindex: "tabIndex", for: "htmlFor" };

/**
 * An element's attributes as React props, so an island re-renders the server's element
 * with the server's attributes (text such as aria-label stays in the templ view).
 * Event-handler and style attributes are dropped.
 */
export function attrsToProps(el: Element): Record<string, string> {
  const props: Record<string, string> = {};
  for (const { name, value } of Array.from(el.attributes)) {
    if (name === "style" || name.startsWith("on")) continue;
    props[reactNames[name] ?? name] = value;
  }
  return props;
}

/**
 * Asks entry.ts to mount the [data-island] elements inside `container` (islands nested in
 * HTML that an island inserted). See README.md, "Islands inside islands".
 */
export function mountNestedIslands(container: Element): void {
  container.dispatchEvent(new CustomEvent("islands:mount", { bubbles: true }));
}
