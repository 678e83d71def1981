import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { attrsToProps, mountNestedIslands } from "../shared/server-html";
import type { IslandContext } from "../shared/types";

export interface ProductGridProps extends IslandContext {
  /** The page the server rendered. */
  page?: number;
  /** Whether there is a page after it. */
  hasMore?: boolean;
  /** JSON API of the next page, e.g. "/api/products?page=2&category=…". */
  nextApi?: string;
  /** The listing's page path ("/products" or "/search"), for the fallback "Next" link. */
  basePath?: string;
  /** JSON API of the listing without a page ("/api/products?category=…"): any page of it. */
  pageApi?: string;
}

/**
 * What the grid keeps in its history entry (history.state.grid), so Back to a scrolled grid
 * (or a reload) shows the same cards at the same place: the pages shown and the scroll.
 */
interface GridState {
  first: number;
  last: number;
  scrollY: number;
}

function readGridState(): GridState | null {
  const g = (history.state as { grid?: Partial<GridState> } | null)?.grid;
  if (!g || typeof g.first !== "number" || typeof g.last !== "number" || typeof g.scrollY !== "number") return null;
  return g as GridState;
}

/** Address of page n of a listing (API or page), from any address of it. */
function withPage(url: string, n: number): string {
  const u = new URL(url, location.href);
  if (n > 1) u.searchParams.set("page", String(n));
  else u.searchParams.delete("page");
  return u.pathname + u.search;
}

/** GET nextApi → one more page of cards, rendered by the server (components.ProductCards). */
export interface PageResponse {
  html: string;
  count: number;
  page: number;
  hasMore: boolean;
  pageUrl: string;
  nextApi: string;
}

/** How far below the viewport the last card may be when the next page starts loading. */
const ROOT_MARGIN = "200px 0px";

function sameOrigin(url: string): boolean {
  try {
    return new URL(url, location.href).origin === location.origin;
  } catch {
    return false;
  }
}

function readPage(json: unknown): PageResponse {
  const d = (json ?? {}) as Record<string, unknown>;
  if (
    typeof d.html !== "string" ||
    typeof d.count !== "number" ||
    typeof d.page !== "number" ||
    typeof d.hasMore !== "boolean" ||
    typeof d.pageUrl !== "string" ||
    typeof d.nextApi !== "string"
  ) {
    throw new TypeError("product-grid: unexpected response from the products API");
  }
  return d as unknown as PageResponse;
}

/**
 * The server's <ul class="grid">, its <nav class="pagination"> and "Show previous" (if any),
 * read from the page itself: the island leaves them where they are (entry.ts mounts it in an
 * element of its own after them), so the cards and their images are never re-created. Cards
 * made anew would paint again, and the largest of them would count as a late LCP.
 */
function readServer(mountEl: HTMLElement) {
  const ul = mountEl.querySelector<HTMLUListElement>(":scope > ul.grid");
  if (!ul) throw new Error("product-grid: no ul.grid in the server markup");
  const nav = mountEl.querySelector<HTMLElement>(":scope > nav.pagination");
  const prevBox = mountEl.querySelector<HTMLElement>(":scope > p.show-previous");
  const prev = prevBox?.querySelector<HTMLAnchorElement>("a[data-testid=show-previous]") ?? null;
  return {
    ul,
    cards: ul.children.length,
    navEl: nav,
    nav: nav && { props: attrsToProps(nav), html: { __html: nav.innerHTML } },
    prevBox,
    prev,
    prevHref: prev?.getAttribute("href") ?? "",
  };
}

const products = (n: number) => (n === 1 ? "1 product" : `${n} products`);

/**
 * Infinite scroll over templ's ProductGrid (views/pages/catalog.templ). The server's
 * <div class="grid-wrap"> keeps its <ul class="grid"> and cards; React renders after them a
 * polite status line, a sentinel while more can load, and the end / error messages. When
 * the last card comes near the viewport it fetches the next page's cards (server HTML) and
 * appends them to the same <ul>; the cards are never re-rendered, so their forms, focus and
 * nested islands stay as they are. The URL follows the last page loaded (replaceState), so
 * a reload lands on a real page. The server's pagination is shown only when the island cannot
 * load more on its own (no IntersectionObserver, last page) or after a failed load.
 * The mount element gets data-page="N": the last page loaded.
 */
