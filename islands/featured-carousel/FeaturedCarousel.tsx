import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { attrsToProps, mountNestedIslands, parseHtml } from "../shared/server-html";
import type { IslandContext } from "../shared/types";

export interface FeaturedCarouselProps extends IslandContext {
  /** Cards in the track (the cards actually in the server markup win). */
  count?: number;
  /** Cards per slide at most; fewer when fewer fit in the track (measured). Default 4. */
  perSlide?: number;
  /** Auto-advance period in ms; 0 = none. Default 5000. */
  interval?: number;
}

/** `data-autoplay` on the carousel element: advancing, paused (pointer/focus inside, tab hidden), or off for good. */
export type Autoplay = "on" | "paused" | "off";

/** Quiet time after the last scroll event before a scroll counts as finished. */
const SETTLE_MS = 150;

const posInt = (n: unknown, fallback: number) =>
  typeof n === "number" && Number.isInteger(n) && n > 0 ? n : fallback;

/** The server's <ul class="carousel-track">: its attributes, its cards' HTML and how many cards. */
function readTrack(serverHtml: string) {
  const ul = parseHtml(serverHtml).querySelector("ul.carousel-track");
  if (!ul) throw new Error("featured-carousel: no ul.carousel-track in the server markup");
  return { props: attrsToProps(ul), html: { __html: ul.innerHTML }, cards: ul.children.length };
}

/** How many cards fit side by side in the track (at most `max`); `max` when the cards are not laid out in a row. */
function cardsPerView(track: HTMLElement, max: number): number {
  const [a, b] = [track.children[0], track.children[1]];
  if (!a || !b) return max;
  const ra = a.getBoundingClientRect();
  const step = b.getBoundingClientRect().left - ra.left;
  if (step <= 0 || ra.width <= 0) return max;
  const cs = getComputedStyle(track);
  const width = track.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const gap = step - ra.width;
  return Math.min(max, Math.max(1, Math.floor((width + gap) / step + 0.01)));
}

/** Scroll offset that puts card `index` where the first card sits when the track is scrolled to the start. */
function offsetOf(track: HTMLElement, index: number): number | undefined {
  const first = track.children[0];
  const card = track.children[index];
  if (!first || !card) return undefined;
  return card.getBoundingClientRect().left - first.getBoundingClientRect().left;
}

/** The slide whose first card is nearest the track's scroll position (the last one when scrolled to the end). */
function nearestSlide(track: HTMLElement, per: number, slides: number): number {
  const max = track.scrollWidth - track.clientWidth;
  if (max > 0 && track.scrollLeft >= max - 1) return slides - 1;
  let best = 0;
  let bestDistance = Infinity;
  for (let s = 0; s < slides; s++) {
    const left = offsetOf(track, s * per);
    if (left === undefined) break;
    const distance = Math.abs(left - track.scrollLeft);
    if (distance < bestDistance) [best, bestDistance] = [s, distance];
  }
  return best;
}

function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const mql = window.matchMedia(query);
    const onChange = () => setMatches(mql.matches);
    onChange();
    mql.addEventListener("change", onChange);
    return () => mql.removeEventListener("change", onChange);
  }, [query]);
  return matches;
}

const Chevron = ({ left }: { left?: boolean }) => (
  <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path
      d={left ? "M15 5l-7 7 7 7" : "M9 5l7 7-7 7"}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
);

/**
 * The landing page's featured products (templ's FeaturedCarousel in views/pages/catalog.templ).
 * React renders into the server's <div class="carousel" data-testid="carousel">: previous /
 * next buttons, the same <ul class="carousel-track"> with the server's cards (their forms
 * untouched), and one dot per slide. The state is on that div for CSS, tests and assistive
 * tech: class "carousel-enhanced", data-slide="N" (0-based), data-autoplay="on|paused|off",
 * role="group" aria-roledescription="carousel" aria-label="Featured products" (a group, not a
 * region: the <section> around it is already the "Featured Products" landmark).
 *
 * A slide is as many cards as fit in the track (at most `perSlide`), so every card can be
 * reached with the buttons on a narrow screen too. Auto-advance pauses while the pointer or
 * focus is inside (or the tab is hidden), stops for good on any manual navigation (buttons,
 * dots, scrolling the track) and never starts under prefers-reduced-motion.
 */
