// The one entry script for every page. It finds each server-rendered [data-island]
// element, loads that island's module on demand and mounts it with createRoot (the
// markup comes from templ, not from React, so there is nothing to hydrate).
//
//   <span data-island="cart-badge" data-props='{"count":3}'>…server markup…</span>
//
// Adding an island = one line in `islands` below + a folder with a default-exported component.

import type { ComponentType } from "react";

type IslandProps = Record<string, unknown>;
type IslandModule = { default: ComponentType<any> };
type IslandLoader = () => Promise<IslandModule>;

const islands = new Map<string, IslandLoader>([
  ["cart-badge", () => import("./cart-badge/CartBadge")],
  // ["featured-carousel", () => import("./featured-carousel/FeaturedCarousel")],
  // ["wishlist-heart", () => import("./wishlist-heart/WishlistHeart")],
  // ["product-grid", () => import("./product-grid/ProductGrid")],
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

async function mount(el: HTMLElement, name: string, load: IslandLoader): Promise<void> {
  const props = readProps(el);
  const [{ default: Island }, { createRoot, createElement }] = await Promise.all([load(), loadRuntime()]);
  // Kept so a render error can fall back to the server markup instead of an empty slot.
  const serverHTML = el.innerHTML;
  const root = createRoot(el, {
    onUncaughtError(error) {
      console.error(`[islands] "${name}" crashed while rendering; restoring server markup`, error, el);
      setTimeout(() => {
        root.unmount();
        el.innerHTML = serverHTML;
      });
    },
  });
  root.render(createElement(Island, props));
}

function mountAll(): void {
  document.querySelectorAll<HTMLElement>("[data-island]").forEach((el) => {
    if (el.dataset.islandMounted) return;
    el.dataset.islandMounted = "1";
    const name = el.dataset.island ?? "";
    const load = islands.get(name);
    if (!load) {
      console.warn(`[islands] unknown island "${name}" ignored`, el);
      return;
    }
    // Each island mounts on its own; a failure is logged and never stops the others.
    mount(el, name, load).catch((error: unknown) => {
      console.error(`[islands] failed to mount "${name}"`, error, el);
    });
  });
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", mountAll, { once: true });
} else {
  mountAll();
}
