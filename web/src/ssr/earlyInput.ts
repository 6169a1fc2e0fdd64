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
  [CLICKS]?: HTMLButtonElement[];
  [ENTERS]?: Field[];
};

function isField(target: unknown): target is Field {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/**
 * React marks the DOM nodes it manages with an own `__reactFiber$…` property. (It does so when
 * hydration renders a node, a moment before it commits it; React's own mounted test would be
 * exact, but the boot script carries this check and stays small: the hand-over runs after commit.)
 */
function isHydrated(el: Element): boolean {
  return Object.keys(el).some((key) => key.startsWith('__reactFiber$'));
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
 * button is hydrated, so "Back", "Save" or "Try again" work from the first tap. Links need nothing:
 * the browser follows them itself.
 */
function holdClick(event: Event): void {
  const button = event.target instanceof Element ? event.target.closest('button') : null;
  if (!button || button.type === 'submit' || (isHydrated(button) && !pendingIn(button.form))) return;
  // Only the replay acts: React, hydrating the button for this event, would act on it too.
  event.preventDefault();
  event.stopPropagation();
  const clicks = ((window as EarlyWindow)[CLICKS] ??= []);
  if (!clicks.includes(button)) clicks.push(button);
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

/** The held taps on buttons hydrated by now (taken out of the record). */
function heldClicks(): HTMLButtonElement[] {
  const clicks = (window as EarlyWindow)[CLICKS] ?? [];
  const ready = clicks.filter((b) => b.isConnected && isHydrated(b));
  (window as EarlyWindow)[CLICKS] = clicks.filter((b) => b.isConnected && !ready.includes(b));
  return ready;
}

/** Sends the held Enter keys, taps and forms that are hydrated now, through the app's own handlers. */
function sendHeldSubmits(): void {
  const submits = (window as EarlyWindow)[SUBMITS] ?? [];
  const ready = submits.filter((s) => isHydrated(s.form));
  (window as EarlyWindow)[SUBMITS] = submits.filter((s) => !ready.includes(s));
  // After React has rendered the text just handed over (its input updates flush before a task).
  const enters = (window as EarlyWindow)[ENTERS] ?? [];
  const pressed = enters.filter((f) => f.isConnected && isHydrated(f));
  (window as EarlyWindow)[ENTERS] = enters.filter((f) => f.isConnected && !pressed.includes(f));
  setTimeout(() => {
    for (const field of pressed) {
      field.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', bubbles: true, cancelable: true }),
      );
    }
    for (const button of heldClicks()) button.click();
    for (const { form, submitter } of ready) {
      if (!form.isConnected) continue;
      form.requestSubmit(
        submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement ? submitter : null,
      );
    }
  }, 0);
}

/**
 * Hands the recorded text of every field hydrated by now to React (called after each part of the
 * page hydrates). The value is set through the prototype's setter and React's value tracker is
 * told another old value, so React's change handling sees a real change, as it would for typing.
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
    if (!isHydrated(field)) continue;
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
  sendHeldSubmits();
}
