// The console's own behaviour, a plain ES module (no build step): everything works without it,
// this only makes it nicer. It acts through event delegation, so pages swapped in by htmx need no
// setup of their own.

const csrfToken = () => document.querySelector('input[name="_csrf"]')?.value;

// htmx requests carry the session's CSRF token as a header too (forms also send it as a field).
document.addEventListener("htmx:configRequest", (event) => {
  const token = csrfToken();
  if (token) event.detail.headers["X-CSRF-Token"] = token;
});

// Destructive actions ask first: <form data-confirm="...">. Cancelling stops the plain submit and htmx alike.
document.addEventListener(
  "submit",
  (event) => {
    const form = event.target;
    const question = form instanceof HTMLFormElement ? form.dataset.confirm : undefined;
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  },
  true,
);

// A form's submit buttons are disabled while it posts: on a slow connection a second press shows the
// first one under way instead of seeming lost (PostForm also drops a second submit meanwhile). The
// values are read before htmx:beforeRequest, so the pressed button's own is still sent.
function setPosting(elt, posting) {
  if (!(elt instanceof HTMLFormElement) || elt.method !== "post") return;
  for (const button of elt.querySelectorAll('button[type="submit"]')) {
    if (posting && !button.disabled) {
      button.disabled = true;
      button.dataset.posting = "";
    } else if (!posting && "posting" in button.dataset) {
      button.disabled = false;
      delete button.dataset.posting;
    }
  }
}
document.addEventListener("htmx:beforeRequest", (event) => setPosting(event.detail.elt, true));
document.addEventListener("htmx:afterRequest", (event) => setPosting(event.detail.elt, false));

// The menu button shows the navigation at phone width.
document.addEventListener("click", (event) => {
  const target = event.target instanceof Element ? event.target : null;
  const menu = target?.closest(".menu-button");
  if (menu) {
    const open = !document.documentElement.hasAttribute("data-menu-open");
    document.documentElement.toggleAttribute("data-menu-open", open);
    menu.setAttribute("aria-expanded", String(open));
    return;
  }
  if (target?.closest(".sidebar a")) document.documentElement.removeAttribute("data-menu-open");
  const copy = target?.closest("[data-copy]");
  if (copy) copyText(copy);
});

async function copyText(button) {
  const source = document.querySelector(button.dataset.copy);
  if (!source) return;
  try {
    await navigator.clipboard.writeText(source.textContent.trim());
    button.textContent = "Copied";
  } catch {
    // Without clipboard access (a plain-http origin other than localhost), select it for Ctrl-C.
    window.getSelection()?.selectAllChildren(source);
    button.textContent = "Selected: press Ctrl-C";
  }
}

// Times come as UTC; show them in the viewer's zone, keeping UTC in the tooltip.
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
// Rows seconds apart (events, audit entries, deliveries) show the seconds.
const secondsFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
function localTimes(root) {
  for (const time of root.querySelectorAll("time.local-time:not([data-local])")) {
    const date = new Date(time.getAttribute("datetime"));
    if (!Number.isNaN(date.getTime())) {
      time.textContent = (time.hasAttribute("data-seconds") ? secondsFormat : timeFormat).format(date);
      time.dataset.local = "";
    }
  }
}

// The value field and the filters offer the fields of the event typed in the event name.
function catalog() {
  const data = document.getElementById("event-catalog");
  return data ? JSON.parse(data.textContent) : {};
}
document.addEventListener("input", (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.getAttribute("list") !== "catalog-events") return;
  const list = document.querySelector(`datalist[data-event-fields-for="${input.id}"]`);
  if (!list) return;
  list.replaceChildren(
    ...(catalog()[input.value.trim()] ?? []).map((field) =>
      Object.assign(document.createElement("option"), { value: field }),
    ),
  );
});

// After a form comes back with problems, bring the first one into view.
function focusFirstProblem(root) {
  const invalid = root.querySelector('[aria-invalid="true"], .form-errors');
  if (!invalid) return;
  invalid.scrollIntoView({ block: "center" });
  if (invalid.matches("input, select, textarea")) invalid.focus({ preventScroll: true });
}

// The event tester's live view loads the MQTT client only where it is needed.
function startTester(root) {
  const live = root.querySelector("[data-live]") ?? (root.matches?.("[data-live]") ? root : null);
  if (live) import("./tester.js").then((tester) => tester.attach(live));
}

function enhance(root) {
  localTimes(root);
  startTester(root);
}

document.addEventListener("htmx:load", (event) => enhance(event.target));
document.addEventListener("htmx:afterSettle", (event) => focusFirstProblem(event.target));
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => enhance(document));
else enhance(document);
