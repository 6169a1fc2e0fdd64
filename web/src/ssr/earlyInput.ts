/**
 * What a student types into a server-rendered page before the app has taken it over (hydration)
 * must not be lost. The fields are in the HTML at once, but React only listens once it has
 * hydrated them: until then its state holds the server's (empty) value and it would overwrite or
 * ignore the text. So the boot script records typing from the start (`recordEarlyInput`), and once
 * a field is hydrated the app hands its text to React as an ordinary input event
 * (`replayEarlyInput`); a form sent meanwhile is held and sent through the app then, and so are a
 * tapped button and an Enter in the chat composer — also in the moment between hydration and the
 * hand-over, when the app is live but its state lacks the text. The two share the record through
 * window properties, as they are separate bundles.
 */
type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

import { EARLY_INPUT_GLOBAL as GLOBAL } from './state';

const SUBMITS = '__campusEarlySubmits';
/** A form sent before it was hydrated, and the button that sent it. */
interface EarlySubmit {
  form: HTMLFormElement;
  submitter: HTMLElement | null;
}
const CLICKS = '__campusEarlyClicks';
const ENTERS = '__campusEarlyEnters';
type EarlyWindow = Window & {
  [GLOBAL]?: Map<string, string>;
  [SUBMITS]?: EarlySubmit[];
  [CLICKS]?: Array<HTMLButtonElement | HTMLInputElement>;
  [ENTERS]?: Field[];
};

function isField(target: unknown): target is Field {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/** What the hand-over reads of a React fiber. */
interface FiberLike {
  tag: number;
  flags: number;
  return: FiberLike | null;
  alternate: FiberLike | null;
}
/**
 * React marks the DOM nodes it manages with an own `__reactFiber$…` property, as soon as hydration
 * renders them — a moment before it commits them. The boot script's checks use this small test;
 * the hand-over uses the exact one (`isCommitted`).
 */
function fiberOf(el: Element): FiberLike | undefined {
  const key = Object.keys(el).find((k) => k.startsWith('__reactFiber$'));
  return key ? (el as unknown as Record<string, FiberLike>)[key] : undefined;
}

function isHydrated(el: Element): boolean {
  return fiberOf(el) !== undefined;
}

const HOST_ROOT = 3;
/** React 19's Placement | Hydrating flags: on a subtree rendered but not yet committed. */
const NOT_YET_COMMITTED = 0b10 | 0b1000000000000;

/**
 * Whether React has committed this node, so its handlers receive events and its state is the one
 * on screen: React's own `getNearestMountedFiber` test — no ancestor still being placed or
 * hydrated, up to the root. A part of the page hydrates in slices, and a hand-over that ran in
 * between (after the fibers were attached, before the commit) would hand text to a node React may
 * still throw away (a part it has to render again in the browser).
 */
function isCommitted(el: Element): boolean {
  let node = fiberOf(el);
  if (!node) return false;
  for (let next: FiberLike | null = node; next && !next.alternate; next = next.return) {
    node = next;
    if ((node.flags & NOT_YET_COMMITTED) !== 0) return false;
  }
  while (node.return) node = node.return;
  return node.tag === HOST_ROOT;
}

/**
 * Whether text recorded for one of the form's fields still waits to be handed to React. Between
 * hydration and the hand-over the app is live but its state does not hold that text yet: a submit
 * or a tap then would act on empty fields, so it waits for the hand-over too.
 */
function pendingIn(form: HTMLFormElement | null): boolean {
  const early = (window as EarlyWindow)[GLOBAL];
  if (!form || !early?.size) return false;
  for (const el of form.elements) if (el.id && early.has(el.id)) return true;
  return false;
}

function record(event: Event): void {
  const field = event.target;
  const early = (window as EarlyWindow)[GLOBAL];
  if (!early || !isField(field) || !field.id) return;
  if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) return;
  // Once hydrated, React handles the field itself: what was recorded before is older than this.
  if (isHydrated(field)) early.delete(field.id);
  else early.set(field.id, field.value);
}

/**
 * A form sent before the app has taken it over would be submitted by the browser itself — a GET to
 * the page with every field, a password too, in the address. It is held instead and sent through
 * the app once hydrated (`replayEarlyInput`).
 */
function holdSubmit(event: Event): void {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || (isHydrated(form) && !pendingIn(form))) return;
  event.preventDefault();
  event.stopPropagation();
  const submits = ((window as EarlyWindow)[SUBMITS] ??= []);
  const submitter = (event as SubmitEvent).submitter ?? null;
  if (!submits.some((s) => s.form === form)) submits.push({ form, submitter });
}

/**
 * A button (not a form's submit button: its form is held above) tapped before the app has taken it
 * over would do nothing — its handler is not attached yet. The tap is kept and replayed once the
 * button is hydrated, so "Back", "Save" or "Try again" work from the first tap. A checkbox or radio
 * would flip on screen without the app knowing (a settings switch shown off, still on on the
 * server): its tap is undone now and replayed too. Links need nothing: the browser follows them.
 */
function holdClick(event: Event): void {
  const target = event.target instanceof Element ? event.target : null;
  const toggle =
    target instanceof HTMLInputElement && (target.type === 'checkbox' || target.type === 'radio')
      ? target
      : null;
  const control = toggle ?? target?.closest('button');
  if (!control || (control instanceof HTMLButtonElement && control.type === 'submit')) return;
  if (isHydrated(control) && !pendingIn(control.form)) return;
  // Only the replay acts: React, hydrating the control for this event, would act on it too.
  event.preventDefault();
  event.stopPropagation();
  const clicks = ((window as EarlyWindow)[CLICKS] ??= []);
  // Every tap on a switch counts (two taps put it back); a button acts once.
  if (toggle || !clicks.includes(control)) clicks.push(control);
}

