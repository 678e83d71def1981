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

/**
 * Islands that keep the server's markup and add to it: React renders into an element
 * appended to theirs, so the server's elements stay as they were painted. The product grid
 * is one: re-created, its cards' images would paint again, and the largest would count as
 * a late Largest Contentful Paint.
 */
const adopting = (name: string) => name === "product-grid";

let runtime: Promise<typeof import("./runtime")> | undefined;
const loadRuntime = () => (runtime ??= import("./runtime"));

/** The island's props: the element's data-props, a JSON object the server wrote (templ.JSONString). */
function readProps(el: HTMLElement): IslandProps {
  const raw = el.dataset.props;
  return raw ? (JSON.parse(raw) as IslandProps) : {};
}

/**
 * Mounts one island. `serverHtml` was read when the element was found, before anything
 * (this island or one nested in it) changed it.
 */
async function mount(el: HTMLElement, name: string, load: IslandLoader, serverHtml: string): Promise<void> {
  const props = readProps(el);
  const [{ default: Island }, { createRoot, createElement, useEffect }] = await Promise.all([load(), loadRuntime()]);
  let committed!: () => void;
  const done = new Promise<void>((resolve) => (committed = resolve));
  // Resolves once React has committed the island (its handlers are attached), or it crashed.
  const Committed = ({ children }: { children: ReturnType<typeof createElement> }) => {
    useEffect(committed, []);
    return children;
  };
  const target = adopting(name) ? el.appendChild(document.createElement("div")) : el;
  const root = createRoot(target, {
    onUncaughtError(error) {
      console.error(`[islands] ${name} crashed; server markup restored`, error, el);
      committed();
      setTimeout(() => {
        root.unmount();
        el.innerHTML = serverHtml; // (for an adopting island: its element and any change it made go too)
        mountIslands(el); // the islands nested in the restored markup still work on their own
      });
    },
  });
  root.render(createElement(Committed, null, createElement(Island, { ...props, serverHtml, mountEl: el })));
  return done;
}

/**
 * Mounts every not-yet-mounted [data-island] element inside `container` (not the container
 * itself). An element inside another island that is also inside `container` is skipped: the
 * outer island renders its HTML first and then asks for it with `islands:mount`.
 */
function mountIslands(container: Container): Promise<void>[] {
  const mounted: Promise<void>[] = [];
  container.querySelectorAll<HTMLElement>("[data-island]").forEach((el) => {
    if (el.dataset.islandMounted) return;
    const outer = el.parentElement?.closest("[data-island]");
    if (outer && outer !== container && container.contains(outer)) return;
    const serverHtml = el.innerHTML;
    el.dataset.islandMounted = "1";
    const name = el.dataset.island ?? "";
    const load = islands.get(name);
    if (!load) {
      console.warn(`[islands] unknown island ${name}`, el);
      mountIslands(el);
      return;
    }
    // Each island mounts on its own; a failure is logged and never stops the others.
    mounted.push(
      mount(el, name, load, serverHtml).catch((error: unknown) => {
        console.error(`[islands] ${name} failed to mount`, error, el);
        mountIslands(el); // the server markup is still there, with its nested islands
      }),
    );
  });
  return mounted;
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

/**
 * Loads the plain DOM enhancements the container's forms need (small modules without React,
 * so they need not wait for the first paint: a select changed right after the page appears
 * applies at once).
 */
function enhanceForms(container: Container): Promise<unknown>[] {
  const pending: Promise<unknown>[] = [];
  const enhance = (selector: string, load: () => Promise<unknown>) => {
    if (container.querySelector(selector)) pending.push(load().catch((error: unknown) => console.error("[islands]", error)));
  };
  enhance(`${CART_FORMS}, form[data-place-order]`, loadForms);
  enhance("form[data-autosubmit]", () => import("./enhance/autosubmit"));
  return pending;
}

/** Mounts the islands in HTML inserted later, and enhances its forms. */
function start(container: Container): void {
  mountIslands(container);
  enhanceForms(container);
}

/**
 * Enhances the page's forms at once and starts its islands after the first paint, then marks
 * <html data-islands="ready"> once each island has mounted (or failed to) and the form
 * modules are there. Until then the server's forms do the work, so a shopper who is quicker
 * than the scripts loses nothing; the marker tells tests (and anyone curious) that the page
 * is now enhanced.
 */
function startPage(): void {
  const forms = enhanceForms(document);
  afterFirstPaint(() =>
    Promise.allSettled([...mountIslands(document), ...forms]).then(() => {
      document.documentElement.dataset.islands = "ready";
    }),
  );
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

// The cart badge island may mount after the cart has changed (its code was still loading
// when Add to Cart answered): keep the latest count where the badge reads it when it mounts
// (the badge checks that it is a count).
document.addEventListener("cart:changed", (event) => {
  document.documentElement.dataset.cartCount = String((event as CustomEvent<{ count?: unknown } | null>).detail?.count);
});

/**
 * Runs fn once the page has painted for the first time (a tab opened in the background paints
 * when it is shown; a second after load at the latest). The server's page is complete without the
 * islands, and on a phone's slow CPU, evaluating React before that paint held the first paint
 * back (Lighthouse's mobile FCP). A paint observer, not a timer: tests that pause the page's
 * clock still get their islands.
 */
function afterFirstPaint(fn: () => void): void {
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    fn();
  };
  if (performance.getEntriesByType("paint").length > 0) return go();
  // Browsers without paint entries (Safari before 14.1) ignore this observer; the fallback
  // below starts them. A safety net, not the way in: a small page can finish loading before
  // its first paint.
  new PerformanceObserver(go).observe({ type: "paint" });
  window.addEventListener("load", () => setTimeout(go, 1000), { once: true });
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", startPage, { once: true });
} else {
  startPage();
}
