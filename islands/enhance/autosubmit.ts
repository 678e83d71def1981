// Not an island: forms that apply on change. entry.ts imports this module only on pages
// (or HTML inserted later) with a <form data-autosubmit>, so the cart badge page's script
// stays within its budget (README.md). Until it is here, the forms' own buttons do the work.
//
// - A <form data-autosubmit> submits itself when one of its selects changes. Typed fields
//   (the price range) never do: leaving Min for Max must not send the form and lose what is
//   typed in Max; Enter or Apply sends them.
// - Such a form whose only fields are selects (a cart line's quantity, the orders' status)
//   then applies every change by itself, so its submit button (Update, Filter) only
//   distracts: it is hidden. Forms with typed fields keep theirs.
//
// Like enhance/forms.ts, this module imports nothing (see the size note there).

document.addEventListener("change", (event) => {
  const field = event.target;
  const form = field instanceof HTMLSelectElement ? field.form : null;
  if (!form?.hasAttribute("data-autosubmit")) return;
  if (typeof form.requestSubmit === "function") form.requestSubmit(); // validates, fires submit
  else form.submit();
});

function hideChangeButtons(container: Element | Document | DocumentFragment): void {
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

hideChangeButtons(document);
// HTML an island inserts later (it announces it with a bubbling `islands:mount`).
document.addEventListener("islands:mount", (event) => {
  const target = event.target;
  if (target instanceof Element || target instanceof Document || target instanceof DocumentFragment) hideChangeButtons(target);
});

export {}; // a module (nothing to export: importing it installs the listeners)
