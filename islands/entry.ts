// The one entry script for every page. It finds each server-rendered [data-island]
// element, loads that island's module on demand and mounts it with createRoot (the
// markup comes from templ, not from React, so there is nothing to hydrate).
//
//   <span data-island="cart-badge" data-props='{"count":3}'>…server markup…</span>
//
// Adding an island = one line in `islands` below + a folder with a default-exported component.
//
// Each island gets its data-props plus `serverHtml` (the element's innerHTML before React
// took over) and `mountEl` (the element); see shared/types.ts. Islands nested inside
// another island's markup are left to that island: once it has rendered the HTML they
// live in, it dispatches a bubbling `islands:mount` event on the container, and the
// listener below mounts the islands inside it (README.md, "Islands inside islands").

import type { ComponentType } from "react";

type IslandProps = Record<string, unknown>;
type IslandModule = { default: ComponentType<any> };
type IslandLoader = () => Promise<IslandModule>;
type Container = Element | Document | DocumentFragment;

const islands = new Map<string, IslandLoader>([
  ["cart-badge", () => import("./cart-badge/CartBadge")],
  ["featured-carousel", () => import("./featured-carousel/FeaturedCarousel")],
  ["wishlist-heart", () => import("./wishlist-heart/WishlistHeart")],
  ["product-grid", () => import("./product-grid/ProductGrid")],
]);

let runtime: Promise<typeof import("./runtime")> | undefined;
const loadRuntime = () => (runtime ??= import("./runtime"));

function readProps(el: HTMLElement): IslandProps {
  const raw = el.dataset.props;
  if (raw === undefined || raw.trim() === "") return {};
  const props: unknown = JSON.parse(raw);
  if (props === null || typeof props !== "object" || Array.isArray(props)) {
    throw new TypeError(`data-props must be a JSON object, got: ${raw}`);
  }
  return props as IslandProps;
}

/**
 * Mounts one island. `serverHtml` was read when the element was found, before anything
 * (this island or one nested in it) changed it.
 */
async function mount(el: HTMLElement, name: string, load: IslandLoader, serverHtml: string): Promise<void> {
  const props = readProps(el);
  const [{ default: Island }, { createRoot, createElement }] = await Promise.all([load(), loadRuntime()]);
  const root = createRoot(el, {
    onUncaughtError(error) {
      console.error(`[islands] "${name}" crashed while rendering; restoring server markup`, error, el);
      setTimeout(() => {
        root.unmount();
        el.innerHTML = serverHtml;
        mountIslands(el); // the islands nested in the restored markup still work on their own
      });
    },
  });
  root.render(createElement(Island, { ...props, serverHtml, mountEl: el }));
}

/**
 * Mounts every not-yet-mounted [data-island] element inside `container` (not the container
 * itself). An element inside another island that is also inside `container` is skipped: the
 * outer island renders its HTML first and then asks for it with `islands:mount`.
 */
function mountIslands(container: Container): void {
  container.querySelectorAll<HTMLElement>("[data-island]").forEach((el) => {
    if (el.dataset.islandMounted) return;
    const outer = el.parentElement?.closest("[data-island]");
    if (outer && outer !== container && container.contains(outer)) return;
    const serverHtml = el.innerHTML;
    el.dataset.islandMounted = "1";
    const name = el.dataset.island ?? "";
    const load = islands.get(name);
    if (!load) {
      console.warn(`[islands] unknown island "${name}" ignored`, el);
      mountIslands(el);
      return;
    }
    // Each island mounts on its own; a failure is logged and never stops the others.
    mount(el, name, load, serverHtml).catch((error: unknown) => {
      console.error(`[islands] failed to mount "${name}"`, error, el);
      mountIslands(el); // the server markup is still there, with its nested islands
    });
  });
}

// Add to Cart without a reload and Place Order's "Processing...": not islands, plain DOM code
// in enhance/forms.ts, loaded only when the page (or HTML inserted later) has such a form.
// (The same selectors are in enhance/forms.ts.)
const CART_FORMS = 'form.add-to-cart[action$="/cart/items"]';
let formsReady = false;
const loadForms = () =>
  import("./enhance/forms").then(() => {
    formsReady = true;
  });

function start(container: Container): void {
  mountIslands(container);
  hideChangeButtons(container);
  if (container.querySelector(`${CART_FORMS}, form[data-place-order]`)) {
    loadForms().catch((error: unknown) => console.error("[islands] failed to load enhance/forms", error));
  }
}

// Add to Cart pressed before enhance/forms.ts is there: wait for it, then submit again
// (now handled there); if it cannot load, post the form as usual.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (formsReady || event.defaultPrevented || !(form instanceof HTMLFormElement) || !form.matches(CART_FORMS)) return;
  event.preventDefault();
  const submitter = event.submitter;
  loadForms().then(
    () => form.requestSubmit(submitter),
    () => form.submit(),
  );
});

document.addEventListener("islands:mount", (event) => {
  const target = event.target;
  if (target instanceof Element || target instanceof Document || target instanceof DocumentFragment) {
    start(target);
  }
});

// Forms apply on change: a <form data-autosubmit> submits itself when one of its selects
// changes. Typed fields (the price range) never do: leaving Min for Max must not send the
// form and lose what is typed in Max; Enter or Apply sends them. Without JavaScript the
// submit button does it all.
document.addEventListener("change", (event) => {
  const field = event.target;
  const form = field instanceof HTMLSelectElement ? field.form : null;
  if (!form?.hasAttribute("data-autosubmit")) return;
  if (typeof form.requestSubmit === "function") form.requestSubmit(); // validates, fires submit
  else form.submit();
});

/**
 * A data-autosubmit form whose only fields are selects (a cart line's quantity, the orders'
 * status) applies every change by itself, so its submit button (Update, Filter) only
 * distracts: hide it. Forms with typed fields keep theirs.
 */
function hideChangeButtons(container: Container): void {
  container.querySelectorAll<HTMLFormElement>("form[data-autosubmit]").forEach((form) => {
    const fields = Array.from(form.elements).filter(
      (el) =>
        el instanceof HTMLSelectElement ||
        el instanceof HTMLTextAreaElement ||
        (el instanceof HTMLInputElement && el.type !== "hidden"),
    );
    if (fields.length === 0 || !fields.every((el) => el instanceof HTMLSelectElement)) return;
    form.querySelectorAll<HTMLButtonElement>('button[type="submit"], button:not([type])').forEach((b) => (b.hidden = true));
  });
}

// The cart badge island may mount after the cart has changed (its code was still loading
// when Add to Cart answered): keep the latest count where the badge reads it when it mounts.
document.addEventListener("cart:changed", (event) => {
  const count = (event as CustomEvent<{ count?: unknown } | null>).detail?.count;
  if (typeof count === "number" && Number.isInteger(count) && count >= 0) {
    document.documentElement.dataset.cartCount = String(count);
  }
});

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => start(document), { once: true });
} else {
  start(document);
}