export default function FeaturedCarousel({
  count,
  perSlide,
  interval,
  serverHtml,
  mountEl,
}: FeaturedCarouselProps) {
  const [track] = useState(() => readTrack(serverHtml));
  const cards = track.cards || posInt(count, 0);
  const maxPer = posInt(perSlide, 4);
  const period = typeof interval === "number" && interval >= 0 ? interval : 5000;

  const [per, setPer] = useState(maxPer);
  const slides = Math.max(1, Math.ceil(cards / per));
  const [slide, setSlide] = useState(0);
  const [stopped, setStopped] = useState(false);
  const [hover, setHover] = useState(() => mountEl.matches(":hover"));
  const [focus, setFocus] = useState(false);
  const [hidden, setHidden] = useState(() => document.hidden);
  const reducedMotion = useMediaQuery("(prefers-reduced-motion: reduce)");

  const autoplay: Autoplay =
    stopped || reducedMotion || slides < 2 || period === 0 ? "off" : hover || focus || hidden ? "paused" : "on";

  const trackRef = useRef<HTMLUListElement>(null);
  /** Our own scrollTo is running: its scroll events are not the shopper's. */
  const ownScroll = useRef(false);
  const settleTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** Latest layout for the event handlers. */
  const latest = useRef({ per, slides });
  useLayoutEffect(() => {
    latest.current = { per, slides };
  });

  /** Scrolls the track so slide `s`'s first card is at the start. */
  const scrollToSlide = (s: number, cardsPerSlide: number, behavior: ScrollBehavior) => {
    const el = trackRef.current;
    const target = el ? offsetOf(el, s * cardsPerSlide) : undefined;
    if (!el || target === undefined) return;
    const left = Math.max(0, Math.min(target, el.scrollWidth - el.clientWidth));
    if (Math.abs(left - el.scrollLeft) < 1) return; // no scroll event would come
    ownScroll.current = true;
    clearTimeout(settleTimer.current);
    settleTimer.current = setTimeout(onSettled, SETTLE_MS * 2); // in case no scroll event comes at all
    el.scrollTo({ left, behavior });
  };

  /** A scroll has ended: ours, or the shopper's (then sync the slide and stop auto-advance). */
  const onSettled = () => {
    const el = trackRef.current;
    if (ownScroll.current || !el) {
      ownScroll.current = false;
      return;
    }
    setStopped(true);
    setSlide(nearestSlide(el, latest.current.per, latest.current.slides));
  };

  const go = (target: number, manual: boolean) => {
    const s = ((target % slides) + slides) % slides; // wraps both ways
    if (manual) setStopped(true);
    setSlide(s);
    scrollToSlide(s, per, reducedMotion ? "auto" : "smooth");
  };

  // The enhanced state lives on the mount element (it carries data-testid="carousel").
  useLayoutEffect(() => {
    const added = { role: "group", "aria-roledescription": "carousel", "aria-label": "Featured products" };
    for (const [name, value] of Object.entries(added)) mountEl.setAttribute(name, value);
    mountEl.classList.add("carousel-enhanced");
    return () => {
      for (const name of [...Object.keys(added), "data-slide", "data-autoplay"]) mountEl.removeAttribute(name);
      mountEl.classList.remove("carousel-enhanced");
    };
  }, [mountEl]);
  useLayoutEffect(() => {
    mountEl.dataset.slide = String(slide);
    mountEl.dataset.autoplay = autoplay;
  }, [mountEl, slide, autoplay]);

  // The islands nested in the cards (wishlist hearts).
  useEffect(() => {
    if (trackRef.current) mountNestedIslands(trackRef.current);
  }, []);

  // Slide size = cards that fit in the track, measured before the first paint and on resize.
  // The handlers read per/slides through `latest`, so this runs once.
  useLayoutEffect(() => {
    const el = trackRef.current;
    if (!el) return;
    setPer(cardsPerView(el, maxPer));
    if (typeof ResizeObserver !== "function") return;
    const ro = new ResizeObserver(() => {
      const next = cardsPerView(el, maxPer);
      const { per: current } = latest.current;
      if (next === current) return;
      const nextSlides = Math.max(1, Math.ceil(cards / next));
      const s = Math.min(nearestSlide(el, next, nextSlides), nextSlides - 1);
      latest.current = { ...latest.current, per: next, slides: nextSlides };
      setPer(next);
      setSlide(s);
      scrollToSlide(s, next, "auto");
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [maxPer, cards]);

  // Scrolling by the shopper (wheel, touch, scrollbar, keys, focus moving to a hidden card).
  // onSettled reads refs and state setters only, so the first render's copy is enough.
  useEffect(() => {
    const el = trackRef.current;
    if (!el) return;
    const onScroll = () => {
      clearTimeout(settleTimer.current);
      settleTimer.current = setTimeout(onSettled, SETTLE_MS);
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      el.removeEventListener("scroll", onScroll);
      clearTimeout(settleTimer.current);
    };
  }, []);

  // Pause while the pointer or focus is inside, or the page is hidden.
  useEffect(() => {
    const onEnter = () => setHover(true);
    const onLeave = () => setHover(false);
    const onFocusIn = () => setFocus(true);
    const onFocusOut = (e: FocusEvent) => {
      if (!(e.relatedTarget instanceof Node && mountEl.contains(e.relatedTarget))) setFocus(false);
    };
    const onVisibility = () => setHidden(document.hidden);
    mountEl.addEventListener("mouseenter", onEnter);
    mountEl.addEventListener("mouseleave", onLeave);
    mountEl.addEventListener("focusin", onFocusIn);
    mountEl.addEventListener("focusout", onFocusOut);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      mountEl.removeEventListener("mouseenter", onEnter);
      mountEl.removeEventListener("mouseleave", onLeave);
      mountEl.removeEventListener("focusin", onFocusIn);
      mountEl.removeEventListener("focusout", onFocusOut);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [mountEl]);

  // Auto-advance: one timer per slide shown, restarted after every pause. `go` is rebuilt
  // from the values in the dependency list.
  useEffect(() => {
    if (autoplay !== "on") return;
    const id = setTimeout(() => go(slide + 1, false), period);
    return () => clearTimeout(id);
  }, [autoplay, slide, slides, per, period, reducedMotion]);

  const label = (s: number) => {
    const from = s * per + 1;
    const to = Math.min(cards, from + per - 1);
    return from === to ? `Show product ${from}` : `Show products ${from} to ${to}`;
  };

  return (
    <>
      {slides > 1 && (
        <>
          <button
            type="button"
            className="carousel-btn carousel-prev"
            aria-label="Previous products"
            data-testid="carousel-prev"
            onClick={() => go(slide - 1, true)}
          >
            <Chevron left />
          </button>
          <button
            type="button"
            className="carousel-btn carousel-next"
            aria-label="Next products"
            data-testid="carousel-next"
            onClick={() => go(slide + 1, true)}
          >
            <Chevron />
          </button>
        </>
      )}
      <ul {...track.props} ref={trackRef} dangerouslySetInnerHTML={track.html} />
      {slides > 1 && period > 0 && !reducedMotion && (
        // Auto-advancing content needs a way to stop it (WCAG 2.2.2); Play
        // starts it again.
        <button
          type="button"
          className="carousel-pause"
          data-testid="carousel-pause"
          onClick={() => setStopped(!stopped)}
        >
          {stopped ? "Play" : "Pause"}
          <span className="sr-only"> automatic scrolling</span>
        </button>
      )}
      {slides > 1 && (
        <div className="carousel-dots" role="group" aria-label="Choose slide">
          {Array.from({ length: slides }, (_, s) => (
            <button
              key={s}
              type="button"
              className="carousel-dot"
              aria-label={label(s)}
              aria-current={s === slide ? "true" : "false"}
              data-testid="carousel-dot"
              onClick={() => go(s, true)}
            />
          ))}
        </div>
      )}
    </>
  );
}