export default function ProductGrid({ page: firstPage, hasMore, nextApi, basePath, pageApi, mountEl }: ProductGridProps) {
  const [server] = useState(() => readServer(mountEl));
  const [initialPage] = useState(() => (typeof firstPage === "number" && firstPage > 0 ? firstPage : 1));
  // A page before the last is full, so the first page's size is the page size.
  const pageSize = Math.max(1, server.cards);
  const canScroll =
    hasMore === true && typeof nextApi === "string" && sameOrigin(nextApi) && typeof IntersectionObserver === "function";

  const [page, setPage] = useState(initialPage);
  // The first page shown: earlier pages load above the grid (Show previous, Back).
  const [first, setFirst] = useState(initialPage);
  const [loadingPrev, setLoadingPrev] = useState(false);
  const canPrev = typeof pageApi === "string" && sameOrigin(pageApi) && server.prevHref !== "";
  const shown = useRef({ first: initialPage, last: initialPage });
  const [more, setMore] = useState(canScroll);
  const [loads, setLoads] = useState(0); // successful loads
  const [loading, setLoading] = useState(false);
  const [failures, setFailures] = useState(0); // consecutive failed loads; > 0 shows the error
  const [status, setStatus] = useState("");

  const gridRef = useRef<HTMLUListElement>(server.ul);
  const sentinelRef = useRef<HTMLDivElement>(null);
  const retryRef = useRef<HTMLButtonElement>(null);
  const next = useRef(canScroll ? (nextApi as string) : "");
  const busy = useRef(false);
  const failCount = useRef(0);
  const abort = useRef<AbortController>(undefined);

  const load = async (): Promise<void> => {
    const url = next.current;
    const ul = gridRef.current;
    if (busy.current || !url || !ul) return; // never two requests at once
    busy.current = true;
    setLoading(true);
    const signal = (abort.current ??= new AbortController()).signal;
    try {
      const res = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", signal });
      if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
      const data = readPage(await res.json());
      const before = ul.children.length;
      const retrying = document.activeElement !== null && document.activeElement === retryRef.current;
      ul.insertAdjacentHTML("beforeend", data.html);
      const added = ul.children.length - before;
      mountNestedIslands(ul);
      // The Try Again button is about to go: move its focus to the first new card.
      if (retrying) ul.children[before]?.querySelector<HTMLElement>("a[href]")?.focus();
      shown.current.last = data.page;
      if (sameOrigin(data.pageUrl)) saveState(data.pageUrl);
      const done = !data.hasMore || data.count < pageSize || !sameOrigin(data.nextApi);
      next.current = done ? "" : data.nextApi;
      setPage(data.page);
      setMore(!done);
      failCount.current = 0;
      setFailures(0);
      setLoads((n) => n + 1);
      setStatus(
        `Loaded ${added} more ${added === 1 ? "product" : "products"}. Showing ${products(ul.children.length)}.` +
          (done ? " You've reached the end." : ""),
      );
    } catch (error) {
      if (signal.aborted) return;
      console.warn("[product-grid] could not load more products", error);
      const n = ++failCount.current;
      setFailures(n);
      // The alert is read once, when it appears; a failed retry is said in the status line
      // (alternating, so that a repeat is a change and is read too).
      if (n > 1) setStatus(n % 2 ? "Failed to load products again." : "Still failed to load products.");
    } finally {
      busy.current = false;
      if (!signal.aborted) setLoading(false);
    }
  };

  /** Keeps the pages shown and the scroll position in this history entry (see GridState). */
  const saveState = (url = location.href) => {
    const grid: GridState = { ...shown.current, scrollY: Math.round(window.scrollY) };
    const state = history.state && typeof history.state === "object" ? history.state : {};
    history.replaceState({ ...state, grid }, "", url);
  };

  // The numbered pagination gives way to scrolling (a failed load shows it again, in the
  // error box); without scrolling it stays as the server made it.
  useLayoutEffect(() => {
    if (canScroll) server.navEl?.remove();
  }, []);

  // "Show previous" is the server's link (before the effect below that puts the view back,
  // since removing it moves the cards), kept up to date: it loads the page above the
  // first one shown, in place; without the API it works as a link.
  const prevHref = first > 1 && server.prevHref ? withPage(server.prevHref, first - 1) : "";
  useLayoutEffect(() => {
    const { prevBox, prev } = server;
    if (!prevBox || !prev) return;
    if (!prevHref) {
      prevBox.remove();
      return;
    }
    prev.href = prevHref;
    prev.textContent = loadingPrev ? "Loading…" : "Show previous";
    if (loadingPrev) prev.setAttribute("aria-disabled", "true");
    else prev.removeAttribute("aria-disabled");
  }, [prevHref, loadingPrev]);
  useEffect(() => {
    const prev = server.prev;
    if (!prev || !canPrev) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      const before = shown.current.first - 1;
      if (before < 1 || busy.current) return;
      const href = prev.href;
      void prepend(before, before).then((ok) => {
        if (!ok) location.assign(href);
      });
    };
    prev.addEventListener("click", onClick);
    return () => prev.removeEventListener("click", onClick);
    // prepend reads refs and setters only.
  }, []);

  // After earlier pages went in above (and Show previous changed): put the view back,
  // at the saved scroll position (Back) or with the old first card where it was.
  const keep = useRef<{ el: Element; top: number } | null>(null);
  const restoreY = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (restoreY.current !== null) {
      window.scrollTo(0, restoreY.current);
    } else if (keep.current) {
      window.scrollBy(0, keep.current.el.getBoundingClientRect().top - keep.current.top);
    } else {
      return;
    }
    restoreY.current = null;
    keep.current = null;
    saveState();
  }, [first]);

  /** Fetches page n's cards (server HTML). */
  const fetchPage = async (n: number, signal: AbortSignal): Promise<PageResponse> => {
    const url = withPage(pageApi as string, n);
    const res = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", signal });
    if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
    return readPage(await res.json());
  };

  /**
   * Puts pages from..to (to < first shown) above the cards, keeping the cards on screen
   * where they are; returns false when a page could not load.
   */
  const prepend = async (from: number, to: number): Promise<boolean> => {
    const ul = gridRef.current;
    if (!ul || busy.current) return false;
    busy.current = true;
    setLoadingPrev(true);
    const signal = (abort.current ??= new AbortController()).signal;
    try {
      const pages: PageResponse[] = [];
      for (let n = from; n <= to; n++) pages.push(await fetchPage(n, signal));
      const anchor = ul.firstElementChild;
      if (anchor) keep.current = { el: anchor, top: anchor.getBoundingClientRect().top };
      const before = ul.children.length;
      ul.insertAdjacentHTML("afterbegin", pages.map((p) => p.html).join(""));
      const added = ul.children.length - before;
      mountNestedIslands(ul);
      shown.current.first = from;
      setFirst(from);
      setStatus(`Loaded ${added} earlier ${added === 1 ? "product" : "products"}. Showing ${products(ul.children.length)}.`);
      return true;
    } catch (error) {
      if (!signal.aborted) console.warn("[product-grid] could not load earlier products", error);
      return false;
    } finally {
      busy.current = false;
      if (!signal.aborted) setLoadingPrev(false);
    }
  };

  // Back (or a reload) to a grid that had loaded more pages: load the pages that were
  // above, then scroll to where the shopper was.
  useEffect(() => {
    const saved = readGridState();
    const restore = canPrev && saved && saved.last === initialPage && saved.first >= 1 && saved.first < initialPage;
    if (!restore) {
      saveState();
      return;
    }
    history.scrollRestoration = "manual";
    restoreY.current = saved.scrollY;
    void prepend(saved.first, initialPage - 1).then((ok) => {
      if (!ok) restoreY.current = null;
    });
    // Once, on mount: the saved state belongs to this history entry.
  }, []);

  // The scroll position follows the shopper, a little after scrolling stops. Not on
  // pagehide: a replaceState while Back is leaving the page can stall that navigation
  // in Chromium (Back then does nothing).
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onScroll = () => {
      clearTimeout(timer);
      timer = setTimeout(() => saveState(), 150);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      clearTimeout(timer);
      window.removeEventListener("scroll", onScroll);
    };
  }, []);

  useEffect(() => () => abort.current?.abort(), []);

  useLayoutEffect(() => {
    mountEl.dataset.page = String(page);
  }, [mountEl, page]);
  useLayoutEffect(() => () => mountEl.removeAttribute("data-page"), [mountEl]);

  // The islands nested in the server's cards (wishlist hearts).
  useEffect(() => {
    if (gridRef.current) mountNestedIslands(gridRef.current);
  }, []);

  // Watch the last card (and the sentinel after the grid); re-armed after every load, so a
  // last card that is still in view loads the next page straight away.
  const failed = failures > 0;
  useEffect(() => {
    if (!more || failed) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) void load();
      },
      { rootMargin: ROOT_MARGIN },
    );
    const last = gridRef.current?.lastElementChild;
    if (last) io.observe(last);
    if (sentinelRef.current) io.observe(sentinelRef.current);
    return () => io.disconnect();
    // load reads refs and setters only.
  }, [loads, more, failed]);

  /** After a failure: the server's pagination if nothing was appended yet, else a link to the next page. */
  const fallbackNav = () => {
    if (page === initialPage) return server.nav && <nav {...server.nav.props} dangerouslySetInnerHTML={server.nav.html} />;
    const api = new URL(next.current, location.href);
    return (
      <nav className="pagination" aria-label="Pagination" data-testid="pagination">
        <a href={(basePath || location.pathname) + api.search} rel="next" className="btn btn-ghost" data-testid="next-page">
          Next
        </a>
      </nav>
    );
  };

  return (
    <>
      <p className="sr-only" aria-live="polite" data-testid="grid-status">
        {status}
      </p>
      {more && !failed && (
        <div className="grid-sentinel" ref={sentinelRef} data-testid="grid-sentinel">
          {loading && <p className="grid-loading muted">Loading more products…</p>}
        </div>
      )}
      {failed && (
        <div className="grid-error-box" data-testid="grid-error">
          <p role="alert" className="grid-error">
            Failed to load products. Please try again later.
          </p>
          <button
            type="button"
            ref={retryRef}
            className="btn btn-secondary"
            aria-disabled={loading || undefined}
            data-testid="grid-retry"
            onClick={() => void load()}
          >
            {loading ? "Trying again…" : "Try Again"}
          </button>
          {fallbackNav()}
        </div>
      )}
      {!more && loads > 0 && (
        <p className="grid-end muted" data-testid="grid-end">
          You've reached the end.
        </p>
      )}
    </>
  );
}
