// Not an island: plain DOM enhancements of two server forms. entry.ts imports this module
// only on pages that have one of them (its FORMS selector matches CART + ", " + PLACE here).
//
// - Add to Cart without a reload: every <form class="add-to-cart" action="/cart/items">
//   (product cards, including the ones the product grid appends, and the product page's form
//   with its quantity) is sent with fetch; the header badge follows through `cart:changed`.
//   The wishlist page's Add to Cart forms post to /wishlist/{id}/move and are left alone.
// - Place Order: the <form data-place-order> button says "Processing..." once the order is
//   on its way, and a second submit is ignored.
//
// One delegated `submit` listener on document, so forms inserted later work too.
//
// Size note: this module imports nothing and has no async functions (promise chains
// instead). Either one makes esbuild move its helpers out of the shared React chunk into a
// chunk of their own, which costs the cart badge page a request and ~0.3 KB gzip of its
// 70 KB budget (README.md). So the few lines of shared/post-form.ts are repeated here.

const CART = 'form.add-to-cart[action$="/cart/items"]';
const PLACE = "form[data-place-order]";
/** How long the button says "Added ✓". */
const ADDED_MS = 1500;

/** The buttons' own labels ("Add to Cart", "Place Order"), saved before they change. */
const labels = new WeakMap<HTMLButtonElement, string>();
const addedTimers = new WeakMap<HTMLButtonElement, ReturnType<typeof setTimeout>>();
/** Cart forms with a request in flight. */
const sending = new WeakSet<HTMLFormElement>();
/** Buttons left busy while the page is navigating away (a normal form post). */
const leaving = new Set<HTMLButtonElement>();

/** Polite live region: "Added to cart. 3 items in your cart." */
const live = document.createElement("p");
live.className = "sr-only";
live.setAttribute("aria-live", "polite");
live.dataset.testid = "cart-status";
document.body.append(live);

const isCount = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0;

/** `POST form.action` with the form's fields, asking for JSON; rejects on a network failure. */
function post(form: HTMLFormElement): Promise<{ code: number; data: Record<string, unknown> | null }> {
  return fetch(form.action, {
    method: "POST",
    // FormData iterates as [name, value] pairs; these forms have no file inputs.
    body: new URLSearchParams(new FormData(form) as unknown as string[][]),
    headers: { Accept: "application/json" },
    credentials: "same-origin",
  }).then((res) =>
    (res.headers.get("Content-Type")?.includes("application/json") ? res.json().catch(() => null) : Promise.resolve(null)).then(
      (data: unknown) => ({
        code: res.status,
        data: data !== null && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : null,
      }),
    ),
  );
}

function submitButton(form: HTMLFormElement, submitter: HTMLElement | null): HTMLButtonElement | null {
  if (submitter instanceof HTMLButtonElement) return submitter;
  return form.querySelector<HTMLButtonElement>('button[type="submit"], button:not([type])');
}

function busy(button: HTMLButtonElement, text: string): void {
  if (!labels.has(button)) labels.set(button, button.textContent ?? "");
  clearTimeout(addedTimers.get(button));
  button.textContent = text;
  button.setAttribute("aria-busy", "true");
}

function idle(button: HTMLButtonElement, text = labels.get(button) ?? ""): void {
  button.textContent = text;
  button.removeAttribute("aria-busy");
  button.disabled = false;
}

// The quantity field's errors come from the server (role=alert, next to the form) instead of
// the browser's bubble: with max="10" the browser would stop 11 before the server could say
// "You can have at most 10 of an item in your cart." An empty field still gets the bubble.
function skipNativeValidation(): void {
  document.querySelectorAll<HTMLFormElement>(CART).forEach((form) => (form.noValidate = true));
}

function quantityField(form: HTMLFormElement): HTMLInputElement | null {
  const q = form.elements.namedItem("quantity");
  return q instanceof HTMLInputElement && q.type !== "hidden" ? q : null;
}

function clearError(form: HTMLFormElement): void {
  const next = form.nextElementSibling;
  if (!(next instanceof HTMLElement) || next.dataset.testid !== "cart-error") return;
  next.remove();
  const q = quantityField(form);
  if (q && next.id && q.getAttribute("aria-describedby") === next.id) {
    q.removeAttribute("aria-describedby");
    q.removeAttribute("aria-invalid");
  }
}

/** `<p class="form-error" role="alert" data-testid="cart-error">` right after the form; a new one each time so it is announced again. */
function showError(form: HTMLFormElement, message: string): void {
  clearError(form);
  const p = document.createElement("p");
  p.className = "form-error";
  p.setAttribute("role", "alert");
  p.dataset.testid = "cart-error";
  p.textContent = message;
  const q = quantityField(form);
  if (q && !q.hasAttribute("aria-describedby")) {
    p.id = `${q.id || "quantity"}-error`;
    q.setAttribute("aria-describedby", p.id);
    q.setAttribute("aria-invalid", "true");
  }
  form.after(p);
}

/** Sends a cart form with fetch (promise chains, no async: see the size note at the top). */
function addToCart(form: HTMLFormElement, button: HTMLButtonElement | null): void {
  sending.add(form);
  const hadFocus = button !== null && document.activeElement === button;
  if (button) {
    busy(button, "Adding…");
    button.disabled = true;
  }
  post(form)
    .then(({ code, data }) => {
      const count = data?.count;
      if (code === 200 && isCount(count)) {
        clearError(form);
        if (button) {
          idle(button, "Added ✓");
          addedTimers.set(button, setTimeout(() => idle(button), ADDED_MS));
        }
        document.dispatchEvent(new CustomEvent("cart:changed", { detail: { count } }));
        const message = typeof data?.message === "string" ? data.message : "Added to cart";
        live.textContent = `${message}. ${count === 1 ? "1 item" : `${count} items`} in your cart.`;
      } else if (code >= 400 && code < 500 && typeof data?.error === "string" && data.error) {
        if (button) idle(button);
        showError(form, data.error);
      } else {
        return false; // an error page, a redirect to HTML…: let the server answer the plain post
      }
      return true;
    })
    .catch(() => false) // network failure
    .then((handled) => {
      sending.delete(form);
      if (!handled) {
        if (button) leaving.add(button);
        form.submit(); // fires no submit event, so this listener is not asked again
      } else if (hadFocus && button && (document.activeElement === null || document.activeElement === document.body)) {
        button.focus({ preventScroll: true }); // a disabled button loses focus; give it back
      }
    });
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (event.defaultPrevented || !(form instanceof HTMLFormElement)) return;

  if (form.matches(CART)) {
    event.preventDefault();
    if (sending.has(form)) return;
    const q = quantityField(form);
    if (q && (q.validity.valueMissing || q.validity.badInput)) {
      q.reportValidity();
      return;
    }
    addToCart(form, submitButton(form, event.submitter));
  } else if (form.matches(PLACE)) {
    const button = submitButton(form, event.submitter);
    if (!button) return;
    if (leaving.has(button)) {
      event.preventDefault(); // already placing this order
      return;
    }
    leaving.add(button);
    busy(button, "Processing...");
    // Disabled only after the submission has started, so the post goes ahead.
    setTimeout(() => (button.disabled = true));
  }
});

// Back to this page from the bfcache: the post it was leaving for is over.
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  leaving.forEach((button) => idle(button));
  leaving.clear();
});

skipNativeValidation();
document.addEventListener("islands:mount", skipNativeValidation);

export {}; // a module (nothing to export: importing it installs the listeners)
