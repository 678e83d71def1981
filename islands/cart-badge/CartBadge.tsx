import { useEffect, useState } from "react";

export interface CartBadgeProps {
  /** Items in the cart, as rendered by the server. */
  count: number;
  /** What the items are in, for the screen-reader text (", 3 items in cart"). Default "cart". */
  label?: string;
}

/** Detail of the `cart:changed` CustomEvent dispatched on `document`. */
export interface CartChangedDetail {
  count: number;
}

const isCount = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0;

/**
 * The header cart badge. Renders exactly what templ's CartBadge (views/layout/base.templ)
 * renders inside <span data-island="cart-badge" class="cart-badge-slot"> -- including the
 * single space templ emits between the two inner spans -- so nothing changes when React
 * takes over. Then it follows `cart:changed` events:
 *
 *   document.dispatchEvent(new CustomEvent("cart:changed", { detail: { count: 4 } }))
 */
export default function CartBadge({ count: initialCount, label = "cart" }: CartBadgeProps) {
  const [count, setCount] = useState(() => (isCount(initialCount) ? initialCount : 0));

  useEffect(() => {
    const onCartChanged = (event: Event) => {
      const detail: unknown = (event as CustomEvent<unknown>).detail;
      const next = detail !== null && typeof detail === "object" ? (detail as { count?: unknown }).count : undefined;
      if (isCount(next)) setCount(next);
    };
    document.addEventListener("cart:changed", onCartChanged);
    // A change announced before this badge was listening (entry.ts keeps the latest count).
    const latest = Number(document.documentElement.dataset.cartCount ?? NaN);
    if (isCount(latest)) setCount(latest);
    return () => document.removeEventListener("cart:changed", onCartChanged);
  }, []);

  if (count === 0) return null;

  return (
    <span className="badge" data-testid="cart-badge">
      <span aria-hidden="true">{count > 99 ? "99+" : String(count)}</span>{" "}
      <span className="sr-only">{`, ${count} ${count === 1 ? "item" : "items"} in ${label}`}</span>
    </span>
  );
}