/**
 * Enter in a field where the app sends on Enter (`data-enter-sends`: the chat composer), pressed
 * before the app has taken the field over, would only add a new line: the app's handler is not
 * attached yet. It is kept instead (no new line, as the app would do) and pressed again once the
 * field is hydrated, after its text has been handed over.
 */
function holdEnter(event: Event): void {
  const key = event as KeyboardEvent;
  const field = key.target;
  if (key.key !== 'Enter' || key.shiftKey || key.isComposing || !isField(field)) return;
  if (!('enterSends' in field.dataset)) return;
  if (isHydrated(field) && !(window as EarlyWindow)[GLOBAL]?.has(field.id)) return;
  key.preventDefault();
  key.stopPropagation();
  const enters = ((window as EarlyWindow)[ENTERS] ??= []);
  if (!enters.includes(field)) enters.push(field);
}

/** Starts recording (the boot script, on a server-rendered page, before any app code runs). */
export function recordEarlyInput(): void {
  (window as EarlyWindow)[GLOBAL] = new Map();
  // A select fires `input` too: one listener records every kind of field.
  document.addEventListener('input', record, true);
  document.addEventListener('submit', holdSubmit, true);
  document.addEventListener('click', holdClick, true);
  document.addEventListener('keydown', holdEnter, true);
}

/**
 * The node that stands for `el` now: itself, or — where React threw the server's markup of that part
 * away and drew it again — the new node with the same id.
 */
function current<T extends Element>(el: T): T | null {
  if (el.isConnected) return el;
  const again = el.id ? document.getElementById(el.id) : null;
  return again && again.tagName === el.tagName ? (again as unknown as T) : null;
}

/** Takes the held items whose node React has committed out of the list named `name`. */
function takeReady<T>(
  name: typeof CLICKS | typeof ENTERS | typeof SUBMITS,
  nodeOf: (item: T) => Element,
): T[] {
  const w = window as unknown as Record<string, T[] | undefined>;
  const ready: T[] = [];
  const waiting: T[] = [];
  for (const item of w[name] ?? []) {
    const node = current(nodeOf(item));
    if (!node) continue; // gone (the student left that screen): dropped
    (isCommitted(node) ? ready : waiting).push(item);
  }
  w[name] = waiting;
  return ready;
}

/** Sends the held Enter keys, taps and forms that React has committed, through the app's handlers. */
function sendHeld(): void {
  const submits = takeReady<EarlySubmit>(SUBMITS, (s) => s.form);
  const enters = takeReady<Field>(ENTERS, (f) => f);
  const clicks = takeReady<HTMLButtonElement | HTMLInputElement>(CLICKS, (b) => b);
  // After React has rendered the text just handed over (its input updates flush before a task).
  setTimeout(() => {
    for (const field of enters) {
      current(field)?.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', bubbles: true, cancelable: true }),
      );
    }
    for (const button of clicks) current(button)?.click();
    for (const { form, submitter } of submits) {
      current(form)?.requestSubmit(
        (submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement) &&
          submitter.isConnected
          ? submitter
          : null,
      );
    }
  }, 0);
}

/** Whether anything recorded or held still waits for its part of the page to be committed. */
function waiting(): boolean {
  const w = window as EarlyWindow;
  for (const id of w[GLOBAL]?.keys() ?? []) if (document.getElementById(id)) return true;
  return Boolean(w[ENTERS]?.length || w[CLICKS]?.length || w[SUBMITS]?.length);
}

/** How long the hand-over keeps looking for parts of the page that hydrate late. */
const RETRY_FOR_MS = 15_000;
const RETRY_EVERY_MS = 50;
let retryUntil = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Hands the recorded text of every field React has committed to it (called when the page and each
 * part of it commit, and again every 50 ms while something still waits, for up to 15 s: a part that
 * hydrates later than its page must not lose what was typed into it). The value is set through the
 * prototype's setter and React's value tracker is told another old value, so React's change
 * handling sees a real change, as it would for typing.
 */
export function replayEarlyInput(): void {
  const early = (window as EarlyWindow)[GLOBAL];
  if (!early) return;
  for (const [id, value] of early) {
    const field = document.getElementById(id);
    if (!isField(field)) {
      early.delete(id);
      continue;
    }
    if (!isCommitted(field)) continue;
    early.delete(id);
    // Still recorded, so nothing was typed or chosen since hydration: the recorded value is the
    // student's latest, even where hydration put the server's value back (a select's option).
    const proto = Object.getPrototypeOf(field) as object;
    const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
    const tracker = (field as Field & { _valueTracker?: { setValue(v: string): void } })._valueTracker;
    tracker?.setValue(value === '' ? ' ' : '');
    setter?.call(field, value);
    field.dispatchEvent(
      new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }),
    );
  }
  sendHeld();
  if (retryUntil === 0) retryUntil = Date.now() + RETRY_FOR_MS;
  clearTimeout(retryTimer);
  if (waiting() && Date.now() < retryUntil) retryTimer = setTimeout(replayEarlyInput, RETRY_EVERY_MS);
}
