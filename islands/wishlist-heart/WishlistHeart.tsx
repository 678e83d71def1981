import { useEffect, useRef, useState, type MouseEvent } from "react";
import { localPath, postForm } from "../shared/post-form";
import { attrsToProps, parseHtml } from "../shared/server-html";
import type { IslandContext } from "../shared/types";

export interface WishlistHeartProps extends IslandContext {
  /** The product's id, e.g. "nb-001". */
  productId: string;
  /** The product's title, for the screen-reader text ("Add … to wishlist"). */
  title: string;
  /** Whether the product is on the shopper's wishlist, as rendered by the server. */
  on: boolean;
}

/** Detail of the `wishlist:changed` CustomEvent dispatched on `document`. */
export interface WishlistChangedDetail {
  productId: string;
  on: boolean;
}

/** How long an error stays in the button's title and the live region. */
const ERROR_MS = 5000;
const NETWORK_ERROR = "Could not update your wishlist. Please try again.";

/** The server's hidden inputs, button attributes and icon, re-rendered as they are. */
function readServer(serverHtml: string) {
  const html = parseHtml(serverHtml);
  const button = html.querySelector("button");
  const svg = button?.querySelector("svg");
  const { className = "heart", ...buttonProps } = button
    ? attrsToProps(button)
    : ({ type: "submit", "data-testid": "wishlist-heart" } as Record<string, string>);
  return {
    inputs: Array.from(html.querySelectorAll("input"), attrsToProps),
    button: buttonProps,
    // Every class of the server's button except the state class.
    classes: className.split(/\s+/).filter((c) => c && c !== "heart-on").join(" "),
    svg: svg && { props: attrsToProps(svg), html: { __html: svg.innerHTML } },
  };
}

/**
 * The heart toggle of templ's WishlistHeart (views/components/product.templ). The island is
 * mounted on the <form class="heart-form"> itself and renders its children: the server's
 * hidden inputs (return_to), the button and its icon. A click flips the heart at once
 * (class `heart-on`, aria-pressed, the screen-reader text), POSTs the form with fetch and
 * then follows the server's answer: `on` on success; on an error it flips back and shows the
 * server's message for a few seconds (button title + a polite live region); a visitor or
 * guest (401) is sent to the sign-in page. Clicks while a request is in flight are ignored.
 * Hearts of the same product elsewhere on the page (carousel, grid, product page) stay in
 * sync through `wishlist:changed` events on `document`.
 */
export default function WishlistHeart({ productId, title, on: initialOn, serverHtml, mountEl }: WishlistHeartProps) {
  const [server] = useState(() => readServer(serverHtml));
  const [on, setOn] = useState(initialOn === true);
  const [error, setError] = useState("");
  const busy = useRef(false);

  const show = (next: boolean) => {
    setOn(next);
    const detail: WishlistChangedDetail = { productId, on: next };
    document.dispatchEvent(new CustomEvent("wishlist:changed", { detail }));
  };

  const toggle = async (event: MouseEvent<HTMLButtonElement>) => {
    const form = mountEl.closest("form");
    if (!form) return; // not mounted on the form: let the button do what it does
    event.preventDefault();
    if (busy.current) return;
    busy.current = true;
    const was = on;
    show(!was);
    setError("");
    try {
      const { status, data } = await postForm(form);
      if (status === 200 && typeof data?.on === "boolean") {
        show(data.on);
        return;
      }
      show(was);
      const login = localPath(data?.login);
      if (status === 401 && login) {
        location.assign(login);
        return;
      }
      setError(typeof data?.error === "string" && data.error ? data.error : NETWORK_ERROR);
    } catch {
      show(was);
      setError(NETWORK_ERROR);
    } finally {
      busy.current = false;
    }
  };

  // Follow the same product's other hearts (and this one's own events, a no-op).
  useEffect(() => {
    const onChanged = (event: Event) => {
      const d = (event as CustomEvent<Partial<WishlistChangedDetail> | null>).detail;
      if (d?.productId === productId && typeof d.on === "boolean") setOn(d.on);
    };
    document.addEventListener("wishlist:changed", onChanged);
    return () => document.removeEventListener("wishlist:changed", onChanged);
  }, [productId]);

  useEffect(() => {
    if (!error) return;
    const t = setTimeout(() => setError(""), ERROR_MS);
    return () => clearTimeout(t);
  }, [error]);

  return (
    <>
      {server.inputs.map((props, i) => (
        <input key={props.name ?? i} {...props} />
      ))}
      <button
        {...server.button}
        className={on ? `${server.classes} heart-on` : server.classes}
        aria-pressed={on}
        title={error || undefined}
        onClick={toggle}
      >
        {server.svg && <svg {...server.svg.props} dangerouslySetInnerHTML={server.svg.html} />}
        <span className="sr-only">{on ? `Remove ${title} from wishlist` : `Add ${title} to wishlist`}</span>
      </button>
      <span className="sr-only" aria-live="polite" data-testid="wishlist-status">
        {error}
      </span>
    </>
  );
}
